// The ledger on real files with real sql.js: journal first, snapshots, and the same sales after every kind of reopen.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import initSqlJs from 'sql.js'
import { describe, expect, it } from 'vitest'
import { FROM_THE_START, Journal, JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import { Ledger, LedgerInUseError, LedgerWriteError } from '../../electron/ledger/ledger'
import { keepRoomToGrow } from '../../electron/ledger/connection'
import { replayOntoSnapshot } from '../../electron/ledger/ledger-open'
import { oldestId } from '../../electron/ledger/ledger-reads'
import { loadSqlJs } from '../../electron/ledger/sql-engine'
import { CHECKED_SNAPSHOTS_VERSION, migrations } from '../../electron/ledger/migrations'
import { PREVIOUS_SNAPSHOT_FILE, SNAPSHOT_CHECK_FILE, SNAPSHOT_FILE, snapshotCheck, type SnapshotCheck } from '../../electron/ledger/snapshot'
import { couponAnswer, couponIntent, DAY, editSnapshot, rechargeIntent as intent, rechargeOutcome as outcome, rollBackSnapshot, useLedgerRig } from './ledger-rig'
import { english, speakAll } from '../../electron/shared/words'

const rig = useLedgerRig('counter-ledger-')
const openLedger = rig.open
const closeLedger = rig.close
const firstSegment = () => path.join(rig.dir, JOURNAL_DIR, segmentName(1))
/** The recharges still without a final answer, oldest first (the ledger's one list of both kinds). */
const openSales = (ledger: Ledger) => ledger.read('unresolved').flatMap(({ sale }) => ('attemptId' in sale ? [] : [sale]))

/** Every file under the ledger folder with its bytes, to show nothing was touched. */
/** The ledger's files and their bytes (not the lock, which only says who has the folder open). */
function filesUnder(dir: string): [string, Buffer][] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'counter.lock')
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
    .map((file) => [path.relative(dir, file), fs.readFileSync(file)])
}

/**
 * Seven events: three sales, one left unresolved, one resolved by a status check. Each is its own
 * operation, as at the counter: scheduled snapshots get to run between them.
 */
async function recordDay(ledger: Ledger): Promise<void> {
  const events: Parameters<typeof ledger.append>[] = [
    ['recharge.intent', intent('A1')],
    ['recharge.outcome', outcome('A1')],
    ['recharge.intent', intent('A2', 5000)],
    ['recharge.outcome', outcome('A2', { outcome: 'UNKNOWN', providerStatus: null, message: 'No reply', fpayId: null, operatorRef: null })],
    ['recharge.intent', intent('A3', 120050)],
    ['recharge.outcome', outcome('A2', { source: 'check_status', outcome: 'FAILED', providerStatus: 'Failure', message: 'Operator down', fpayId: null, operatorRef: null })],
    ['recharge.intent', intent('A4')],
  ]
  for (const [type, data] of events) {
    ledger.append(type, data)
    await ledger.snapshotsSettled()
  }
}

const everything = (ledger: Ledger) => ({ day: ledger.read('salesForDay', DAY), unresolved: openSales(ledger), lastSeq: ledger.read('lastSeq') })

