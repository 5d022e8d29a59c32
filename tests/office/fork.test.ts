// A fork (issue #31): a copied data folder reaches the office first, the original is refused, the office shows both and
// where they part, the original's bar counts what waits, and registering it as a new terminal ships all of it: nothing missing, nothing twice.
import { cpSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { ledgerDir } from '../../electron/counter/session'
import { officeDayPage } from '../../electron/office/office-page'
import { OfficeReader, officeToday } from '../../electron/office/office-view'
import { english } from '../../electron/shared/words'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, startRealModeRig, tempDir, valueOf, type RealModeRig } from '../integration/helpers'
import { journalEntries, officeEntries, officeOf, officeStatusNow, query } from './office-rig'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

const TERMINAL = 'sharma-mobile/counter-1'
const PIN = '482913'
const TIME_ZONE = 'Asia/Kolkata'
const officeFields = () => ({ officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false, officePassword: db.password })

async function sell(counter: CounterApp, first: number, count: number): Promise<void> {
  for (let i = first; i < first + count; i++) {
    const sold = valueOf(await counter.call('recharge.sell', { kind: 'mobile', number: `98${String(76500000 + i)}`, operatorCode: 'AT', circle: 'DL', amount: '199' }))
    expect(sold.state).toBe('SUCCESS')
  }
}

async function officePage() {
  const reader = new OfficeReader(officeOf(db))
  try {
    const view = await reader.day(officeToday(new Date(), TIME_ZONE), TIME_ZONE)
    return { view, html: officeDayPage(view, { timeZone: TIME_ZONE, now: new Date(), address: { token: 't', day: null, to: null, refresh: false } }) }
  } finally {
    await reader.close()
  }
}

/** The Terminals table's row of `label` (a terminal's shown name). */
const terminalRow = (html: string, label: string) => html.split('<tr>').find((row) => row.startsWith(`<td>${label}</td>`)) ?? ''

