// The ledger's event catalogue: every kind of line the journal may hold, with its typed payload.
import type { CouponType, Outcome, RechargeKind } from '../contract'

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
  }
}

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

