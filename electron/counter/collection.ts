// What the shop took from the customer for a sale: the sale amount, or more with a service
// charge up to the shop's cap; recorded at sale time so day close can count the drawer against it.
import { CounterError } from './errors'
import { formatPaise } from '../shared/money'
import { say, type Said } from '../shared/words'

/**
 * The paise collected for a sale of `amountPaise`: the amount when nothing was typed, else what
 * was typed (read by the contract's CollectedSchema), between the amount and the amount plus the
 * service-charge cap from Settings. The cap lives in Settings, so this bound is checked here and
 * not in the contract.
 */
export function collectedPaise(paise: number | null | undefined, amountPaise: number, settings: { serviceChargeCapPaise: number }): number {
  if (paise === undefined || paise === null) return amountPaise
  const refuse = (message: Said) => new CounterError('invalid_input', message, { collected: message })
  if (paise < amountPaise) throw refuse(say('collected.atLeast', { amount: formatPaise(amountPaise) }))
  const most = amountPaise + settings.serviceChargeCapPaise
  if (paise > most) throw refuse(say('collected.atMost', { most: formatPaise(most), cap: formatPaise(settings.serviceChargeCapPaise) }))
  return paise
}
