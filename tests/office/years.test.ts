// Closed years (office migration 10): a year exported to a file that verifies alone, dropped against it with the page's figures kept, shipping, dedupe and fork detection going on after, every bad drop refused with nothing changed, and a counter rebuilt across the file and the office.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rebuildFromOffice, RebuildRefusal } from '../../electron/counter/rebuild-from-office'
import { ledgerDir } from '../../electron/counter/session'
import { Ledger } from '../../electron/ledger/ledger'
import { JOURNAL_DIR, listSegments } from '../../electron/ledger/segments'
import type { TerminalName } from '../../electron/ledger/terminal-projections'
import { findParting } from '../../electron/office/forks'
import { ingestBatch, OfficeRefusal } from '../../electron/office/ingest'
import { OFFICE_ROLES, setUpOfficeRoles } from '../../electron/office/migrations'
import { OfficeReader } from '../../electron/office/office-view'
import { readYearFile } from '../../electron/office/year-file'
import { dropYear, exportYear, YearRefusal, type YearOptions } from '../../electron/office/years'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { rechargeIntent, rechargeOutcome } from '../integration/ledger-rig'
import { journalDirOf, journalEntries, officeEntries, officeOf, query, ship } from './office-rig'
import { rejectedInEnglish } from '../helpers/english-replies'

const TIME_ZONE = 'Asia/Kolkata'
const A: TerminalName = { terminalId: 'sharma-mobile/counter-1', shop: 'sharma-mobile', counter: 'counter-1' }
const B: TerminalName = { terminalId: 'sharma-mobile/counter-2', shop: 'sharma-mobile', counter: 'counter-2' }
const COUNTERS = { user: 'shop_counters', password: 'counters-secret-1' }

let db: TestPostgres
let owner: pg.Client
const folders: { remove(): void }[] = []
const folder = (prefix: string) => {
  const made = tempDir(prefix)
  folders.push(made)
  return made.path
}

beforeAll(async () => {
  db = await startTestPostgres()
  owner = new pg.Client(officeOf(db))
  await owner.connect()
  expect(await setUpOfficeRoles(owner)).toBe(true)
  await owner.query(`CREATE ROLE ${COUNTERS.user} LOGIN PASSWORD '${COUNTERS.password}' IN ROLE ${OFFICE_ROLES.writer}`)
}, 60_000)
afterAll(async () => {
  await owner?.end()
  db?.remove()
  for (const made of folders) made.remove()
})

async function connectAs(login: { user: string; password: string }): Promise<pg.Client> {
  const client = new pg.Client({ ...officeOf(db), ...login })
  await client.connect()
  return client
}

/** A clock the test moves: each line a second after the one before, from wherever it was set. */
function movableClock(startIso: string) {
  let now = Date.parse(startIso)
  return {
    now: () => new Date((now += 1000)),
    set: (iso: string) => (now = Date.parse(iso)),
  }
}

/** `count` successful recharges of `amountPaise` on business day `day`, ids prefixed by `prefix`. */
function sellOn(ledger: Ledger, prefix: string, day: string, count: number, amountPaise = 19900): void {
  for (let i = 0; i < count; i++) {
    const orderId = `${prefix}${String(i).padStart(4, '0')}`
    ledger.append('recharge.intent', rechargeIntent(orderId, amountPaise, { training: false, businessDay: day }))
    ledger.append('recharge.outcome', rechargeOutcome(orderId))
  }
}

const shippedAll = (dir: string, terminal: string) => async () => {
  const [row] = await query<{ last_seq: string }>(db, 'SELECT last_seq FROM terminals WHERE terminal = $1', [terminal])
  return row !== undefined && Number(row.last_seq) === journalEntries(dir).length
}

async function shipAll(dir: string, terminal: TerminalName): Promise<void> {
  const shipper = ship(dir, terminal, officeOf(db))
  try {
    await eventually(shippedAll(dir, terminal.terminalId), `${terminal.terminalId} shipped`, 30_000)
  } finally {
    await shipper.link.stop()
  }
}

