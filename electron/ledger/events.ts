// The ledger's event catalogue: every kind of line the journal may hold, with its typed payload.
import type { CashMoveKind, CouponType, Outcome, PaymentMode, RechargeKind, Role } from '../contract'
import type { CommissionRate } from '../shared/margin'

/** Cash in the drawer at day close, by denomination: notes are counts, coins in paise. */
export interface CountedCash {
  n500: number
  n200: number
  n100: number
  n50: number
  n20: number
  n10: number
  coinsPaise: number
}

/**
 * The shop's commission as it stood when the sale was made: the rate and what it came to (for coupons
 * the rate is per coupon, the margin for the whole order). Absent on lines written before Counter kept
 * margins: those sales read margin unknown (NULL, shown "—"), never a guessed ₹0.
 */
export interface SaleMargin {
  rate: CommissionRate
  marginPaise: number
}

export interface LedgerEventData {
  /** Journaled before the provider is called: after a crash it is resolved by a status check, never resent. */
  'recharge.intent': {
    orderId: string
    kind: RechargeKind
    number: string
    operatorCode: string
    operatorName: string
    circle: string | null
    amountPaise: number
    businessDay: string /* YYYY-MM-DD */
    training: boolean
    /** What the shop took from the customer; lines written before it existed mean the amount. */
    collectedPaise?: number
    /** Absent on older lines: cash. */
    paymentMode?: PaymentMode
    margin?: SaleMargin
    /** Who pays later, present exactly when paymentMode is credit (credit-projections.ts). */
    creditCustomer?: { number: string; name: string }
  }
  'recharge.outcome': {
    orderId: string
    source: 'transaction' | 'check_status'
    outcome: Outcome
    providerStatus: string | null
    message: string
    fpayId: string | null
    operatorRef: string | null
  }
  /** Sent before add_vle. The ledger refuses a uidMasked with more than 4 digits: a full Aadhaar number is never stored. */
  'pan.agent.submitted': {
    vleId: string
    name: string
    mobile: string
    email: string
    shop: string
    location: string
    stateCode: string
    pin: string
    uidMasked: string
    pan: string
  }
  'pan.agent.answer': {
    vleId: string
    source: 'add_vle' | 'vle_status'
    outcome: Outcome
    vleStatus: string | null
    message: string
  }
  /** Journaled before coupon_req, like a recharge intent: an unanswered request is never resent. */
  'pan.coupon.intent': {
    attemptId: string
    vleId: string
    vleName: string | null
    type: CouponType
    qty: number
    expectedRatePaise: number
    businessDay: string /* YYYY-MM-DD */
    training: boolean
    /**
     * What the shop took from the agent. When absent it is rate x qty until the provider names its
     * amount, and that amount from then on.
     */
    collectedPaise?: number
    paymentMode?: PaymentMode
    margin?: SaleMargin
  }
  'pan.coupon.outcome': {
    attemptId: string
    source: 'coupon_req' | 'coupon_status'
    outcome: Outcome
    providerStatus: string | null
    message: string
    orderId: string | null
    date: string | null /* DD-Mon-YYYY, as the provider wrote it */
    vleName: string | null
    ratePaise: number | null
    amountPaise: number | null
    oldBalPaise: number | null
    newBalPaise: number | null
    /** Checks of the answer that failed; added to the sale's list, never replacing it. */
    problems: string[]
  }
  'pan.reset.intent': {
    attemptId: string
    vleId: string
    /** Absent on older lines: the Indian (UTC+05:30) date of the line's time. */
    businessDay?: string
  }
  'pan.reset.answer': {
    attemptId: string
    source: 'pass_reset' | 'pass_status'
    outcome: Outcome
    orderId: string | null
    resetStatus: string | null
    vleName: string | null
    message: string
  }
  'pan.balance.read': {
    balancePaise: number
    source: 'balance' | 'coupon'
    /** Absent on older lines: the Indian (UTC+05:30) date of the line's time. */
    businessDay?: string
  }
  /** The operator settled an unresolved sale by phone with the provider; refused for a sale already settled. */
  'sale.settled': {
    kind: SaleKind
    id: string
    outcome: 'SUCCESS' | 'FAILED'
    note: string
    /**
     * A coupon settled SUCCESS: what the provider charged for it, as the owner confirmed (absent on
     * older lines, and for recharges and FAILED). The balance chain takes it as the order's charge.
     */
    chargedPaise?: number
  }
  /** Money the shop added to its provider wallet: the top-ups that balance assertions allow for. */
  'pan.topup': {
    topupId: string
    amountPaise: number
    reference: string
    note: string
    businessDay: string
  }
  /** Locks the day: later intents and top-ups for it are refused; outcomes of its sales are still recorded. */
  'day.closed': {
    businessDay: string
    openingFloatPaise: number
    counted: CountedCash
    countedPaise: number
    expectedCashPaise: number
    closingPanBalancePaise: number | null
    openingPanBalancePaise: number | null
    overrideNote: string | null
    /** The DaySummary as shown at close, kept verbatim so the Z report can be reprinted exactly. */
    summary: unknown
  }
  /**
   * The owner confirmed the computer's clock although it disagreed with the journal (behind its
   * last entry, or days past it). Changes no table; from this line on its time is the clock's floor.
   */
  'clock.confirmed': {
    clockAt: string
    lastEntryAt: string | null
  }
  /** A customer paid (part of) the due; refused for more than the due. */
  'credit.payment': {
    receiptId: string
    number: string
    amountPaise: number
    mode: 'cash' | 'upi'
    note: string
    businessDay: string
  }
  /** A credit customer's limit set or removed (null), with the name as the owner typed it. */
  'credit.limit': {
    number: string
    name: string
    limitPaise: number | null
  }
  /** The shop named (or renamed) a number it has sold to; the name is checked by the contract (CustomerNameSchema). */
  'customer.named': {
    number: string
    name: string
  }
  /**
   * The shop forgot a customer. Decision: the customer's row goes (its name and the remembered last
   * recharge, so the number is no longer suggested); its sales stay in the books and in History, and
   * its next sale remembers the number again, without a name.
   */
  'customer.forgotten': {
    number: string
  }
  /**
   * The shop named this counter (Settings: shop and counter name). terminalId is the journal's name in the
   * head office, fixed by the first such line: a renaming keeps it (terminal-projections.ts), so the
   * office's (terminal, seq) keys never change under entries already shipped. The one exception is the
   * owner's way back from a fork (counter/office.ts registerAnew): a line that says which id it replaces,
   * and the last entry the office holds alike under it, gives the journal a new id.
   */
  'terminal.named': {
    terminalId: string
    shop: string
    counter: string
    replaces?: { terminalId: string; sharedThrough: number }
  }
  /**
   * The core found the reset file (counter/owner-pin.ts RESET_PIN_FILE) at start and forgot the owner PIN: until a PIN is set
   * again anyone at the counter is the owner, so the reset is on the record (the status bar, the day's Z report). `file`
   * is the path found; no PIN, hash or pepper is ever in the line. The time is the line's own.
   */
  'owner.pin.reset': {
    file: string
    businessDay: string
  }
  /**
   * Cash put into the drawer ('float') or taken out (every other kind) apart from sales, with the shop's reason (issue
   * #29): the day close's expected drawer adds and takes it off. Refused on a closed day, like a sale.
   */
  'drawer.cash': {
    moveId: string
    kind: CashMoveKind
    amountPaise: number
    reason: string
    businessDay: string
  }
  /** The drawer counted before the close (staff may count, the owner closes): the latest count of a day is the one shown. */
  'drawer.counted': {
    businessDay: string
    openingFloatPaise: number
    counted: CountedCash
    countedPaise: number
  }
  /**
   * Staff saw the customer's UPI app show a sale (or a payment of a due) paid, and pressed "UPI received" (issue #29
   * part 1): Counter cannot see the payment itself. Once per sale; refused for one not paid by UPI or FAILED.
   */
  'sale.upiConfirmed': {
    kind: UpiConfirmKind
    id: string
  }
  /** Bookkeeping of the background re-check queue: one line per check of an unresolved sale. */
  'pending.checked': {
    kind: SaleKind
    id: string
    answer: string
    nextCheckAt: string | null
  }
}

