// Closed financial years: moving their settled rows into read-only archive files, and opening those files one at a time to read.
import fs from 'node:fs'
import path from 'node:path'
import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import { prepareConnection } from './connection'
import { readMeta, writeMeta } from './meta'
import { migrate } from './migrations'
import { syncDirectory, writeFileAtomically } from './durable-files'
import { removeNumberIndex, writeNumberIndex } from './number-index'
import { say } from '../shared/words'

export const ARCHIVE_DIR = 'archive'
const ARCHIVE_NAME = /^FY(\d{4})-(\d{2})\.sqlite$/
/** The first day of the years archived so far (a record of the archiving; it locks nothing: closing days does). */
const ARCHIVED_BEFORE_KEY = 'archived_before'

/** An Indian financial year: 1 April to 31 March. `end` is the next year's first day. */
export interface FinancialYear {
  name: string
  start: string
  end: string
}

export interface ArchiveFile extends FinancialYear {
  file: string
  bytes: number
  modifiedMs: number
}

export function financialYearOf(day: string): FinancialYear {
  const year = Number(day.slice(0, 4))
  const startYear = Number(day.slice(5, 7)) >= 4 ? year : year - 1
  return { name: `FY${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`, start: `${startYear}-04-01`, end: `${startYear + 1}-04-01` }
}

/** The archive files in the ledger folder, newest year first. */
export function listArchives(dir: string): ArchiveFile[] {
  const archiveDir = path.join(dir, ARCHIVE_DIR)
  if (!fs.existsSync(archiveDir)) return []
  return fs
    .readdirSync(archiveDir)
    .flatMap((name) => {
      const match = ARCHIVE_NAME.exec(name)
      if (!match) return []
      const file = path.join(archiveDir, name)
      const { size, mtimeMs } = fs.statSync(file)
      return [{ ...financialYearOf(`${match[1]}-04-01`), file, bytes: size, modifiedMs: mtimeMs }]
    })
    .sort((a, b) => (a.start < b.start ? 1 : -1))
}

/** Opens an archive in memory (brought to the current schema there, never on disk), reads it, and lets it go. */
export function readArchive<T>(SQL: SqlJsStatic, file: string, read: (db: Database) => T): T {
  let db: Database | null = null
  try {
    db = new SQL.Database(fs.readFileSync(file))
    migrate(db)
    db.run('PRAGMA query_only = 1')
    return read(db)
  } catch (cause) {
    throw new Error(say('ledger.archiveUnreadable', { name: path.basename(file), error: (cause as Error).message }), { cause })
  } finally {
    db?.close()
  }
}

/** What moves to an archive: every row of a closed year, except sales and resets still waiting for an answer. */
const ARCHIVED_TABLES: { table: string; settled: string }[] = [
  { table: 'sales', settled: "state IN ('SUCCESS', 'FAILED')" },
  { table: 'coupon_sales', settled: "state IN ('SUCCESS', 'FAILED')" },
  { table: 'password_resets', settled: "status NOT IN ('SENDING', 'PENDING')" },
  { table: 'balance_checkpoints', settled: '1 = 1' },
  { table: 'topups', settled: '1 = 1' },
  { table: 'day_closes', settled: '1 = 1' },
]

const inYear = (settled: string) => `business_day >= ? AND business_day < ? AND ${settled}`

function columnsOf(db: Database, table: string): string[] {
  return db.exec(`PRAGMA table_info(${table})`)[0].values.map((column) => String(column[1]))
}

function inTransaction(db: Database, work: () => void): void {
  db.run('BEGIN')
  try {
    work()
    db.run('COMMIT')
  } catch (error) {
    db.run('ROLLBACK')
    throw error
  }
}

/** Copies rows between two databases of the same schema; a row already there is replaced, or kept with 'IGNORE'. */
function copyRows(from: Database, to: Database, table: string, where: string, params: SqlValue[], onConflict: 'REPLACE' | 'IGNORE'): void {
  const columns = columnsOf(from, table)
  const select = from.prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${where}`, params)
  const insert = to.prepare(`INSERT OR ${onConflict} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
  try {
    while (select.step()) insert.run(select.get())
  } finally {
    select.free()
    insert.free()
  }
}

function oldestArchivableDay(db: Database, before: string): string | null {
  const perTable = ARCHIVED_TABLES.map(({ table, settled }) => `SELECT min(business_day) AS day FROM ${table} WHERE business_day < :before AND ${settled}`)
  const day = db.exec(`SELECT min(day) FROM (${perTable.join(' UNION ALL ')})`, { ':before': before })[0]?.values[0]?.[0]
  return day === null || day === undefined ? null : String(day)
}

function hasArchivableRows(db: Database, year: FinancialYear): boolean {
  return ARCHIVED_TABLES.some(({ table, settled }) => db.exec(`SELECT 1 FROM ${table} WHERE ${inYear(settled)} LIMIT 1`, [year.start, year.end]).length > 0)
}

/** The sales an archive holds, by kind and state: history totals the archived years from these without opening them. */
type SaleCounts = SqlValue[][]

/**
 * Writes `year`'s archive as the union of what it held and the active rows of that year, then its
 * index of numbers (number-index.ts). The old index goes first: a crash at any point leaves the old
 * archive with its index or without one, or the new archive without one or with its own, never a
 * new archive beside an old index; a missing index is built again by the first search by number.
 */