/** What the page shows for 2025 and for the new year's first days, less what moves by itself (contact, clocks). */
async function pageFigures(from: string, to: string) {
  const reader = new OfficeReader(officeOf(db))
  try {
    const { recharges, coupons, margins, dues, closes, breaks } = await reader.day(from, TIME_ZONE, to)
    return { recharges, coupons, margins, dues, closes, breaks }
  } finally {
    await reader.close()
  }
}

/** Everything a refused drop must leave as it was. */
async function officeState() {
  const counted = await query<{ entries: string; archives: string; sales: string; days: string }>(
    db,
    `SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM office_archives) AS archives,
       (SELECT count(*) FROM (SELECT terminal, kind, sale_id FROM office_sales UNION SELECT terminal, kind, sale_id FROM office_archived_sales) s) AS sales,
       (SELECT sum(amount_paise) FROM office_recharge_days) AS days`,
  )
  return { ...counted[0], page: await pageFigures('2025-01-01', '2025-12-31') }
}

const currentYear = () => Number(new Intl.DateTimeFormat('en', { timeZone: TIME_ZONE, year: 'numeric' }).format(new Date()))
const options = (year: number, file: string): YearOptions => ({ year, timeZone: TIME_ZONE, file })

/** The file's lines (its header first), to be changed and written back as another file. */
const fileLines = (file: string) => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n')
const writeLines = (file: string, lines: string[]) => writeFileSync(file, gzipSync(Buffer.from(lines.join('\n') + '\n')))

/** `npm run office -- <args>` from source, logged in as `login`: its exit code and what it printed. */
function officeCommand(login: { user: string; password: string }, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, '../../electron/office/office-cli.ts'), ...args], {
    env: {
      PATH: process.env.PATH, COUNTER_OFFICE_DB_HOST: db.host, COUNTER_OFFICE_DB_PORT: String(db.port), COUNTER_OFFICE_DB_NAME: db.database,
      COUNTER_OFFICE_DB_USER: login.user, COUNTER_OFFICE_DB_PASSWORD: login.password, COUNTER_OFFICE_TIME_ZONE: TIME_ZONE,
    },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, output })))
}

const journalBytes = (ledger: string) => Buffer.concat(listSegments(join(ledger, JOURNAL_DIR)).map((segment) => readFileSync(segment.file)))

