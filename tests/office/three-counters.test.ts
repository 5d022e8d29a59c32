// A shop day at three counters on one provider account, as a real shop has it: one PC's clock 90 s slow, coupons and recharges with service charges, the office's PostgreSQL stopped and started mid-day, and one real outside debit. No false break at any counter or on the office page; the real one everywhere, once; earned and entries alike at both ends.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startCounter } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { ledgerDir } from '../../electron/counter/session'
import { officeDayPage } from '../../electron/office/office-page'
import { OfficeReader } from '../../electron/office/office-view'
import { startSimulator } from '../../electron/simulator/server'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { approvedAgent, eventually, privateKeychainService, realModeEnv, resourcesDir, startRealModeRig, tempDir, valueOf, type RealModeRig } from '../integration/helpers'
import { journalEntries, officeEntries, officeOf } from './office-rig'

const ZONE = 'Asia/Kolkata'
const SHOP = 'Verma Telecom'
const SLOW_MS = 90_000

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

interface Till {
  counter: CounterApp
  dataDir: string
  terminalId: string
  vleId: string
}

const summaryOf = async (till: Till) => valueOf(await till.counter.call('day.summary', {}))
/** The office holds exactly the counter's journal, line for line. */
const shipped = (till: Till) => async () => (await officeEntries(db, till.terminalId).catch(() => [])).length === journalEntries(ledgerDir(till.dataDir, 'real')).length

test('three counters, one 90 s slow, the office away mid-day, one outside debit: one break everywhere, the same earnings and entries at both ends', { timeout: 180_000 }, async () => {
  const first: RealModeRig = await startRealModeRig({ pan: { balancePaise: 20_000_00 } })
  const folders = [tempDir(), tempDir()]
  // Counters 2 and 3 sell through the same provider account; counter 2's PC runs 90 s slow.
  const others = await Promise.all(
    folders.map((folder, index) =>
      startCounter({
        dataDir: folder.path,
        resourcesDir,
        platform: 'test',
        startTraining: () => startSimulator(),
        secrets: keychainSecrets(privateKeychainService()),
        env: realModeEnv(first.provider.url),
        providerTimeoutMs: 1_000,
        now: index === 0 ? () => new Date(Date.now() - SLOW_MS) : undefined,
      }),
    ),
  )
  try {
    const apps = [first.counter, ...others]
    const dataDirs = [first.dataDir, ...folders.map((folder) => folder.path)]
    const tills: Till[] = []
    for (const [index, counter] of apps.entries()) {
      const n = index + 1
      valueOf(
        await counter.call('settings.save', {
          shopName: SHOP,
          counterName: `Counter ${n}`,
          serviceChargeCap: '20',
          officeHost: '127.0.0.1',
          officePort: db.port,
          officeDatabase: db.database,
          officeUser: db.user,
          officeTls: false,
          officePassword: db.password,
        }),
      )
      valueOf(await counter.call('margins.saveRates', { operators: [{ operatorCode: 'AT', kind: 'percent', value: '2' }], coupons: { p: '5', e: '' } }))
      const agent = await approvedAgent(counter, `VLE300${n}`)
      tills.push({ counter, dataDir: dataDirs[index], terminalId: `verma-telecom/counter-${n}`, vleId: agent.vleId })
    }
    let numbers = 0
    /** One coupon and one recharge at a counter, each with a service charge. */
    const sellBoth = async (till: Till) => {
      const coupon = valueOf(await till.counter.call('pan.coupons.sell', { vleId: till.vleId, type: 1, qty: 1, paymentMode: 'cash', collected: '110' }))
      expect(coupon.state).toBe('SUCCESS')
      const number = `98765${String(++numbers).padStart(5, '0')}`
      const recharge = valueOf(await till.counter.call('recharge.sell', { kind: 'mobile', number, operatorCode: 'AT', amount: '199', collected: '205', paymentMode: 'upi' }))
      expect(recharge.state).toBe('SUCCESS')
    }
    const round = async () => {
      for (const till of tills) await sellBoth(till)
    }

    await round()
    await round()
    for (const till of tills) await eventually(shipped(till), `${till.terminalId} shipped`, 30_000)

    // The office's PostgreSQL stops mid-day; every counter goes on selling, then it comes back.
    db.stop()
    try {
      await round()
    } finally {
      db.start()
    }
    // ₹50 leaves the account outside Counter, then all three sell on.
    first.provider.pan.outsideDebit(50_00)
    await round()
    for (const till of tills) await eventually(shipped(till), `${till.terminalId} caught up after the office came back`, 60_000)

    // Every counter: the others' coupons explained by name, the one outside debit its only break.
    const summaries = []
    for (const till of tills) {
      const summary = await summaryOf(till)
      expect(summary.shop.judged, till.terminalId).toBe('shop')
      expect(summary.breaks.map((b) => b.differencePaise), till.terminalId).toEqual([-50_00])
      expect(summary.shop.maybeOthers).toEqual([])
      expect(summary.shop.counters.map((c) => [c.counter, c.couponSales]).sort()).toEqual(
        [1, 2, 3].filter((n) => `verma-telecom/counter-${n}` !== till.terminalId).map((n) => [`Counter ${n}`, 4]),
      )
      summaries.push(summary)
    }

    const reader = new OfficeReader(officeOf(db))
    try {
      const day = summaries[0].businessDay
      const view = await reader.day(day, ZONE)
      // The office page: the same one break, at whichever counter's answer first showed it.
      expect(view.breaks.map((b) => b.breakPaise)).toEqual([-50_00n])
      const html = officeDayPage(view, { timeZone: ZONE, now: new Date(), address: { token: 'x'.repeat(32), day, to: null, refresh: false } })
      const breaks = html.slice(html.indexOf('<h2>PAN balance breaks'), html.indexOf('<h2>Day closes'))
      expect(breaks.match(/<tr><td/g)).toHaveLength(1)
      expect(breaks).toContain('-₹50.00')

      // Earned is commission plus service charges at both ends, per counter and for the shop.
      for (const [index, till] of tills.entries()) {
        const atCounter = summaries[index].earnings!.total
        // Four coupons (₹5 and ₹3 charged above ₹107 each) and four recharges (2% of ₹199 and ₹6 each).
        expect(atCounter).toMatchObject({ marginPaise: 4 * 5_00 + 4 * 3_98, serviceChargePaise: 4 * 3_00 + 4 * 6_00 })
        const atOffice = view.margins.filter((row) => row.terminal === till.terminalId).reduce((sum, row) => sum + row.earnedPaise, 0n)
        expect(atOffice, till.terminalId).toBe(BigInt(atCounter.earnedPaise))
      }

      // Entries: the office holds each counter's journal line for line, nothing twice (the summaries' own lines too).
      for (const till of tills) {
        await eventually(shipped(till), `${till.terminalId} shipped its last lines`, 30_000)
        const atOffice = await officeEntries(db, till.terminalId)
        const journal = journalEntries(ledgerDir(till.dataDir, 'real'))
        expect(atOffice.map((entry) => entry.seq)).toEqual(journal.map((entry) => entry.seq))
        expect(atOffice.map((entry) => entry.hash)).toEqual(journal.map((entry) => entry.hash))
      }
    } finally {
      await reader.close()
    }
  } finally {
    for (const counter of others) await counter.close()
    for (const folder of folders) folder.remove()
    await first.close()
  }
})
