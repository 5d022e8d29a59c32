// Opening the ledger: the newest snapshot that agrees with the journal, a backup before migrating it, and a replay of the journal past it.
import fs from 'node:fs'
import path from 'node:path'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { FROM_THE_START, Journal, type ReadStart } from './journal'
import { LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './migrations'
import { prepareConnection } from './connection'
import { journalPosition, project } from './projections'
import { copyFileDurably } from './durable-files'
import { readSnapshotFile, SNAPSHOT_FILE, SNAPSHOT_FILES_NEWEST_FIRST } from './snapshot'

/** Copies of the snapshots taken before a migration changes them, in the ledger folder. */
export const BACKUP_DIR = 'backups'

export interface OpenReport {
  /** The journal sequence the loaded snapshot contained (0: rebuilt from the journal alone). */
  snapshotSeq: number
  replayed: number
  tornTail: boolean
  /** Plain words, for the shop's staff or whoever supports them. */
  problems: string[]
}

let sqlJs: Promise<SqlJsStatic> | null = null

/** One sql.js instance per process: compiling the wasm module is the slow part. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') }).catch((error: unknown) => {
    sqlJs = null
    throw error
  })
  return sqlJs
}

interface Base {
  db: Database
  seq: number
  start: ReadStart
  /** Whether the base is what ledger.sqlite holds now, unmigrated (if not, the next snapshot has something to save). */
  isNewestFile: boolean
  problems: string[]
  /** Set when a snapshot holds events the journal no longer has. */
  aheadOfJournal: string | null
}

/** Copies every snapshot file to backups/ when migrating will change `db`'s schema version. */
function backupBeforeMigration(dir: string, db: Database, now: () => Date): void {
  const from = schemaVersion(db)
  if (from >= LATEST_SCHEMA_VERSION) return
  const stamp = now().toISOString().replace(/[:.]/g, '-')
  for (const name of SNAPSHOT_FILES_NEWEST_FIRST) {
    const file = path.join(dir, name)
    if (!fs.existsSync(file)) continue
    const suffix = name === SNAPSHOT_FILE ? '' : '.prev'
    fs.mkdirSync(path.join(dir, BACKUP_DIR), { recursive: true })
    copyFileDurably(file, path.join(dir, BACKUP_DIR, `pre-migration-v${from}-to-v${LATEST_SCHEMA_VERSION}-${stamp}${suffix}.sqlite`))
  }
}

function loadSnapshot(SQL: SqlJsStatic, dir: string, name: string): Database | null {
  const bytes = readSnapshotFile(dir, name)
  if (bytes === null) return null
  const db = new SQL.Database(bytes)
  try {
    const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0]
    if (check !== 'ok') throw new Error(String(check))
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** The newest snapshot that loads and agrees with the journal (migrated), else an empty database. */
function chooseBase(SQL: SqlJsStatic, dir: string, journal: Journal, now: () => Date): Base {
  const problems: string[] = []
  let aheadOfJournal: string | null = null
  for (const name of SNAPSHOT_FILES_NEWEST_FIRST) {
    let db: Database | null
    try {
      db = loadSnapshot(SQL, dir, name)
    } catch (error) {
      problems.push(`The saved copy ${name} could not be read (${(error as Error).message}); it was skipped and the journal replayed past an older copy.`)
      continue
    }
    if (db === null) continue
    const position = journalPosition(db)
    const located = journal.locate(position)
    if (located.found) {
      let migration: { from: number; to: number }
      try {
        backupBeforeMigration(dir, db, now)
        migration = migrate(db)
      } catch (error) {
        db.close()
        throw error
      }
      const isNewestFile = name === SNAPSHOT_FILE && migration.from === migration.to
      return { db, seq: position.seq, start: located.start, isNewestFile, problems, aheadOfJournal }
    }
    db.close()
    if (located.ahead) aheadOfJournal ??= `the saved copy ${name} holds entries up to #${position.seq} but ${located.reason}`
    else problems.push(`The saved copy ${name} does not match the journal at entry #${position.seq}; it was ignored.`)
  }
  const db = new SQL.Database()
  migrate(db)
  return { db, seq: 0, start: FROM_THE_START, isNewestFile: false, problems, aheadOfJournal }
}

export interface Opened {
  db: Database
  report: OpenReport
  /** Why nothing may be written, or null. */
  readOnly: string | null
  /** Whether the loaded database differs from ledger.sqlite. */
  unsaved: boolean
}

/** Loads the base, replays the journal's entries after it, and says what it found on the way. */
export function replayOntoSnapshot(SQL: SqlJsStatic, dir: string, journal: Journal, now: () => Date): Opened {
  const base = chooseBase(SQL, dir, journal, now)
  try {
    prepareConnection(base.db)
    const problems = [...base.problems]
    let replayed = 0
    const read = journal.readFrom(base.start, (entry) => {
      replayed++
      const problem = project(base.db, entry)
      if (problem !== null) problems.push(`Journal entry #${entry.seq} (${entry.type}) was not applied: ${problem}.`)
    })
    if (read.tornTail) problems.unshift(`The last journal line (line ${read.tornTail.line}) was incomplete: it was never confirmed and has been removed.`)
    const blockers = [
      read.broken && `The journal is damaged at line ${read.broken.line}: ${read.broken.reason} (in ${path.basename(read.broken.file)}).`,
      base.aheadOfJournal && `Journal lines are missing: ${base.aheadOfJournal}.`,
      journal.conflict && `The ledger folder holds two journals: ${journal.conflict}.`,
    ].filter((blocker): blocker is string => Boolean(blocker))
    problems.push(...blockers)
    return {
      db: base.db,
      report: { snapshotSeq: base.seq, replayed, tornTail: read.tornTail !== null, problems },
      readOnly: blockers.length > 0 ? `${blockers[0]} The ledger is read-only until this is looked into.` : null,
      unsaved: !base.isNewestFile || replayed > 0,
    }
  } catch (error) {
    base.db.close()
    throw error
  }
}
