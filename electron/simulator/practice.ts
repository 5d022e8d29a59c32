// Training's practice inputs as the simulator plays them: the fault a practice amount or quantity calls for
// (the table is electron/shared/practice.ts).
import { tryParseRupees } from '../shared/money'
import { PRACTICE_OUTSIDE_DEBIT, PRACTICE_RECHARGES } from '../shared/practice'
import type { FaultSwitch } from './faults'
import type { SimRequest } from './sim-module'

/** The fault a request plays when it carries a practice input; null for any other request. */
export function practiceFault(req: SimRequest): FaultSwitch | null {
  if (req.operation === 'transaction') {
    const amountPaise = tryParseRupees(req.fields.amount ?? '')
    const practice = PRACTICE_RECHARGES.find((row) => row.amountPaise === amountPaise)
    return practice ? { kind: practice.outcome } : null
  }
  if (req.operation === 'coupon_req' && req.fields.qty === String(PRACTICE_OUTSIDE_DEBIT.qty)) {
    return { kind: 'outsideDebit', debitPaise: PRACTICE_OUTSIDE_DEBIT.debitPaise }
  }
  return null
}
