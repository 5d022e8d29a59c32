// The ledger: journal first (fsync'd), then the sql.js projection; rebuilt on open from the latest good snapshot plus the journal's tail.
import fs from 'node:fs'
import type { Database, SqlJsStatic } from 'sql.js'
import { archiveClosedYears, listArchives, readArchive, restoreUnendedYears, setArchiveAside } from './archive'
import { latestClosedDayIn } from './books-reads'
import type { Chores } from './chores'
import { ClockFloor, type ClockCheck } from './clock-sense'
import { DAY_BOUND_EVENTS, type JournalEntry, type LedgerEventData, type LedgerEventType } from './events'
import type { JournalAudit } from './audit'
import { bytesToCopy, copyLedgerFolder, type CopiedLedger } from './backup-copy'
import { Journal } from './journal'
import { LedgerInUseError, lockFolder } from './folder-lock'
import { replayOntoSnapshot, type OpenReport } from './ledger-open'
import { loadSqlJs } from './sql-engine'
import { eventProblem, project } from './projections'
import { LEDGER_READS, type ReadArgs, type ReadBooks, type ReadName, type ReadValue } from './ledger-reads'
import type { SnapshotCheck } from './snapshot'
import { DayClosedError, LedgerWriteError, NOTHING_WRITTEN } from './ledger-errors'
import { Saves } from './ledger-saves'
import { say } from '../shared/words'
import type { Mark } from '../shared/startup-timeline'

export type { BalanceFact, DayClosure, DayTotals, UnresolvedSale } from './books-reads'
export type { HistoryPage, HistoryQuery } from './history'
export { verifyJournal } from './journal'
export { LedgerInUseError } from './folder-lock'
export { DayClosedError, LedgerWriteError } from './ledger-errors'
export { ClockUnconfirmedError, type ClockCheck } from './clock-sense'
export type { OpenReport } from './ledger-open'

/** Segments are rotated past this size, so an open reads and verifies at most about this much journal. */
export const SEGMENT_BYTES = 32 * 1024 * 1024

export interface LedgerOptions {
  dir: string
  snapshotEvery?: number
  /** The journal starts a new segment at the first snapshot after its current one grows past this. */
  segmentBytes?: number
  now?: () => Date
  /**
   * Judge `now` against the journal's times (clock-sense.ts): sale intents, top-ups, day closes
   * and archiving are refused while they disagree, until a 'clock.confirmed' line. For ledgers
   * run on the computer's clock (the counter); tests and builders with their own clocks leave it off.
   */
  clockSense?: boolean
  /**
   * The caller holds the folder's lock (lockFolder) and releases it: the ledger thread's client takes
   * it in the main thread, so a thread that dies never leaves the folder locked by a living process.
   */
  lockHeld?: boolean
  /** Told as the whole-journal audit (bytes) and archiving (years) go, for the shop to see. */
  onProgress?: (progress: LedgerProgress) => void
  /** The start-up timeline's steps (shared/startup-timeline.ts). */
  mark?: Mark
}

/**
 * Decision: books this small are backed up in the ledger thread, holding a sale at most a few milliseconds
 * once a day (a 1 MiB copy with its fsync: 6.6 ms median on the 2-core test machine), where starting the
 * chores thread for it costs far more than the copy: a Node thread's own start-up and its modules (profiled
 * across the test suite, the 191 chores threads started for a backup and nothing else took 351 ms of CPU at
 * the median). A shop's first weeks, and every test's books, stay under it; larger books keep the chores
 * thread, and sales go on meanwhile.
 */
const COPY_HERE_BYTES = 1024 * 1024

/** Long work the shop is shown as it goes: the whole-journal audit, archiving closed years and a copy off this disk. */
export interface LedgerProgress {
  task: 'audit' | 'archive' | 'backup'
  done: number
  total: number
}

const isDayBound = (type: LedgerEventType): type is (typeof DAY_BOUND_EVENTS)[number] => (DAY_BOUND_EVENTS as readonly string[]).includes(type)

