// Input rules more than one domain checks with (money, mobile numbers, order ids, days); their
// messages reach the shop's staff, so they are plain words.
import { z } from 'zod'
import { paiseToDecimal, readRupeesInput } from '../shared/money'

/**
 * Rupees as typed at the counter ("199", "199.50", "1,999", "1,00,000"), bounded by `max`, and
 * above ₹0 unless `zero`. Passed on as a plain decimal ("100000"), which the core turns into
 * exact paise. Every money input is one of these, each with the bound of its own thing.
 */
export function rupeesField({ max, words, zero = false, empty = false }: { max: number; words: string; zero?: boolean; empty?: boolean }) {
  return z
    .string({ error: 'Enter an amount' })
    .max(40, { error: 'Amount is far too long: check the digits' })
    .transform((text, ctx) => {
      // `empty`: a blank field means "none" (coins) or "the default" (collected), and stays ''.
      if (empty && text.trim() === '') return ''
      const { paise, problem } = readRupeesInput(text)
      const refuse = (message: string) => {
        ctx.addIssue({ code: 'custom', message })
        return z.NEVER
      }
      if (paise === undefined) return refuse(problem)
      if (paise === 0 && !zero) return refuse('Amount must be more than ₹0')
      if (paise > max) return refuse(`Amount must not be more than ${words}`)
      return paiseToDecimal(paise)
    })
}

/**
 * What the customer paid, when more than the amount. Only the text's size is bounded here (no sale
 * at this counter reaches ₹1 crore); the real bound, amount + the shop's service-charge cap, is a
 * setting and is checked in counter/collection.ts. Empty means "the amount".
 */
export const CollectedSchema = rupeesField({ max: 1_00_00_000_00, words: '₹1,00,00,000', empty: true }).optional()

export const MobileNumberSchema = z
  .string({ error: 'Enter a mobile number' })
  .trim()
  .regex(/^\d+$/, { error: 'Mobile number must contain digits only' })
  .regex(/^\d{10}$/, { error: 'Mobile number must be exactly 10 digits' })
  .regex(/^[6-9]/, { error: 'Mobile number must start with 6, 7, 8 or 9' })

export const OrderIdSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'Not a valid order id' })

export const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'A day is written YYYY-MM-DD' })

/** The input of a channel that takes none. */
export const None = z.object({}).strict()

/** The input of a channel about one recharge sale. */
export const ByOrderId = z.object({ orderId: OrderIdSchema })
