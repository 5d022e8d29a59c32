// The ledger's saved copy beside its journal: snapshots written one at a time, by the chores thread's replica or in this thread, and that chores thread.
import type { Database } from 'sql.js'
import { Chores } from './chores'
import { prepareConnection } from './connection'
import type { Journal } from './journal'
import { LedgerWriteError } from './ledger-errors'
import { journalPosition } from './projections'
import { SNAPSHOT_FILE, writeSnapshot, type SnapshotCheck } from './snapshot'
import { say } from '../shared/words'

/** What the saves need of the ledger whose books they save. */
export interface SavedBooks {
  readonly dir: string
  readonly db: Database
  readonly journal: Journal
  readonly snapshotEvery: number
  /** The journal starts a new segment at the first snapshot after its current one grows past this. */
  readonly segmentBytes: number
  /** Why nothing can be written, or null: no snapshot is written while read-only. */
  readOnly(): string | null
  /** Whether the ledger is closing: the chores thread is not started again then. */
  closed(): boolean
  /** Why the last snapshot (or the segment rotation after it) failed; null once one succeeds. */
  failed(failure: string | null): void
}

export class Saves {
  /** A snapshot is waiting its turn (writingTurn) and has not started: one more is not queued. */
  private snapshotQueued = false
  /** The last write of the snapshot files asked for (all run in turn: one writer of ledger.sqlite at a time). */
  private writingTurn: Promise<unknown> = Promise.resolve()
  /** The chores thread (snapshots, audits, saved-copy checks), started at first need and again after it stops. */
  private chores: Chores | null = null
  /** Whether the chores thread's replica holds these books (as of some journal entry): false until seeded, and after archiving. */
  private replicaSeeded = false

  constructor(
    private readonly books: SavedBooks,
    /** The books hold entries the snapshot on disk does not. */
    private unsaved: boolean,
    /** What ledger.sqlite on disk must be: the check of the snapshot this ledger loaded or last wrote. */
    private saved: SnapshotCheck | null,
    private eventsSinceSnapshot: number,
  ) {}

  /** An entry reached the tables: a snapshot is asked for every snapshotEvery of them. */
  appended(): void {
    this.unsaved = true
    if (++this.eventsSinceSnapshot >= this.books.snapshotEvery) this.schedule()
  }