function writeArchive(SQL: SqlJsStatic, db: Database, dir: string, year: FinancialYear): { bytes: number; counts: SaleCounts } {
  const archiveDir = path.join(dir, ARCHIVE_DIR)
  const name = `${year.name}.sqlite`
  const existing = path.join(archiveDir, name)
  const archive = fs.existsSync(existing) ? new SQL.Database(fs.readFileSync(existing)) : new SQL.Database()
  try {
    prepareConnection(archive)
    migrate(archive)
    inTransaction(archive, () => {
      for (const { table, settled } of ARCHIVED_TABLES) copyRows(db, archive, table, inYear(settled), [year.start, year.end], 'REPLACE')
    })
    writeMeta(archive, 'financial_year', year.name)
    const counts = archive.exec(
      "SELECT 'recharge', state, count(*) FROM sales GROUP BY state UNION ALL SELECT 'coupon', state, count(*) FROM coupon_sales GROUP BY state",
    )[0]?.values ?? []
    const bytes = archive.export()
    removeNumberIndex(dir, year.name)
    fs.mkdirSync(archiveDir, { recursive: true })
    writeFileAtomically(archiveDir, name, bytes)
    writeNumberIndex(dir, archive, { name: year.name, bytes: bytes.length, modifiedMs: fs.statSync(existing).mtimeMs })
    return { bytes: bytes.length, counts }
  } finally {
    archive.close()
  }
}

/** Deletes the archived rows of `year` from the active database and keeps the archive's counts, in one transaction. */
function dropArchivedRows(db: Database, year: FinancialYear, archived: { bytes: number; counts: SaleCounts }): void {
  inTransaction(db, () => {
    for (const { table, settled } of ARCHIVED_TABLES) db.run(`DELETE FROM ${table} WHERE ${inYear(settled)}`, [year.start, year.end])
    db.run('DELETE FROM archive_counts WHERE archive = ?', [year.name])
    for (const [kind, state, rows] of archived.counts) {
      db.run('INSERT INTO archive_counts (archive, archive_bytes, kind, state, row_count) VALUES (?, ?, ?, ?, ?)', [year.name, archived.bytes, kind, state, rows])
    }
  })
}

/**
 * Moves the settled rows of every financial year before `today`'s into archive/FY<yyyy-yy>.sqlite
 * and deletes them from `db`. Each year's file is written (atomically) before its rows are deleted,
 * so a crash leaves rows in both places at worst; running this again merges them. Returns the
 * names of the archives written, telling `onProgress` the years done of those to look at. The
 * caller snapshots `db` afterwards.
 */
export function archiveClosedYears(SQL: SqlJsStatic, db: Database, dir: string, today: string, onProgress?: (done: number, total: number) => void): string[] {
  const current = financialYearOf(today)
  const written: string[] = []
  const oldest = oldestArchivableDay(db, current.start)
  const years: FinancialYear[] = []
  for (let year = oldest === null ? current : financialYearOf(oldest); year.start < current.start; year = financialYearOf(year.end)) years.push(year)
  for (const [done, year] of years.entries()) {
    onProgress?.(done, years.length)
    if (!hasArchivableRows(db, year)) continue
    dropArchivedRows(db, year, writeArchive(SQL, db, dir, year))
    written.push(year.name)
  }
  onProgress?.(years.length, years.length)
  if ((readMeta(db, ARCHIVED_BEFORE_KEY) ?? '') < current.start) writeMeta(db, ARCHIVED_BEFORE_KEY, current.start)
  return written
}

/**
 * Brings back into `db`, in one transaction, the rows of every archived year that has not ended by
 * `today`: a clock confirmed months ahead archived the year still being sold in, and its earlier
 * sales belong in the live books again. A row `db` already has is kept (a crash after an earlier
 * restore left it in both places; the active copy is the one the journal last wrote to). Returns
 * those archives; the files stay until the caller has snapshotted `db` and sets them aside.
 */
export function restoreUnendedYears(SQL: SqlJsStatic, db: Database, dir: string, today: string): ArchiveFile[] {
  const unended = listArchives(dir).filter((archive) => archive.end > today)
  if (unended.length === 0) return []
  inTransaction(db, () => {
    for (const archive of unended) {
      readArchive(SQL, archive.file, (archived) => {
        for (const { table } of ARCHIVED_TABLES) copyRows(archived, db, table, '1 = 1', [], 'IGNORE')
      })
      db.run('DELETE FROM archive_counts WHERE archive = ?', [archive.name])
    }
    writeMeta(db, ARCHIVED_BEFORE_KEY, financialYearOf(today).start)
  })
  return unended
}

/**
 * Renames a restored year's archive out of the archives' name pattern, durably; returns the new name.
 * Decision: set aside, not deleted, so whoever looks into the wrong clock still finds the file as it
 * was; every row of it is in the snapshot by now, and every line behind those rows in the journal.
 */
export function setArchiveAside(archive: ArchiveFile, stamp: string): string {
  removeNumberIndex(path.dirname(path.dirname(archive.file)), archive.name)
  const name = `${path.basename(archive.file)}.restored-${stamp}`
  fs.renameSync(archive.file, path.join(path.dirname(archive.file), name))
  syncDirectory(path.dirname(archive.file))
  return name
}
