// The ledger's event catalogue: every kind of line the journal may hold, with its typed payload.
import type { Outcome, RechargeKind } from '../contract'

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
}

export type LedgerEventType = keyof LedgerEventData

export interface JournalEntry<T extends LedgerEventType = LedgerEventType> {
  seq: number
  at: string
  type: T
  data: LedgerEventData[T]
  prev: string
  hash: string
}

