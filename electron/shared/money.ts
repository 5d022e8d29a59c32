// Money as integer paise: exact parsing of decimal rupee strings, and formatting for people.
// No floating point touches an amount anywhere in Counter; this module is the only converter. A leaf module on the
// shared floor (partners, counter, contract, simulator and renderer all read amounts): it imports nothing of ours but
// the words of its refusals (shared/words, itself a leaf).
import { say, type Said } from './words'

export class MoneyFormatError extends Error {
  constructor(readonly text: string) {
    super(`"${text}" is not an amount in rupees with at most 2 decimals`)
  }
}

const DECIMAL_RUPEES = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/

/** "107" -> 10700, "107.5" -> 10750, "-3.05" -> -305. Anything else throws MoneyFormatError. */
export function parseRupees(text: string): number {
  const match = DECIMAL_RUPEES.exec(text.trim())
  if (!match) throw new MoneyFormatError(text)
  const [, minus, rupees, fraction = ''] = match
  const paise = Number(rupees) * 100 + Number(fraction.padEnd(2, '0'))
  return minus && paise !== 0 ? -paise : paise
}

/** parseRupees for input that must not throw: null when the text is not an amount. */
export function tryParseRupees(text: string): number | null {
  try {
    return parseRupees(text)
  } catch {
    return null
  }
}

const WESTERN_GROUPING = /^-?\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/
const INDIAN_GROUPING = /^-?\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d{1,2})?$/
const wellGrouped = (text: string) => WESTERN_GROUPING.test(text) || INDIAN_GROUPING.test(text)

/**
 * An amount or balance as a provider writes it in an answer. Decision: what parseRupees accepts,
 * plus thousands separators when the grouping is well-formed — western ("1,234,567.00") or Indian
 * ("12,34,567.00") — since field deployments print balances that way: "5,000.00" -> 500000.
 * Any other comma ("5,00", "50,00,0.00", ",500") throws MoneyFormatError: it could be a decimal
 * comma or a cut-off number, and guessing might misread the amount a hundredfold.
 */
export function parseProviderRupees(text: string): number {
  const trimmed = text.trim()
  if (!trimmed.includes(',')) return parseRupees(trimmed)
  if (!wellGrouped(trimmed)) throw new MoneyFormatError(text)
  return parseRupees(trimmed.replaceAll(',', ''))
}

/** An amount typed at the counter: its paise, or what is wrong with it in words for shop staff. */
export type RupeesInput = { paise: number; problem?: undefined } | { paise?: undefined; problem: Said }

/**
 * Reads an amount as staff type it. Decision: the same grouping as provider answers — Indian
 * ("1,00,000") or western ("100,000"), each only when well-formed — since both say one number and
 * staff copy amounts from bills and bank slips written either way. A comma that could be a
 * decimal comma ("199,50") or a slip ("1,0000") is refused with words naming it, never guessed.
 * Negative amounts are refused here: no counter input takes one.
 */
export function readRupeesInput(text: string): RupeesInput {
  const typed = text.trim()
  if (typed === '') return { problem: say('amount.enter') }
  if (typed.startsWith('-')) return { problem: say('amount.aboveZero') }
  if (/[^\d,.]/.test(typed)) return { problem: say('amount.onlyDigits') }
  const [whole, ...fractions] = typed.split('.')
  if (fractions.length > 1) return { problem: say('amount.oneDot') }
  const fraction = fractions[0]
  if (fraction !== undefined && fraction.includes(',')) return { problem: say('amount.commaAfterDot') }
  if (fraction !== undefined && !/^\d{1,2}$/.test(fraction)) return { problem: say('amount.paiseDigits') }
  if (!/^\d/.test(whole)) return { problem: say('amount.startDigit') }
  if (whole.includes(',') && !wellGrouped(whole)) {
    const problem = /^\d+,\d{1,2}$/.test(whole)
      ? say('amount.decimalComma')
      : say('amount.grouping')
    return { problem }
  }
  const digits = whole.replaceAll(',', '')
  if (digits.length > 13) return { problem: say('amount.farTooLarge') }
  return { paise: parseRupees(fraction === undefined ? digits : `${digits}.${fraction}`) }
}

/** readRupeesInput for previews on screen: null when the text is not an amount yet. */
export function rupeesInputPaise(text: string): number | null {
  return readRupeesInput(text).paise ?? null
}

/** The decimal string sent to the provider: 19900 -> "199", 19950 -> "199.50". */
export function paiseToDecimal(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not a whole number of paise: ${paise}`)
  const sign = paise < 0 ? '-' : ''
  const abs = Math.abs(paise)
  const rupees = Math.trunc(abs / 100)
  const rest = abs % 100
  return rest === 0 ? `${sign}${rupees}` : `${sign}${rupees}.${String(rest).padStart(2, '0')}`
}

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' })

/** For people: 123450 -> "₹1,234.50" (Indian digit grouping). */
export function formatPaise(paise: number): string {
  // Intl formats a decimal string exactly, so no float is formed from the paise.
  return inr.format(paiseToDecimal(paise) as Intl.StringNumericLiteral)
}

/** Sums the office database adds up (bigint: a year of many counters may pass Number's safe range) as rupees with paise: -5000n -> "-50.00". */
export function bigPaiseDecimal(paise: bigint): string {
  const abs = paise < 0n ? -paise : paise
  return `${paise < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}

/** formatPaise for the office's bigint sums. */
export function formatBigPaise(paise: bigint): string {
  return inr.format(bigPaiseDecimal(paise) as Intl.StringNumericLiteral)
}
