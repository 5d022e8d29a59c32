// A counter rebuilt from the head office (issue #30 part 3): its journal byte for byte, its day the same, selling on as the same terminal with no fork; refused plainly when it cannot be.
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { rebuildFromOffice } from '../../electron/counter/rebuild-from-office'
import { ledgerDir } from '../../electron/counter/session'
import { Ledger } from '../../electron/ledger/ledger'
import { JOURNAL_DIR, listSegments } from '../../electron/ledger/segments'
import { ingestBatch } from '../../electron/office/ingest'
import { migrateOffice, OFFICE_MIGRATIONS } from '../../electron/office/migrations'
import type { OfficeAddress } from '../../electron/office/shipper'
import { childArgs } from '../helpers/child-bundle'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { approvedAgent, eventually, privateKeychainService, realModeEnv, resourcesDir, startRealModeRig, tempDir, valueOf, type RealModeRig } from '../integration/helpers'
import { rechargeIntent, rechargeOutcome } from '../integration/ledger-rig'
import { startSimulator } from '../../electron/simulator/server'
import { journalDirOf, journalEntries, namedLedger, officeEntries, officeOf, officeStatusNow, query, sell, ship } from './office-rig'
import { rejectedInEnglish } from '../helpers/english-replies'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

const officeFields = () => ({ officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false })
const officeEnv = (office: OfficeAddress) => ({
  COUNTER_OFFICE_DB_HOST: office.host,
  COUNTER_OFFICE_DB_PORT: String(office.port),
  COUNTER_OFFICE_DB_NAME: office.database,
  COUNTER_OFFICE_DB_USER: office.user,
  COUNTER_OFFICE_DB_PASSWORD: office.password,
})

/** `npm run rebuild` as the owner runs it (the CLI bundled from its source), its exit code and what it printed. */
async function rebuildCommand(office: OfficeAddress, ...args: string[]): Promise<{ code: number; out: string }> {
  const run = promisify(execFile)(process.execPath, [...(await childArgs(join(__dirname, '../../electron/rebuild-cli.ts'))), ...args], {
    env: { PATH: process.env.PATH, ...officeEnv(office) },
  })
  try {
    const { stdout, stderr } = await run
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: failed.stdout + failed.stderr }
  }
}

/** The journal's bytes: its segments' content, oldest first, as one. */
const journalBytes = (ledger: string) => Buffer.concat(listSegments(join(ledger, JOURNAL_DIR)).map((segment) => readFileSync(segment.file)))

/** Every line of the journal in `dataDir` is in the office under `terminalId`, the last one alike. */
const shipped = (dataDir: string, terminalId: string) => async () => {
  const journal = journalEntries(ledgerDir(dataDir, 'real'))
  const held = await officeEntries(db, terminalId)
  return held.length === journal.length && held.at(-1)?.hash === journal.at(-1)?.hash
}
const recharge = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '199' }) as const

