// The ledger's bookkeeping on real files with real sql.js: money collected, settlements by phone, the re-check queue, top-ups, closed days, and the reads built on them.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerEventData } from '../../electron/ledger/events'
import { DayClosedError, type HistoryQuery, type Ledger } from '../../electron/ledger/ledger'
import { PREVIOUS_SNAPSHOT_FILE, SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { atSeq, couponAnswer, couponIntent, DAY, noAnswer, rechargeIntent, rechargeOutcome, useLedgerRig } from './ledger-rig'

const rig = useLedgerRig('counter-ledger-books-')
const NEXT_DAY = '2025-03-15'

const unknownOutcome = (orderId: string) =>
  rechargeOutcome(orderId, { outcome: 'UNKNOWN', providerStatus: null, message: 'No reply', fpayId: null, operatorRef: null })

const topup = (topupId: string, amountPaise: number, businessDay = DAY): LedgerEventData['pan.topup'] => ({
  topupId,
  amountPaise,
  reference: `UTR-${topupId}`,
  note: '',
  businessDay,
})

const dayClosed = (businessDay = DAY): LedgerEventData['day.closed'] => ({
  businessDay,
  openingFloatPaise: 200000,
  counted: { n500: 4, n200: 1, n100: 0, n50: 1, n20: 0, n10: 0, coinsPaise: 900 },
  countedPaise: 226900,
  expectedCashPaise: 226900,
  closingPanBalancePaise: 467900,
  openingPanBalancePaise: 500000,
  overrideNote: null,
  summary: { businessDay, shown: ['as', 'at', 'close'] },
})

describe('money collected', () => {
  it('records what the customer paid and how, defaulting to the amount in cash', async () => {
    const ledger = await rig.open()
    ledger.append('recharge.intent', rechargeIntent('A1'))
    ledger.append('recharge.intent', rechargeIntent('A2', 19900, { collectedPaise: 21000, paymentMode: 'upi' }))
    expect(ledger.read('getSale', 'A1')).toMatchObject({ collectedPaise: 19900, paymentMode: 'cash', settledNote: null })
    expect(ledger.read('getSale', 'A2')).toMatchObject({ amountPaise: 19900, collectedPaise: 21000, paymentMode: 'upi' })
    expect(() => ledger.append('recharge.intent', rechargeIntent('A3', 19900, { collectedPaise: 210.5 }))).toThrow(/collectedPaise must be a whole number/)
  })

  it('lets a coupon sale’s default collected amount follow what the provider charged, never a typed one', async () => {
    const ledger = await rig.open()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.intent', couponIntent('C2', { collectedPaise: 35000, paymentMode: 'upi' }))
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ collectedPaise: 32100, paymentMode: 'cash' })
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { ratePaise: 11000, amountPaise: 33000 }))
    ledger.append('pan.coupon.outcome', couponAnswer('C2', { ratePaise: 11000, amountPaise: 33000 }))
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ amountPaise: 33000, collectedPaise: 33000 })
    expect(ledger.read('couponSale', 'C2')).toMatchObject({ amountPaise: 33000, collectedPaise: 35000, paymentMode: 'upi' })
    // A later check that names no amount leaves the provider's figure in place.
    ledger.append('pan.coupon.outcome', noAnswer('C1'))
    expect(ledger.read('couponSale', 'C1')?.collectedPaise).toBe(33000)
  })
})

