// Journal shipping to a real PostgreSQL: convergence, crashes on either side, tampering and forks refused.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listSegments } from '../../electron/ledger/segments'
import { ingestBatch, OfficeRefusal, registerTerminal } from '../../electron/office/ingest'
import { migrateOffice } from '../../electron/office/migrations'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { journalDirOf, journalEntries, namedLedger, officeEntries, officeOf, query, sell, ship } from './office-rig'
import { english } from '../../electron/shared/words'

const REPO_ROOT = resolve(__dirname, '../..')
const CHILD = join(__dirname, 'ship-child.ts')
/** The tests that write a 10,000-line journal (one fsync per sale) and ship it: on a busy two-core machine that can take 30 s. */
const HEAVY_MS = 120_000

let db: TestPostgres
const folders: { remove(): void }[] = []
const folder = () => {
  const made = tempDir('counter-office-')
  folders.push(made)
  return made.path
}

beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => {
  db?.remove()
  for (const made of folders) made.remove()
})

/** The office holds exactly the journal: every entry once, in order, with the journal's own hashes. */
async function expectConverged(ledgerDir: string, terminal: string) {
  const journal = journalEntries(ledgerDir).map(({ seq, hash, type }) => ({ seq, hash, type }))
  expect(await officeEntries(db, terminal)).toEqual(journal)
}

const caughtUpWith = (ledgerDir: string, terminal: string) => async () => {
  const [row] = await query<{ last_seq: string }>(db, 'SELECT last_seq FROM terminals WHERE terminal = $1', [terminal]).catch(() => [])
  return row && Number(row.last_seq) === journalEntries(ledgerDir).length
}

