// The chores thread's copy of the books: seeded once, brought forward by reading the journal (never writing it), and written out as the snapshot.
import path from 'node:path'
import type { Database, SqlJsStatic } from 'sql.js'
import { prepareConnection } from './connection'
import { migrate } from './migrations'
import { journalPosition, projectRun } from './projections'
import { JOURNAL_DIR, listSegments, locate, readChain, samePoint, type ChainPoint, type ReadStart } from './segments'
import { checkOf, readSnapshotFile, SNAPSHOT_FILE, writeSnapshot, type SnapshotCheck } from './snapshot'
import { say } from '../shared/words'

export class Replica {
  private db: Database | null = null
  /** Where the last read stopped, by segment file, so the next one need not find its place again. */
  private resume: { file: string; start: ReadStart } | null = null

  constructor(
    private readonly SQL: SqlJsStatic,
    private readonly dir: string,
  ) {}

  /**
   * Loads ledger.sqlite when its bytes are still what `check` vouches for, brought to the current
   * schema as the ledger's open did; returns false (the replica unchanged) when they are not.
   */
  seedFromFile(check: SnapshotCheck): boolean {
    const bytes = readSnapshotFile(this.dir, SNAPSHOT_FILE)
    if (bytes === null || checkOf(bytes, [check]) === null) return false
    const db = new this.SQL.Database(bytes)
    this.replace(db)
    if (!samePoint(journalPosition(db), check)) throw new Error(say('replica.checkMismatch', { file: SNAPSHOT_FILE }))
    migrate(db)
    return true
  }

  /** Loads an export of the live books. */
  seed(bytes: Uint8Array): void {
    this.replace(new this.SQL.Database(bytes))
  }

  private replace(db: Database): void {
    this.db?.close()
    this.db = db
    this.resume = null
    prepareConnection(db)
  }

  /** Applies the journal's entries up to `through`, as an open's replay does, then writes the snapshot and its check. */
  snapshot(through: ChainPoint): SnapshotCheck {
    const db = this.follow(through)
    const bytes = db.export()
    prepareConnection(db)
    return writeSnapshot(this.dir, bytes, through)
  }

  private follow(through: ChainPoint): Database {
    const db = this.db
    if (db === null) throw new Error(say('replica.notLoaded'))
    const from = journalPosition(db)
    if (from.seq >= through.seq) {
      if (samePoint(from, through)) return db
      throw new Error(say('replica.pastTarget', { from: from.seq, through: through.seq }))
    }
    const segments = listSegments(path.join(this.dir, JOURNAL_DIR))
    const resumed = this.resume && samePoint(this.resume.start.after, from) && segments[this.resume.start.segment]?.file === this.resume.file
    const located = resumed ? { found: true as const, start: this.resume!.start } : locate(segments, from)
    if (!located.found) throw new Error(say('replica.cannotContinue', { reason: located.reason }))
    // Entries past `through` are being appended as this reads (the last may be half-written): left for the next time.
    // A throw undoes the batch under way: `resume` then names an entry past the books' position, and is not used.
    const read = projectRun(db, (apply) =>
      readChain(segments, located.start, (entry, next) => {
        if (entry.seq > through.seq) return
        apply(entry)
        this.resume = { file: segments[next.segment].file, start: next }
      }),
    )
    const reached = journalPosition(db)
    if (!samePoint(reached, through)) {
      // A chore's own failure, in English as logs are: the segments' reasons are said for screens.
      const why = read.broken ? say('replica.brokenLine', { line: read.broken.line, reason: read.broken.reason }) : say('replica.endsAt', { seq: reached.seq })
      throw new Error(say('replica.notFollowed', { through: through.seq, why }))
    }
    return db
  }
}
