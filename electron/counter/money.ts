// Money as integer paise: exact parsing of decimal rupee strings, and formatting for people.
// No floating point touches an amount anywhere in Counter; this module is the only converter.

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
