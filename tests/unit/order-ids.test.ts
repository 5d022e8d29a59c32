// Our ids carry the shop's business date, not UTC's: in India the UTC date is yesterday's until 05:30.
import { describe, expect, it } from 'vitest'
import { idToNumber } from '../../electron/counter/order-ids'
import { numberedId } from '../../electron/ledger/sale-writes'

const newId = (...[kind, training, now, seq, zone]: [Parameters<typeof idToNumber>[0], boolean, Date, number, string]) => numberedId(idToNumber(kind, training, now, zone), seq)

describe('order ids', () => {
  it.each([
    ['00:30 IST, still 27-11 in UTC', '2026-11-27T19:00:00.000Z', '261128'],
    ['05:29 IST, the last minute UTC lags', '2026-11-27T23:59:00.000Z', '261128'],
    ['23:30 IST, already 18:00 UTC', '2026-11-28T18:00:00.000Z', '261128'],
  ])('a sale at %s carries the shop date 28-11-2026', (_when, at, ymd) => {
    const id = newId('recharge', false, new Date(at), 42, 'Asia/Kolkata')
    expect(id).toMatch(new RegExp(`^CN${ymd}000042[0-9A-Z]{3,4}$`))
  })

  it('takes the date in the zone the shop set', () => {
    // 02:00 UTC on the 28th is still the 27th in New York.
    expect(newId('coupon', true, new Date('2026-11-28T02:00:00.000Z'), 7, 'America/New_York')).toMatch(/^TP261127000007/)
  })
})