describe('recording sales', () => {
  it('turns an intent and its outcome into a sale', async () => {
    const ledger = await openLedger()
    const entry = ledger.append('recharge.intent', intent('A1'))
    expect(entry).toMatchObject({ seq: 1, type: 'recharge.intent', at: `${DAY}T04:30:00.000Z` })
    expect(ledger.read('getSale', 'A1')).toEqual({
      orderId: 'A1', kind: 'mobile', number: '9876543210', operatorCode: 'JIO', operatorName: 'Jio', circle: 'DL',
      amountPaise: 19900, state: 'SENDING', providerStatus: null, message: '', fpayId: null, operatorRef: null,
      createdAt: `${DAY}T04:30:00.000Z`, updatedAt: `${DAY}T04:30:00.000Z`, lastCheckedAt: null, training: true,
      collectedPaise: 19900, paymentMode: 'cash', settledNote: null, upiConfirmedAt: null, customerName: null,
    })
    expect(openSales(ledger).map((sale) => sale.orderId)).toEqual(['A1'])

    ledger.append('recharge.outcome', outcome('A1'))
    expect(ledger.read('getSale', 'A1')).toMatchObject({
      state: 'SUCCESS', providerStatus: 'Success', message: 'Recharge successful', fpayId: 'FP-A1', operatorRef: 'OP-A1',
      createdAt: `${DAY}T04:30:00.000Z`, updatedAt: `${DAY}T04:30:01.000Z`, lastCheckedAt: null,
    })
    expect(ledger.read('salesForDay', DAY).map((sale) => sale.orderId)).toEqual(['A1'])
    expect(ledger.read('salesForDay', '2025-03-15')).toEqual([])
    expect(openSales(ledger)).toEqual([])
    expect(ledger.read('getSale', 'NOPE')).toBeNull()
    expect(ledger.read('lastSeq')).toBe(2)
  })

  it('keeps provider references a later answer leaves out, and notes when a status check answered', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    expect(ledger.read('getSale', 'A2')).toMatchObject({ state: 'FAILED', fpayId: null, lastCheckedAt: `${DAY}T04:30:05.000Z` })
    ledger.append('recharge.outcome', outcome('A1', { source: 'check_status', fpayId: null, operatorRef: null, message: 'Checked' }))
    expect(ledger.read('getSale', 'A1')).toMatchObject({ fpayId: 'FP-A1', operatorRef: 'OP-A1', message: 'Checked', lastCheckedAt: `${DAY}T04:30:07.000Z` })
    expect(ledger.read('salesForDay', DAY).map((sale) => sale.orderId)).toEqual(['A4', 'A3', 'A2', 'A1'])
    expect(openSales(ledger).map((sale) => sale.orderId)).toEqual(['A3', 'A4'])
  })

  it('has the intent line in the journal file when append returns', async () => {
    const ledger = await openLedger()
    const entry = ledger.append('recharge.intent', intent('A1'))
    const lines = fs.readFileSync(firstSegment(), 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    expect(JSON.parse(lines.at(-2)!)).toEqual({ ...entry, data: intent('A1') })
  })

  it('refuses, and writes nothing for, an outcome without a sale or a second intent for one order', async () => {
    const ledger = await openLedger()
    ledger.append('recharge.intent', intent('A1'))
    expect(() => ledger.append('recharge.outcome', outcome('B9'))).toThrow(/no sale with order id B9/)
    expect(() => ledger.append('recharge.intent', intent('A1'))).toThrow(/already recorded/)
    expect(ledger.read('lastSeq')).toBe(1)
    expect(rig.journalLines()).toHaveLength(1)
  })

  it("names a number's or an agent's oldest open sale by when it was made, then by the order it was written, with the clock set back between them", async () => {
    // Each intent asks this of its number or agent, and two open sales of one can only be books from before it asked:
    // appended here directly, as such books were, with the computer's clock put back an hour after the first.
    let clock = `${DAY}T10:00:00.000Z`
    const ledger = await openLedger({ now: () => new Date(clock) })
    const writeAt = (time: string, ...event: Parameters<typeof ledger.append>) => {
      clock = `${DAY}T${time}.000Z`
      ledger.append(...event)
    }
    writeAt('10:00:00', 'recharge.intent', intent('A1'))
    writeAt('09:00:00', 'recharge.intent', intent('A2'))
    writeAt('09:00:00', 'recharge.intent', intent('A3'))
    writeAt('08:00:00', 'recharge.intent', intent('B1', 19900, { number: '9123456780' }))
    writeAt('10:00:00', 'pan.coupon.intent', couponIntent('C1'))
    writeAt('09:00:00', 'pan.coupon.intent', couponIntent('C2'))
    const oldestOpen = () => [ledger.read('unresolvedSaleOf', '9876543210'), ledger.read('unresolvedCouponOf', 'VLE1')]
    expect(oldestOpen()).toEqual(['A2', 'C2'])
    writeAt('11:00:00', 'recharge.outcome', outcome('A2'))
    writeAt('11:00:01', 'pan.coupon.outcome', couponAnswer('C2'))
    expect(oldestOpen()).toEqual(['A3', 'C1'])
    writeAt('11:00:02', 'recharge.outcome', outcome('A3', { outcome: 'UNKNOWN', providerStatus: null, message: 'No reply', fpayId: null, operatorRef: null }))
    expect(oldestOpen()).toEqual(['A3', 'C1'])
    writeAt('11:00:03', 'recharge.outcome', outcome('A3', { source: 'check_status', outcome: 'FAILED', providerStatus: 'Failure', message: 'Operator down', fpayId: null, operatorRef: null }))
    writeAt('11:00:04', 'pan.coupon.outcome', couponAnswer('C1'))
    expect(oldestOpen()).toEqual(['A1', null])
    writeAt('11:00:05', 'recharge.outcome', outcome('A1'))
    expect(oldestOpen()).toEqual([null, null])
    expect(ledger.read('unresolvedSaleOf', '9123456780')).toBe('B1')
    expect(ledger.read('unresolvedSaleOf', '9000000000')).toBeNull()
  })

  it('chooses that oldest sale itself, whatever order SQLite hands the rows over in', async () => {
    // No index: SQLite reads the rows as they were written, newest made first, so only the choice can put them right.
    const db = new (await loadSqlJs()).Database()
    db.run('CREATE TABLE sales (order_id TEXT, number TEXT, created_at TEXT)')
    const rows = [['LATE', '10:00'], ['TIE_FIRST', '09:00'], ['TIE_SECOND', '09:00'], ['OTHER', '08:00']]
    for (const [orderId, time] of rows) db.run('INSERT INTO sales VALUES (?, ?, ?)', [orderId, orderId === 'OTHER' ? '2' : '1', `${DAY}T${time}:00.000Z`])
    const oldestOf = (number: string) => oldestId(db, 'SELECT order_id AS id, created_at, rowid FROM sales WHERE number = ?', number)
    expect(oldestOf('1')).toBe('TIE_FIRST')
    db.run("DELETE FROM sales WHERE order_id = 'TIE_FIRST'")
    expect(oldestOf('1')).toBe('TIE_SECOND')
    expect(oldestOf('3')).toBeNull()
    db.close()
  })
})

