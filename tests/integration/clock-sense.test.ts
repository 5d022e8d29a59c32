// Clock sense through the whole core in REAL mode: a clock far ahead or behind the journal's last
// entry books, closes and archives nothing until the owner confirms it; no sale lands on a closed day.
import { copyFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Result } from '../../electron/contract'
import { ledgerDir } from '../../electron/counter/session'
import { eventually, journalOf, startRealModeRig, type RealModeRig, valueOf } from './helpers'

const DAY_MS = 24 * 60 * 60 * 1000
/** 10:30 in India on a Monday of FY2026-27. */
const BASE = Date.parse('2026-11-23T05:00:00.000Z')
const sale = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', amount: '10' }) as const
const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }

let rig: RealModeRig | undefined
let clock = BASE
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const codeOf = (result: Result<unknown>) => (result.ok ? 'ok' : result.error.code)
/** Recharge orders that reached the provider. */
const transactionsSent = (r: RealModeRig) => r.provider.requests.filter((req) => req.operation === 'transaction').length
const archiveOf = (r: RealModeRig, year: string) => join(ledgerDir(r.dataDir, 'real'), 'archive', `${year}.sqlite`)

/**
 * A shop with one sale at BASE, then a restart with the clock at `at`, once that start's own reading
 * of the PAN balance is journaled: it is recorded whatever the clock says (clock-sense.ts), in the
 * background after the start, so a count of lines taken before it lands would count it as booked.
 */
async function shopRestartedAt(at: number): Promise<RealModeRig> {
  clock = BASE
  const r = await startRealModeRig({}, { now: () => new Date(clock) })
  expect(valueOf(await r.counter.call('recharge.sell', sale('9812345601'))).state).toBe('SUCCESS')
  clock = at
  await r.restart()
  await eventually(async () => journalOf(r).filter((line) => line.type === 'pan.balance.read').length === 2, "the second start's balance reading")
  return r
}

