// The shipper's pacing while the shop sells, against a real PostgreSQL: it rests between batches while the journal grows, and still catches up.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { OfficeStatus } from '../../electron/contract'
import { Ledger } from '../../electron/ledger/ledger'
import { startShipperThread } from '../../electron/office/shipper-link'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { shopEvents, writeTerminal, type BuiltTerminal } from '../bench/office-journals'
import { journalEntries, officeEntries, officeOf, sell } from './office-rig'
import { resolve } from 'node:path'

const RESOURCES_DIR = resolve(__dirname, '../../resources')
/** Thirty full batches of the shipper's default 500 each. */
const BACKLOG = 15_000

let db: TestPostgres
const root = tempDir('counter-pacing-')

beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => {
  db?.remove()
  root.remove()
})

/** A shipper thread at its own defaults (batches of 500, the pacing under test), and when each status arrived. */
function shipTimed(built: BuiltTerminal) {
  const statuses: { at: number; status: OfficeStatus }[] = []
  const link = startShipperThread({ journalDir: built.journalDir, terminal: built.terminal, office: officeOf(db), pollMs: 50 }, (status) => statuses.push({ at: Date.now(), status }))
  /** Milliseconds from its first batch to the one that took the office up to `seq`. */
  const shippedTo = (seq: number) => {
    const first = statuses.find((s) => (s.status.acknowledged ?? 0) > 0)
    const reached = statuses.find((s) => (s.status.acknowledged ?? 0) >= seq)
    return first && reached ? reached.at - first.at : null
  }
  return { link, statuses, shippedTo }
}

test('while a ledger keeps selling, its shipper rests between batches and still catches up; a quiet terminal ships at full speed', async () => {
  const events = shopEvents(RESOURCES_DIR, BACKLOG - 1)
  const quiet = writeTerminal(root.path, 'quiet', events)
  const selling = writeTerminal(root.path, 'selling', events)
  const ledger = await Ledger.open({ dir: selling.ledgerDir })
  let sales = 0
  // A sale every 10 ms through the real ledger (its intent fsync'd), for as long as the test lets it.
  const selling10ms = setInterval(() => sell(ledger, 'PACE', sales++, 1), 10)
  try {
    // Both at once, so whatever else the machine does falls on both alike.
    const [calm, busy] = [shipTimed(quiet), shipTimed(selling)]
    const calmMs = await eventually(() => Promise.resolve(calm.shippedTo(BACKLOG)), 'the quiet terminal shipped its backlog', 60_000)
    // It never stops: the whole backlog goes while sales are still being written…
    const busyMs = await eventually(() => Promise.resolve(busy.shippedTo(BACKLOG)), 'the selling terminal shipped its backlog while selling', 120_000)
    // …resting between its batches (at work a quarter of the time), so it takes well over the quiet one's time.
    expect(busyMs).toBeGreaterThan(2 * calmMs)
    clearInterval(selling10ms)
    const end = journalEntries(selling.ledgerDir).length
    await eventually(() => Promise.resolve(busy.statuses.some((s) => s.status.state === 'caught-up' && s.status.acknowledged === end)), 'caught up with the sales too', 60_000)
    await Promise.all([calm.link.stop(), busy.link.stop()])
    const held = await officeEntries(db, selling.terminal.terminalId)
    expect(held.map((e) => e.seq)).toEqual(journalEntries(selling.ledgerDir).map((e) => e.seq))
  } finally {
    clearInterval(selling10ms)
    await ledger.close()
  }
}, 240_000)
