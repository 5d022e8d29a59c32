// Checks of each coupon answer as it arrives: the provider's arithmetic (amount = rate x qty,
// new_bal = old_bal - amount) and the balance chain (old_bal = the balance Counter expects, reconcile.ts expectedPanBalance).
// A failed check is recorded with the sale and shown; nothing is corrected silently.
import type { CouponReply } from '../partners/pan-api'
import { formatBigPaise } from '../shared/money'

/** A balance Counter stands by, as of the last fact it rests on. */
export interface KnownBalance {
  balancePaise: number
  at: string
}

const rupees = formatBigPaise
const signed = (paise: bigint) => (paise > 0n ? `+${rupees(paise)}` : rupees(paise))

/**
 * The problems of one answered coupon order, in words for the sale. Sums are BigInt: the figures are
 * the provider's, and a quantity in the trillions must be named as wrong, not throw before the
 * answer is journaled.
 */
export function checkCouponAnswer(reply: CouponReply, requestedQty: number, expected: KnownBalance | null): string[] {
  const problems = reply.unreadable.map((field) => `The provider's ${field} could not be read.`)
  const big = (paise: number | null) => (paise === null ? null : BigInt(paise))
  const { qty } = reply
  const [rate, amount, oldBal, newBal] = [reply.ratePaise, reply.amountPaise, reply.oldBalPaise, reply.newBalPaise].map(big)
  if (qty !== null && qty !== requestedQty) problems.push(`The provider charged for ${qty} coupons; Counter asked for ${requestedQty}.`)
  if (qty !== null && rate !== null && amount !== null && amount !== rate * BigInt(qty)) {
    const expected = rate * BigInt(qty)
    problems.push(`Amount ${rupees(amount)} is not rate ${rupees(rate)} × ${qty} = ${rupees(expected)} (difference ${signed(amount - expected)}).`)
  }
  if (oldBal !== null && amount !== null && newBal !== null && newBal !== oldBal - amount) {
    const expected = oldBal - amount
    problems.push(`New balance ${rupees(newBal)} is not old balance ${rupees(oldBal)} − ${rupees(amount)} = ${rupees(expected)} (difference ${signed(newBal - expected)}).`)
  }
  if (reply.outcome === 'FAILED' && oldBal !== null && newBal !== null && newBal < oldBal) {
    problems.push(`The provider says the order failed, yet its balance went from ${rupees(oldBal)} to ${rupees(newBal)}: ${rupees(oldBal - newBal)} taken for coupons it did not give.`)
  }
  if (expected && oldBal !== null && oldBal !== BigInt(expected.balancePaise)) {
    const expectedPaise = BigInt(expected.balancePaise)
    problems.push(
      `The balance moved outside Counter: Counter expected ${rupees(expectedPaise)} (the last balance read and the top-ups entered since, as of ${expected.at}), the provider's old balance ${rupees(oldBal)} (difference ${signed(oldBal - expectedPaise)}).`,
    )
  }
  return problems
}