describe('journal shipping', () => {
  test('two terminals selling at once converge in the office, every entry once and in order', async () => {
    const [dirA, dirB] = [folder(), folder()]
    const a = { terminalId: 'sharma-mobile/counter-1', shop: 'Sharma Mobile', counter: 'Counter 1' }
    const b = { terminalId: 'sharma-mobile/counter-2', shop: 'Sharma Mobile', counter: 'Counter 2' }
    const [ledgerA, ledgerB] = [await namedLedger(dirA, a), await namedLedger(dirB, b)]
    const shippers = [ship(dirA, a, officeOf(db), { batchSize: 50 }), ship(dirB, b, officeOf(db), { batchSize: 50 })]
    // Both keep selling while both ship: 40 rounds of 10 sales each, the event loop free between rounds.
    for (let round = 0; round < 40; round++) {
      sell(ledgerA, 'A', round * 10, 10)
      sell(ledgerB, 'B', round * 10, 10)
      await new Promise((done) => setTimeout(done, 5))
    }
    await eventually(caughtUpWith(dirA, a.terminalId), 'counter 1 caught up', 30_000)
    await eventually(caughtUpWith(dirB, b.terminalId), 'counter 2 caught up', 30_000)
    await Promise.all(shippers.map((s) => s.link.stop()))
    await expectConverged(dirA, a.terminalId)
    await expectConverged(dirB, b.terminalId)
    expect(shippers[0].last()).toMatchObject({ state: 'caught-up', behind: 0 })
    // The office's first view: 400 successful ₹199 sales per counter.
    const byDay = await query<{ terminal: string; sales: string; amount_paise: string }>(db, 'SELECT terminal, sales, amount_paise FROM recharge_sales_by_day ORDER BY terminal')
    expect(byDay).toEqual([
      { terminal: a.terminalId, sales: '400', amount_paise: String(400 * 19900) },
      { terminal: b.terminalId, sales: '400', amount_paise: String(400 * 19900) },
    ])
    await Promise.all([ledgerA.close(), ledgerB.close()])
  })

  test('kill -9 of the shipping process mid-batch, then a restart: nothing lost, nothing doubled', async () => {
    const dir = folder()
    const terminal = { terminalId: 'verma-store/front', shop: 'Verma Store', counter: 'Front' }
    const ledger = await namedLedger(dir, terminal)
    sell(ledger, 'K', 0, 5_000)
    await ledger.close()
    const total = journalEntries(dir).length
    const options = { journalDir: journalDirOf(dir), terminal, office: officeOf(db), batchSize: 100, pollMs: 50, backoff: { firstMs: 100, maxMs: 1_000 } }
    const startChild = () => spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    const first = startChild()
    const shippedBeforeKill = await eventually(async () => {
      const [row] = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM entries WHERE terminal = $1', [terminal.terminalId]).catch(() => [{ n: '0' }])
      return Number(row.n) > 0 ? Number(row.n) : null
    }, 'the first batches', 20_000)
    first.kill('SIGKILL')
    await new Promise((done) => first.once('exit', done))
    const [atKill] = await query<{ n: string; last_seq: string }>(db, 'SELECT (SELECT count(*) FROM entries WHERE terminal = $1) AS n, last_seq FROM terminals WHERE terminal = $1', [terminal.terminalId])
    // Killed while there was more to send: a real mid-stream death, with what it committed acknowledged and nothing more.
    expect(Number(atKill.n)).toBeGreaterThanOrEqual(shippedBeforeKill)
    expect(Number(atKill.n)).toBeLessThan(total)
    expect(Number(atKill.last_seq)).toBe(Number(atKill.n))
    const second = startChild()
    try {
      await eventually(caughtUpWith(dir, terminal.terminalId), 'the restarted shipper caught up', 30_000)
    } finally {
      second.kill('SIGKILL')
    }
    await expectConverged(dir, terminal.terminalId)
  }, HEAVY_MS)

  test('PostgreSQL restarted mid-batch: the shipper backs off, reconnects and catches up', async () => {
    const dir = folder()
    const terminal = { terminalId: 'verma-store/back', shop: 'Verma Store', counter: 'Back' }
    const ledger = await namedLedger(dir, terminal)
    sell(ledger, 'R', 0, 5_000)
    const shipper = ship(dir, terminal, officeOf(db), { batchSize: 100 })
    await eventually(() => Promise.resolve(shipper.statuses.some((s) => s.state === 'shipping')), 'shipping under way', 20_000)
    db.restart()
    // Sales go on meanwhile, into the same journal.
    sell(ledger, 'R', 5_000, 100)
    await eventually(caughtUpWith(dir, terminal.terminalId), 'caught up after the restart', 30_000)
    await shipper.link.stop()
    await ledger.close()
    expect(shipper.statuses.some((s) => s.state === 'unreachable' && s.unreachableSince !== null && /closed the connection|refused the connection/.test(english(s.message ?? '')))).toBe(true)
    await expectConverged(dir, terminal.terminalId)
  }, HEAVY_MS)

  test('an entry edited in the journal is refused and reported; nothing from it on is shipped', async () => {
    const dir = folder()
    const terminal = { terminalId: 'gupta-telecom/1', shop: 'Gupta Telecom', counter: '1' }
    const ledger = await namedLedger(dir, terminal)
    sell(ledger, 'T', 0, 10)
    await ledger.close()
    // Entry #10 is the 5th sale's intent: ₹199 becomes ₹299 in the file, its hash left as it was.
    const [segment] = listSegments(journalDirOf(dir))
    const lines = readFileSync(segment.file, 'utf8').split('\n')
    expect(JSON.parse(lines[9]).type).toBe('recharge.intent')
    lines[9] = lines[9].replace('"amountPaise":19900', '"amountPaise":29900')
    writeFileSync(segment.file, lines.join('\n'))
    const shipper = ship(dir, terminal, officeOf(db), { batchSize: 4 })
    const refused = await eventually(() => Promise.resolve(shipper.statuses.find((s) => s.state === 'refused')), 'the refusal')
    await shipper.link.stop()
    expect(english(refused.message ?? '')).toMatch(/Journal entry #10 .* is not as it was written: its contents do not match its hash.*everything after it stay unshipped/)
    expect((await officeEntries(db, terminal.terminalId)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  test('a different entry at a position the office acknowledged is a fork: refused, reported, the office unchanged', async () => {
    const terminal = { terminalId: 'khan-recharge/main', shop: 'Khan Recharge', counter: 'Main' }
    const [original, other] = [folder(), folder()]
    const first = await namedLedger(original, terminal)
    sell(first, 'F', 0, 5)
    await first.close()
    const shipper = ship(original, terminal, officeOf(db))
    await eventually(caughtUpWith(original, terminal.terminalId), 'the original shipped')
    await shipper.link.stop()
    const before = await officeEntries(db, terminal.terminalId)
    // Another folder with the same terminal name (a copied data folder) that sold other things.
    const copy = await namedLedger(other, terminal)
    sell(copy, 'G', 0, 8)
    await copy.close()

    // As the shipper meets it: the journal differs from what the office holds at its last acknowledged entry.
    const forked = ship(other, terminal, officeOf(db))
    const refused = await eventually(() => Promise.resolve(forked.statuses.find((s) => s.state === 'refused')), 'the fork refusal')
    await forked.link.stop()
    // Both journals begin with the same naming line (the same clock): they part at #2, and all 16 of this one's entries from there wait.
    expect(english(refused.message ?? '')).toMatch(/sends its journal to the office as khan-recharge\/main .*the two part at entry #2\. This counter's 16 entries from there are kept here/)
    expect(refused).toMatchObject({ fork: { partsAt: 2 }, behind: 16, acknowledged: 1 })
    expect(await query(db, 'SELECT part_seq, claimant_hash, resolved_as FROM terminal_forks WHERE terminal = $1', [terminal.terminalId])).toEqual([
      { part_seq: '2', claimant_hash: journalEntries(other)[1].hash, resolved_as: null },
    ])

    // As the office meets it: the same positions resent with other contents (ON CONFLICT, then the hashes compared).
    const client = new pg.Client(officeOf(db))
    await client.connect()
    try {
      await migrateOffice(client)
      expect(await registerTerminal(client, terminal)).toEqual({ seq: before.length, hash: before.at(-1)!.hash })
      const theirs = journalEntries(other).slice(0, 3)
      const refusal = await ingestBatch(client, terminal.terminalId, theirs).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(OfficeRefusal)
      expect(english((refusal as OfficeRefusal).message)).toMatch(/already holds a different entry #2 from khan-recharge\/main.*a fork/)
      // The original's own entries resent: a no-op, acknowledged where it was.
      expect(await ingestBatch(client, terminal.terminalId, journalEntries(original).slice(0, 3))).toEqual({ seq: before.length, hash: before.at(-1)!.hash })
    } finally {
      await client.end()
    }
    expect(await officeEntries(db, terminal.terminalId)).toEqual(before)
  })
})