describe('reopening', () => {
  it.each([
    { snapshotEvery: 3, snapshotSeq: 6, replayed: 1 },
    { snapshotEvery: 1000, snapshotSeq: 0, replayed: 7 },
  ])('after a crash (snapshotEvery $snapshotEvery) replays the journal to the same sales', async ({ snapshotEvery, snapshotSeq, replayed }) => {
    const ledger = await openLedger({ snapshotEvery })
    await recordDay(ledger)
    const before = everything(ledger)
    // A copy of the folder as it stands, unclosed, is what a crash would leave behind.
    rig.crashCopy()
    const reopened = await openLedger({ snapshotEvery })
    expect(reopened.report).toEqual({ snapshotSeq, replayed, tornTail: false, problems: [] })
    expect(everything(reopened)).toEqual(before)
  })

  it.each([3, 1000])('after a clean close (snapshotEvery %i) loads the closing snapshot with nothing to replay', async (snapshotEvery) => {
    const ledger = await openLedger({ snapshotEvery })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    await closeLedger(ledger)
    const reopened = await openLedger({ snapshotEvery })
    expect(reopened.report).toEqual({ snapshotSeq: 7, replayed: 0, tornTail: false, problems: [] })
    expect(everything(reopened)).toEqual(before)
    reopened.append('recharge.outcome', outcome('A4'))
    expect(reopened.read('getSale', 'A4')?.state).toBe('SUCCESS')
  })

  it('keeps room inside the loaded file, so the next sales fill free pages instead of growing it (sql.js copies a whole file to grow it)', async () => {
    const ledger = await openLedger({ snapshotEvery: 10_000 })
    for (let sale = 0; sale < 400; sale++) ledger.append('recharge.intent', intent(`R${sale}`))
    await closeLedger(ledger)
    const SQL = await loadSqlJs()
    const asSaved = new SQL.Database(fs.readFileSync(path.join(rig.dir, SNAPSHOT_FILE)))
    const journal = Journal.open(rig.dir)
    const { db, report } = replayOntoSnapshot(SQL, rig.dir, journal, () => new Date())
    try {
      const pragma = (of: typeof db, name: string) => Number(of.exec(`PRAGMA ${name}`)[0].values[0][0])
      const schema = (of: typeof db) => of.exec('SELECT type, name, sql FROM sqlite_master ORDER BY name')[0].values
      expect(report).toEqual({ snapshotSeq: 400, replayed: 0, tornTail: false, problems: [] })
      const savedPages = pragma(asSaved, 'page_count')
      expect(pragma(asSaved, 'freelist_count')).toBe(0)
      expect(pragma(db, 'freelist_count')).toBeGreaterThanOrEqual(Math.ceil(savedPages / 8))
      // The room is free pages only: the tables, and what they hold, are the saved file's.
      expect(schema(db)).toEqual(schema(asSaved))
      expect(db.exec('SELECT count(*) FROM sales')[0].values[0][0]).toBe(400)
      const pages = pragma(db, 'page_count')
      db.run('CREATE TABLE later_sales (line BLOB)')
      db.run('INSERT INTO later_sales VALUES (zeroblob(?))', [(pragma(db, 'freelist_count') - 2) * pragma(db, 'page_size')])
      expect(pragma(db, 'page_count')).toBe(pages)
    } finally {
      db.close()
      asSaved.close()
      journal.close()
    }
  })

  it('opens the books as they are when there is no room to make (a full database)', async () => {
    const SQL = await loadSqlJs()
    const db = new SQL.Database()
    try {
      db.run('CREATE TABLE sales_so_far (line BLOB)')
      db.run('INSERT INTO sales_so_far VALUES (zeroblob(200000))')
      const pages = Number(db.exec('PRAGMA page_count')[0].values[0][0])
      db.run(`PRAGMA max_page_count = ${pages + 2}`)
      keepRoomToGrow(db)
      expect(db.exec('SELECT name FROM sqlite_master')[0].values).toEqual([['sales_so_far']])
      db.run('INSERT INTO sales_so_far VALUES (1)')
      expect(db.exec('SELECT count(*) FROM sales_so_far')[0].values[0][0]).toBe(2)
    } finally {
      db.close()
    }
  })

  it('rebuilds the same sales from the journal alone when every snapshot is gone', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    fs.rmSync(path.join(rig.dir, SNAPSHOT_FILE))
    fs.rmSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE))
    const reopened = await openLedger()
    expect(reopened.report).toMatchObject({ snapshotSeq: 0, replayed: 7, problems: [] })
    expect(everything(reopened)).toEqual(before)
  })

  it('falls back to the previous snapshot when the newest is corrupted', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger) // snapshots at #2, #4, #6, then #7 on close: .prev holds #6
    fs.writeFileSync(path.join(rig.dir, SNAPSHOT_FILE), Buffer.alloc(8192, 0x5a))
    const reopened = await openLedger()
    expect(reopened.report).toMatchObject({ snapshotSeq: 6, replayed: 1, tornTail: false })
    expect(reopened.report.problems.map(english)).toEqual(['The saved copy ledger.sqlite did not match its check and was rebuilt from the previous copy ledger.sqlite.prev and the journal.'])
    expect(reopened.readOnly).toBeNull()
    expect(everything(reopened)).toEqual(before)
  })

  it('drops and reports a torn last line, keeping every acknowledged sale', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    fs.appendFileSync(firstSegment(), '{"seq":8,"at":"2025-03-14T')
    const reopened = await openLedger()
    expect(reopened.report.tornTail).toBe(true)
    expect(reopened.report.problems.map(english)).toEqual([expect.stringMatching(/line 8\) was incomplete/)])
    expect(everything(reopened)).toEqual(before)
    expect(reopened.append('recharge.intent', intent('A5')).seq).toBe(8)
  })

  it('upgrades a snapshot written before the PAN tables existed, keeping its sales', async () => {
    const ledger = await openLedger({ snapshotEvery: 1000 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    await rollBackSnapshot(rig.dir, 1)

    const reopened = await openLedger()
    expect(reopened.report).toEqual({ snapshotSeq: 7, replayed: 0, tornTail: false, problems: [] })
    expect(everything(reopened)).toEqual(before)
    reopened.append('pan.balance.read', { balancePaise: 500000, source: 'balance' })
    expect(reopened.read('lastKnownPanBalance')).toMatchObject({ balancePaise: 500000, seq: 8 })
    await closeLedger(reopened)
    const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') })
    const upgraded = new SQL.Database(fs.readFileSync(path.join(rig.dir, SNAPSHOT_FILE)))
    expect(upgraded.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0].values).toEqual([[String(migrations.length)]])
    upgraded.close()
  })

  it('reports, without stopping, a journal event that cannot be applied', async () => {
    fs.mkdirSync(rig.dir)
    const journal = Journal.open(rig.dir)
    journal.readFrom(FROM_THE_START, () => {})
    journal.append('recharge.outcome', outcome('GHOST'), `${DAY}T04:00:00.000Z`)
    journal.append('recharge.intent', intent('A1'), `${DAY}T04:00:01.000Z`)
    journal.close()
    const ledger = await openLedger()
    expect(ledger.report.problems.map(english)).toEqual(['Journal entry #1 (recharge.outcome) was not applied: there is no sale with order id GHOST.'])
    expect(ledger.read('getSale', 'A1')?.state).toBe('SENDING')
    expect(ledger.readOnly).toBeNull()
  })
})

