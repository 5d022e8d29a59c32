// Opening the ledger: the newest snapshot its check vouches for and that agrees with the journal, a backup before migrating it, and a replay of the journal past it.
// What it finds is said (shared/words) for the shop's screen; logs read it in English.
import fs from 'node:fs'
import path from 'node:path'
import type { Database, SqlJsStatic } from 'sql.js'
import { FROM_THE_START, Journal, type ReadStart } from './journal'
import { samePoint } from './segments'
import { CHECKED_SNAPSHOTS_VERSION, LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './migrations'
import { keepRoomToGrow, prepareConnection } from './connection'
import { journalPosition, projectRun } from './projections'
import { copyFileDurably } from './durable-files'
import { say, type Said } from '../shared/words'
import type { Mark } from '../shared/startup-timeline'
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

/**
 * A snapshot file that loads: its bytes are a database that passes SQLite's own check.
 *
 * Decision: a snapshot its check vouches for skips PRAGMA quick_check. The check is the sha256 of the very bytes an
 * export wrote, so they are those of a database SQLite was working on; quick_check could only find what the digest
 * already rules out (a byte changed on disk), and at a million sales it read every page of 107 MB, 0.3–0.5 s of each
 * start. It still reads the schema, so a file that is no database at all is refused here. A snapshot no check vouches
 * for (an older Counter's) is checked whole, as before.
 */
function loadSnapshot(SQL: SqlJsStatic, bytes: Uint8Array, vouched: boolean): Database {
  const db = new SQL.Database(bytes)
  try {
    if (vouched) {
      db.exec('SELECT count(*) FROM sqlite_master')
      return db
    }
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
function chooseBase(SQL: SqlJsStatic, dir: string, journal: Journal, now: () => Date, mark: Mark): Base {
  const problems: string[] = []
  let aheadOfJournal: string | null = null
  const checks = readChecks(dir)
  let untrusted: string | null = null
  let found: Base | null = null
  for (const name of SNAPSHOT_FILES_NEWEST_FIRST) {
    const bytes = readSnapshotFile(dir, name)
    if (bytes === null) continue
    mark(`ledger thread: ${name} read (${(bytes.length / 1_048_576).toFixed(0)} MB)`)
    const check = checkOf(bytes, checks)
    mark(`ledger thread: ${name} ${check === null ? 'has no check that vouches for it' : 'vouched for by its check'}`)
    // With no check on disk at all, the snapshot may be an older Counter's: loaded to see.
    if (check === null && checks.length > 0) {
      untrusted ??= name
      continue
    }
    let db: Database
    try {
      db = loadSnapshot(SQL, bytes, check !== null)
      mark(`ledger thread: ${name} loaded${check === null ? ' and checked whole by SQLite' : ''}`)
    } catch (error) {
      problems.push(say('ledger.copyUnreadable', { name, error: (error as Error).message }))
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
      if (olderCounters) problems.push(say('ledger.copyOlder', { name }))
      found = { db, seq: position.seq, start: located.start, isNewestFile, newestCheck, problems, aheadOfJournal }
      break
    }
    db.close()
    if (located.ahead) aheadOfJournal ??= say('ledger.copyAhead', { name, seq: position.seq, reason: located.reason })
    else problems.push(say('ledger.copyMismatch', { name, seq: position.seq }))
  }
  if (untrusted !== null) {
    const source = found ? say('ledger.fromPrevious', { name: PREVIOUS_SNAPSHOT_FILE }) : say('ledger.fromJournal')
    const what = checks.length === 0 ? say('ledger.copyNoCheck') : say('ledger.copyCheckDiffers')
    problems.unshift(say('ledger.copyRebuilt', { name: untrusted, what, source }))
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
export function replayOntoSnapshot(SQL: SqlJsStatic, dir: string, journal: Journal, now: () => Date, mark: Mark = () => undefined): Opened {
  const base = chooseBase(SQL, dir, journal, now, mark)
  try {
    prepareConnection(base.db)
    const problems = [...base.problems]
    let replayed = 0
    const read = projectRun(base.db, (apply) =>
      journal.readFrom(base.start, (entry) => {
        replayed++
        const problem = apply(entry)
        if (problem !== null) problems.push(say('ledger.notApplied', { seq: entry.seq, type: entry.type, problem }))
      }),
    )
    keepRoomToGrow(base.db)
    if (read.tornTail) problems.unshift(say('ledger.tornTail', { line: read.tornTail.line }))
    const blockers = [
      read.broken && say('ledger.damagedAt', { line: read.broken.line, reason: read.broken.reason, file: path.basename(read.broken.file) }),
      base.aheadOfJournal && say('ledger.linesMissing', { detail: base.aheadOfJournal }),
      journal.conflict && say('ledger.twoJournals', { conflict: journal.conflict }),
    ].filter((blocker): blocker is Said => Boolean(blocker))
    problems.push(...blockers)
    return {
      db: base.db,
      report: { snapshotSeq: base.seq, replayed, tornTail: read.tornTail !== null, problems },
      readOnly: blockers.length > 0 ? say('ledger.readOnlyUntil', { problem: blockers[0] }) : null,
      unsaved: !base.isNewestFile || replayed > 0,
      saved: base.newestCheck,
    }
  } catch (error) {
    base.db.close()
    throw error
  }
}