/** Recharge sales are named by order id, coupon sales by attempt id. */
export type SaleKind = 'recharge' | 'coupon'
/** What a UPI payment is confirmed for: a sale, or a payment of a due (credit, by its receipt id). */
export type UpiConfirmKind = SaleKind | 'payment'

/** Events that start a sale or move money on a business day: refused once that day is closed. */
export const DAY_BOUND_EVENTS = ['recharge.intent', 'pan.coupon.intent', 'pan.topup', 'day.closed', 'credit.payment', 'drawer.cash', 'drawer.counted'] as const

export type LedgerEventType = keyof LedgerEventData
export type PanEventType = Extract<LedgerEventType, `pan.${string}`>

/**
 * How each line reaches the disk; the journal (journal.ts) goes by this table alone. 'own': fsync'd
 * before append returns. 'deferred': written at once and made durable by the next fsync of its file
 * (the next 'own' line, a snapshot, a segment rotation, close) or within DEFERRED_SYNC_MS.
 * Decision (issue #8, one fsync per sale): a line may wait only if losing it, in a power cut before
 * its fsync, is recovered by asking the provider. Everything the shop typed in, and every line
 * written before the provider hears of something, keeps its own fsync: an intent's fsync is what
 * lets the order be sent at all, and it also carries every deferred line before it to the disk.
 */
