// Our ids for sales and requests: a kind prefix, the date, the ledger's next sequence number and
// a random tail, so they are unique per ledger and stay unique after a restore from backup.
import { randomBytes } from 'node:crypto'
import type { NumberedId } from '../ledger/sale-writes'
import { businessDayOf } from './business-day'

export type IdKind = 'recharge' | 'coupon' | 'reset' | 'topup' | 'payment' | 'cash'

const prefixes: Record<IdKind, { training: string; real: string }> = {
  recharge: { training: 'TR', real: 'CN' },
  coupon: { training: 'TP', real: 'CP' },
  reset: { training: 'TS', real: 'RS' },
  topup: { training: 'TW', real: 'PW' },
  /** A credit customer's payment of a due: its receipt id. */
  payment: { training: 'TU', real: 'UP' },
  /** Cash put into the drawer or taken out apart from sales (counter/drawer.ts). */
  cash: { training: 'TD', real: 'DR' },
}

/**
 * The date is the shop's business day in its time zone, the day the sale is booked to: in India the UTC
 * date is still yesterday's until 05:30, and an id dated the day before its receipt reads as a wrong sale.
 * The ledger puts the seq between the two (sale-writes.ts numberedId), with the line that records the id.
 */
export function idToNumber(kind: IdKind, training: boolean, now: Date, timeZone: string): NumberedId {
  return idOn(kind, training, businessDayOf(now, timeZone))
}

/** The id for a line booked to `businessDay` (YYYY-MM-DD). */
function idOn(kind: IdKind, training: boolean, businessDay: string): NumberedId {
  const prefix = prefixes[kind][training ? 'training' : 'real']
  const ymd = businessDay.slice(2).replace(/-/g, '')
  const tail = randomBytes(2).readUInt16BE(0).toString(36).toUpperCase().padStart(3, '0')
  return { head: `${prefix}${ymd}`, tail }
}

/**
 * What the counter adds to a sale's intent: the business day it is booked to, whether it is a training
 * sale, and the id the ledger numbers as it records the line (dated by that same day, worked out once).
 */
export function intentStamp(kind: IdKind, training: boolean, now: Date, timeZone: string): { day: { businessDay: string; training: boolean }; id: NumberedId } {
  const businessDay = businessDayOf(now, timeZone)
  return { day: { businessDay, training }, id: idOn(kind, training, businessDay) }
}