describe('a fork: two counters claiming one terminal', () => {
  test('the copy registers first: both visible with where they part, the original counts what waits, and registered anew ships all of it', async () => {
    const original: RealModeRig = await startRealModeRig()
    const copyDir = tempDir('counter-fork-copy-')
    let copy: RealModeRig | null = null
    try {
      // Named, three sales, then the data folder copied while the counter is closed (a second counter set up from it).
      valueOf(await original.counter.call('settings.save', { shopName: 'Sharma Mobile', counterName: 'Counter 1' }))
      await sell(original.counter, 0, 3)
      await original.restart(() => cpSync(original.dataDir, copyDir.path, { recursive: true }))
      copy = await startRealModeRig({}, { dataDir: copyDir.path })
      const [originalLedger, copyLedger] = [ledgerDir(original.dataDir, 'real'), ledgerDir(copyDir.path, 'real')]

      // Both sell on apart; the copy reaches the office first and ships everything it has under the shared id.
      await sell(copy.counter, 100, 5)
      await sell(original.counter, 3, 20)
      valueOf(await copy.counter.call('settings.save', officeFields()))
      await eventually(async () => (await officeEntries(db, TERMINAL).catch(() => [])).length === journalEntries(copyLedger).length, 'the copy shipped')

      // The original is refused: a fork, with every line the office lacks from it counted as waiting.
      valueOf(await original.counter.call('settings.save', officeFields()))
      const refused = await eventually(async () => {
        const office = await officeStatusNow(original.counter)
        return office?.state === 'refused' && office.fork ? office : null
      }, 'the original refused as a fork')
      const mine = journalEntries(originalLedger)
      const theirs = journalEntries(copyLedger)
      // The refused counter never passes for the holder: the id's journal end is still the copy's.
      expect(await query<{ journal_end: string }>(db, 'SELECT journal_end FROM terminals WHERE terminal = $1', [TERMINAL])).toEqual([{ journal_end: String(theirs.length) }])
      const partsAt = refused.fork!.partsAt
      // Where they part: the first entry the two journals hold differently, at most one past what was copied.
      expect(mine.slice(0, partsAt - 1).map((e) => e.hash)).toEqual(theirs.slice(0, partsAt - 1).map((e) => e.hash))
      expect(mine[partsAt - 1].hash).not.toBe(theirs[partsAt - 1].hash)
      expect(partsAt).toBeGreaterThan(1)
      const held = new Set((await officeEntries(db, TERMINAL)).map((e) => `${e.seq}:${e.hash}`))
      const waiting = mine.filter((e) => !held.has(`${e.seq}:${e.hash}`)).length
      expect(waiting).toBeGreaterThanOrEqual(40)
      await eventually(async () => (await officeStatusNow(original.counter))?.behind === mine.length - (partsAt - 1), 'behind counts what waits')
      expect(refused.behind).toBe(waiting)
      expect(refused.terminalId).toBe(TERMINAL)
      expect(english(refused.message ?? '')).toMatch(new RegExp(`part at entry #${partsAt}. This counter's ${waiting} entries from there are kept here`))
      // Its lines are its own still: nothing of the journal was dropped.
      expect(mine.length).toBeGreaterThan(theirs.length - 5)

      // The office shows both claimants and where they part, and never calls the id up to date.
      const forked = await officePage()
      expect(forked.view.forks).toMatchObject([
        { terminal: TERMINAL, partSeq: BigInt(partsAt), officeHash: theirs[partsAt - 1].hash, claimantHash: mine[partsAt - 1].hash, claimantShop: 'Sharma Mobile', claimantCounter: 'Counter 1', resolvedAs: null },
      ])
      expect(forked.html).toContain('Forks: two counters claiming one terminal')
      expect(forked.html).toContain(`forked: another counter claims this id; they part at entry #${partsAt}`)
      expect(terminalRow(forked.html, 'Sharma Mobile · Counter 1')).not.toContain('up to date')
      expect(forked.html).toContain(`${mine[partsAt - 1].hash.slice(0, 12)}`)
      expect(forked.html).toContain(`${theirs[partsAt - 1].hash.slice(0, 12)}`)

      // Staff cannot take the way back; the owner can, once.
      valueOf(await original.counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
      valueOf(await original.counter.call('roles.lock', {}))
      const linesBefore = journalEntries(originalLedger).length
      expect(await original.counter.call('office.registerAnew', { terminalId: TERMINAL })).toMatchObject({ ok: false, error: { code: 'owner_only' } })
      expect(journalEntries(originalLedger).length).toBe(linesBefore)
      valueOf(await original.counter.call('roles.unlock', { pin: PIN }))
      const renamed = valueOf(await original.counter.call('office.registerAnew', { terminalId: TERMINAL })).terminalId
      expect(renamed).toMatch(/^sharma-mobile\/counter-1-[0-9a-f]{6}$/)
      expect(await original.counter.call('office.registerAnew', { terminalId: TERMINAL })).toMatchObject({ ok: false, error: { code: 'not_configured' } })
      expect(journalEntries(originalLedger).at(-1)).toMatchObject({ type: 'terminal.named', data: { terminalId: renamed, replaces: { terminalId: TERMINAL, sharedThrough: partsAt - 1 } } })

      // Sales go on, and everything ships under the new id.
      await sell(original.counter, 23, 2)
      const all = journalEntries(originalLedger)
      await eventually(async () => {
        const office = await officeStatusNow(original.counter)
        return office?.state === 'caught-up' && office.terminalId === renamed && office.behind === 0 && (await officeEntries(db, renamed)).at(-1)?.seq === all.length
      }, 'the original caught up under its new id', 20_000)

      // Nothing missing, nothing twice: the shared history once (the old id's), everything after it under the new id.
      expect(await officeEntries(db, renamed)).toEqual(all.slice(partsAt - 1).map(({ seq, hash, type }) => ({ seq, hash, type })))
      expect((await officeEntries(db, TERMINAL)).slice(0, partsAt - 1)).toEqual(all.slice(0, partsAt - 1).map(({ seq, hash, type }) => ({ seq, hash, type })))
      const intents = (entries: typeof all) => entries.filter((e) => e.type === 'recharge.intent').map((e) => String((e.data as { orderId: string }).orderId))
      const sales = await query<{ terminal: string; order_id: string; state: string }>(db, 'SELECT terminal, order_id, state FROM recharge_sales WHERE terminal IN ($1, $2)', [TERMINAL, renamed])
      const key = (terminal: string, orderId: string) => `${terminal} ${orderId}`
      const expected = [
        ...intents(theirs).map((orderId) => key(TERMINAL, orderId)),
        ...intents(all.slice(partsAt - 1)).map((orderId) => key(renamed, orderId)),
      ]
      expect(sales.map((s) => key(s.terminal, s.order_id)).sort()).toEqual(expected.sort())
      expect(sales).toHaveLength(3 + 5 + 22)
      expect(sales.every((s) => s.state === 'SUCCESS')).toBe(true)
      // Every sale the original made is in the office: its shared ones under the old id, the rest under the new.
      for (const orderId of intents(all)) expect(sales.some((s) => s.order_id === orderId), orderId).toBe(true)

      // The office shows the fork resolved, and the two counters of one name apart.
      const after = await officePage()
      expect(after.view.forks).toMatchObject([{ terminal: TERMINAL, resolvedAs: renamed }])
      expect(after.html).toContain(`registered anew as Sharma Mobile · Counter 1 (${renamed})`)
      expect(after.html).not.toContain('forked: another counter claims this id')
      expect(terminalRow(after.html, `Sharma Mobile · Counter 1 (${renamed})`)).toContain('up to date')

      // Closed and opened again, it goes on under the new id.
      await original.restart()
      await sell(original.counter, 25, 1)
      await eventually(async () => (await officeEntries(db, renamed)).at(-1)?.seq === journalEntries(originalLedger).length, 'shipping on after a restart', 20_000)
    } finally {
      await copy?.close()
      await original.close()
      copyDir.remove()
    }
  }, 120_000)
})
