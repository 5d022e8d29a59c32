// The shop's commission rates: per recharge operator (percent or fixed) and per PAN coupon type (fixed per
// coupon), as Settings shows and saves them. Typed rates are read exactly here; the core gets them parsed.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None } from './fields'
import { CouponTypeSchema } from './pan'
import { MAX_FIXED_PAISE, readPercentInput, type CommissionRate } from '../shared/margin'
import { readRupeesInput } from '../shared/money'
import { say, type Said } from '../shared/words'

export const CommissionRateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), basisPoints: z.number().int().min(0) }),
  z.object({ kind: z.literal('fixed'), paise: z.number().int().min(0) }),
])

/** Operators without an entry have no rate: their sales earn ₹0 until one is set. Coupons are per coupon. */
export const CommissionRatesSchema = z.object({
  operators: z.record(z.string(), CommissionRateSchema),
  coupons: z.object({ p: z.number().int(), e: z.number().int() }),
})
export type CommissionRates = z.infer<typeof CommissionRatesSchema>

const typed = z.string().max(20, { error: say('margin.tooLong') })

/** A fixed commission as typed: '' is none (₹0); over ₹100 is refused (shared/margin.ts says why). */
function readFixed(text: string): { paise: number; problem?: undefined } | { paise?: undefined; problem: Said } {
  if (text.trim() === '') return { paise: 0 }
  const read = readRupeesInput(text)
  if (read.paise !== undefined && read.paise > MAX_FIXED_PAISE) return { problem: say('margin.fixedMax') }
  return read
}

/**
 * The whole table at once. A problem is reported under `rate.<operator code>` (or `rate.p` / `rate.e`
 * for coupons), so the screen marks the row it belongs to. An operator row left blank has no rate.
 */
export const SaveCommissionRatesInputSchema = z
  .object({
    operators: z
      .array(z.object({ operatorCode: z.string().trim().min(1).max(20), kind: z.enum(['percent', 'fixed']), value: typed }))
      .max(500),
    coupons: z.object({ p: typed, e: typed }),
  })
  .transform((input, ctx): CommissionRates => {
    const refuse = (field: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [`rate.${field}`] })
    const operators: Record<string, CommissionRate> = {}
    for (const { operatorCode, kind, value } of input.operators) {
      if (value.trim() === '') continue
      if (kind === 'percent') {
        const read = readPercentInput(value)
        if (read.problem !== undefined) refuse(operatorCode, read.problem)
        else operators[operatorCode] = { kind, basisPoints: read.basisPoints }
      } else {
        const read = readFixed(value)
        if (read.problem !== undefined) refuse(operatorCode, read.problem)
        else operators[operatorCode] = { kind, paise: read.paise }
      }
    }
    const coupon = (key: 'p' | 'e') => {
      const read = readFixed(input.coupons[key])
      if (read.problem !== undefined) refuse(key, read.problem)
      return read.paise ?? 0
    }
    return { operators, coupons: { p: coupon('p'), e: coupon('e') } }
  })

export type SaveCommissionRatesInput = z.input<typeof SaveCommissionRatesInputSchema>

/**
 * What a day's SUCCESS sales earned, one row per operator and per coupon type. turnover: the amounts
 * sold; margin: the commissions frozen at each sale (unrated: how many sales were made before rates
 * existed, whose margin is unknown and counted as nothing); service charge: what was collected above
 * the amount. earned = margin + service charge.
 */
const earningFigures = {
  turnoverPaise: z.number().int(),
  marginPaise: z.number().int(),
  unrated: z.number().int(),
  serviceChargePaise: z.number().int(),
  earnedPaise: z.number().int(),
}
export const EarningsSchema = z.object({
  recharges: z.array(z.object({ operatorCode: z.string(), operatorName: z.string(), count: z.number().int(), ...earningFigures })),
  coupons: z.array(z.object({ type: CouponTypeSchema, orders: z.number().int(), qty: z.number().int(), ...earningFigures })),
  total: z.object(earningFigures),
})
export type Earnings = z.infer<typeof EarningsSchema>

export const marginChannels = {
  'margins.rates': { input: None, output: CommissionRatesSchema },
  'margins.saveRates': { input: SaveCommissionRatesInputSchema, output: CommissionRatesSchema },
} as const
export type MarginHandlers = HandlersOf<typeof marginChannels>
