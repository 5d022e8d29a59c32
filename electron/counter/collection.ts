// What the shop took from the customer for a sale: the sale amount, or more with a service
// charge; recorded at sale time so day close can count the drawer against it.
import { CounterError } from './errors'
import { formatPaise, tryParseRupees } from './money'

export function collectedPaise(collected: string | undefined, amountPaise: number): number {
  if (collected === undefined || collected === '') return amountPaise
  const paise = tryParseRupees(collected)
  if (paise === null || paise < 0) {
    throw new CounterError('invalid_input', 'Collected must be in rupees, like 210 or 210.50', { collected: 'Rupees, like 210 or 210.50' })
  }
  if (paise < amountPaise) {
    const message = `Collected must be at least the amount, ${formatPaise(amountPaise)}`
    throw new CounterError('invalid_input', message, { collected: message })
  }
  return paise
}