describe('settling by phone', () => {
  it('settles an unresolved recharge or coupon sale with the operator’s note', async () => {
    const ledger = await rig.open()
    ledger.append('recharge.intent', rechargeIntent('A1'))
    ledger.append('recharge.outcome', unknownOutcome('A1'))
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('sale.settled', { kind: 'recharge', id: 'A1', outcome: 'SUCCESS', note: 'Confirmed by Ravi at the helpdesk, 6 pm' })
    ledger.append('sale.settled', { kind: 'coupon', id: 'C1', outcome: 'FAILED', note: 'Provider says never received' })
    expect(ledger.read('getSale', 'A1')).toMatchObject({ state: 'SUCCESS', settledNote: 'Confirmed by Ravi at the helpdesk, 6 pm', updatedAt: atSeq(4) })
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ state: 'FAILED', settledNote: 'Provider says never received' })
    expect(ledger.read('unresolved')).toEqual([])
  })

  it('refuses, writing nothing, a sale already settled, an unknown one, or no note', async () => {
    const ledger = await rig.open()
    ledger.append('recharge.intent', rechargeIntent('A1'))
    ledger.append('recharge.outcome', rechargeOutcome('A1'))
    ledger.append('recharge.intent', rechargeIntent('A2'))
    const settle = (id: string, note = 'Confirmed on the phone') => () => ledger.append('sale.settled', { kind: 'recharge', id, outcome: 'FAILED', note })
    expect(settle('A1')).toThrow('The ledger refused sale.settled: A1 is already settled (SUCCESS).')
    expect(settle('B9')).toThrow(/there is no sale with order id B9/)
    expect(settle('A2', '  ')).toThrow(/needs a note/)
    expect(() => ledger.append('sale.settled', { kind: 'coupon', id: 'A2', outcome: 'FAILED', note: 'x' })).toThrow(/no coupon sale with attempt id A2/)
    expect(ledger.read('lastSeq')).toBe(3)
    expect(rig.journalLines()).toHaveLength(3)
    expect(ledger.read('getSale', 'A1')?.state).toBe('SUCCESS')
  })
})

describe('the re-check queue', () => {
  it('lists unresolved sales of both kinds oldest first, with checks, last answer and next time', async () => {
    const ledger = await rig.open()
    ledger.append('recharge.intent', rechargeIntent('A1'))
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C1'), source: 'coupon_req', message: 'Timed out' })
    ledger.append('recharge.intent', rechargeIntent('A2'))
    ledger.append('recharge.outcome', rechargeOutcome('A2'))
    ledger.append('pending.checked', { kind: 'recharge', id: 'A1', answer: 'Still pending at the operator', nextCheckAt: '2025-03-14T05:00:00.000Z' })
    ledger.append('pending.checked', { kind: 'recharge', id: 'A1', answer: 'No answer', nextCheckAt: '2025-03-14T06:00:00.000Z' })

    const queue = ledger.read('unresolved')
    expect(queue.map(({ kind, sale, checks, lastAnswer, lastCheckedAt, nextCheckAt }) => ({ kind, state: sale.state, checks, lastAnswer, lastCheckedAt, nextCheckAt }))).toEqual([
      { kind: 'recharge', state: 'SENDING', checks: 2, lastAnswer: 'No answer', lastCheckedAt: atSeq(7), nextCheckAt: '2025-03-14T06:00:00.000Z' },
      { kind: 'coupon', state: 'UNKNOWN', checks: 0, lastAnswer: 'Timed out', lastCheckedAt: null, nextCheckAt: null },
    ])
    expect(queue.map((entry) => ('attemptId' in entry.sale ? entry.sale.attemptId : entry.sale.orderId))).toEqual(['A1', 'C1'])
    expect(queue[1].sale).toEqual(ledger.read('couponSale', 'C1'))
    expect(() => ledger.append('pending.checked', { kind: 'coupon', id: 'A1', answer: '', nextCheckAt: null })).toThrow(/no coupon sale/)
  })
})

