// A sale's two writes, recharge or coupon order, each one request to the ledger thread: the checks that must see the books with no write between them, the line, and the sale as the books then show it; and the other lines whose ids the ledger numbers.
//
// Why here and not in the core: run from the main thread, an intent was four messages (the number's open
// sale, the customer's credit, the journal's last seq, the append) and the sale read back a fifth, an
// outcome three; each waits its turn behind whatever else the thread is doing. Run here, the checks and
// the line are one synchronous step of the thread, so nothing can be written between them either.
// A coupon order's quote (the rate, the balance it needs) stays the core's: it reads it just before, in
// the same write section (serial.ts), and the write checks the rest.
import type { CouponSale, Sale } from '../contract'
import type { LedgerEventData, WrittenBy } from './events'
import type { Ledger } from './ledger'

/** An id the ledger numbers: the journal seq of the line that records it goes between head and tail (order-ids.ts makes both). */
export interface NumberedId {
  head: string
  tail: string
}

export const numberedId = ({ head, tail }: NumberedId, seq: number): string => `${head}${String(seq).padStart(6, '0')}${tail}`

/** Why an intent was not written, for the core to say in the shop's words: the number or agent has a sale still open, */
export interface OpenSaleRefusal {
  refused: 'unresolved'
  id: string
}
/** or a credit sale would take its customer past the limit. */
export interface OverLimitRefusal {
  refused: 'overLimit'
  name: string
  owedPaise: number
  limitPaise: number
}

/** The other lines that carry an id the ledger numbers, each with the field that holds it. */
const NUMBERED = { 'credit.payment': 'receiptId', 'drawer.cash': 'moveId', 'pan.reset.intent': 'attemptId', 'pan.topup': 'topupId' } as const
type Numbered = typeof NUMBERED
type NumberedType = keyof Numbered
/** A numbered line as the core writes it: everything but its id, which the write numbers. */
export type NumberedLine = { [T in NumberedType]: { type: T; data: Omit<LedgerEventData[T], Numbered[T]> } }[NumberedType]

const SETTLED: readonly Sale['state'][] = ['SUCCESS', 'FAILED']
const OPEN: readonly (string | null)[] = ['SENDING', 'UNKNOWN']

/**
 * Appends; resolves once the line is recorded (Ledger.appendThen's `recorded`: fsync'd, or deferred as
 * LINE_SYNC allows), which is when a sale may be answered. The tables take the line before the write
 * goes on (appendThen applies it before it returns), so what the write reads next includes it. A line the
 * journal took but the tables refused (the ledger then turns read-only and says so) is recorded all the
 * same: the caller acts on it, as it would on a plain append answered at `recorded`.
 */
function appendRecorded<T extends 'recharge.intent' | 'recharge.outcome' | 'pan.coupon.intent' | 'pan.coupon.outcome' | NumberedType>(
  ledger: Ledger,
  type: T,
  data: LedgerEventData[T] & WrittenBy,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let recorded = false
    try {
      ledger.appendThen(type, data, () => {
        recorded = true
        resolve()
      })
    } catch (error) {
      if (!recorded) reject(error)
    }
  })
}

/**
 * Decision: sales still waiting for an answer count against a credit customer's limit as if they
 * succeed (they may). Checked here, with the intent, so two sales at once cannot both slip under it.
 */
function overLimit(ledger: Ledger, number: string, collectedPaise: number): OverLimitRefusal | null {
  const statement = ledger.read('creditStatement', number)
  const limitPaise = statement?.customer.limitPaise ?? null
  if (!statement || limitPaise === null) return null
  const openPaise = statement.lines.filter((line) => line.kind === 'sale' && OPEN.includes(line.state)).reduce((sum, line) => sum + line.amountPaise, 0)
  const owedPaise = statement.customer.duePaise + openPaise
  return owedPaise + collectedPaise > limitPaise ? { refused: 'overLimit', name: statement.customer.name, owedPaise, limitPaise } : null
}

/** A sale just recorded; only a bug finds none (said plainly, never a null to trip on later). */
function recorded<T>(sale: T | null, id: string): T {
  if (!sale) throw new Error(`The ledger has no sale ${id} right after recording it.`)
  return sale
}
const readSale = (ledger: Ledger, orderId: string): Sale => recorded(ledger.read('getSale', orderId), orderId)
const readCouponSale = (ledger: Ledger, attemptId: string): CouponSale => recorded(ledger.read('couponSale', attemptId), attemptId)

