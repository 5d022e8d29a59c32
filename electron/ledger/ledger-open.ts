// Opening the ledger: the newest snapshot its check vouches for and that agrees with the journal, a backup before migrating it, and a replay of the journal past it.
import fs from 'node:fs'
import path from 'node:path'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { FROM_THE_START, Journal, type ReadStart } from './journal'
import { samePoint } from './segments'
import { CHECKED_SNAPSHOTS_VERSION, LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './migrations'
import { prepareConnection } from './connection'
import { journalPosition, project } from './projections'
import { copyFileDurably } from './durable-files'
import { checkOf, PREVIOUS_SNAPSHOT_FILE, readChecks, readSnapshotFile, SNAPSHOT_FILE, SNAPSHOT_FILES_NEWEST_FIRST, type SnapshotCheck } from './snapshot'

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
  /** The check of ledger.sqlite when the base was loaded from it: what that file must still be until the next snapshot. */
  newestCheck: SnapshotCheck | null
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

/** A snapshot file that loads: its bytes are a database that passes SQLite's own check. */
function loadSnapshot(SQL: SqlJsStatic, bytes: Uint8Array): Database {
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


/**
 * The newest snapshot that its check vouches for, that loads and that agrees with the journal
 * (migrated), else an empty database. Why a snapshot needs a check: see snapshot.ts.
 */
function chooseBase(SQL: SqlJsStatic, dir: string, journal: Journal, now: () => Date): Base {
  const problems: string[] = []
  let aheadOfJournal: string | null = null
  const checks = readChecks(dir)
  let untrusted: string | null = null
  let found: Base | null = null
  for (const name of SNAPSHOT_FILES_NEWEST_FIRST) {
    const bytes = readSnapshotFile(dir, name)
    if (bytes === null) continue
    const check = checkOf(bytes, checks)
    // With no check on disk at all, the snapshot may be an older Counter's: loaded to see.
    if (check === null && checks.length > 0) {
      untrusted ??= name
      continue
    }
    let db: Database
    try {
      db = loadSnapshot(SQL, bytes)
    } catch (error) {
      problems.push(`The saved copy ${name} could not be read (${(error as Error).message}); it was skipped and the journal replayed past an older copy.`)
      continue
    }
    const position = journalPosition(db)
    // Decision: a snapshot from before checks existed (schema below CHECKED_SNAPSHOTS_VERSION, no
    // check file in the folder) is taken as it is, once, at the update: rebuilding five years of
    // books from the journal would stop the counter for minutes. Passing off an edited snapshot this
    // way takes deleting both checks and lowering its schema version: not a casual edit.
    const olderCounters = check === null && schemaVersion(db) < CHECKED_SNAPSHOTS_VERSION
    const vouched = check === null ? olderCounters : samePoint(position, check)
    if (!vouched) {
      db.close()
      untrusted ??= name
      continue
    }
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
      const newestCheck = name === SNAPSHOT_FILE ? check : null
      if (olderCounters) problems.push(`The saved copy ${name} was written by an older Counter, before saved copies had checks: it was taken as it is, and is checked from now on.`)
      found = { db, seq: position.seq, start: located.start, isNewestFile, newestCheck, problems, aheadOfJournal }
      break
    }
    db.close()
    if (located.ahead) aheadOfJournal ??= `the saved copy ${name} holds entries up to #${position.seq} but ${located.reason}`
    else problems.push(`The saved copy ${name} does not match the journal at entry #${position.seq}; it was ignored.`)
  }
  if (untrusted !== null) {
    const source = found ? `the previous copy ${PREVIOUS_SNAPSHOT_FILE} and the journal` : 'the journal'
    const what = checks.length === 0 ? 'has no check (it was lost or removed)' : 'did not match its check'
    problems.unshift(`The saved copy ${untrusted} ${what} and was rebuilt from ${source}.`)
  }
  if (found) return found
  const db = new SQL.Database()
  migrate(db)
  return { db, seq: 0, start: FROM_THE_START, isNewestFile: false, newestCheck: null, problems, aheadOfJournal }
}

export interface Opened {
  db: Database
  report: OpenReport
  /** Why nothing may be written, or null. */
  readOnly: string | null
  /** Whether the loaded database differs from ledger.sqlite. */
  unsaved: boolean
  /** The check ledger.sqlite was trusted by, when it was the base; null when it was not. */
  saved: SnapshotCheck | null
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
      saved: base.newestCheck,
    }
  } catch (error) {
    base.db.close()
    throw error
  }
}