describe('top-ups and balance facts', () => {
  it('keeps top-ups by day, oldest first, refusing a repeated id or a non-positive amount', async () => {
    const ledger = await rig.open()
    ledger.append('pan.topup', topup('T1', 100000))
    ledger.append('pan.topup', { ...topup('T2', 50050, NEXT_DAY), note: 'cash deposit' })
    expect(ledger.read('topups')).toEqual([
      { topupId: 'T1', amountPaise: 100000, reference: 'UTR-T1', note: '', at: atSeq(1), businessDay: DAY },
      { topupId: 'T2', amountPaise: 50050, reference: 'UTR-T2', note: 'cash deposit', at: atSeq(2), businessDay: NEXT_DAY },
    ])
    expect(ledger.read('topups', NEXT_DAY).map((t) => t.topupId)).toEqual(['T2'])
    expect(ledger.read('topups', undefined, DAY).map((t) => t.topupId)).toEqual(['T1'])
    expect(ledger.read('topups', DAY, DAY).map((t) => t.topupId)).toEqual(['T1'])
    expect(() => ledger.append('pan.topup', topup('T1', 100))).toThrow(/already recorded/)
    expect(() => ledger.append('pan.topup', topup('T3', 0))).toThrow(/more than ₹0/)
    expect(() => ledger.append('pan.topup', topup('T3', 10.5))).toThrow(/whole number/)
  })

  it('lists every balance fact in journal order, a coupon answer without its old balance as a plain reading', async () => {
    const ledger = await rig.open()
    ledger.append('pan.balance.read', { balancePaise: 500000, source: 'balance' })
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1'))
    ledger.append('pan.topup', topup('T1', 100000))
    ledger.append('pan.coupon.intent', couponIntent('C2', { businessDay: NEXT_DAY }))
    ledger.append('pan.coupon.outcome', couponAnswer('C2', { oldBalPaise: null, newBalPaise: 535800 }))
    ledger.append('pan.coupon.intent', couponIntent('C3', { businessDay: NEXT_DAY }))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C3'), source: 'coupon_req' })
    ledger.append('pan.balance.read', { balancePaise: 535800, source: 'coupon', businessDay: NEXT_DAY })

    expect(ledger.read('balanceFacts')).toEqual([
      { kind: 'balance', seq: 1, at: atSeq(1), businessDay: DAY, balancePaise: 500000 },
      { kind: 'coupon', seq: 3, at: atSeq(3), businessDay: DAY, attemptId: 'C1', oldBalPaise: 500000, newBalPaise: 467900, amountPaise: 32100 },
      { kind: 'topup', seq: 4, at: atSeq(4), businessDay: DAY, topupId: 'T1', amountPaise: 100000 },
      { kind: 'balance', seq: 6, at: atSeq(6), businessDay: NEXT_DAY, balancePaise: 535800 },
      { kind: 'balance', seq: 9, at: atSeq(9), businessDay: NEXT_DAY, balancePaise: 535800 },
    ])
    expect(ledger.read('balanceFacts', NEXT_DAY).map((fact) => fact.seq)).toEqual([6, 9])
    expect(ledger.read('balanceFacts', undefined, DAY).map((fact) => fact.seq)).toEqual([1, 3, 4])
  })

  it('gives the last reading and the top-ups journaled after it, by journal order, for the balance expected now', async () => {
    const ledger = await rig.open()
    ledger.append('pan.topup', topup('T0', 100000))
    expect(ledger.read('balanceFactsSinceReading')).toEqual([])
    ledger.append('pan.balance.read', { balancePaise: 600000, source: 'balance' })
    ledger.append('pan.topup', topup('T1', 50000))
    expect(ledger.read('balanceFactsSinceReading').map((fact) => fact.seq)).toEqual([2, 3])
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { oldBalPaise: 650000, newBalPaise: 617900 }))
    ledger.append('pan.topup', topup('T2', 20000))
    ledger.append('pan.topup', topup('T3', 30000, NEXT_DAY))
    expect(ledger.read('balanceFactsSinceReading')).toEqual([
      { kind: 'coupon', seq: 5, at: atSeq(5), businessDay: DAY, attemptId: 'C1', oldBalPaise: 650000, newBalPaise: 617900, amountPaise: 32100 },
      { kind: 'topup', seq: 6, at: atSeq(6), businessDay: DAY, topupId: 'T2', amountPaise: 20000 },
      { kind: 'topup', seq: 7, at: atSeq(7), businessDay: NEXT_DAY, topupId: 'T3', amountPaise: 30000 },
    ])
    ledger.append('pan.balance.read', { balancePaise: 667900, source: 'balance', businessDay: NEXT_DAY })
    expect(ledger.read('balanceFactsSinceReading').map((fact) => fact.seq)).toEqual([8])
  })
})

