// Checks of each coupon answer as it arrives: the provider's arithmetic (amount = rate x qty,
// new_bal = old_bal - amount) and the balance chain (old_bal = the balance Counter expects, reconcile.ts expectedPanBalance).
// A failed check is recorded with the sale and shown; nothing is corrected silently.
import type { CouponReply } from '../partners/pan-api'
import { say, type Said } from '../shared/words'
import { formatBigPaise } from '../shared/money'

/** A balance Counter stands by, as of the last fact it rests on. */
export interface KnownBalance {
  balancePaise: number
  at: string
}

const rupees = formatBigPaise
const signed = (paise: bigint) => (paise > 0n ? `+${rupees(paise)}` : rupees(paise))

/**
 * The problems of one answered coupon order, said (journaled with the sale, spoken for the screen). Sums are BigInt: the figures are
 * the provider's, and a quantity in the trillions must be named as wrong, not throw before the
 * answer is journaled.
 */
export function checkCouponAnswer(reply: CouponReply, requestedQty: number, expected: KnownBalance | null): Said[] {
  const problems = reply.unreadable.map((field) => say('couponCheck.unreadable', { field }))
  const big = (paise: number | null) => (paise === null ? null : BigInt(paise))
  const { qty } = reply
  const [rate, amount, oldBal, newBal] = [reply.ratePaise, reply.amountPaise, reply.oldBalPaise, reply.newBalPaise].map(big)
  if (qty !== null && qty !== requestedQty) problems.push(say('couponCheck.qty', { qty, asked: requestedQty }))
  if (qty !== null && rate !== null && amount !== null && amount !== rate * BigInt(qty)) {
    const expected = rate * BigInt(qty)
    problems.push(say('couponCheck.amount', { amount: rupees(amount), rate: rupees(rate), qty, expected: rupees(expected), difference: signed(amount - expected) }))
  }
  if (oldBal !== null && amount !== null && newBal !== null && newBal !== oldBal - amount) {
    const expected = oldBal - amount
    problems.push(say('couponCheck.newBalance', { newBal: rupees(newBal), oldBal: rupees(oldBal), amount: rupees(amount), expected: rupees(expected), difference: signed(newBal - expected) }))
  }
  if (reply.outcome === 'FAILED' && oldBal !== null && newBal !== null && newBal < oldBal) {
    problems.push(say('couponCheck.failedYetCharged', { oldBal: rupees(oldBal), newBal: rupees(newBal), taken: rupees(oldBal - newBal) }))
  }
  if (expected && oldBal !== null && oldBal !== BigInt(expected.balancePaise)) {
    const expectedPaise = BigInt(expected.balancePaise)
    problems.push(say('couponCheck.movedOutside', { expected: rupees(expectedPaise), at: expected.at, oldBal: rupees(oldBal), difference: signed(oldBal - expectedPaise) }))
  }
  return problems
}