describe('a closed year exported and dropped', () => {
  test('the page keeps the year, shipping and dedupe and fork detection go on, every bad drop is refused, and a counter is rebuilt across the file', { timeout: 180_000 }, async () => {
    const dirA = folder('years-a-')
    const dirB = folder('years-b-')
    const copyOfA = folder('years-a-copy-')
    const files = folder('years-files-')
    const file = join(files, 'office-2025.jsonl.gz')

    // Counter 1 sells in the last days of 2025; its data folder is copied halfway (a second PC set up from it, later).
    const clockA = movableClock('2025-12-30T05:00:00Z')
    let ledgerA = await Ledger.open({ dir: dirA, now: clockA.now })
    ledgerA.append('terminal.named', A)
    sellOn(ledgerA, 'A-30-', '2025-12-30', 10)
    // A sale whose answer never came: it is settled by phone in the new year, after its year was dropped.
    ledgerA.append('recharge.intent', rechargeIntent('A-30-pending', 19900, { training: false, businessDay: '2025-12-30' }))
    ledgerA.append('recharge.outcome', rechargeOutcome('A-30-pending', { outcome: 'UNKNOWN' }))
    await ledgerA.close()
    cpSync(dirA, copyOfA, { recursive: true })
    ledgerA = await Ledger.open({ dir: dirA, now: clockA.now })
    sellOn(ledgerA, 'A-31-', '2025-12-31', 10, 24900)
    // A sale past midnight in the office's zone on business day 2025-12-31 (the shop still open), then the new year's.
    clockA.set('2025-12-31T18:40:00Z')
    sellOn(ledgerA, 'A-31-late-', '2025-12-31', 2)
    clockA.set('2026-01-02T05:00:00Z')
    sellOn(ledgerA, 'A-02-', '2026-01-02', 5)
    // Counter 2 sold only in 2025, and has been quiet since.
    const ledgerB = await Ledger.open({ dir: dirB, now: movableClock('2025-12-31T06:00:00Z').now })
    ledgerB.append('terminal.named', B)
    sellOn(ledgerB, 'B-31-', '2025-12-31', 8, 4900)
    await ledgerB.close()
    await shipAll(dirA, A)
    await shipAll(dirB, B)
    const journalA = journalEntries(dirA)
    const journalB = journalEntries(dirB)
    const last2025A = journalA.findLast((entry) => entry.data && (entry.data as { businessDay?: string }).businessDay === '2025-12-31')!.seq

    const before = await officeState()
    expect(before.page.recharges.map((row) => [row.terminal, row.sales, row.unresolved])).toEqual([
      [A.terminalId, 22n, 1n],
      [B.terminalId, 8n, 0n],
    ])

    // The current year is refused, before anything is written.
    await expect(exportYear(owner, options(currentYear(), join(files, 'now.jsonl.gz')))).rejects.toThrow(/is not over yet in Asia\/Kolkata.*only a closed year/)
    await expect(exportYear(owner, options(currentYear(), join(files, 'now.jsonl.gz')))).rejects.toBeInstanceOf(YearRefusal)
    expect(existsSync(join(files, 'now.jsonl.gz')) || existsSync(join(files, 'now.jsonl.gz.partial'))).toBe(false)

    // Export: the file verifies alone; counter 1's range ends at its last line of 2025, counter 2's keeps its last line.
    const exported = await exportYear(owner, options(2025, file))
    expect(exported.terminals.map((range) => [range.terminal, range.firstSeq, range.lastSeq])).toEqual([
      [A.terminalId, 1, last2025A],
      [B.terminalId, 1, journalB.length - 1],
    ])
    const verified = await readYearFile(file)
    expect(verified.sha256).toBe(exported.sha256)
    expect(exported.entries).toBe(last2025A + journalB.length - 1)
    // An export never replaces a file.
    await expect(exportYear(owner, options(2025, file))).rejects.toThrow(/already exists: give a new file name/)

    // Refused, nothing changed: the current year, a file of another year, a truncated file, an edited line, a terminal left out, the counters' and the page's logins.
    const lines = fileLines(file)
    const otherYear = join(files, 'other-year.jsonl.gz')
    writeLines(otherYear, [JSON.stringify({ ...JSON.parse(lines[0]), year: 2024 }), ...lines.slice(1)])
    const truncated = join(files, 'truncated.jsonl.gz')
    const whole = readFileSync(file)
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)))
    const edited = join(files, 'edited.jsonl.gz')
    writeLines(edited, lines.map((line, i) => (i === 4 ? line.replace('"amountPaise":19900', '"amountPaise":1990') : line)))
    expect(fileLines(edited)[4]).not.toBe(lines[4])
    const withoutB = join(files, 'without-b.jsonl.gz')
    const header = JSON.parse(lines[0]) as { terminals: { terminal: string }[] }
    writeLines(withoutB, [JSON.stringify({ ...header, terminals: header.terminals.filter((range) => range.terminal !== B.terminalId) }), ...lines.slice(1, 1 + last2025A)])
    expect((await readYearFile(withoutB)).header.terminals).toHaveLength(1)

    const refusals: [string, () => Promise<unknown>, RegExp][] = [
      ['the current year', () => dropYear(owner, options(currentYear(), file)), /is not over yet/],
      ['a file of another year', () => dropYear(owner, options(2025, otherYear)), /is the export of 2024, not 2025/],
      ['a truncated file', () => dropYear(owner, options(2025, truncated)), /is not a whole, unchanged year export/],
      ['an edited line', () => dropYear(owner, options(2025, edited)), /is not a whole, unchanged year export: the line after #3 of sharma-mobile\/counter-1 does not verify/],
      ['a terminal left out', () => dropYear(owner, options(2025, withoutB)), /holds no lines of sharma-mobile\/counter-2.*export 2025 again/],
      ['no such file', () => dropYear(owner, options(2025, join(files, 'missing.jsonl.gz'))), /cannot be read \(ENOENT\)/],
    ]
    for (const [what, attempt, words] of refusals) {
      await expect(attempt(), what).rejects.toThrow(words)
      expect(await officeState(), what).toEqual(before)
    }
    for (const login of [COUNTERS]) {
      const counters = await connectAs(login)
      try {
        await expect(dropYear(counters, options(2025, file))).rejects.toThrow(/shop_counters may not drop entries from the office: run drop-year with the login that owns the office/)
        // Nor may the role do it by hand: it may neither write an archive nor delete a line.
        await expect(counters.query("INSERT INTO office_archives (terminal, year, first_seq, last_seq, first_prev, last_hash, hashes, file_sha256) VALUES ($1, 2025, 1, 1, '', '', '\\x00'::bytea, '')", [A.terminalId])).rejects.toThrow(/permission denied/)
        await expect(counters.query('DELETE FROM entries WHERE terminal = $1 AND seq = 1', [A.terminalId])).rejects.toThrow(/permission denied/)
        await expect(counters.query('SELECT office_archive_fold($1, 1)', [A.terminalId])).rejects.toThrow(/permission denied/)
      } finally {
        await counters.end()
      }
      expect(await officeState()).toEqual(before)
    }

    // The drop: the page's 2025 identical, the entries gone but each terminal's last, the tamper check clean.
    await owner.query('VACUUM FULL entries')
    const sizeBefore = Number((await owner.query<{ size: string }>("SELECT pg_total_relation_size('entries') AS size")).rows[0].size)
    const dropped = await dropYear(owner, options(2025, file))
    expect(dropped.entries).toBe(exported.entries)
    const after = await officeState()
    expect(after.page).toEqual(before.page)
    expect(after.sales).toBe(before.sales)
    expect(after.days).toBe(before.days)
    expect(Number(after.entries)).toBe(Number(before.entries) - exported.entries)
    expect((await officeEntries(db, B.terminalId)).map((entry) => entry.seq)).toEqual([journalB.length])
    await owner.query('VACUUM FULL entries')
    const sizeAfter = Number((await owner.query<{ size: string }>("SELECT pg_total_relation_size('entries') AS size")).rows[0].size)
    expect(sizeAfter).toBeLessThan(sizeBefore)
    const reader = new OfficeReader(officeOf(db))
    try {
      const check = await reader.checkChains()
      expect(check.problems).toEqual([])
    } finally {
      await reader.close()
    }
    // Dropped once: a second drop of the year is refused.
    await expect(dropYear(owner, options(2025, file))).rejects.toThrow(/2025 was already dropped from the office on/)

    // An old batch resent by a counter (as the counters' login): acknowledged, nothing stored again, nothing counted twice.
    const counters = await connectAs(COUNTERS)
    try {
      const resent = await ingestBatch(counters, A.terminalId, journalA.slice(0, 30))
      expect(resent.seq).toBe(journalA.length)
      await ingestBatch(counters, A.terminalId, journalA.slice(last2025A - 3, last2025A + 3))
      expect(await officeState()).toEqual(after)

      // A fork in the archived range: the copied folder sells other things and is refused, found where it parts.
      const copy = await Ledger.open({ dir: copyOfA, now: movableClock('2026-01-03T05:00:00Z').now })
      sellOn(copy, 'COPY-', '2026-01-03', 3)
      await copy.close()
      const copied = journalEntries(copyOfA)
      const partSeq = copied.findIndex((entry, i) => entry.hash !== journalA[i].hash) + 1
      expect(partSeq).toBeGreaterThan(1)
      expect(partSeq).toBeLessThanOrEqual(last2025A)
      await expect(ingestBatch(counters, A.terminalId, copied.slice(partSeq - 1))).rejects.toThrow(OfficeRefusal)
      await expect(ingestBatch(counters, A.terminalId, copied.slice(partSeq - 1))).rejects.toMatchObject({ kind: 'fork' })
      expect(await findParting(counters, A.terminalId, journalDirOf(copyOfA))).toMatchObject({ sharedThrough: partSeq - 1, seq: partSeq, officeHash: journalA[partSeq - 1].hash })
      expect(await officeState()).toEqual(after)
    } finally {
      await counters.end()
    }

    // Shipping goes on: new sales ship after the office's last line, linked to it; 2026's figures count them once. The
    // archived sale settled by phone now counts on its own day, 2025-12-30, once.
    clockA.set('2026-01-02T09:00:00Z')
    sellOn(ledgerA, 'A-02-more-', '2026-01-02', 3)
    ledgerA.append('sale.settled', { kind: 'recharge', id: 'A-30-pending', outcome: 'SUCCESS', note: 'confirmed by phone' })
    await shipAll(dirA, A)
    expect((await officeEntries(db, A.terminalId)).at(-1)?.hash).toBe(journalEntries(dirA).at(-1)?.hash)
    const newYear = await pageFigures('2026-01-01', '2026-01-31')
    expect(newYear.recharges.map((row) => [row.terminal, row.sales, row.amountPaise])).toEqual([[A.terminalId, 8n, 8n * 19900n]])
    const settled = await pageFigures('2025-01-01', '2025-12-31')
    const [rowA, rowB] = before.page.recharges
    expect(settled.recharges).toEqual([{ ...rowA, sales: rowA.sales + 1n, amountPaise: rowA.amountPaise + 19900n, unresolved: 0n }, rowB])

    // An owner's change to a kept line rebuilds the terminal's roll-ups from its archive's fold and its entries: nothing moves.
    await owner.query('UPDATE entries SET received_at = received_at WHERE terminal = $1 AND seq = (SELECT max(seq) FROM entries WHERE terminal = $1)', [A.terminalId])
    expect(await pageFigures('2025-01-01', '2025-12-31')).toEqual(settled)
    expect(await pageFigures('2026-01-01', '2026-01-31')).toEqual(newYear)
    await ledgerA.close()

    // A rebuild: refused in plain words without the year's file, byte for byte with it, refused with an edited one.
    expect(await rejectedInEnglish(rebuildFromOffice({ office: officeOf(db), terminalId: A.terminalId, dataDir: folder('years-rebuilt-none-'), oldCounterGone: true }))).toMatch(
      new RegExp(`archived entries of ${A.terminalId} .*: #1 to #${last2025A}, year 2025\\. Give each year's file with --archive <file>`),
    )
    await expect(rebuildFromOffice({ office: officeOf(db), terminalId: A.terminalId, dataDir: folder('years-rebuilt-edited-'), oldCounterGone: true, archives: [edited] })).rejects.toThrow(RebuildRefusal)
    const notAFile = join(files, 'not-gzip.jsonl.gz')
    writeFileSync(notAFile, lines.join('\n'))
    for (const [archive, words] of [
      [join(files, 'missing.jsonl.gz'), /missing\.jsonl\.gz cannot be read \(ENOENT\).*Nothing was rebuilt/],
      [notAFile, /not-gzip\.jsonl\.gz is not a whole, unchanged year export: it does not read or unpack.*Nothing was rebuilt/],
    ] as const) {
      expect(await rejectedInEnglish(rebuildFromOffice({ office: officeOf(db), terminalId: A.terminalId, dataDir: folder('years-rebuilt-bad-'), oldCounterGone: true, archives: [archive] }))).toMatch(words)
    }
    const rebuiltDir = folder('years-rebuilt-')
    const rebuilt = await rebuildFromOffice({ office: officeOf(db), terminalId: A.terminalId, dataDir: rebuiltDir, oldCounterGone: true, archives: [file] })
    expect(rebuilt.entries).toBe(journalEntries(dirA).length)
    expect(journalBytes(ledgerDir(rebuiltDir, 'real')).equals(journalBytes(dirA))).toBe(true)
  })

  test('npm run office -- export-year and drop-year: years in order, the owner exports and drops each, a counter is rebuilt across two years\' files; bad arguments, the current year, a year before its time and the counters\' login are refused in words', { timeout: 120_000 }, async () => {
    const C: TerminalName = { terminalId: 'sharma-mobile/counter-3', shop: 'sharma-mobile', counter: 'counter-3' }
    const dirC = folder('years-c-')
    const clock = movableClock('2023-06-01T05:00:00Z')
    const ledgerC = await Ledger.open({ dir: dirC, now: clock.now })
    ledgerC.append('terminal.named', C)
    sellOn(ledgerC, 'C-2023-', '2023-06-01', 3)
    clock.set('2024-06-01T05:00:00Z')
    sellOn(ledgerC, 'C-2024-', '2024-06-01', 5)
    clock.set(`${currentYear()}-01-05T05:00:00Z`)
    sellOn(ledgerC, 'C-now-', `${currentYear()}-01-05`, 1)
    await ledgerC.close()
    await shipAll(dirC, C)
    const file = join(folder('years-cli-'), 'office-2024.jsonl.gz')
    const ownerLogin = { user: db.user, password: db.password }

    const usage = await officeCommand(ownerLogin, 'export-year', '24', file)
    expect(usage).toMatchObject({ code: 1 })
    expect(usage.output).toContain('The year was not exported: give the year and the file: npm run office -- export-year 2025 office-2025.jsonl.gz')
    const current = await officeCommand(ownerLogin, 'export-year', String(currentYear()), file)
    expect(current.code).toBe(1)
    expect(current.output).toContain(`The year was not exported: ${currentYear()} is not over yet in Asia/Kolkata`)
    expect(existsSync(file)).toBe(false)

    // Years in order: 2024 waits for 2023, which goes first (the next year's file starts from the archive's last hash).
    const early = await officeCommand(ownerLogin, 'export-year', '2024', file)
    expect(early.code).toBe(1)
    expect(early.output).toContain(`The year was not exported: The office still holds ${C.terminalId}'s lines of 2023 (from #1): export and drop 2023 first, then 2024.`)
    expect(existsSync(file)).toBe(false)
    const file2023 = join(folder('years-cli-2023-'), 'office-2023.jsonl.gz')
    expect((await exportYear(owner, options(2023, file2023))).terminals.map((range) => [range.terminal, range.firstSeq, range.lastSeq])).toEqual([[C.terminalId, 1, 7]])
    expect((await dropYear(owner, options(2023, file2023))).entries).toBe(7)

    const exported = await officeCommand(ownerLogin, 'export-year', '2024', file)
    expect(exported.output).toMatch(new RegExp(`^2024: 10 entries written to ${file}, read back and verified \\(sha256 [0-9a-f]{64}\\):\n  ${C.terminalId}: #8 to #17\n`))
    expect(exported.code).toBe(0)

    const byCounters = await officeCommand(COUNTERS, 'drop-year', '2024', file)
    expect(byCounters.code).toBe(1)
    expect(byCounters.output).toContain('The year was not dropped: shop_counters may not drop entries from the office')
    expect((await officeEntries(db, C.terminalId)).length).toBe(12)

    const dropped = await officeCommand(ownerLogin, 'drop-year', '2024', file)
    expect(dropped.output).toContain(`2024: 10 entries dropped from the office; the page's figures for 2024 stay. Keep ${file}`)
    expect(dropped.code).toBe(0)
    expect((await officeEntries(db, C.terminalId)).map((entry) => entry.seq)).toEqual([18, 19])
    expect((await pageFigures('2023-01-01', '2024-12-31')).recharges.map((row) => [row.terminal, row.sales])).toEqual([[C.terminalId, 8n]])

    // Rebuilt across two years' files and the office, byte for byte; refused naming the year whose file is missing.
    expect(await rejectedInEnglish(rebuildFromOffice({ office: officeOf(db), terminalId: C.terminalId, dataDir: folder('years-c-none-'), oldCounterGone: true, archives: [file] }))).toMatch(
      /dropped them: #1 to #7, year 2023\. Give each year's file/,
    )
    const rebuiltDir = folder('years-c-rebuilt-')
    await rebuildFromOffice({ office: officeOf(db), terminalId: C.terminalId, dataDir: rebuiltDir, oldCounterGone: true, archives: [file, file2023] })
    expect(journalBytes(ledgerDir(rebuiltDir, 'real')).equals(journalBytes(dirC))).toBe(true)
  })
})
