// The commission arithmetic (percent rounding, fixed, coupons x qty, zero rates) and reading typed rates exactly.
import { describe, expect, it } from 'vitest'
import { SaveCommissionRatesInputSchema } from '../../electron/contract'
import {
  basisPointsToPercent, couponMargin, earnedOnce, percentOf, rateLabel, readPercentInput, rechargeMargin,
} from '../../electron/shared/margin'
import { english } from '../../electron/shared/words'

describe('margin arithmetic', () => {
  it('rounds a percent margin half up to the paisa, in integers', () => {
    expect(percentOf(199_00, 250)).toBe(498) // 497.5 paise
    expect(percentOf(199_00, 249)).toBe(496) // 495.51
    expect(percentOf(10_00, 333)).toBe(33) // 33.3
    expect(percentOf(1, 5000)).toBe(1) // half a paisa rounds up
    expect(percentOf(1, 4999)).toBe(0)
    // The largest recharge at the largest rate stays exact.
    expect(percentOf(25_000_00, 20_00)).toBe(5_000_00)
    // Floats get this one wrong: 0.35% of ₹110 is 38.5 paise, and 11000 * 0.35 / 100 = 38.49999999999999 (rounds to 38).
    expect(percentOf(110_00, 35)).toBe(39)
  })

  it('takes a fixed rate as it is, whatever the amount, and no rate as nothing', () => {
    expect(rechargeMargin({ kind: 'fixed', paise: 3_00 }, 49_00)).toBe(3_00)
    expect(rechargeMargin({ kind: 'fixed', paise: 3_00 }, 2_999_00)).toBe(3_00)
    expect(rechargeMargin({ kind: 'percent', basisPoints: 350 }, 599_00)).toBe(2097) // 20.965 -> 20.97
    expect(rechargeMargin({ kind: 'percent', basisPoints: 0 }, 599_00)).toBe(0)
    expect(rechargeMargin({ kind: 'fixed', paise: 0 }, 599_00)).toBe(0)
    expect(rechargeMargin(undefined, 599_00)).toBe(0)
  })

  it('pays a coupon commission on every coupon of the order', () => {
    expect(couponMargin(5_00, 3)).toBe(15_00)
    expect(couponMargin(2_50, 1)).toBe(2_50)
    expect(couponMargin(0, 50)).toBe(0)
  })

  it('counts a margin only once the sale is SUCCESS', () => {
    expect(earnedOnce('SUCCESS', 498)).toBe(498)
    expect(earnedOnce('SUCCESS', null)).toBeNull()
    expect(earnedOnce('FAILED', 498)).toBe(0)
    expect(earnedOnce('UNKNOWN', 498)).toBeNull()
    expect(earnedOnce('SENDING', 498)).toBeNull()
  })
})

describe('typed rates', () => {
  it('reads a percent exactly as basis points, and back', () => {
    expect(readPercentInput('2.5')).toEqual({ basisPoints: 250 })
    expect(readPercentInput(' 3.25% ')).toEqual({ basisPoints: 325 })
    expect(readPercentInput('0')).toEqual({ basisPoints: 0 })
    expect(readPercentInput('20')).toEqual({ basisPoints: 20_00 })
    expect(basisPointsToPercent(250)).toBe('2.5')
    expect(basisPointsToPercent(325)).toBe('3.25')
    expect(basisPointsToPercent(2000)).toBe('20')
    expect(rateLabel({ kind: 'percent', basisPoints: 250 })).toBe('2.5%')
    expect(rateLabel({ kind: 'fixed', paise: 3_00 })).toBe('₹3.00 each')
  })

  it('refuses a percent past 20, with three decimals, negative or not a number, in plain words', () => {
    expect(english(readPercentInput('20.01').problem!)).toBe('A commission must not be more than 20%')
    expect(english(readPercentInput('2.555').problem!)).toMatch(/at most 2 after the dot/)
    expect(english(readPercentInput('-1').problem!)).toMatch(/written like 2.5/)
    expect(english(readPercentInput('two').problem!)).toMatch(/written like 2.5/)
    expect(english(readPercentInput('').problem!)).toBe('Enter a percent, like 2.5')
  })

  it('saves a table of rates parsed, a blank row as no rate, and names the row of each bad value', () => {
    const parsed = SaveCommissionRatesInputSchema.safeParse({
      operators: [
        { operatorCode: 'AT', kind: 'percent', value: '2.5' },
        { operatorCode: 'RJP', kind: 'fixed', value: '3' },
        { operatorCode: 'VI', kind: 'percent', value: '' },
      ],
      coupons: { p: '5', e: '' },
    })
    expect(parsed.success && parsed.data).toEqual({
      operators: { AT: { kind: 'percent', basisPoints: 250 }, RJP: { kind: 'fixed', paise: 3_00 } },
      coupons: { p: 5_00, e: 0 },
    })
    const refused = SaveCommissionRatesInputSchema.safeParse({
      operators: [
        { operatorCode: 'AT', kind: 'percent', value: '25' },
        { operatorCode: 'RJP', kind: 'fixed', value: '100.01' },
      ],
      coupons: { p: '1,50', e: '0' },
    })
    expect(refused.success).toBe(false)
    const messages = Object.fromEntries((refused.error?.issues ?? []).map((issue) => [String(issue.path.at(-1)), english(issue.message)]))
    expect(messages).toEqual({
      'rate.AT': 'A commission must not be more than 20%',
      'rate.RJP': 'A fixed commission must not be more than ₹100',
      'rate.p': expect.stringContaining('Use a dot for paise'),
    })
  })
})
