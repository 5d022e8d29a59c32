// The shop's commission arithmetic: rates (percent held as basis points, fixed amounts in paise), the margin a sale
// earns, the one rounding rule, and reading a typed percent exactly. A leaf of the shared floor: no floats touch it.
import { formatPaise } from './money'
import { say, type Said } from './words'

/**
 * A rate as the provider's rate card says it: a percent of the recharge amount, or a fixed amount per
 * recharge (or per coupon). Percent is kept in basis points (2.5% = 250): a whole number, never a float.
 */
export type CommissionRate = { kind: 'percent'; basisPoints: number } | { kind: 'fixed'; paise: number }

/**
 * Decision (bounds): no Indian recharge rate card pays more than a few percent, so above 20% is a typo;
 * a fixed commission above ₹100 a recharge (or a coupon, which sells at ₹72–107) is one too.
 */
export const MAX_PERCENT_BASIS_POINTS = 20_00
export const MAX_FIXED_PAISE = 100_00

const BASIS_POINTS_PER_WHOLE = 100_00
const PERCENT = /^(\d{1,2})(?:\.(\d{1,2}))?$/

/** "2.5" -> 250 basis points, exactly; or what is wrong with it, in words for shop staff. */
export function readPercentInput(text: string): { basisPoints: number; problem?: undefined } | { basisPoints?: undefined; problem: Said } {
  const typed = text.trim().replace(/%$/, '').trim()
  if (typed === '') return { problem: say('margin.percentEnter') }
  const match = PERCENT.exec(typed)
  if (!match) return { problem: say('margin.percentRule') }
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  if (basisPoints > MAX_PERCENT_BASIS_POINTS) return { problem: say('margin.percentMax') }
  return { basisPoints }
}

/** 250 -> "2.5" (as typed back into the form). */
export function basisPointsToPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100)
  const fraction = String(basisPoints % 100).padStart(2, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/**
 * The one rounding rule for percent margins: round half up to the paisa (₹199 at 2.5% is 497.5 paise ->
 * 498). Exact in integers: amounts are bounded (₹25,000 at 20% is 5e9, far inside Number's safe range).
 */
export function percentOf(amountPaise: number, basisPoints: number): number {
  return Math.floor((amountPaise * basisPoints + BASIS_POINTS_PER_WHOLE / 2) / BASIS_POINTS_PER_WHOLE)
}

/** What one recharge of `amountPaise` earns at `rate`; no rate set earns nothing. */
export function rechargeMargin(rate: CommissionRate | undefined, amountPaise: number): number {
  if (!rate) return 0
  return rate.kind === 'percent' ? percentOf(amountPaise, rate.basisPoints) : rate.paise
}

/** A coupon order earns its fixed commission on every coupon in it. */
export function couponMargin(perCouponPaise: number, qty: number): number {
  return perCouponPaise * qty
}

/** How a rate reads on a screen or paper: "2.5%" or "₹3.00 each". */
export function rateLabel(rate: CommissionRate | undefined): string {
  if (!rate) return 'none'
  return rate.kind === 'percent' ? `${basisPointsToPercent(rate.basisPoints)}%` : `${formatPaise(rate.paise)} each`
}

/**
 * Decision: a sale earns its margin and its service charge only once it is SUCCESS. FAILED earns 0
 * (the money went back); a sale still unresolved has earned nothing yet, and says so with null.
 */
export function earnedOnce(state: string, paise: number | null): number | null {
  if (state === 'SUCCESS') return paise
  return state === 'FAILED' ? 0 : null
}