describe('clock sense', () => {
  it('a start 200 days ahead archives nothing and books nothing until the owner confirms; then both happen', async () => {
    rig = await shopRestartedAt(BASE + 200 * DAY_MS)
    const status = valueOf(await rig.counter.call('app.status', {}))
    expect(status.clock).toEqual({
      state: 'ahead',
      lastEntryAt: expect.stringMatching(/^2026-11-23T05:00/),
      message:
        "The computer's clock says 11-06-2027 10:30 but the last entry in the books was at 23-11-2026 10:30. " +
        'Check the date and time; if they are right, confirm them in the bar at the top.',
    })
    const seqBefore = await rig.counter.session().ledger.read('lastSeq')
    const refused = await rig.counter.call('recharge.sell', sale('9812345602'))
    expect(refused).toMatchObject({ ok: false, error: { code: 'clock_unconfirmed', message: expect.stringContaining('11-06-2027 10:30') } })
    expect(codeOf(await rig.counter.call('topups.add', { amount: '500', reference: 'UTR 1234' }))).toBe('clock_unconfirmed')
    expect(codeOf(await rig.counter.call('day.close', { businessDay: '2027-06-11', openingFloat: '0', counted: drawer }))).toBe('clock_unconfirmed')
    expect(await rig.counter.session().ledger.read('lastSeq')).toBe(seqBefore)
    expect(transactionsSent(rig)).toBe(1)
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(false)

    const confirmed = valueOf(await rig.counter.call('app.confirmClock', {}))
    expect(confirmed.clock).toMatchObject({ state: 'ok', message: null })
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(true)
    const sold = valueOf(await rig.counter.call('recharge.sell', sale('9812345602')))
    expect(sold.state).toBe('SUCCESS')
    // It stays confirmed across a restart: the confirmation is in the journal.
    await rig.restart()
    expect(valueOf(await rig.counter.call('app.status', {})).clock.state).toBe('ok')
  })

  it("the tester's sequence: a confirmed start 6 months ahead, then the right clock: asked once, then sales book on today", async () => {
    rig = await shopRestartedAt(BASE + 183 * DAY_MS)
    valueOf(await rig.counter.call('app.confirmClock', {}))
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(true)
    clock = BASE + 60 * 60 * 1000
    await rig.restart()
    expect(valueOf(await rig.counter.call('app.status', {})).clock.state).toBe('behind')
    expect(codeOf(await rig.counter.call('recharge.sell', sale('9812345603')))).toBe('clock_unconfirmed')
    valueOf(await rig.counter.call('app.confirmClock', {}))
    const sold = valueOf(await rig.counter.call('recharge.sell', sale('9812345603')))
    expect(sold.state).toBe('SUCCESS')
    expect((await rig.counter.session().ledger.read('salesForDay', '2026-11-23')).map((s) => s.orderId)).toContain(sold.orderId)
    expect(valueOf(await rig.counter.call('topups.add', { amount: '1,00,000', reference: 'UTR 5678' })).businessDay).toBe('2026-11-23')
  })

  it("the year archived by the confirmed clock 6 months ahead comes back: today's earlier sales count, once, after a crash too", async () => {
    clock = BASE
    rig = await startRealModeRig({}, { now: () => new Date(clock) })
    const earlier = valueOf(await rig.counter.call('recharge.sell', sale('9812345601'))).orderId
    const topup = valueOf(await rig.counter.call('topups.add', { amount: '500', reference: 'UTR 1234' }))
    clock = BASE + 183 * DAY_MS
    await rig.restart()
    valueOf(await rig.counter.call('app.confirmClock', {}))
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(true)
    clock = BASE + 60 * 60 * 1000
    await rig.restart()
    const confirmed = valueOf(await rig.counter.call('app.confirmClock', {}))
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(false)
    const archiveDir = join(ledgerDir(rig.dataDir, 'real'), 'archive')
    const [asideAs] = readdirSync(archiveDir).filter((name) => name.startsWith('FY2026-27.sqlite.restored-'))
    expect(confirmed.books.notices).toContain(
      `The books of FY2026-27 had been archived while the computer's clock was set ahead; that year's sales, top-ups and day closes are back in the books. The archive file was kept as archive/${asideAs}.`,
    )
    const later = valueOf(await rig.counter.call('recharge.sell', sale('9812345603'))).orderId

    const todayShows = async (r: RealModeRig) => {
      const summary = valueOf(await r.counter.call('day.summary', {}))
      expect(summary.businessDay).toBe('2026-11-23')
      expect(summary.recharges).toEqual([expect.objectContaining({ operatorCode: 'AT', state: 'SUCCESS', count: 2, amountPaise: 2000 })])
      expect(summary.topups).toEqual([topup])
      const history = valueOf(await r.counter.call('history.search', {}))
      expect(history).toMatchObject({ total: 2, archives: [] })
      expect(history.rows.map((row) => row.id)).toEqual([later, earlier])
    }
    await todayShows(rig)
    // A crash after the snapshot took the rows but before the archive was set aside: the file is back
    // beside them at the next start, which restores it again without doubling a sale.
    await rig.restart(() => copyFileSync(join(archiveDir, asideAs), archiveOf(rig!, 'FY2026-27')))
    await todayShows(rig)
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(false)
  })

  it('one unconfirmed start 6 months ahead leaves nothing behind: with the right clock sales go on at once', async () => {
    rig = await shopRestartedAt(BASE + 183 * DAY_MS)
    clock = BASE + 60 * 60 * 1000
    await rig.restart()
    expect(valueOf(await rig.counter.call('app.status', {})).clock.state).toBe('ok')
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345604'))).state).toBe('SUCCESS')
    expect(existsSync(archiveOf(rig, 'FY2026-27'))).toBe(false)
  })

  it('a clock one day back after today is closed books nothing on the closed day, confirmed or not', async () => {
    clock = BASE
    rig = await startRealModeRig({}, { now: () => new Date(clock) })
    valueOf(await rig.counter.call('recharge.sell', sale('9812345605')))
    valueOf(await rig.counter.call('day.close', { businessDay: '2026-11-23', openingFloat: '0', counted: { ...drawer, coins: '10' } }))
    clock = BASE - DAY_MS
    expect(codeOf(await rig.counter.call('recharge.sell', sale('9812345606')))).toBe('clock_unconfirmed')
    valueOf(await rig.counter.call('app.confirmClock', {}))
    // The day before the closed one is before it in the books too: they close in order.
    expect(codeOf(await rig.counter.call('recharge.sell', sale('9812345606')))).toBe('day_closed')
    expect(transactionsSent(rig)).toBe(1)
  })

  it('within the tolerances nothing is asked: a day later, a minute back', async () => {
    clock = BASE
    rig = await startRealModeRig({}, { now: () => new Date(clock) })
    valueOf(await rig.counter.call('recharge.sell', sale('9812345607')))
    clock = BASE + DAY_MS
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345608'))).state).toBe('SUCCESS')
    clock = BASE + DAY_MS - 60 * 1000
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345609'))).state).toBe('SUCCESS')
    clock = BASE - 10 * 60 * 1000
    expect(valueOf(await rig.counter.call('app.status', {})).clock.state).toBe('behind')
    expect(codeOf(await rig.counter.call('recharge.sell', sale('9812345610')))).toBe('clock_unconfirmed')
  })
})