describe('a saved copy proves itself', () => {
  /** Still a valid database: only its check can tell. A1 was a ₹199 SUCCESS sale. */
  const makeA1Failed = () => editSnapshot(rig.dir, (db) => db.run("UPDATE sales SET amount_paise = 110000, state = 'FAILED' WHERE order_id = 'A1'"))

  it('is written with a check of its bytes and the journal position it reflects', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    await closeLedger(ledger)
    const bytes = fs.readFileSync(path.join(rig.dir, SNAPSHOT_FILE))
    const last = JSON.parse(rig.journalLines()[6])
    expect(JSON.parse(fs.readFileSync(path.join(rig.dir, SNAPSHOT_CHECK_FILE), 'utf8'))).toEqual({
      seq: 7,
      hash: last.hash,
      digest: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    })
  })

  it('edited so it stays a valid database, is not trusted: the previous copy, which verifies, is used with the journal', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger) // ledger.sqlite holds #7, .prev #6
    await makeA1Failed()
    const reopened = await openLedger()
    expect(speakAll(reopened.report, 'en')).toEqual({
      snapshotSeq: 6,
      replayed: 1,
      tornTail: false,
      problems: ['The saved copy ledger.sqlite did not match its check and was rebuilt from the previous copy ledger.sqlite.prev and the journal.'],
    })
    expect(reopened.read('getSale', 'A1')).toMatchObject({ amountPaise: 19900, state: 'SUCCESS' })
    expect(everything(reopened)).toEqual(before)
    expect(reopened.readOnly).toBeNull()
  })

  it('edited when there is no previous copy, is rebuilt from the journal', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    expect(fs.existsSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE))).toBe(false)
    await makeA1Failed()
    const reopened = await openLedger()
    expect(speakAll(reopened.report, 'en')).toEqual({
      snapshotSeq: 0,
      replayed: 7,
      tornTail: false,
      problems: ['The saved copy ledger.sqlite did not match its check and was rebuilt from the journal.'],
    })
    expect(everything(reopened)).toEqual(before)
    // The rebuilt books are saved with a check again: the next open trusts them.
    await closeLedger(reopened)
    expect((await openLedger()).report).toEqual({ snapshotSeq: 7, replayed: 0, tornTail: false, problems: [] })
  })

  it('whose check was rewritten over bytes that are no database is refused all the same (SQLite reads its schema), and the previous copy is used', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger) // ledger.sqlite holds #7, .prev #6
    const garbage = Buffer.alloc(8192, 0x5a)
    const { seq, hash } = JSON.parse(fs.readFileSync(path.join(rig.dir, SNAPSHOT_CHECK_FILE), 'utf8')) as SnapshotCheck
    fs.writeFileSync(path.join(rig.dir, SNAPSHOT_FILE), garbage)
    fs.writeFileSync(path.join(rig.dir, SNAPSHOT_CHECK_FILE), JSON.stringify(snapshotCheck(garbage, { seq, hash })))
    const reopened = await openLedger()
    const report = speakAll(reopened.report, 'en')
    expect(report).toMatchObject({ snapshotSeq: 6, replayed: 1 })
    expect(report.problems).toEqual([expect.stringMatching(/^The saved copy ledger\.sqlite could not be read .*not a database/)])
    expect(everything(reopened)).toEqual(before)
    expect(reopened.readOnly).toBeNull()
  })

  it('without any check (deleted) is rebuilt from the journal, edited or not', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    for (const name of [SNAPSHOT_CHECK_FILE, `${PREVIOUS_SNAPSHOT_FILE}.check`]) fs.rmSync(path.join(rig.dir, name))
    await makeA1Failed()
    const reopened = await openLedger()
    expect(speakAll(reopened.report, 'en')).toMatchObject({
      snapshotSeq: 0,
      replayed: 7,
      problems: ['The saved copy ledger.sqlite has no check (it was lost or removed) and was rebuilt from the journal.'],
    })
    expect(everything(reopened)).toEqual(before)
  })

  it("from an older Counter (schema before checks, no check file) is taken as it is once, then checked", async () => {
    const ledger = await openLedger({ snapshotEvery: 1000 })
    await recordDay(ledger)
    const before = everything(ledger)
    await closeLedger(ledger)
    await rollBackSnapshot(rig.dir, CHECKED_SNAPSHOTS_VERSION - 1)
    for (const name of [SNAPSHOT_CHECK_FILE, `${PREVIOUS_SNAPSHOT_FILE}.check`]) fs.rmSync(path.join(rig.dir, name), { force: true })
    const upgraded = await openLedger()
    expect(speakAll(upgraded.report, 'en')).toEqual({
      snapshotSeq: 7,
      replayed: 0,
      tornTail: false,
      problems: ['The saved copy ledger.sqlite was written by an older Counter, before saved copies had checks: it was taken as it is, and is checked from now on.'],
    })
    expect(everything(upgraded)).toEqual(before)
    await closeLedger(upgraded)
    // Written again at the new schema with its check: an edit from now on is caught (and the older
    // copy kept as .prev has no check of its own, so it is not trusted either once checks exist).
    expect(fs.existsSync(path.join(rig.dir, SNAPSHOT_CHECK_FILE))).toBe(true)
    await makeA1Failed()
    const edited = await openLedger()
    expect(edited.report.problems.map(english)).toEqual(['The saved copy ledger.sqlite did not match its check and was rebuilt from the journal.'])
    expect(everything(edited)).toEqual(before)
  })

  it('written but not its check (a crash or full disk between the two) falls back to the previous copy, which the older check still vouches for', async () => {
    const ledger = await openLedger({ snapshotEvery: 1000 })
    await recordDay(ledger)
    await ledger.snapshot() // #7, with its check
    ledger.append('recharge.outcome', outcome('A4'))
    const before = everything(ledger)
    // /dev/full takes the open and fails the write with ENOSPC: the check of #8 never lands.
    fs.symlinkSync('/dev/full', path.join(rig.dir, `${SNAPSHOT_CHECK_FILE}.tmp`))
    await expect(ledger.snapshot()).rejects.toThrow(/ENOSPC/)
    expect(fs.existsSync(path.join(rig.dir, `${SNAPSHOT_CHECK_FILE}.tmp`))).toBe(false)
    rig.crashCopy()
    const reopened = await openLedger()
    expect(speakAll(reopened.report, 'en')).toEqual({
      snapshotSeq: 7,
      replayed: 1,
      tornTail: false,
      problems: ['The saved copy ledger.sqlite did not match its check and was rebuilt from the previous copy ledger.sqlite.prev and the journal.'],
    })
    expect(everything(reopened)).toEqual(before)
  })
})