describe('a counter rebuilt from the office', () => {
  test('its PC gone, it is rebuilt into a new folder byte for byte, its day the same, and sells on as the same terminal', { timeout: 180_000 }, async () => {
    const TERMINAL = 'verma-telecom/counter-1'
    const rig: RealModeRig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } })
    const newPc = tempDir('counter-rebuilt-')
    let rebuilt: CounterApp | null = null
    try {
      valueOf(await rig.counter.call('settings.save', { shopName: 'Verma Telecom', counterName: 'Counter 1', ...officeFields(), officePassword: db.password }))
      // Real sales: recharges and a PAN coupon through the core.
      for (let i = 0; i < 3; i++) expect(valueOf(await rig.counter.call('recharge.sell', recharge(`981234560${i}`))).state).toBe('SUCCESS')
      const agent = await approvedAgent(rig.counter, 'VLE4004')
      expect(valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2, paymentMode: 'cash' })).state).toBe('SUCCESS')
      const { businessDay } = valueOf(await rig.counter.call('day.summary', {}))
      // The volume: 1,500 of today's recharges (3,000 lines) written to its books with the counter closed, in segments
      // of 256 KiB, so the journal spans several files; then one more real sale.
      await rig.restart(async () => {
        const ledger = await Ledger.open({ dir: ledgerDir(rig.dataDir, 'real'), segmentBytes: 256 * 1024 })
        for (let i = 0; i < 1_500; i++) {
          const orderId = `BULK${String(i).padStart(6, '0')}`
          ledger.append('recharge.intent', rechargeIntent(orderId, 19_900, { training: false, businessDay }))
          ledger.append('recharge.outcome', rechargeOutcome(orderId))
        }
        expect(await ledger.close()).toEqual([])
      })
      expect(valueOf(await rig.counter.call('recharge.sell', recharge('9812345609'))).state).toBe('SUCCESS')
      const summary = valueOf(await rig.counter.call('day.summary', {}))
      expect(summary.recharges.filter((row) => row.state === 'SUCCESS').reduce((sum, row) => sum + row.count, 0)).toBe(1_504)
      // Every line in the office, the last one too: a line the counter wrote in the background (its start's balance
      // read) may still be on its way when it closes, so whatever is left is shipped from the closed folder.
      await rig.counter.close()
      const rest = ship(ledgerDir(rig.dataDir, 'real'), { terminalId: TERMINAL, shop: 'Verma Telecom', counter: 'Counter 1' }, officeOf(db))
      await eventually(shipped(rig.dataDir, TERMINAL), 'every line shipped', 60_000)
      await rest.link.stop()
      const originalLedger = ledgerDir(rig.dataDir, 'real')
      expect(listSegments(join(originalLedger, JOURNAL_DIR)).length).toBeGreaterThan(1)
      const original = journalBytes(originalLedger)
      const lines = journalEntries(originalLedger).length
      expect(lines).toBeGreaterThan(3_000)

      // The PC dies: its data folder is gone (the provider, the shop's account, is still there).
      rmSync(rig.dataDir, { recursive: true, force: true })

      // Without the owner's word that the old PC is gone: what the office holds, and nothing written.
      const target = join(newPc.path, 'Counter')
      const asked = await rebuildCommand(officeOf(db), TERMINAL, target)
      expect(asked.code).toBe(1)
      expect(asked.out).toContain(`The office holds ${TERMINAL} (Verma Telecom, Counter 1): entries #1 to #${lines}`)
      expect(asked.out).toContain('--old-counter-gone')
      expect(existsSync(target)).toBe(false)

      const done = await rebuildCommand(officeOf(db), TERMINAL, target, '--old-counter-gone')
      expect(done).toMatchObject({ code: 0 })
      expect(done.out).toContain(`Rebuilt ${TERMINAL} (Verma Telecom, Counter 1) into ${target}: ${lines} entries in 1 journal file(s)`)
      // The journal byte for byte (its segments cut where the office's copy puts them), and its books already replayed.
      const rebuiltLedger = ledgerDir(target, 'real')
      expect(journalBytes(rebuiltLedger).equals(original)).toBe(true)
      expect(readdirSync(target).sort()).toEqual(['ledger', 'settings.json'])
      expect(readdirSync(rebuiltLedger)).toEqual(expect.arrayContaining(['journal', 'ledger.sqlite', 'ledger.sqlite.check']))
      expect(JSON.parse(readFileSync(join(target, 'settings.json'), 'utf8'))).toEqual({ shopName: 'Verma Telecom', counterName: 'Counter 1', ...officeFields() })

      // Counter on the new PC: the same day; the office password entered, it ships on as the same terminal, no fork.
      rebuilt = await startCounter({
        dataDir: target,
        resourcesDir,
        platform: 'test',
        startTraining: () => startSimulator(),
        secrets: keychainSecrets(privateKeychainService()),
        env: realModeEnv(rig.provider.url),
        providerTimeoutMs: 1_000,
      })
      valueOf(await rebuilt.call('settings.save', { officePassword: db.password }))
      await eventually(async () => (await officeStatusNow(rebuilt!))?.state === 'caught-up', 'the rebuilt counter in touch with the office')
      // Its start read the PAN balance again (a line of its own): the balance is the same, read later.
      const again = valueOf(await rebuilt.call('day.summary', {}))
      expect({ ...again, closingPanBalance: null }).toEqual({ ...summary, closingPanBalance: null })
      expect(again.closingPanBalance.balancePaise).toBe(summary.closingPanBalance.balancePaise)

      expect(valueOf(await rebuilt.call('recharge.sell', recharge('9812345610'))).state).toBe('SUCCESS')
      await eventually(shipped(target, TERMINAL), 'the new sale shipped')
      const journal = journalEntries(rebuiltLedger)
      expect(journal.slice(lines).map((entry) => entry.type)).toEqual(expect.arrayContaining(['recharge.intent', 'recharge.outcome']))
      // No new naming: it is the same terminal, by the journal's own line.
      expect(journal.filter((entry) => entry.type === 'terminal.named')).toHaveLength(1)
      // The status bar hears of a batch just after the office stored it.
      const status = await eventually(async () => {
        const office = await officeStatusNow(rebuilt!)
        return office?.acknowledged === journal.length ? office : null
      }, 'the status bar caught up')
      expect(status).toMatchObject({ state: 'caught-up', terminalId: TERMINAL, acknowledged: journal.length, fork: null })
      expect(await query(db, 'SELECT count(*)::int AS forks FROM terminal_forks')).toEqual([{ forks: 0 }])
      expect(await query(db, 'SELECT last_seq::int, last_hash FROM terminals WHERE terminal = $1', [TERMINAL])).toEqual([{ last_seq: journal.length, last_hash: journal.at(-1)!.hash }])
    } finally {
      await rebuilt?.close()
      await rig.close()
      newPc.remove()
    }
  })

  test('a terminal registered anew after a fork: its shared entries from its parent, then its own, cut into segments as asked', { timeout: 60_000 }, async () => {
    const folders = tempDir('counter-rebuild-fork-')
    try {
      const [a, b] = [join(folders.path, 'a'), join(folders.path, 'b')]
      const X = { terminalId: 'khan-recharge/main', shop: 'Khan Recharge', counter: 'Main' }
      const first = await namedLedger(a, X)
      sell(first, 'A', 0, 5)
      await first.close()
      // The folder copied (a second PC set up from it); the original sells on and ships as X.
      cpSync(a, b, { recursive: true })
      const original = await Ledger.open({ dir: a })
      sell(original, 'A', 5, 3)
      await original.close()
      const shipX = ship(a, X, officeOf(db))
      await eventually(async () => (await officeEntries(db, X.terminalId)).length === 17, 'X shipped')
      await shipX.link.stop()
      // The copy sold other things, and was registered anew as Y, sharing entries up to #11 with X.
      const copy = await Ledger.open({ dir: b })
      sell(copy, 'B', 0, 2)
      const Y = { terminalId: 'khan-recharge/main-2f9a1c', shop: 'Khan Recharge', counter: 'Main', replaces: { terminalId: X.terminalId, sharedThrough: 11 } }
      copy.append('terminal.named', Y)
      await copy.close()
      const shipY = ship(b, Y, officeOf(db))
      await eventually(async () => (await officeEntries(db, Y.terminalId)).length === 5, 'Y shipped its own entries')
      await shipY.link.stop()
      expect(await query(db, 'SELECT parent_terminal, parent_through::int FROM terminals WHERE terminal = $1', [Y.terminalId])).toEqual([{ parent_terminal: X.terminalId, parent_through: 11 }])

      const target = join(folders.path, 'rebuilt')
      const done = await rebuildFromOffice({ office: officeOf(db), terminalId: Y.terminalId, dataDir: target, oldCounterGone: true, segmentBytes: 1_024 })
      expect(done).toMatchObject({ terminal: Y, entries: 16, notices: [] })
      expect(done.segments).toBeGreaterThan(2)
      expect(listSegments(join(ledgerDir(target, 'real'), JOURNAL_DIR))).toHaveLength(done.segments)
      expect(journalBytes(ledgerDir(target, 'real')).equals(journalBytes(b))).toBe(true)
    } finally {
      folders.remove()
    }
  })
})