/** A business day at the counter: recharges in every state, coupon sales charged and not, a top-up. */
function recordDay(ledger: Ledger): void {
  ledger.append('recharge.intent', rechargeIntent('A1', 19900, { operatorCode: 'AT', operatorName: 'Airtel' }))
  ledger.append('recharge.outcome', rechargeOutcome('A1'))
  ledger.append('recharge.intent', rechargeIntent('A2', 29900, { collectedPaise: 30900, paymentMode: 'upi' }))
  ledger.append('recharge.outcome', rechargeOutcome('A2'))
  ledger.append('recharge.intent', rechargeIntent('A3', 19900))
  ledger.append('recharge.outcome', rechargeOutcome('A3'))
  ledger.append('recharge.intent', rechargeIntent('A4', 5000))
  ledger.append('recharge.outcome', rechargeOutcome('A4', { outcome: 'FAILED', providerStatus: 'Failure', fpayId: null, operatorRef: null }))
  ledger.append('recharge.intent', rechargeIntent('A5', 10000))
  ledger.append('pan.coupon.intent', couponIntent('C1'))
  ledger.append('pan.coupon.outcome', couponAnswer('C1', { ratePaise: 11000, amountPaise: 33000 }))
  ledger.append('pan.coupon.intent', couponIntent('C2', { qty: 2 }))
  ledger.append('pan.coupon.intent', couponIntent('C3', { type: 2, qty: 1, expectedRatePaise: 7200, collectedPaise: 8000, paymentMode: 'upi' }))
  ledger.append('pan.coupon.outcome', { ...noAnswer('C3'), source: 'coupon_req', outcome: 'FAILED', providerStatus: 'FAILED' })
  ledger.append('pan.topup', topup('T1', 100000))
  ledger.append('recharge.intent', rechargeIntent('B1', 99900, { businessDay: NEXT_DAY }))
}

describe('a day’s totals', () => {
  it('sums recharges by operator and state, coupons by type and state, and the money taken by how it was paid', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    expect(ledger.read('dayTotals', DAY)).toEqual({
      recharges: [
        { operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 1, amountPaise: 19900 },
        { operatorCode: 'JIO', operatorName: 'Jio', state: 'FAILED', count: 1, amountPaise: 5000 },
        { operatorCode: 'JIO', operatorName: 'Jio', state: 'SENDING', count: 1, amountPaise: 10000 },
        { operatorCode: 'JIO', operatorName: 'Jio', state: 'SUCCESS', count: 2, amountPaise: 49800 },
      ],
      coupons: [
        { type: 1, state: 'SENDING', orders: 1, qty: 2, amountPaise: 21400 },
        { type: 1, state: 'SUCCESS', orders: 1, qty: 3, amountPaise: 33000 },
        { type: 2, state: 'FAILED', orders: 1, qty: 1, amountPaise: 7200 },
      ],
      // Cash: A1 199 + A3 199 + A5 100 (unresolved: money was taken) + C1 330 + C2 214; UPI: A2 309. FAILED ones took nothing.
      collected: { cashPaise: 19900 + 19900 + 10000 + 33000 + 21400, upiPaise: 30900 },
      // Earned only on SUCCESS sales; no rates were in force, so each is unrated and its margin counts 0.
      // A2's customer paid 309 for a 299 recharge: its 10 is the service charge.
      earnings: {
        recharges: [
          { operatorCode: 'AT', operatorName: 'Airtel', count: 1, turnoverPaise: 19900, marginPaise: 0, unrated: 1, serviceChargePaise: 0, earnedPaise: 0 },
          { operatorCode: 'JIO', operatorName: 'Jio', count: 2, turnoverPaise: 49800, marginPaise: 0, unrated: 2, serviceChargePaise: 1000, earnedPaise: 1000 },
        ],
        coupons: [{ type: 1, orders: 1, qty: 3, turnoverPaise: 33000, marginPaise: 0, unrated: 1, serviceChargePaise: 0, earnedPaise: 0 }],
        total: { turnoverPaise: 19900 + 49800 + 33000, marginPaise: 0, unrated: 4, serviceChargePaise: 1000, earnedPaise: 1000 },
      },
      // Intents without a `by` stamp were written before roles existed: the owner's.
      byRole: [{ role: 'owner', count: 4, amountPaise: 19900 + 49800 + 33000 }],
    })
    expect(ledger.read('dayTotals', '2025-03-16')).toEqual({
      recharges: [], coupons: [], collected: { cashPaise: 0, upiPaise: 0 },
      earnings: { recharges: [], coupons: [], total: { turnoverPaise: 0, marginPaise: 0, unrated: 0, serviceChargePaise: 0, earnedPaise: 0 } },
      byRole: [],
    })
  })
})