const WRITES = {
  /**
   * A recharge's intent, unless the number has a sale still unresolved or a credit sale would take its
   * customer past the limit; its order id carries the seq of the line that records it.
   */
  async rechargeIntent(ledger: Ledger, by: WrittenBy, intent: Omit<LedgerEventData['recharge.intent'], 'orderId'>, id: NumberedId): Promise<{ sale: Sale } | OpenSaleRefusal | OverLimitRefusal> {
    const open = ledger.read('unresolvedSaleOf', intent.number)
    if (open !== null) return { refused: 'unresolved', id: open }
    const refusal = intent.creditCustomer ? overLimit(ledger, intent.creditCustomer.number, intent.collectedPaise ?? intent.amountPaise) : null
    if (refusal) return refusal
    const orderId = numberedId(id, ledger.read('lastSeq') + 1)
    await appendRecorded(ledger, 'recharge.intent', { ...intent, orderId, ...by })
    return { sale: readSale(ledger, orderId) }
  },

  /** A provider's answer about the order; an UNKNOWN one is not written over a settled sale, even arriving late. */
  async rechargeOutcome(ledger: Ledger, by: WrittenBy, outcome: LedgerEventData['recharge.outcome']): Promise<Sale> {
    const state = ledger.read('saleState', outcome.orderId)
    if (!(outcome.outcome === 'UNKNOWN' && state !== null && SETTLED.includes(state))) await appendRecorded(ledger, 'recharge.outcome', { ...outcome, ...by })
    return readSale(ledger, outcome.orderId)
  },

  /** A coupon order's intent, unless the agent has an order still unresolved; its attempt id carries the seq of the line that records it. */
  async couponIntent(ledger: Ledger, by: WrittenBy, intent: Omit<LedgerEventData['pan.coupon.intent'], 'attemptId'>, id: NumberedId): Promise<{ sale: CouponSale } | OpenSaleRefusal> {
    const open = ledger.read('unresolvedCouponOf', intent.vleId)
    if (open !== null) return { refused: 'unresolved', id: open }
    const attemptId = numberedId(id, ledger.read('lastSeq') + 1)
    await appendRecorded(ledger, 'pan.coupon.intent', { ...intent, attemptId, ...by })
    return { sale: readCouponSale(ledger, attemptId) }
  },

  /**
   * A payment taken, cash moved, a PIN reset asked for or a top-up: the line with its id numbered by the seq of the
   * line itself, as a sale's intent is; answers the id once the line is recorded.
   */
  async numberedLine(ledger: Ledger, by: WrittenBy, line: NumberedLine, id: NumberedId): Promise<string> {
    const numbered = numberedId(id, ledger.read('lastSeq') + 1)
    await appendRecorded(ledger, line.type, { ...line.data, [NUMBERED[line.type]]: numbered, ...by } as LedgerEventData[NumberedType] & WrittenBy)
    return numbered
  },

  /** The provider's answer about a coupon order (its arithmetic already checked by the core: `problems`). */
  async couponOutcome(ledger: Ledger, by: WrittenBy, outcome: LedgerEventData['pan.coupon.outcome']): Promise<CouponSale> {
    await appendRecorded(ledger, 'pan.coupon.outcome', { ...outcome, ...by })
    return readCouponSale(ledger, outcome.attemptId)
  },
}

type Writes = typeof WRITES
export type WriteName = keyof Writes
/** Each write's arguments after the ledger and who writes (the port stamps that, as it does every append: events.ts WrittenBy). */
export type WriteArgs = { [K in WriteName]: Writes[K] extends (ledger: Ledger, by: WrittenBy, ...args: infer A) => unknown ? A : never }
export type WriteValue = { [K in WriteName]: Awaited<ReturnType<Writes[K]>> }
/** The table typed name by name, as LEDGER_READS is, so the thread dispatches on it without a cast. */
export const LEDGER_WRITES: { [K in WriteName]: (ledger: Ledger, by: WrittenBy, ...args: WriteArgs[K]) => Promise<WriteValue[K]> } = WRITES