describe('refused plainly, nothing written', () => {
  /** A terminal `terminalId` named and shipped with `count` sales (2 lines each). */
  async function shippedTerminal(dir: string, terminalId: string, count: number): Promise<void> {
    const terminal = { terminalId, shop: 'Gupta Stores', counter: terminalId.split('/')[1] }
    const ledger = await namedLedger(dir, terminal)
    sell(ledger, 'G', 0, count)
    await ledger.close()
    const shipper = ship(dir, terminal, officeOf(db))
    await eventually(async () => (await officeEntries(db, terminalId)).length === 1 + 2 * count, `${terminalId} shipped`)
    await shipper.link.stop()
  }

  test('a folder not empty, a terminal the office does not hold, a line that does not verify', { timeout: 60_000 }, async () => {
    const folders = tempDir('counter-rebuild-refused-')
    try {
      await shippedTerminal(join(folders.path, 'journal'), 'gupta-stores/counter-1', 5)
      const rebuild = (terminalId: string, dataDir: string) => rebuildFromOffice({ office: officeOf(db), terminalId, dataDir, oldCounterGone: true })

      const used = join(folders.path, 'used')
      mkdirSync(used)
      writeFileSync(join(used, 'settings.json'), '{}')
      expect(await rejectedInEnglish(rebuild('gupta-stores/counter-1', used))).toBe(`${used} is not empty (it holds settings.json): a counter is rebuilt only into an empty folder, so no books are ever replaced. Give a new folder, or move this one aside.`)
      expect(readdirSync(used)).toEqual(['settings.json'])

      const fresh = join(folders.path, 'fresh')
      expect(await rejectedInEnglish(rebuild('gupta-stores/counter-9', fresh))).toMatch(/^The office holds no terminal gupta-stores\/counter-9\. It holds: .*gupta-stores\/counter-1/)
      expect(existsSync(fresh)).toBe(false)

      // A line changed in the office after it arrived (its text no longer hashes to its hash): the chain breaks there.
      await query(db, `UPDATE entries SET body = replace(body::text, '19900', '19000')::json WHERE terminal = 'gupta-stores/counter-1' AND seq = 6`)
      expect(await rejectedInEnglish(rebuild('gupta-stores/counter-1', fresh))).toBe(
        "The office's entry #6 of gupta-stores/counter-1 does not verify: its contents do not match its hash (the line was changed). Nothing was rebuilt.",
      )
      // The folder was made for it, and is left empty: nothing half-written that could pass for books.
      expect(readdirSync(fresh)).toEqual([])
    } finally {
      folders.remove()
    }
  })

  test('entries the office received before it kept their text (office migration 8) cannot be rebuilt, and say which', { timeout: 60_000 }, async () => {
    const folders = tempDir('counter-rebuild-textless-')
    const client = new pg.Client(officeOf(db))
    await client.connect()
    try {
      // An office set up by counters from before migration 8, which kept each entry's parsed form alone.
      await client.query('CREATE DATABASE before_8')
      const old = { ...officeOf(db), database: 'before_8' }
      const oldClient = new pg.Client(old)
      await oldClient.connect()
      try {
        await oldClient.query('CREATE TABLE office_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
        for (const migration of OFFICE_MIGRATIONS.filter((m) => m.version < 8)) {
          await oldClient.query(migration.sql)
          await oldClient.query('INSERT INTO office_schema (version, name) VALUES ($1, $2)', [migration.version, migration.name])
        }
        const dir = join(folders.path, 'journal')
        const terminal = { terminalId: 'gupta-stores/counter-2', shop: 'Gupta Stores', counter: 'counter-2' }
        const ledger = await namedLedger(dir, terminal)
        sell(ledger, 'G', 0, 4)
        await ledger.close()
        const entries = journalEntries(dir)
        // Its first three entries stored as that office's ingest stored them; then the office migrated, and the rest shipped.
        const before = entries.slice(0, 3)
        await oldClient.query('INSERT INTO terminals (terminal, shop, counter, last_seq, last_hash) VALUES ($1, $2, $3, 3, $4)', [terminal.terminalId, terminal.shop, terminal.counter, before[2].hash])
        await oldClient.query(
          `INSERT INTO entries (terminal, seq, at, type, data, prev, hash)
           SELECT $1, r.seq, r.at, r.type, r.data, r.prev, r.hash FROM jsonb_to_recordset($2::jsonb) AS r (seq bigint, at timestamptz, type text, data jsonb, prev text, hash text)`,
          [terminal.terminalId, JSON.stringify(before)],
        )
        // Why they cannot be rebuilt: what that office kept does not give the line back (jsonb orders keys its own way).
        const { rows } = await oldClient.query<{ seq: string; at: Date; type: string; data: unknown; prev: string; hash: string }>('SELECT * FROM entries ORDER BY seq')
        const fromJsonb = rows.map((row) => JSON.stringify({ seq: Number(row.seq), at: row.at.toISOString(), type: row.type, data: row.data, prev: row.prev, hash: row.hash }))
        const written = readFileSync(listSegments(journalDirOf(dir))[0].file, 'utf8').split('\n').slice(0, 3)
        expect(fromJsonb[0]).not.toBe(written[0])
        await migrateOffice(oldClient)
        await ingestBatch(oldClient, terminal.terminalId, entries.slice(3))

        const target = join(folders.path, 'rebuilt')
        expect(await rejectedInEnglish(rebuildFromOffice({ office: old, terminalId: terminal.terminalId, dataDir: target, oldCounterGone: true }))).toMatch(
          /^The office holds 3 entries, #1 to #3, of gupta-stores\/counter-2 without the text its hash covers: they reached it before office migration 8/,
        )
        expect(existsSync(target)).toBe(false)
        // The command says the same, before asking anything.
        const asked = await rebuildCommand(old, terminal.terminalId, target)
        expect(asked.code).toBe(1)
        expect(asked.out).toMatch(/^The office holds 3 entries, #1 to #3, of gupta-stores\/counter-2 without the text its hash covers/)
      } finally {
        await oldClient.end()
      }
    } finally {
      await client.end()
      folders.remove()
    }
  })
})
