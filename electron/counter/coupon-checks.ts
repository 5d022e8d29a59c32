// Checks of each coupon answer as it arrives: the provider's arithmetic (amount = rate x qty,
// new_bal = old_bal - amount) and the balance chain (old_bal = the last balance Counter knew).
// A failed check is recorded with the sale and shown; nothing is corrected silently.
import type { CouponReply } from '../partners/pan-api'
import { formatPaise } from '../shared/money'

export interface KnownBalance {
  balancePaise: number
  at: string
}

const signed = (paise: number) => (paise > 0 ? `+${formatPaise(paise)}` : formatPaise(paise))

export function checkCouponAnswer(reply: CouponReply, requestedQty: number, lastKnown: KnownBalance | null): string[] {
  const problems = reply.unreadable.map((field) => `The provider's ${field} could not be read.`)
  const { qty, ratePaise, amountPaise, oldBalPaise, newBalPaise } = reply
  if (qty !== null && qty !== requestedQty) problems.push(`The provider charged for ${qty} coupons; Counter asked for ${requestedQty}.`)
  if (qty !== null && ratePaise !== null && amountPaise !== null && amountPaise !== ratePaise * qty) {
    const expected = ratePaise * qty
    problems.push(`Amount ${formatPaise(amountPaise)} is not rate ${formatPaise(ratePaise)} × ${qty} = ${formatPaise(expected)} (difference ${signed(amountPaise - expected)}).`)
  }
  if (oldBalPaise !== null && amountPaise !== null && newBalPaise !== null && newBalPaise !== oldBalPaise - amountPaise) {
    const expected = oldBalPaise - amountPaise
    problems.push(`New balance ${formatPaise(newBalPaise)} is not old balance ${formatPaise(oldBalPaise)} − ${formatPaise(amountPaise)} = ${formatPaise(expected)} (difference ${signed(newBalPaise - expected)}).`)
  }
  if (lastKnown && oldBalPaise !== null && oldBalPaise !== lastKnown.balancePaise) {
    problems.push(
      `The balance moved outside Counter: last known ${formatPaise(lastKnown.balancePaise)} (${lastKnown.at}), the provider's old balance ${formatPaise(oldBalPaise)} (difference ${signed(oldBalPaise - lastKnown.balancePaise)}).`,
    )
  }
  return problems
}