  /**
   * Asks the chores thread for a snapshot, after the one in flight if any (at most one more waits).
   * The sale is acknowledged first: the request (and the replica's seed, the first time) goes out on
   * the next turn of the event loop, once the caller has had its answer.
   */
  private schedule(): void {
    if (this.snapshotQueued) return
    this.snapshotQueued = true
    this.inTurn(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      this.snapshotQueued = false
      await this.byReplica()
    }).catch((error: unknown) => {
      // Tried again after another snapshotEvery events, not on every sale meanwhile.
      this.eventsSinceSnapshot = 0
      this.books.failed(say('ledger.snapshotFailed', { error: (error as Error).message }))
    })
  }

  /** Runs `work` once every earlier write of the snapshot files has finished, whether or not it succeeded. */
  inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    const turn = this.writingTurn.then(work, work)
    this.writingTurn = turn.catch(() => undefined)
    return turn
  }

  /** The chores thread, started now if it is not running (the first need, or it stopped). */
  runningChores(): Chores {
    if (this.chores?.running) return this.chores
    if (this.books.closed()) throw new LedgerWriteError(say('ledger.closed'))
    this.chores = Chores.start(this.books.dir)
    this.replicaSeeded = false
    return this.chores
  }

  /**
   * Decision: the replica is seeded at the first snapshot, not at open (most opens never reach one:
   * tests, tools, a short day), and from ledger.sqlite itself when this ledger vouches for that file
   * (`saved`: it was opened from it, or last wrote it). The chores thread then reads and hashes the
   * file and replays the journal past it, and this thread does nothing: the usual case at the
   * counter, at any size. Only with no trusted file (a new ledger; one rebuilt from the journal at
   * open; after a saved copy changed on disk or a failed snapshot) does it export the live books,
   * the one time a sale may wait on a snapshot (as long as an export: a quarter of the old inline one).
   */
  private async seededChores(): Promise<Chores> {
    const chores = this.runningChores()
    if (this.replicaSeeded) return chores
    if (!(this.saved && (await chores.ask('seedFromFile', { check: this.saved })))) {
      const bytes = this.books.db.export()
      prepareConnection(this.books.db)
      await chores.ask('seed', { bytes }, { transfer: [bytes.buffer as ArrayBuffer] })
    }
    this.replicaSeeded = true
    return chores
  }

  /**
   * Has the replica write the books as of the journal's last line; then notes the check and starts
   * a new segment if the current one is large, here, where lines are appended. Skipped when nothing
   * changed since the last one, and when read-only (the files on disk are left as found).
   */
  private async byReplica(): Promise<void> {
    if (this.books.readOnly() || !this.unsaved) return
    const chores = await this.seededChores()
    // A snapshot durable ahead of its journal lines would, after a power cut, make the books read-only.
    this.books.journal.syncDeferred()
    const through = journalPosition(this.books.db)
    this.unsaved = false
    this.eventsSinceSnapshot = 0
    // Until the answer, ledger.sqlite on disk is not one this ledger vouches for.
    this.saved = null
    try {
      this.written(await chores.ask('snapshot', { through }))
    } catch (error) {
      this.unsaved = true
      throw error
    }
  }

  /** Exports and writes the live books in this thread: after archiving, and at close when no replica holds them. */
  private here(): void {
    if (this.books.readOnly() || !this.unsaved) return
    // A snapshot durable ahead of its journal lines would, after a power cut, make the books read-only.
    this.books.journal.syncDeferred()
    const position = journalPosition(this.books.db)
    const bytes = this.books.db.export()
    prepareConnection(this.books.db)
    this.unsaved = false
    this.eventsSinceSnapshot = 0
    // Until both files are written, ledger.sqlite on disk is not one this ledger vouches for.
    this.saved = null
    try {
      this.written(writeSnapshot(this.books.dir, bytes, position))
    } catch (error) {
      this.unsaved = true
      throw error
    }
  }

  /** The snapshot files hold the books as `check` says: noted, and the journal's segment rotated if large (only this thread appends). */
  private written(check: SnapshotCheck): void {
    this.saved = check
    try {
      this.books.journal.rotateIfLarger(this.books.segmentBytes)
      this.books.failed(null)
    } catch (error) {
      this.books.failed(say('ledger.segmentFailed', { error: (error as Error).message }))
    }
  }

  /** A snapshot by the replica, in turn (Ledger.snapshot). */
  snapshot(): Promise<void> {
    return this.inTurn(() => this.byReplica())
  }

  /** In turn: ledger.sqlite checked against `saved` in the chores thread, and written again when it changed; what was found, or null. */
  checkSavedCopy(): Promise<string | null> {
    return this.inTurn(async () => {
      if (this.saved === null || (await this.runningChores().ask('savedCopyIs', { check: this.saved }))) return null
      const name = SNAPSHOT_FILE
      this.saved = null
      this.unsaved = true
      try {
        await this.byReplica()
        return this.books.readOnly() ? say('ledger.copyLeftAsFound', { name }) : say('ledger.copyRewritten', { name })
      } catch (error) {
        return say('ledger.copyNotRewritten', { name, error: (error as Error).message })
      }
    })
  }

  /** Within a turn, once archiving changed the books outside the journal: written here, and the replica seeded again from it at the next snapshot. */
  afterArchiving(): void {
    this.unsaved = true
    this.replicaSeeded = false
    this.here()
  }

  /** The last snapshot, in turn: the replica's when it holds the books, else written here (cheaper than seeding one). */
  last(): Promise<void> {
    return this.inTurn(() => (this.chores?.running && this.replicaSeeded ? this.byReplica() : this.here()))
  }

  /** Resolves once every snapshot scheduled so far has been written (or has failed). */
  async settled(): Promise<void> {
    for (let turn = this.writingTurn; ; turn = this.writingTurn) {
      await turn
      if (turn === this.writingTurn) return
    }
  }

  /** The chores thread while it runs, else null. */
  get choresThread(): Chores | null {
    return this.chores?.running ? this.chores : null
  }

  async stop(): Promise<void> {
    await this.chores?.terminate()
  }
}
