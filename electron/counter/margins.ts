// The shop's commission rates in Settings, and the margin each sale freezes into its journaled intent.
import type { CouponType, HandlersFor } from '../contract'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { couponMargin, rechargeMargin, type CommissionRate } from '../shared/margin'
import type { Settings } from './settings'
import { say } from '../shared/words'

/** What an intent line carries: the rate in force at the sale and what it comes to. */
export interface FrozenMargin {
  rate: CommissionRate
  marginPaise: number
}

/**
 * Decision: the margin is computed and journaled with the intent, before the provider is asked, so
 * a later change of rates never rewrites an old sale (the journal is replayed, never recomputed).
 * It only counts once the sale is SUCCESS (shared/margin.ts earnedOnce). An operator without a rate
 * freezes a rate of ₹0, so the books tell "no rate then" (₹0) from "sold before rates existed" (—).
 */
export function rechargeMarginOf(settings: Settings, operatorCode: string, amountPaise: number): FrozenMargin {
  const rate = settings.current.commissionRates.operators[operatorCode] ?? { kind: 'fixed', paise: 0 }
  return { rate, marginPaise: rechargeMargin(rate, amountPaise) }
}

export function couponMarginOf(settings: Settings, type: CouponType, qty: number): FrozenMargin {
  const { coupons } = settings.current.commissionRates
  const perCoupon = type === 1 ? coupons.p : coupons.e
  return { rate: { kind: 'fixed', paise: perCoupon }, marginPaise: couponMargin(perCoupon, qty) }
}

export function marginHandlers(ctx: CounterContext): HandlersFor<'margins.rates' | 'margins.saveRates'> {
  return {
    async 'margins.rates'() {
      return ctx.settings.current.commissionRates
    },

    async 'margins.saveRates'(rates) {
      const unknown = Object.keys(rates.operators).filter((code) => !ctx.catalog.operatorByCode(code))
      if (unknown.length) {
        const fields = Object.fromEntries(unknown.map((code) => [`rate.${code}`, say('margin.notAnOperator')]))
        throw new CounterError('invalid_input', say('margin.unknownOperators', { codes: unknown.join(', ') }), fields)
      }
      ctx.settings.saveCommissionRates(rates)
      return ctx.settings.current.commissionRates
    },
  }
}
