// Training's practice inputs: what a cashier types to make the training provider give each outcome worth practising.
// One table for the simulator that plays them, the training banner that names them and the README's list
// (tests/unit/practice.test.ts holds the README to it).

/** What the training provider does with a practice recharge: each name is also the simulator's fault of that kind. */
export type PracticeOutcome = 'failed' | 'pendingThenSuccess' | 'pendingThenFailed' | 'noAnswer'

export interface RechargePractice {
  amountPaise: number
  outcome: PracticeOutcome
}

// Amounts just above the smallest top-up, so practice costs little and a sale at any usual price behaves as usual.
export const PRACTICE_RECHARGES: readonly RechargePractice[] = [
  { amountPaise: 11_00, outcome: 'failed' },
  { amountPaise: 12_00, outcome: 'pendingThenSuccess' },
  { amountPaise: 13_00, outcome: 'pendingThenFailed' },
  { amountPaise: 14_00, outcome: 'noAnswer' },
]

/** A coupon order of `qty` coupons (either type) finds `debitPaise` gone from the wallet first, as another terminal's order would take it. */
export const PRACTICE_OUTSIDE_DEBIT = { qty: 11, debitPaise: 100_00 } as const
