// A shop of two counters with a day of sales shipped to a real office database, for the office view's tests and its screenshot.
import type { LedgerEventData } from '../../electron/ledger/events'
import type { Ledger } from '../../electron/ledger/ledger'
import { officeToday } from '../../electron/office/office-view'
import type { TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { couponAnswer, couponIntent, rechargeIntent, rechargeOutcome } from '../integration/ledger-rig'
import { namedLedger, officeOf, query, ship } from './office-rig'

export const ZONE = 'Asia/Kolkata'
export const one = { terminalId: 'sharma-mobile/counter-1', shop: 'Sharma Mobile', counter: 'Counter 1' }
export const two = { terminalId: 'sharma-mobile/counter-2', shop: 'Sharma Mobile', counter: 'Counter 2' }

export interface ShopDay {
  counter1: Ledger
  counter2: Ledger
  /** Counter 2's data folder, for shipping it again. */
  dir2: string
  /** The office's today (IST): every line is on it. */
  today: string
  recharge(ledger: Ledger, orderId: string, amountPaise: number, operatorName: string, outcome: 'SUCCESS' | 'FAILED', fields?: Partial<LedgerEventData['recharge.intent']>): void
  close(): Promise<void>
}

/**
 * Counter 1: two Jio recharges, a FAILED one, ₹299 Airtel on credit to Ramesh who pays ₹100 back, the PAN
 * wallet read, topped up ₹1,144 and read twice (the second read ₹50 short: a break nobody explains), the
 * day closed. Counter 2: a Vi recharge (no margin recorded), 3 P-Coupons and 2 E-Coupons (their ₹321 and
 * ₹144 explain counter 1's first read). Both shipped, their shippers stopped.
 */
export async function seedShopDay(db: TestPostgres): Promise<ShopDay> {
  const dirs = [tempDir('counter-office-'), tempDir('counter-office-')]
  const now = new Date()
  const today = officeToday(now, ZONE)
  // Lines a minute apart on one clock (the shop's chain has an order), from half an hour back but never before today's midnight in India.
  let clock = Math.max(Date.parse(`${today}T00:01:00+05:30`), now.getTime() - 30 * 60_000)
  const tick = () => new Date((clock += 60_000))
  const counter1 = await namedLedger(dirs[0].path, one, tick)
  const counter2 = await namedLedger(dirs[1].path, two, tick)
  const recharge: ShopDay['recharge'] = (ledger, orderId, amountPaise, operatorName, outcome, fields = {}) => {
    ledger.append('recharge.intent', rechargeIntent(orderId, amountPaise, { operatorName, businessDay: today, training: false, ...fields }))
    ledger.append('recharge.outcome', rechargeOutcome(orderId, { outcome }))
  }
  recharge(counter1, 'C1-1', 19900, 'Jio', 'SUCCESS')
  recharge(counter1, 'C1-2', 19900, 'Jio', 'SUCCESS')
  recharge(counter1, 'C1-3', 9900, 'Jio', 'FAILED', { margin: { rate: { kind: 'percent', basisPoints: 250 }, marginPaise: 248 } })
  const credit = { paymentMode: 'credit' as const, creditCustomer: { number: '9811111111', name: 'Ramesh' }, margin: { rate: { kind: 'percent' as const, basisPoints: 250 }, marginPaise: 748 } }
  recharge(counter1, 'C1-4', 29900, 'Airtel', 'SUCCESS', credit)
  counter1.append('credit.payment', { receiptId: 'P1', number: '9811111111', amountPaise: 10000, mode: 'cash', note: '', businessDay: today })
  recharge(counter2, 'C2-R1', 14900, 'Vi', 'SUCCESS')
  counter1.append('pan.balance.read', { balancePaise: 5_000_00, source: 'balance', businessDay: today })
  counter2.append('pan.coupon.intent', couponIntent('C2-1', { businessDay: today, training: false, margin: { rate: { kind: 'fixed', paise: 500 }, marginPaise: 1500 } }))
  counter2.append('pan.coupon.outcome', couponAnswer('C2-1', { oldBalPaise: 5_000_00, newBalPaise: 4_679_00 }))
  counter2.append('pan.coupon.intent', couponIntent('C2-2', { businessDay: today, training: false, type: 2, qty: 2, expectedRatePaise: 7200, margin: { rate: { kind: 'fixed', paise: 300 }, marginPaise: 600 } }))
  counter2.append('pan.coupon.outcome', couponAnswer('C2-2', { ratePaise: 7200, amountPaise: 14400, oldBalPaise: null, newBalPaise: null }))
  counter1.append('pan.topup', { topupId: 'T1', amountPaise: 1_144_00, reference: 'UTR1', note: '', businessDay: today })
  counter1.append('pan.balance.read', { balancePaise: 5_679_00, source: 'balance', businessDay: today })
  counter1.append('pan.balance.read', { balancePaise: 5_629_00, source: 'balance', businessDay: today })
  counter1.append('day.closed', {
    businessDay: today, openingFloatPaise: 500_00, counted: { n500: 2, n200: 0, n100: 3, n50: 0, n20: 0, n10: 0, coinsPaise: 0 }, countedPaise: 1_300_00,
    expectedCashPaise: 1_297_00, closingPanBalancePaise: 5_629_00, openingPanBalancePaise: 5_000_00, overrideNote: null, summary: {},
  })
  const shippers = [ship(dirs[0].path, one, officeOf(db)), ship(dirs[1].path, two, officeOf(db))]
  await eventually(async () => {
    const rows = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM entries').catch(() => [{ n: '0' }])
    return Number(rows[0].n) === counter1.read('lastSeq') + counter2.read('lastSeq')
  }, 'both shipped')
  await Promise.all(shippers.map((s) => s.link.stop()))
  return {
    counter1,
    counter2,
    dir2: dirs[1].path,
    today,
    recharge,
    async close() {
      await Promise.all([counter1.close(), counter2.close()])
      for (const dir of dirs) dir.remove()
    },
  }
}