describe('closing a day', () => {
  it('keeps the close as written and locks the day against new sales, top-ups and a second close', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    expect(ledger.read('dayClosure', DAY)).toBeNull()
    const closing = ledger.append('day.closed', dayClosed())
    expect(ledger.read('dayClosure', DAY)).toEqual({ closedAt: closing.at, data: dayClosed() })

    const refusals: [string, () => unknown][] = [
      ['recharge', () => ledger.append('recharge.intent', rechargeIntent('A9'))],
      ['coupon', () => ledger.append('pan.coupon.intent', couponIntent('C9'))],
      ['top-up', () => ledger.append('pan.topup', topup('T9', 100))],
      ['second close', () => ledger.append('day.closed', dayClosed())],
    ]
    for (const [, refused] of refusals) {
      let thrown: unknown
      try {
        refused()
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(DayClosedError)
      expect(thrown).toMatchObject({ name: 'DayClosedError', message: 'The books for 14-03-2025 are closed.', businessDay: DAY })
    }
    expect(ledger.read('lastSeq')).toBe(closing.seq)
  })

  it('still records what happens to the closed day’s sales, and keeps other days open', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    ledger.append('day.closed', dayClosed())
    ledger.append('recharge.outcome', rechargeOutcome('A5', { source: 'check_status' }))
    ledger.append('pan.coupon.outcome', couponAnswer('C2', { source: 'coupon_status', amountPaise: 21400 }))
    ledger.append('pending.checked', { kind: 'coupon', id: 'C2', answer: 'Delivered', nextCheckAt: null })
    ledger.append('recharge.intent', rechargeIntent('B2', 1000, { businessDay: NEXT_DAY }))
    ledger.append('pan.topup', topup('T2', 5000, NEXT_DAY))
    expect(ledger.read('getSale', 'A5')?.state).toBe('SUCCESS')
    expect(ledger.read('couponSale', 'C2')?.state).toBe('SUCCESS')
    ledger.append('day.closed', dayClosed(NEXT_DAY))
    expect(ledger.read('dayClosure', NEXT_DAY)?.data.businessDay).toBe(NEXT_DAY)
  })
})

