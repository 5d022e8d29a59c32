// Input rules more than one domain checks with (money, mobile numbers, order ids, days); their
// messages reach the shop's staff, so they are words of shared/words, said (counter/errors.ts says how).
import { z } from 'zod'
import { readRupeesInput } from '../shared/money'
import { say, type Said } from '../shared/words'

/**
 * zod's own words where a schema names none (a field of the wrong type, a text too long): developer English
 * otherwise. Decision: set once, for the whole process, here where every schema's rules are built, so the
 * core's dispatch and the renderer's forms both get dictionary words; zod keeps a schema's own message first.
 */
function zodWords(issue: z.core.$ZodRawIssue): Said {
  const sized = issue.origin === 'string' ? 'chars' : 'count'
  switch (issue.code) {
    case 'invalid_type':
      return say(issue.input === undefined ? 'input.missing' : 'input.invalid')
    case 'too_big':
      return sized === 'chars' ? say('input.maxChars', { max: Number(issue.maximum) }) : say('input.atMost', { max: Number(issue.maximum) })
    case 'too_small':
      return sized === 'chars' ? say('input.minChars', { min: Number(issue.minimum) }) : say('input.atLeast', { min: Number(issue.minimum) })
    case 'invalid_value':
    case 'invalid_union':
      return say('input.choose')
    case 'unrecognized_keys':
      return say('input.unknownField')
    default:
      return say('input.invalid')
  }
}
z.config({ customError: zodWords })

type RupeesRules = { max: number; words: string; zero?: boolean }

/**
 * Rupees as typed at the counter ("199", "199.50", "1,999", "1,00,000"), bounded by `max`, and
 * above ₹0 unless `zero`. Read once, here: the parsed input is exact paise, which handlers use as
 * they are. Every money input is one of these, each with the bound of its own thing. Its input
 * stays the text, so the renderer's forms check what staff typed with the same schema.
 */
export function rupeesField(rules: RupeesRules & { empty: true }): z.ZodType<number | null, string>
export function rupeesField(rules: RupeesRules & { empty?: false }): z.ZodType<number, string>
export function rupeesField({ max, words, zero = false, empty = false }: RupeesRules & { empty?: boolean }): z.ZodType<number | null, string> {
  return z
    .string({ error: say('amount.enter') })
    .max(40, { error: say('amount.farTooLong') })
    .transform((text, ctx) => {
      // `empty`: a blank field means "none" (coins, a credit limit) or "the default" (collected, charged): null.
      if (empty && text.trim() === '') return null
      const { paise, problem } = readRupeesInput(text)
      const refuse = (message: Said) => {
        ctx.addIssue({ code: 'custom', message })
        return z.NEVER
      }
      if (paise === undefined) return refuse(problem)
      if (paise === 0 && !zero) return refuse(say('amount.aboveZero'))
      if (paise > max) return refuse(say('amount.max', { max: words }))
      return paise
    })
}

/**
 * What the customer paid, when more than the amount. Only the text's size is bounded here (no sale
 * at this counter reaches ₹1 crore); the real bound, amount + the shop's service-charge cap, is a
 * setting and is checked in counter/collection.ts. Empty means "the amount".
 */
export const CollectedSchema = rupeesField({ max: 1_00_00_000_00, words: '₹1,00,00,000', empty: true }).optional()

export const MobileNumberSchema = z
  .string({ error: say('mobile.enter') })
  .trim()
  .regex(/^\d+$/, { error: say('mobile.digitsOnly') })
  .regex(/^\d{10}$/, { error: say('mobile.tenDigits') })
  .regex(/^[6-9]/, { error: say('mobile.start') })

export const OrderIdSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: say('orderId.invalid') })

export const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: say('day.format') })

/** The input of a channel that takes none. */
export const None = z.object({}).strict()

/** The input of a channel about one recharge sale. */
export const ByOrderId = z.object({ orderId: OrderIdSchema })
