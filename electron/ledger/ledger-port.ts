// The ledger as the core sees it: every call answered by the ledger thread (ledger-client.ts), the books' state mirrored for reads that cannot wait.
import type { ClockCheck } from './clock-sense'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import type { Ledger, LedgerProgress, OpenReport } from './ledger'
import type { ReadArgs, ReadName, ReadValue } from './ledger-reads'
import type { WriteArgs, WriteName, WriteValue } from './sale-writes'

export type { LedgerProgress } from './ledger'

/**
 * The ledger's work besides reads, appends and close, as the thread answers it: each by name, so
 * the port's methods for it are typed from this table as the reads are from theirs.
 */
const WORK = {
  auditJournal: (ledger: Ledger) => ledger.auditJournal(),
  checkSavedCopy: (ledger: Ledger) => ledger.checkSavedCopy(),
  archiveClosedYears: (ledger: Ledger, today: string) => ledger.archiveClosedYears(today),
  snapshot: (ledger: Ledger) => ledger.snapshot(),
  backUpInto: (ledger: Ledger, into: string) => ledger.backUpInto(into),
  copyOffDisk: (ledger: Ledger, into: string) => ledger.copyOffDisk(into),
}

type Work = typeof WORK
export type WorkName = keyof Work
export type WorkArgs = { [K in WorkName]: Work[K] extends (ledger: Ledger, ...args: infer A) => unknown ? A : never }
export type WorkValue = { [K in WorkName]: Awaited<ReturnType<Work[K]>> }
/** The same table typed name by name, as LEDGER_READS is (ledger-reads.ts), so the thread dispatches on it without a cast. */
export const LEDGER_WORK: { [K in WorkName]: (ledger: Ledger, ...args: WorkArgs[K]) => Promise<WorkValue[K]> } = WORK

export type LedgerPort = { [K in WorkName]: (...args: WorkArgs[K]) => Promise<WorkValue[K]> } & {
  /** One read of the table (ledger-reads.ts), answered by the ledger thread. */
  read<K extends ReadName>(name: K, ...args: ReadArgs[K]): Promise<Awaited<ReadValue[K]>>
  /**
   * One write of the table (sale-writes.ts): its checks, its line and its answer in one request, stamped
   * with who writes as append is; rejects as append does when nothing was recorded.
   */
  write<K extends WriteName>(name: K, ...args: WriteArgs[K]): Promise<WriteValue[K]>
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
