// Connections that scale (issue #28): three times as many counters as the office's PostgreSQL takes connections each connect for a batch and let go; every line gets in, none is told of a failure.
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { OfficeStatus } from '../../electron/contract'
import type { Ledger } from '../../electron/ledger/ledger'
import { officeFull, runShipper, unreachableWords, type Shipper } from '../../electron/office/shipper'
import { english } from '../../electron/shared/words'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { journalDirOf, journalEntries, namedLedger, officeOf, sell } from './office-rig'

const MAX_CONNECTIONS = 20
const COUNTERS = 60

let db: TestPostgres
const folders: { remove(): void }[] = []
beforeAll(async () => {
  db = await startTestPostgres({ maxConnections: MAX_CONNECTIONS })
})
afterAll(() => {
  db?.remove()
  for (const made of folders) made.remove()
})

interface Till {
  dir: string
  terminalId: string
  ledger: Ledger
  statuses: OfficeStatus[]
  shipper?: Shipper
}

test(`${COUNTERS} counters ship every line into an office of max_connections ${MAX_CONNECTIONS}, none told of a failure; quiet, they hold no connection`, { timeout: 240_000 }, async () => {
  // The owner's page, say: one connection held throughout, and the test's only way to look at the office (another might find no slot).
  const page = new pg.Client(officeOf(db))
  await page.connect()
  const tills: Till[] = []
  let watching = true
  try {
    for (let i = 0; i < COUNTERS; i++) {
      const made = tempDir('counter-conn-')
      folders.push(made)
      const terminal = { terminalId: `many-counters/counter-${i}`, shop: 'Many Counters', counter: `Counter ${i}` }
      const ledger = await namedLedger(made.path, terminal)
      sell(ledger, `C${i}-`, 0, 3)
      tills.push({ dir: made.path, terminalId: terminal.terminalId, ledger, statuses: [] })
    }
    const counterConnections = async () => Number((await page.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'counter %'")).rows[0].n)
    let peak = 0
    const watch = (async () => {
      while (watching) {
        peak = Math.max(peak, await counterConnections())
        await new Promise((done) => setTimeout(done, 50))
      }
    })()
    /** The office holds exactly every till's journal, line for line. */
    const allShipped = async () => {
      const asked = await page
        .query<{ terminal: string; seqs: string[]; hashes: string[] }>('SELECT terminal, array_agg(seq ORDER BY seq) AS seqs, array_agg(hash ORDER BY seq) AS hashes FROM entries GROUP BY terminal')
        // Until the first counter in has set the office up, it has no entries table: nothing is shipped yet.
        .catch((error: { code?: string }) => {
          if (error.code === '42P01') return null
          throw error
        })
      if (asked === null) return false
      const { rows } = asked
      const held = new Map(rows.map((row) => [row.terminal, row]))
      return tills.every((till) => {
        const journal = journalEntries(till.dir)
        const office = held.get(till.terminalId)
        return office !== undefined && office.seqs.map(Number).join() === journal.map((entry) => entry.seq).join() && office.hashes.join() === journal.map((entry) => entry.hash).join()
      })
    }
    const started = Date.now()
    for (const till of tills) {
      till.shipper = runShipper({ journalDir: journalDirOf(till.dir), terminal: { terminalId: till.terminalId, shop: 'Many Counters', counter: till.terminalId.split('/')[1] }, office: officeOf(db), onStatus: (status) => till.statuses.push(status), pollMs: 50, backoff: { firstMs: 100, maxMs: 1_000 } })
    }
    // The office is full while they ship: a connection more is refused as too many clients, which a shipper takes as busy, not away.
    const refusal = await eventually(async () => {
      const probe = new pg.Client(officeOf(db))
      probe.on('error', () => undefined)
      try {
        await probe.connect()
        await probe.end()
        return null
      } catch (error) {
        await probe.end().catch(() => undefined)
        return error
      }
    }, 'the office full', 30_000)
    expect(officeFull(refusal)).toBe(true)
    expect(english(unreachableWords(refusal, officeOf(db)))).toMatch(/no free connection/)
    await eventually(allShipped, 'every line of every counter in the office', 180_000)
    const firstRound = Date.now() - started
    // Quiet, each lets go after its linger: none holds a connection.
    await eventually(async () => (await counterConnections()) === 0, 'no counter connected', 20_000)
    const quiet = await counterConnections()

    // One more sale at each: each connects again for its line.
    for (const [i, till] of tills.entries()) sell(till.ledger, `C${i}-`, 3, 1)
    await eventually(allShipped, 'the next sale of every counter in the office', 180_000)
    watching = false
    await watch
    await eventually(() => Promise.resolve(tills.every((till) => till.statuses.at(-1)?.state === 'caught-up' && till.statuses.at(-1)?.behind === 0)), 'every counter caught up on its status bar')
    for (const till of tills) expect(till.statuses.filter((status) => status.state === 'unreachable' || status.state === 'refused')).toEqual([])
    expect(peak).toBeLessThanOrEqual(MAX_CONNECTIONS - 1)
    console.log(`${COUNTERS} counters, max_connections ${MAX_CONNECTIONS}: first lines all in after ${firstRound} ms, at most ${peak} counter connections at once, ${quiet} once quiet`)
  } finally {
    watching = false
    await Promise.all(tills.map((till) => till.shipper?.stop()))
    await Promise.all(tills.map((till) => till.ledger.close()))
    await page.end()
  }
})
