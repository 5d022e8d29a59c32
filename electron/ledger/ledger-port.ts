// The ledger as the core sees it: every call answered by the ledger thread (ledger-client.ts), the books' state mirrored for reads that cannot wait.
import type { ClockCheck } from './clock-sense'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import type { Ledger, LedgerProgress, OpenReport } from './ledger'

export type { LedgerProgress } from './ledger'

/** The Ledger methods the thread answers; the thread refuses any other name. */
export const LEDGER_CALLS = [
  'auditJournal',
  'checkSavedCopy',
  'latestClosedDay',
  'getSale',
  'salesForDay',
  'unresolvedSales',
  'customer',
  'customerSuggestions',
  'agents',
  'getAgent',
  'couponSale',
  'couponSales',
  'couponSalesForDay',
  'unresolvedCouponSales',
  'lastChargedRatePaise',
  'lastKnownPanBalance',
  'passwordResets',
  'passwordReset',
  'lastSeq',
  'terminal',
  'unresolved',
  'topups',
  'pinResets',
  'lastPinReset',
  'drawerMoves',
  'drawerCount',
  'balanceFacts',
  'balanceFactsSinceReading',
  'dayTotals',
  'dayClosure',
  'creditDues',
  'creditStatement',
  'creditPayment',
  'creditDay',
  'historySearch',
  'archiveClosedYears',
  'snapshot',
  'backUpInto',
  'copyOffDisk',
] as const satisfies readonly (keyof Ledger)[]

export type LedgerCall = (typeof LEDGER_CALLS)[number]

type Answered<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never

export type LedgerPort = { [K in LedgerCall]: Answered<Ledger[K]> } & {
  readonly report: OpenReport
  /** As of the ledger thread's last word: why nothing can be written, or null. */
  readonly readOnly: string | null
  readonly notices: string[]
  /** The computer's clock against the journal's floor; null for a ledger opened without clockSense. */
  clockCheck(): ClockCheck | null
  /**
   * Recorded when it resolves, durable as Ledger.append says (a recharge's outcome within 200 ms, every other line at once);
   * rejects with LedgerWriteError, DayClosedError or ClockUnconfirmedError when nothing was recorded.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): Promise<JournalEntry<T>>
  onBooksChanged(listener: () => void): () => void
  onProgress(listener: (progress: LedgerProgress) => void): () => void
  close(): Promise<string[]>
}
