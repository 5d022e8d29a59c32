// The ledger's event catalogue: every kind of line the journal may hold, with its typed payload.
import type { CouponType, Outcome, PaymentMode, RechargeKind } from '../contract'

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

/** Events that start a sale or move money on a business day: refused once that day is closed. */
export const DAY_BOUND_EVENTS = ['recharge.intent', 'pan.coupon.intent', 'pan.topup', 'day.closed'] as const

export type LedgerEventType = keyof LedgerEventData
export type PanEventType = Extract<LedgerEventType, `pan.${string}`>

export interface JournalEntry<T extends LedgerEventType = LedgerEventType> {
  seq: number
  at: string
  type: T
  data: LedgerEventData[T]
  prev: string
  hash: string
}