export const LINE_SYNC: { readonly [T in LedgerEventType]: 'own' | 'deferred' } = {
  'recharge.intent': 'own', //       must be on disk before the provider hears of the order
  // Lost: its intent leaves the sale SENDING, never resent; a new sale for the number is refused
  // until the start-up status check asks check_status by our own order id (in the intent) and settles it.
  'recharge.outcome': 'deferred',
  'pan.agent.submitted': 'own', //   typed in by the shop, before add_vle
  'pan.agent.answer': 'own', //      off the sale path: nothing to gain
  'pan.coupon.intent': 'own', //     must be on disk before coupon_req
  // Not deferred: coupon_status is asked by the provider's order id, which only this line holds;
  // lost, the sale could only be settled by phone (pending.ts isCheckable).
  'pan.coupon.outcome': 'own',
  'pan.reset.intent': 'own', //      must be on disk before pass_reset
  'pan.reset.answer': 'own', //      holds the order id pass_status needs, as a coupon outcome does
  'pan.balance.read': 'own', //      a balance fact day close reconciles against
  'sale.settled': 'own', //          typed in by the shop (settled by phone)
  'pan.topup': 'own', //             typed in by the shop
  'day.closed': 'own', //            typed in by the shop
  'clock.confirmed': 'own', //       typed in by the owner
  'credit.payment': 'own', //        typed in by the shop, money taken
  'credit.limit': 'own', //          typed in by the owner
  'customer.named': 'own', //        typed in by the shop
  'customer.forgotten': 'own', //    typed in by the shop
  'terminal.named': 'own', //        typed in by the owner
  'owner.pin.reset': 'own', //       the trace of a reset, written before the PIN is forgotten
  'drawer.cash': 'own', //           typed in by the shop, money moved
  'drawer.counted': 'own', //        typed in by the shop
  'sale.upiConfirmed': 'own', //     typed in by the shop
  'pending.checked': 'own', //       written by the background queue, which no one waits on: nothing to gain
}

/**
 * Who was at the counter when the core wrote the line (the role, never a name or PIN): added to every
 * line's data by the core's ledger port (ledger-client.ts `by`). Lines written before roles existed,
 * and by tools that open the ledger directly, have none and read as 'owner', who ran everything then.
 */
export interface WrittenBy {
  by?: Role
}

export interface JournalEntry<T extends LedgerEventType = LedgerEventType> {
  seq: number
  at: string
  type: T
  data: LedgerEventData[T] & WrittenBy
  prev: string
  hash: string
}