describe('history (no archives)', () => {
  it('lists both kinds newest first, pages them, and counts them all', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    const page = ledger.read('historySearch', { offset: 0, limit: 4 })
    expect(page.total).toBe(9)
    expect(page.archives).toEqual([])
    expect(page.rows.map((row) => row.id)).toEqual(['B1', 'C3', 'C2', 'C1'])
    expect(ledger.read('historySearch', { offset: 4, limit: 100 }).rows.map((row) => row.id)).toEqual(['A5', 'A4', 'A3', 'A2', 'A1'])
    expect(ledger.read('historySearch', { offset: 9, limit: 100 })).toEqual({ rows: [], total: 9, archives: [] })
    expect(page.rows[0]).toEqual({
      kind: 'recharge', id: 'B1', at: atSeq(16), businessDay: NEXT_DAY, label: '9876543210', detail: 'Jio · DL', amountPaise: 99900,
      state: 'SENDING', reference: null, customerName: null, marginPaise: null, serviceChargePaise: 0,
    })
    expect(page.rows[3]).toEqual({
      kind: 'coupon', id: 'C1', at: atSeq(10), businessDay: DAY, label: 'VLE1 · Asha Devi', detail: 'P-Coupon × 3', amountPaise: 33000,
      state: 'SUCCESS', reference: 'ORD-C1', customerName: null, marginPaise: null, serviceChargePaise: 0,
    })
  })

  it('filters by text (number, ids, references, agent, any case), state, kind and days', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    ledger.append('recharge.intent', rechargeIntent('D1', 1000, { number: '9123456789', businessDay: NEXT_DAY }))
    const ids = (query: Partial<HistoryQuery>) => {
      const page = ledger.read('historySearch', { offset: 0, limit: 100, ...query })
      expect(page.total).toBe(page.rows.length)
      return page.rows.map((row) => row.id)
    }
    // Digits are the start of a number (by index); a run from its middle is not a search for it.
    expect(ids({ text: '91234' })).toEqual(['D1'])
    expect(ids({ text: '2345' })).toEqual([])
    expect(ids({ text: 'fp-a2' })).toEqual(['A2'])
    expect(ids({ text: 'OP-A3' })).toEqual(['A3'])
    expect(ids({ text: 'ord-c1' })).toEqual(['C1'])
    expect(ids({ text: 'asha' })).toEqual(['C3', 'C2', 'C1'])
    // Order ids A1-A5 and the agent's name: B1 and D1 hold no "a" anywhere.
    expect(ids({ text: 'a' })).toEqual(['C3', 'C2', 'C1', 'A5', 'A4', 'A3', 'A2', 'A1'])
    expect(ids({ text: '%' })).toEqual([])
    expect(ids({ text: '_1' })).toEqual([])
    expect(ids({ state: 'FAILED' })).toEqual(['C3', 'A4'])
    expect(ids({ kind: 'coupon', state: 'SENDING' })).toEqual(['C2'])
    expect(ids({ from: NEXT_DAY })).toEqual(['D1', 'B1'])
    expect(ids({ to: DAY, kind: 'recharge', text: '98765' })).toEqual(['A5', 'A4', 'A3', 'A2', 'A1'])
    expect(ledger.read('historySearch', { text: 'a', offset: 6, limit: 5 })).toMatchObject({ total: 8, rows: [{ id: 'A2' }, { id: 'A1' }] })
    expect(ledger.read('historySearch', { text: 'a', offset: 20, limit: 5 })).toEqual({ rows: [], total: 8, archives: [] })
  })
})

describe('replaying', () => {
  it('rebuilds every bookkeeping read from the journal alone', async () => {
    const ledger = await rig.open()
    recordDay(ledger)
    ledger.append('sale.settled', { kind: 'recharge', id: 'A5', outcome: 'SUCCESS', note: 'Confirmed by phone with Ravi' })
    ledger.append('pending.checked', { kind: 'coupon', id: 'C2', answer: 'No answer', nextCheckAt: '2025-03-14T09:00:00.000Z' })
    ledger.append('pan.balance.read', { balancePaise: 500000, source: 'balance' })
    ledger.append('day.closed', dayClosed())
    const reads = (l: Ledger) => ({
      totals: l.read('dayTotals', DAY),
      closure: l.read('dayClosure', DAY),
      queue: l.read('unresolved'),
      topups: l.read('topups'),
      facts: l.read('balanceFacts'),
      history: l.read('historySearch', { offset: 0, limit: 100 }),
      sale: l.read('getSale', 'A5'),
    })
    const before = reads(ledger)
    await rig.close(ledger)
    fs.rmSync(path.join(rig.dir, SNAPSHOT_FILE))
    fs.rmSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE), { force: true })
    const reopened = await rig.open()
    expect(reopened.report).toMatchObject({ snapshotSeq: 0, replayed: 20, problems: [] })
    expect(reads(reopened)).toEqual(before)
    expect(() => reopened.append('recharge.intent', rechargeIntent('A9'))).toThrow(DayClosedError)
  })
})