describe('refusing to write', () => {
  it('becomes read-only, naming file and line, when the last line was edited after a clean stop, and never reuses its seq', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    await closeLedger(ledger)
    // The tester's edit: the last line's final } becomes #. The line still ends with its newline.
    const text = fs.readFileSync(firstSegment(), 'utf8')
    fs.writeFileSync(firstSegment(), text.replace(/}\n$/, '#\n'))
    const filesBefore = filesUnder(rig.dir)

    const reopened = await openLedger()
    expect(english(reopened.readOnly!)).toBe(`The journal is damaged at line 7: it is not a journal line (in ${segmentName(1)}). The ledger is read-only until this is looked into.`)
    expect(reopened.report.tornTail).toBe(false)
    expect(reopened.read('lastSeq')).toBe(6)
    expect(() => reopened.append('recharge.intent', intent('A9'))).toThrow(LedgerWriteError)
    await closeLedger(reopened)
    expect(filesUnder(rig.dir)).toEqual(filesBefore)
  })


  it('becomes read-only, naming the line, when a journal line in the middle was edited', async () => {
    const ledger = await openLedger({ snapshotEvery: 1000 })
    await recordDay(ledger)
    // No snapshot yet: the open after the crash reads (and checks) the whole journal.
    rig.crashCopy()
    const lines = fs.readFileSync(firstSegment(), 'utf8').split('\n')
    lines[2] = lines[2].replace('"amountPaise":5000', '"amountPaise":500')
    fs.writeFileSync(firstSegment(), lines.join('\n'))
    const filesBefore = filesUnder(rig.dir)

    const reopened = await openLedger()
    expect(english(reopened.readOnly!)).toMatch(/damaged at line 3: its contents do not match its hash .*000000000001\.ndjson/)
    expect(reopened.report.problems.map(english)).toContainEqual(expect.stringMatching(/line 3/))
    // Only what the intact lines prove is shown: A1's sale and its outcome.
    expect(reopened.read('salesForDay', DAY).map((sale) => [sale.orderId, sale.state])).toEqual([['A1', 'SUCCESS']])
    expect(() => reopened.append('recharge.intent', intent('A9'))).toThrow(LedgerWriteError)
    await closeLedger(reopened)
    // Read-only touches nothing: the evidence stays as found.
    expect(filesUnder(rig.dir)).toEqual(filesBefore)
  })

  it('becomes read-only when a snapshot holds events the journal has lost', async () => {
    const ledger = await openLedger({ snapshotEvery: 2 })
    await recordDay(ledger)
    await closeLedger(ledger) // ledger.sqlite holds #7, .prev #6
    const lines = fs.readFileSync(firstSegment(), 'utf8').split('\n')
    fs.writeFileSync(firstSegment(), lines.slice(0, 5).join('\n') + '\n')
    const reopened = await openLedger()
    expect(english(reopened.readOnly!)).toMatch(/Journal lines are missing: the saved copy ledger\.sqlite holds entries up to #7 but the journal's readable lines end at #5/)
    expect(reopened.report.snapshotSeq).toBe(0)
    expect(reopened.read('lastSeq')).toBe(5)
    expect(() => reopened.append('recharge.intent', intent('A9'))).toThrow(LedgerWriteError)
  })

  it('throws LedgerWriteError and records nothing when the disk is full', async () => {
    fs.mkdirSync(path.dirname(firstSegment()), { recursive: true })
    // /dev/full accepts the open and fails every write with ENOSPC, exactly like a full disk.
    fs.symlinkSync('/dev/full', firstSegment())
    const ledger = await openLedger()
    let thrown: unknown
    try {
      ledger.append('recharge.intent', intent('A1'))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(LedgerWriteError)
    // The ledger cannot know whether the provider was asked: that is for the caller to say.
    expect(english((thrown as Error).message)).toBe('The ledger could not be written (disk full or folder read-only).')
    expect(((thrown as Error).cause as NodeJS.ErrnoException).code).toBe('ENOSPC')
    expect(ledger.read('getSale', 'A1')).toBeNull()
    expect(ledger.read('lastSeq')).toBe(0)
    expect(() => ledger.append('recharge.intent', intent('A1'))).toThrow(LedgerWriteError)
  })

  it('closes on a full disk with one plain line, no temporary file left, and the folder free for the next start', async () => {
    const ledger = await openLedger()
    await recordDay(ledger)
    const before = everything(ledger)
    const temporary = path.join(rig.dir, `${SNAPSHOT_FILE}.tmp`)
    // /dev/full takes the open and fails every write with ENOSPC, exactly like a full disk.
    fs.symlinkSync('/dev/full', temporary)
    expect((await ledger.close()).map(english)).toEqual([
      "The ledger's saved copy could not be written at exit (disk full); every sale is in the journal and the next start rebuilds it.",
    ])
    expect(fs.existsSync(temporary)).toBe(false)
    expect(fs.existsSync(path.join(rig.dir, 'counter.lock'))).toBe(false)
    const reopened = await openLedger()
    expect(reopened.report).toMatchObject({ snapshotSeq: 0, replayed: 7, problems: [] })
    expect(everything(reopened)).toEqual(before)
  })

  it('fails to open with LedgerWriteError when the journal cannot be opened for writing', async () => {
    fs.mkdirSync(firstSegment(), { recursive: true })
    await expect(Ledger.open({ dir: rig.dir })).rejects.toThrow(LedgerWriteError)
  })

  it('refuses appends after close', async () => {
    const ledger = await openLedger()
    await closeLedger(ledger)
    expect(() => ledger.append('recharge.intent', intent('A1'))).toThrow(/closed/)
  })
})

describe('one writer per folder', () => {
  it('refuses a folder another live process has open, and takes over the lock of one that died', async () => {
    const ledger = await openLedger()
    await closeLedger(ledger)
    const lock = path.join(rig.dir, 'counter.lock')
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      fs.writeFileSync(lock, String(other.pid))
      await expect(openLedger()).rejects.toThrow(LedgerInUseError)
      await expect(openLedger()).rejects.toThrow(`process ${other.pid}`)
    } finally {
      other.kill('SIGKILL')
      await once(other, 'exit')
    }
    // Its owner is gone now (as after a crash): the next open takes the folder.
    const reopened = await openLedger()
    expect(fs.readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} `))
    await closeLedger(reopened)
    expect(fs.existsSync(lock)).toBe(false)
  })
})
