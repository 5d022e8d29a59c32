// One shop, two counters, one provider balance: each counter's day close explains the other's coupons through the office, names a real outside debit once, and shows what may be the other's apart while the office is away.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startCounter } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { ledgerDir } from '../../electron/counter/session'
import { startSimulator } from '../../electron/simulator/server'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { journalEntries, officeEntries } from './office-rig'
import { approvedAgent, eventually, privateKeychainService, realModeEnv, resourcesDir, startRealModeRig, tempDir, valueOf, type RealModeRig } from '../integration/helpers'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

const SHOP = 'Sharma Mobile'
const officeFields = () => ({ officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false, officePassword: db.password })

const summaryOf = async (counter: CounterApp) => valueOf(await counter.call('day.summary', {}))
/** Every line of the counter's journal is in the office (a caught-up shipper may not yet have seen the newest). */
const shipped = (dataDir: string, terminalId: string) => async () => (await officeEntries(db, terminalId).catch(() => [])).length === journalEntries(ledgerDir(dataDir, 'real')).length

describe("the shop's one PAN balance at each counter's day close", () => {
  test('two counters, one 90 s slow: no false break; a real outside debit once at both; apart while the office is away', { timeout: 120_000 }, async () => {
    const front: RealModeRig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } })
    const backDir = tempDir()
    // The back counter's PC runs 90 s slow; it sells through the same provider account.
    const back = await startCounter({
      dataDir: backDir.path,
      resourcesDir,
      platform: 'test',
      startTraining: () => startSimulator(),
      secrets: keychainSecrets(privateKeychainService()),
      env: realModeEnv(front.provider.url),
      providerTimeoutMs: 1_000,
      now: () => new Date(Date.now() - 90_000),
    })
    try {
      valueOf(await front.counter.call('settings.save', { shopName: SHOP, counterName: 'Counter 1', ...officeFields() }))
      valueOf(await back.call('settings.save', { shopName: SHOP, counterName: 'Counter 2', ...officeFields() }))
      const frontAgent = await approvedAgent(front.counter, 'VLE1001')
      const backAgent = await approvedAgent(back, 'VLE2002')
      const sell = async (counter: CounterApp, vleId: string) => expect(valueOf(await counter.call('pan.coupons.sell', { vleId, type: 1, qty: 1, paymentMode: 'cash' })).state).toBe('SUCCESS')
      for (let turn = 0; turn < 4; turn++) {
        await sell(front.counter, frontAgent.vleId)
        await sell(back, backAgent.vleId)
      }
      await eventually(shipped(front.dataDir, 'sharma-mobile/counter-1'), 'the front counter shipped')
      await eventually(shipped(backDir.path, 'sharma-mobile/counter-2'), 'the back counter shipped')

      // Alone, each counter would call the other's four coupons breaks: with the office, none, and the other named.
      for (const [counter, other] of [[front.counter, 'Counter 2'], [back, 'Counter 1']] as const) {
        const summary = await summaryOf(counter)
        expect(summary.shop.judged).toBe('shop')
        expect(summary.breaks).toEqual([])
        expect(summary.shop.counters).toMatchObject([{ counter: other, couponSales: 4 }])
        expect(summary.shop.counters[0].couponPaise).toBeGreaterThan(0)
      }

      // ₹50 taken from the account outside Counter, then a coupon at the back counter: both closes name it once, −₹50.
      front.provider.pan.setBalance(front.provider.pan.balancePaise() - 50_00)
      await sell(back, backAgent.vleId)
      await sell(front.counter, frontAgent.vleId)
      await eventually(shipped(front.dataDir, 'sharma-mobile/counter-1'), 'the front counter shipped again')
      await eventually(shipped(backDir.path, 'sharma-mobile/counter-2'), 'the back counter shipped again')
      for (const counter of [front.counter, back]) {
        const summary = await summaryOf(counter)
        expect(summary.shop.judged).toBe('shop')
        expect(summary.breaks.map((b) => b.differencePaise)).toEqual([-50_00])
      }

      // The office away: the front counter cannot tell its drops from the back counter's sales, so none is a plain break.
      db.stop()
      try {
        await sell(back, backAgent.vleId)
        await sell(front.counter, frontAgent.vleId)
        const summary = await summaryOf(front.counter)
        expect(summary.shop.judged).toBe('unsure')
        expect(summary.breaks).toEqual([])
        expect(summary.shop.maybeOthers.length).toBeGreaterThan(0)
        expect(summary.shop.reason).toMatch(/could not be asked of the office/)
        expect(summary.shop.maybeOthers.some((b) => b.differencePaise < 0)).toBe(true)
        // The Z report says the same.
        const report = valueOf(await front.counter.call('day.report', { businessDay: summary.businessDay, format: 'csv' })).content
        expect(report).toContain("Balance changes that may be another counter's")
        // Closed while the office is away: the close keeps the same judgement, asked once before its closing section.
        const counted = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
        const closed = valueOf(await front.counter.call('day.close', { businessDay: summary.businessDay, openingFloat: '0', counted }))
        expect(closed.shop).toMatchObject({ judged: 'unsure', reason: summary.shop.reason })
        expect(closed.breaks).toEqual([])
      } finally {
        db.start()
      }
    } finally {
      await back.close()
      backDir.remove()
      await front.close()
    }
  })

  test("a shop's only counter, the office away: a real outside debit is its own break, not another counter's", { timeout: 60_000 }, async () => {
    const only: RealModeRig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } })
    try {
      valueOf(await only.counter.call('settings.save', { shopName: 'Gupta Stores', counterName: 'Counter 1', ...officeFields() }))
      const agent = await approvedAgent(only.counter, 'VLE3003')
      const sell = async () => expect(valueOf(await only.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1, paymentMode: 'cash' })).state).toBe('SUCCESS')
      await sell()
      await eventually(shipped(only.dataDir, 'gupta-stores/counter-1'), 'the counter shipped')
      // The office answers: no other counter in this shop, so the counter's breaks are its own.
      expect((await summaryOf(only.counter)).shop).toMatchObject({ judged: 'counter', counters: [] })

      db.stop()
      try {
        only.provider.pan.outsideDebit(50_00)
        await sell()
        const summary = await summaryOf(only.counter)
        expect(summary.shop).toMatchObject({ judged: 'counter', maybeOthers: [] })
        expect(summary.breaks.map((b) => b.differencePaise)).toEqual([-50_00])
      } finally {
        db.start()
      }
    } finally {
      await only.close()
    }
  })
})