export class Ledger {
  private closed = false
  /** Why the last snapshot (or the segment rotation after it) failed, if it did; the journal still holds every event. */
  private snapshotFailure: string | null = null
  /** The latest closed business day (undefined until first needed): books close in order. */
  private closedThrough: string | null | undefined
  /** Set when the ledger was opened with clockSense. */
  private clockFloor: ClockFloor | null = null
  /** What the books learned after open, for the shop to see beside the open report's problems. */
  private readonly laterNotices: string[] = []
  private readonly booksListeners = new Set<() => void>()
  /** What the reads see of these books (ledger-reads.ts ReadBooks). */
  private readonly books: ReadBooks
  private readonly saves: Saves

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly dir: string,
    private readonly db: Database,
    private readonly journal: Journal,
    readonly report: OpenReport,
    private readOnlyReason: string | null,
    unsaved: boolean,
    saved: SnapshotCheck | null,
    private readonly options: { snapshotEvery: number; segmentBytes: number; now: () => Date; onProgress?: (progress: LedgerProgress) => void },
    private readonly unlock: () => void,
  ) {
    const { snapshotEvery, segmentBytes } = options
    const readOnly = () => this.readOnlyReason
    const saving = { dir, db, journal, snapshotEvery, segmentBytes, readOnly, closed: () => this.closed, failed: (failure: string | null) => this.setSnapshotFailure(failure) }
    // Replayed entries count too: a long replay at open should not have to happen again next time.
    this.saves = new Saves(saving, unsaved, saved, report.replayed)
    this.books = { db, SQL, dir, journal, archiveCounts: new Map(), writable: () => this.readOnlyReason === null }
    journal.whenUnusable((why) =>
      this.becomeReadOnly(say('ledger.journalFull', { why })),
    )
  }

  static async open({ dir, snapshotEvery = 500, segmentBytes = SEGMENT_BYTES, now = () => new Date(), clockSense = false, lockHeld = false, onProgress, mark = () => undefined }: LedgerOptions): Promise<Ledger> {
    const SQL = await loadSqlJs()
    mark('ledger thread: sql.js ready')
    let journal: Journal
    let unlock: () => void
    try {
      fs.mkdirSync(dir, { recursive: true })
      unlock = lockHeld ? () => {} : lockFolder(dir)
    } catch (cause) {
      if (cause instanceof LedgerInUseError) throw cause
      throw new LedgerWriteError(say('ledger.folderUnwritable', { dir, error: (cause as Error).message }), { cause })
    }
    try {
      journal = Journal.open(dir)
    } catch (cause) {
      unlock()
      throw new LedgerWriteError(say('ledger.folderUnwritable', { dir, error: (cause as Error).message }), { cause })
    }
    try {
      const { db, report, readOnly, unsaved, saved } = replayOntoSnapshot(SQL, dir, journal, now, mark)
      mark(`ledger thread: books loaded (snapshot at line ${report.snapshotSeq}, ${report.replayed} lines replayed)`)
      const ledger = new Ledger(SQL, dir, db, journal, report, readOnly, unsaved, saved, { snapshotEvery, segmentBytes, now, onProgress }, unlock)
      // Read after the replay, which cut off any torn last line.
      if (clockSense) ledger.clockFloor = ClockFloor.fromJournal(dir)
      return ledger
    } catch (error) {
      journal.close()
      unlock()
      throw error
    }
  }

  /** Why nothing can be written (a damaged journal, or missing lines); null when the ledger is writable. */
  get readOnly(): string | null {
    return this.readOnlyReason
  }

  /** What the shop should know about its books: the open report's problems, then what was found since. */
  get notices(): string[] {
    return [...this.report.problems, ...this.laterNotices, ...(this.snapshotFailure ? [this.snapshotFailure] : [])]
  }

  /** Calls `listener` whenever `readOnly` or `notices` change after open; returns the way to stop. */
  onBooksChanged(listener: () => void): () => void {
    this.booksListeners.add(listener)
    return () => this.booksListeners.delete(listener)
  }

  private booksChanged(): void {
    for (const listener of this.booksListeners) listener()
  }

  private becomeReadOnly(reason: string): void {
    if (this.readOnlyReason !== null) return
    this.readOnlyReason = reason
    this.booksChanged()
  }

  private setSnapshotFailure(failure: string | null): void {
    if (failure === this.snapshotFailure) return
    this.snapshotFailure = failure
    this.booksChanged()
  }

  /**
   * The full audit: the whole journal's hash chain from its first line, where open checks only
   * the part past the snapshot. A break makes the ledger read-only, as at open. It runs in the
   * chores thread, telling onProgress as it goes, while sales go on being appended.
   */
  async auditJournal(): Promise<JournalAudit> {
    const onProgress = (done: number, total: number) => this.options.onProgress?.({ task: 'audit', done, total })
    const audit = await this.saves.runningChores().ask('audit', { through: this.journal.lastSeq }, { onProgress })
    if (!audit.ok) this.becomeReadOnly(say('ledger.auditDamaged', { problem: audit.problem ?? '' }))
    return audit
  }

  /**
   * Day close vouches for the saved copy too: ledger.sqlite and its check must still be what this
   * ledger loaded or last wrote. One changed while Counter ran is written again from memory, whose
   * tables came from the journal and were never read back from that file. Returns what was found.
   * The file is read and hashed in the chores thread, and written again by its replica.
   */
  async checkSavedCopy(): Promise<string | null> {
    const notice = await this.saves.checkSavedCopy()
    if (notice !== null) {
      this.laterNotices.push(notice)
      this.booksChanged()
    }
    return notice
  }

  /**
   * Records one event: journal line first, then the tables. When this returns the event is durable,
   * or for a deferred line (events.ts LINE_SYNC: a sale's outcome) written and durable within
   * DEFERRED_SYNC_MS; when it throws LedgerWriteError or DayClosedError nothing was recorded and the caller must not act.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): JournalEntry<T> {
    return this.appendThen(type, data, () => undefined)
  }

  /**
   * append, telling `recorded` the entry as soon as its line is in the journal (fsync'd, or deferred
   * as LINE_SYNC allows) and before the tables take it. The ledger thread answers the main thread
   * there, so a sale waits for the disk and not for the projection (issue #8: about 0.3 ms of a
   * sale's 1 ms): the journal is the record, and the thread applies the entry before it reads its
   * next request, so no later read or write can miss it. Should the tables then refuse an entry
   * that eventProblem passed (a bug, or sql.js out of memory), the ledger turns read-only at once,
   * as it would on replaying that line; the caller was right to act on it, since it is recorded.
   */
  appendThen<T extends LedgerEventType>(type: T, data: LedgerEventData[T], recorded: (entry: JournalEntry<T>) => void): JournalEntry<T> {
    if (this.closed) throw new LedgerWriteError(say('ledger.closed'))
    if (this.readOnlyReason) throw new LedgerWriteError(this.readOnlyReason)
    if (isDayBound(type)) this.clockFloor?.assertAgrees(this.options.now())
    const closedDay = this.closedDayOf(type, data)
    if (closedDay !== null) throw new DayClosedError(closedDay)
    const problem = eventProblem(this.db, type, data)
    if (problem !== null) throw new Error(`The ledger refused ${type}: ${problem}.`)
    let entry: JournalEntry<T>
    try {
      entry = this.journal.append(type, data, this.options.now().toISOString())
    } catch (cause) {
      throw new LedgerWriteError(NOTHING_WRITTEN, { cause })
    }
    this.clockFloor?.note(entry.type, entry.at)
    recorded(entry)
    try {
      project(this.db, entry, problem)
    } catch (error) {
      // The journal has the event but the tables do not: stop writing rather than diverge further.
      this.becomeReadOnly(say('ledger.notAppliedRestart', { seq: entry.seq, error: (error as Error).message }))
      throw error
    }
    if (entry.type === 'day.closed') this.noteClosed((entry.data as LedgerEventData['day.closed']).businessDay)
    this.saves.appended()
    return entry
  }

  /**
   * The business day an event would add to after its books were closed, else null. Books close in
   * order: no sale or top-up is booked on or before the latest closed day (that covers the closed
   * days of archived years too; an archived year is storage, not a lock, so a clock confirmed
   * back into it still books on today). Decision: a day left open before a later closed one (a
   * forgotten close) may still be closed late: that books nothing, it counts the drawer and locks it.
   */
  private closedDayOf<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): string | null {
    if (!isDayBound(type)) return null
    const { businessDay } = data as { businessDay: string }
    if (type === 'day.closed') return this.read('dayClosure', businessDay) === null ? null : businessDay
    const latest = this.latestClosedDay()
    return latest !== null && businessDay <= latest ? businessDay : null
  }

  /** The latest closed business day: from the active year, else the newest archive (a new year before its first close). */
  private latestClosedDay(): string | null {
    if (this.closedThrough === undefined) {
      const newestArchive = listArchives(this.dir)[0]
      this.closedThrough = latestClosedDayIn(this.db) ?? (newestArchive ? readArchive(this.SQL, newestArchive.file, latestClosedDayIn) : null)
    }
    return this.closedThrough
  }

  private noteClosed(businessDay: string): void {
    const latest = this.latestClosedDay()
    if (latest === null || latest < businessDay) this.closedThrough = businessDay
  }

  /** The time the clock is judged against (clock-sense.ts); null when opened without clockSense or on empty books. */
  get clockFloorAt(): string | null {
    return this.clockFloor?.at ?? null
  }

  /** The computer's clock against the journal's floor; null when the ledger was opened without clockSense. */
  clockCheck(): ClockCheck | null {
    return this.clockFloor?.check(this.options.now()) ?? null
  }

  /** Answers one read of the table (ledger-reads.ts) from these books. */
  read<K extends ReadName>(name: K, ...args: ReadArgs[K]): ReadValue[K] {
    return LEDGER_READS[name](this.books, ...args)
  }

  /**
   * Moves the settled rows of financial years before `today`'s (YYYY-MM-DD) into read-only
   * archive/FY<yyyy-yy>.sqlite files, then snapshots. The journal keeps every line. Returns the
   * archives written; running it again merges into them. An archive of a year `today` is still in
   * (a clock confirmed months ahead made it) is brought back into the live books first.
   * Archiving changes the books outside the journal, so the snapshot is written here from them
   * (after any in flight) and the replica seeded again from it at the next one.
   */
  async archiveClosedYears(today: string): Promise<string[]> {
    if (this.closed) throw new LedgerWriteError(say('ledger.closed'))
    if (this.readOnlyReason) throw new LedgerWriteError(say('ledger.nothingArchived', { problem: this.readOnlyReason }))
    // A clock months ahead would archive the year still being sold in.
    this.clockFloor?.assertAgrees(this.options.now())
    return this.saves.inTurn(() => this.archiveInTurn(today))
  }

  private archiveInTurn(today: string): string[] {
    if (this.closed) throw new LedgerWriteError(say('ledger.closed'))
    const restored = restoreUnendedYears(this.SQL, this.db, this.dir, today)
    const onProgress = (done: number, total: number) => this.options.onProgress?.({ task: 'archive', done, total })
    const written = archiveClosedYears(this.SQL, this.db, this.dir, today, onProgress)
    this.saves.afterArchiving()
    // Only now that the snapshot holds the restored rows may their archives go: a crash before this
    // leaves each file in place, and the next run restores it again without doubling a row.
    const stamp = this.options.now().toISOString().replace(/[:.]/g, '-')
    for (const archive of restored) {
      const asideAs = setArchiveAside(archive, stamp)
      this.laterNotices.push(say('ledger.archivesRestored', { year: archive.name, file: asideAs }))
    }
    if (restored.length > 0) this.booksChanged()
    return written
  }

  /**
   * Saves the books now (after a snapshot in flight), through the chores thread's replica; rejects
   * with what went wrong. Skipped when nothing changed since the last one, and when read-only: the
   * files on disk are then left exactly as found, for whoever investigates.
   */
  snapshot(): Promise<void> {
    return this.saves.snapshot()
  }

  /**
   * Copies the ledger into `into` (today's backup, backups.ts) in turn with the snapshots: a saved copy
   * copied while one was being written would not pair up with its check, and a restore would rebuild the
   * books from the journal. Large books are copied by the chores thread, so sales go on meanwhile; books
   * of at most COPY_HERE_BYTES are copied here.
   */
  backUpInto(into: string): Promise<void> {
    return this.saves.inTurn(async () => {
      if (bytesToCopy(this.dir) <= COPY_HERE_BYTES) return copyLedgerFolder(this.dir, into)
      await this.saves.runningChores().ask('copyLedger', { into })
    })
  }

  /**
   * Copies the ledger into `into` on another disk (counter/offsite-backup.ts) as backUpInto does, in turn with the
   * snapshots, then reads it back from there and checks it (backup-copy.ts copyLedgerOffDisk), telling onProgress as it
   * goes; sales go on meanwhile. The copy holds at least every line written before it began.
   */
  copyOffDisk(into: string): Promise<CopiedLedger> {
    return this.saves.inTurn(() => {
      const onProgress = (done: number, total: number) => this.options.onProgress?.({ task: 'backup', done, total })
      return this.saves.runningChores().ask('copyOffDisk', { into, through: this.journal.lastSeq }, { onProgress })
    })
  }

  /** Resolves once every snapshot scheduled so far has been written (or has failed): for tests and tools that take turns with it. */
  snapshotsSettled(): Promise<void> {
    return this.saves.settled()
  }

  /**
   * Saves a last snapshot and lets go of the folder. Resolves to what went wrong, in plain words for
   * whoever stops Counter to show (empty when nothing did). A snapshot that cannot be written at exit
   * is no reason to fail the exit: the journal holds every event and the next open replays it.
   * Waits for a snapshot in flight; the last one is the replica's when it holds the books, else
   * written here (cheaper than seeding one); then the chores thread stops.
   */
  async close(): Promise<string[]> {
    if (this.closed) return []
    this.closed = true
    const problems: string[] = []
    try {
      await this.saves.last()
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOSPC' ? say('ledger.diskFull') : (error as Error).message
      problems.push(say('ledger.exitSaveFailed', { why }))
    } finally {
      await this.saves.stop()
      this.journal.close()
      this.db.close()
      this.unlock()
    }
    return problems
  }

  /** The chores thread while it runs, else null: tests stop it mid-task (Chores.terminate) to see that nothing is lost. */
  get choresThread(): Chores | null {
    return this.saves.choresThread
  }
}
