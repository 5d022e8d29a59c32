// The ledger: journal first (fsync'd), then the sql.js projection; rebuilt on open from the latest good snapshot plus the journal's tail.
import fs from 'node:fs'
import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import type { Agent, CouponSale, CouponType, CreditLine, CreditPayment, Customer, Due, DrawerCount, DrawerMoves, PasswordReset, PinReset, Sale, TopUp } from '../contract'
import { archiveClosedYears, listArchives, readArchive, restoreUnendedYears, setArchiveAside } from './archive'
import { balanceFactsBetween, closureOfDay, lastPinResetIn, latestClosedDayIn, pinResetsBetween, topupsBetween, totalsOfDay, unresolvedSales, type BalanceFact, type DayClosure, type DayTotals, type UnresolvedSale } from './books-reads'
import { Chores } from './chores'
import { creditDay, creditDues, creditPayment, creditStatement, type CreditDay } from './credit-reads'
import { drawerCountOf, drawerMovesOf } from './drawer-reads'
import { ClockFloor, type ClockCheck } from './clock-sense'
import { DAY_BOUND_EVENTS, type JournalEntry, type LedgerEventData, type LedgerEventType } from './events'
import { searchHistory, type HistoryPage, type HistoryQuery } from './history'
import type { JournalAudit } from './audit'
import type { CopiedLedger } from './backup-copy'
import { Journal } from './journal'
import { LedgerInUseError, lockFolder } from './folder-lock'
import { replayOntoSnapshot, type OpenReport } from './ledger-open'
import { loadSqlJs } from './sql-engine'
import { eventProblem, journalPosition, project } from './projections'
import { customerOf, customersStartingWith } from './customer-reads'
import { agentFromRow, couponSaleFromRow, passwordResetFromRow, saleFromRow, selectAll, SALES_WITH_NAMES } from './reads'
import { SNAPSHOT_FILE, writeSnapshot, type SnapshotCheck } from './snapshot'
import { prepareConnection } from './connection'
import { terminalOf, type TerminalName } from './terminal-projections'
import { english, say } from '../shared/error-words'

export type { BalanceFact, DayClosure, DayTotals, UnresolvedSale } from './books-reads'
export type { HistoryPage, HistoryQuery } from './history'
export { verifyJournal } from './journal'
export { LedgerInUseError } from './folder-lock'
export { ClockUnconfirmedError, type ClockCheck } from './clock-sense'
export type { OpenReport } from './ledger-open'

// Says only what the ledger knows: whether the provider was asked is the caller's to say (see recordWrite).
// The books' words are said (shared/error-words.ts): notices and refusals reach the screen in its language.
const NOTHING_WRITTEN = say('ledger.nothingWritten')
/** Segments are rotated past this size, so an open reads and verifies at most about this much journal. */
export const SEGMENT_BYTES = 32 * 1024 * 1024

/** The one error a caller shows as is: the line was not recorded (an intent not recorded must not be sent either). */
export class LedgerWriteError extends Error {
  constructor(message: string = NOTHING_WRITTEN, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LedgerWriteError'
  }
}

/**
 * Refusal to record a new sale, top-up or close on a day whose books are closed: nothing was written. Its
 * message is English, for logs; the core says it for the screen from businessDay (counter/app.ts recordWrite).
 */
export class DayClosedError extends Error {
  constructor(readonly businessDay: string) {
    super(english(say('ledger.dayClosed', { day: businessDay })))
    this.name = 'DayClosedError'
  }
}

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
}

/** Long work the shop is shown as it goes: the whole-journal audit, archiving closed years and a copy off this disk. */
export interface LedgerProgress {
  task: 'audit' | 'archive' | 'backup'
  done: number
  total: number
}

const isDayBound = (type: LedgerEventType): type is (typeof DAY_BOUND_EVENTS)[number] => (DAY_BOUND_EVENTS as readonly string[]).includes(type)

export class Ledger {
  private closed = false
  private eventsSinceSnapshot: number
  /** Why the last snapshot (or the segment rotation after it) failed, if it did; the journal still holds every event. */
  private snapshotFailure: string | null = null
  /** A snapshot is waiting its turn (writingTurn) and has not started: one more is not queued. */
  private snapshotQueued = false
  /** The last write of the snapshot files asked for (all run in turn: one writer of ledger.sqlite at a time). */
  private writingTurn: Promise<unknown> = Promise.resolve()
  /** The chores thread (snapshots, audits, saved-copy checks), started at first need and again after it stops. */
  private chores: Chores | null = null
  /** Whether the chores thread's replica holds these books (as of some journal entry): false until seeded, and after archiving. */
  private replicaSeeded = false
  /** Sale counts of archives opened by history searches, by file version and query. */
  private readonly archiveCounts = new Map<string, number>()
  /** The latest closed business day (undefined until first needed): books close in order. */
  private closedThrough: string | null | undefined
  /** Set when the ledger was opened with clockSense. */
  private clockFloor: ClockFloor | null = null
  /** What the books learned after open, for the shop to see beside the open report's problems. */
  private readonly laterNotices: string[] = []
  private readonly booksListeners = new Set<() => void>()

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly dir: string,
    private readonly db: Database,
    private readonly journal: Journal,
    readonly report: OpenReport,
    private readOnlyReason: string | null,
    private unsaved: boolean,
    /** What ledger.sqlite on disk must be: the check of the snapshot this ledger loaded or last wrote. */
    private saved: SnapshotCheck | null,
    private readonly options: { snapshotEvery: number; segmentBytes: number; now: () => Date; onProgress?: (progress: LedgerProgress) => void },
    private readonly unlock: () => void,
  ) {
    // Replayed entries count too: a long replay at open should not have to happen again next time.
    this.eventsSinceSnapshot = report.replayed
    journal.whenUnusable((why) =>
      this.becomeReadOnly(say('ledger.journalFull', { why })),
    )
  }

  static async open({ dir, snapshotEvery = 500, segmentBytes = SEGMENT_BYTES, now = () => new Date(), clockSense = false, lockHeld = false, onProgress }: LedgerOptions): Promise<Ledger> {
    const SQL = await loadSqlJs()
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
      const { db, report, readOnly, unsaved, saved } = replayOntoSnapshot(SQL, dir, journal, now)
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
    const audit = await this.runningChores().ask('audit', { through: this.journal.lastSeq }, { onProgress })
    if (!audit.ok) this.becomeReadOnly(say('ledger.auditDamaged', { problem: audit.problem ?? '' }))
    return audit
  }

  /**
   * Day close vouches for the saved copy too: ledger.sqlite and its check must still be what this
   * ledger loaded or last wrote. One changed while Counter ran is written again from memory, whose
   * tables came from the journal and were never read back from that file. Returns what was found.
   * The file is read and hashed in the chores thread, and written again by its replica.
   */
  checkSavedCopy(): Promise<string | null> {
    return this.inWritingTurn(async () => {
      if (this.saved === null || (await this.runningChores().ask('savedCopyIs', { check: this.saved }))) return null
      const name = SNAPSHOT_FILE
      this.saved = null
      this.unsaved = true
      let notice = say('ledger.copyRewritten', { name })
      try {
        await this.snapshotByReplica()
        if (this.readOnlyReason) notice = say('ledger.copyLeftAsFound', { name })
      } catch (error) {
        notice = say('ledger.copyNotRewritten', { name, error: (error as Error).message })
      }
      this.laterNotices.push(notice)
      this.booksChanged()
      return notice
    })
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
    this.unsaved = true
    if (entry.type === 'day.closed') this.noteClosed((entry.data as LedgerEventData['day.closed']).businessDay)
    if (++this.eventsSinceSnapshot >= this.options.snapshotEvery) this.scheduleSnapshot()
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
    if (type === 'day.closed') return this.dayClosure(businessDay) === null ? null : businessDay
    const latest = this.latestClosedDay()
    return latest !== null && businessDay <= latest ? businessDay : null
  }

  /** The latest closed business day: from the active year, else the newest archive (a new year before its first close). */
  latestClosedDay(): string | null {
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

  /**
   * Asks the chores thread for a snapshot, after the one in flight if any (at most one more waits).
   * The sale is acknowledged first: the request (and the replica's seed, the first time) goes out on
   * the next turn of the event loop, once the caller has had its answer.
   */
  private scheduleSnapshot(): void {
    if (this.snapshotQueued) return
    this.snapshotQueued = true
    this.inWritingTurn(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      this.snapshotQueued = false
      await this.snapshotByReplica()
    }).catch((error: unknown) => {
      // Tried again after another snapshotEvery events, not on every sale meanwhile.
      this.eventsSinceSnapshot = 0
      this.setSnapshotFailure(say('ledger.snapshotFailed', { error: (error as Error).message }))
    })
  }

  /** Runs `work` once every earlier write of the snapshot files has finished, whether or not it succeeded. */
  private inWritingTurn<T>(work: () => Promise<T> | T): Promise<T> {
    const turn = this.writingTurn.then(work, work)
    this.writingTurn = turn.catch(() => undefined)
    return turn
  }

  /** The chores thread, started now if it is not running (the first need, or it stopped). */
  private runningChores(): Chores {
    if (this.chores?.running) return this.chores
    if (this.closed) throw new LedgerWriteError(say('ledger.closed'))
    this.chores = Chores.start(this.dir)
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
      const bytes = this.db.export()
      prepareConnection(this.db)
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
  private async snapshotByReplica(): Promise<void> {
    if (this.readOnlyReason || !this.unsaved) return
    const chores = await this.seededChores()
    // A snapshot durable ahead of its journal lines would, after a power cut, make the books read-only.
    this.journal.syncDeferred()
    const through = journalPosition(this.db)
    this.unsaved = false
    this.eventsSinceSnapshot = 0
    // Until the answer, ledger.sqlite on disk is not one this ledger vouches for.
    this.saved = null
    try {
      this.snapshotWritten(await chores.ask('snapshot', { through }))
    } catch (error) {
      this.unsaved = true
      throw error
    }
  }

  /** The snapshot files hold the books as `check` says: noted, and the journal's segment rotated if large (only this thread appends). */
  private snapshotWritten(check: SnapshotCheck): void {
    this.saved = check
    try {
      this.journal.rotateIfLarger(this.options.segmentBytes)
      this.setSnapshotFailure(null)
    } catch (error) {
      this.setSnapshotFailure(say('ledger.segmentFailed', { error: (error as Error).message }))
    }
  }

  getSale(orderId: string): Sale | null {
    return this.selectSales(`${SALES_WITH_NAMES} WHERE order_id = ?`, [orderId])[0] ?? null
  }

  /** Newest first; rowid breaks ties between sales recorded in the same millisecond. */
  salesForDay(businessDay: string): Sale[] {
    return this.selectSales(`${SALES_WITH_NAMES} WHERE business_day = ? ORDER BY created_at DESC, sales.rowid DESC`, [businessDay])
  }

  /** Sales without a final answer (interrupted, or the provider never said), oldest first. */
  unresolvedSales(): Sale[] {
    return this.selectSales(`${SALES_WITH_NAMES} WHERE state IN ('SENDING', 'UNKNOWN') ORDER BY created_at, sales.rowid`, [])
  }

  private selectSales(sql: string, params: SqlValue[]): Sale[] {
    return selectAll(this.db, sql, params, saleFromRow)
  }

  /** The number's customer (name and last recharge), or null when no sale to it is remembered. */
  customer(number: string): Customer | null {
    return customerOf(this.db, number)
  }

  /** Up to `limit` customers whose number starts with `digits`, the most recently sold to first. */
  customerSuggestions(digits: string, limit: number): Customer[] {
    return customersStartingWith(this.db, digits, limit)
  }

  /** Every agent, newest first, including those the provider refused (NOT_CREATED): the UI filters. */
  agents(): Agent[] {
    return selectAll(this.db, 'SELECT * FROM agents ORDER BY created_at DESC, rowid DESC', [], agentFromRow)
  }

  getAgent(vleId: string): Agent | null {
    return selectAll(this.db, 'SELECT * FROM agents WHERE vle_id = ?', [vleId], agentFromRow)[0] ?? null
  }

  couponSale(attemptId: string): CouponSale | null {
    return this.selectCouponSales('SELECT * FROM coupon_sales WHERE attempt_id = ?', [attemptId])[0] ?? null
  }

  /** The most recent coupon sales, newest first. */
  couponSales(limit = 200): CouponSale[] {
    return this.selectCouponSales('SELECT * FROM coupon_sales ORDER BY created_at DESC, rowid DESC LIMIT ?', [limit])
  }

  couponSalesForDay(businessDay: string): CouponSale[] {
    return this.selectCouponSales('SELECT * FROM coupon_sales WHERE business_day = ? ORDER BY created_at DESC, rowid DESC', [businessDay])
  }

  /** Coupon sales without a final answer, oldest first: never resent, resolved by a status or balance check. */
  unresolvedCouponSales(): CouponSale[] {
    return this.selectCouponSales("SELECT * FROM coupon_sales WHERE state IN ('SENDING', 'UNKNOWN') ORDER BY created_at, rowid", [])
  }

  private selectCouponSales(sql: string, params: SqlValue[]): CouponSale[] {
    return selectAll(this.db, sql, params, couponSaleFromRow)
  }

  /** The rate the provider charged on the latest coupon sale of this type that reported one. */
  lastChargedRatePaise(type: CouponType): number | null {
    const rate = this.db.exec(
      'SELECT rate_paise FROM coupon_sales WHERE coupon_type = ? AND rate_paise IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT 1',
      [type],
    )[0]?.values[0]?.[0]
    return rate === undefined || rate === null ? null : Number(rate)
  }

  /** The balance the provider reported last (a balance call, or a coupon_req answer's new_bal), by journal order. */
  lastKnownPanBalance(): { balancePaise: number; at: string; seq: number } | null {
    const row = this.db.exec(
      `SELECT * FROM (SELECT balance_paise, at, seq FROM balance_checkpoints ORDER BY seq DESC LIMIT 1)
       UNION ALL
       SELECT * FROM (SELECT new_bal_paise, new_bal_at, new_bal_seq FROM coupon_sales WHERE new_bal_seq IS NOT NULL ORDER BY new_bal_seq DESC LIMIT 1)
       ORDER BY seq DESC LIMIT 1`,
    )[0]?.values[0]
    return row ? { balancePaise: Number(row[0]), at: String(row[1]), seq: Number(row[2]) } : null
  }

  /** One agent's password resets, newest first. */
  passwordResets(vleId: string): PasswordReset[] {
    return selectAll(this.db, 'SELECT * FROM password_resets WHERE vle_id = ? ORDER BY created_at DESC, rowid DESC', [vleId], passwordResetFromRow)
  }

  passwordReset(attemptId: string): PasswordReset | null {
    return selectAll(this.db, 'SELECT * FROM password_resets WHERE attempt_id = ?', [attemptId], passwordResetFromRow)[0] ?? null
  }

  lastSeq(): number {
    return this.journal.lastSeq
  }

  /** How the shop last named this counter (terminal.named), or null before it did. */
  terminal(): TerminalName | null {
    return terminalOf(this.db)
  }

  /** Both kinds of sale still waiting for an answer, oldest first, with the re-check queue's notes. */
  unresolved(): UnresolvedSale[] {
    return unresolvedSales(this.db)
  }

  /** Top-ups entered for the days in the range (both ends included), oldest first. Closed years are in their archives. */
  topups(fromDay?: string, toDay?: string): TopUp[] {
    return topupsBetween(this.db, fromDay, toDay)
  }

  /** Owner PIN resets journaled on the days in the range (both ends included), oldest first; never archived. */
  pinResets(fromDay?: string, toDay?: string): PinReset[] {
    return pinResetsBetween(this.db, fromDay, toDay)
  }

  /** The day's cash put into the drawer and taken out apart from sales, in the order recorded; never archived. */
  drawerMoves(businessDay: string): DrawerMoves {
    return drawerMovesOf(this.db, businessDay)
  }

  /** The latest drawer count saved for the day before its close, or null. */
  drawerCount(businessDay: string): DrawerCount | null {
    return drawerCountOf(this.db, businessDay)
  }

  /** The latest owner PIN reset journaled, or null: the status bar shows it until a PIN is set. */
  lastPinReset(): PinReset | null {
    return lastPinResetIn(this.db)
  }

  /** Every balance fact in journal order: balance reads, coupon_req answers (old/new), top-ups. */
  balanceFacts(fromDay?: string, toDay?: string): BalanceFact[] {
    return balanceFactsBetween(this.db, fromDay, toDay)
  }

  /**
   * The last balance the provider reported and the top-ups journaled after it: what the balance
   * Counter expects now is built from (reconcile.ts expectedPanBalance). After is by journal order,
   * never by clock: a top-up entered before that reading is already in it, one entered after is
   * not. Empty before any reading, as the first reading already holds every top-up before it.
   */
  balanceFactsSinceReading(): BalanceFact[] {
    const reading = this.lastKnownPanBalance()
    return reading ? balanceFactsBetween(this.db, undefined, undefined, reading.seq) : []
  }

  dayTotals(businessDay: string): DayTotals {
    return totalsOfDay(this.db, businessDay)
  }

  /** Every credit customer's due (credit-reads.ts). */
  creditDues(): Due[] {
    return creditDues(this.db)
  }

  creditStatement(number: string): { customer: Due; lines: CreditLine[] } | null {
    return creditStatement(this.db, number)
  }

  creditPayment(receiptId: string): Omit<CreditPayment, 'training'> | null {
    return creditPayment(this.db, receiptId)
  }

  creditDay(businessDay: string): CreditDay {
    return creditDay(this.db, businessDay)
  }

  /** How the day was closed, or null while it is open. Looks in the year's archive for a closed year. */
  dayClosure(businessDay: string): DayClosure | null {
    return closureOfDay(this.db, businessDay) ?? this.inArchiveOf(businessDay, (archiveDb) => closureOfDay(archiveDb, businessDay))
  }

  private inArchiveOf<T>(businessDay: string, read: (db: Database) => T | null): T | null {
    const archive = listArchives(this.dir).find((file) => file.start <= businessDay && businessDay < file.end)
    return archive ? readArchive(this.SQL, archive.file, read) : null
  }

  /** Sales of both kinds, newest first, from the active year and the archived ones the range reaches. */
  historySearch(query: HistoryQuery): HistoryPage {
    return searchHistory(this.SQL, this.db, this.dir, query, this.archiveCounts, this.readOnlyReason === null)
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
    return this.inWritingTurn(() => this.archiveInTurn(today))
  }

  private archiveInTurn(today: string): string[] {
    if (this.closed) throw new LedgerWriteError(say('ledger.closed'))
    const restored = restoreUnendedYears(this.SQL, this.db, this.dir, today)
    const onProgress = (done: number, total: number) => this.options.onProgress?.({ task: 'archive', done, total })
    const written = archiveClosedYears(this.SQL, this.db, this.dir, today, onProgress)
    this.unsaved = true
    this.replicaSeeded = false
    this.snapshotHere()
    // Only now that the snapshot holds the restored rows may their archives go: a crash before this
    // leaves each file in place, and the next run restores it again without doubling a row.
    const stamp = this.options.now().toISOString().replace(/[:.]/g, '-')
    for (const archive of restored) {
      const asideAs = setArchiveAside(archive, stamp)
      this.laterNotices.push(
        `The books of ${archive.name} had been archived while the computer's clock was set ahead; that year's sales, top-ups and day closes are back in the books. The archive file was kept as archive/${asideAs}.`,
      )
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
    return this.inWritingTurn(() => this.snapshotByReplica())
  }

  /**
   * Copies the ledger into `into` (today's backup, backups.ts) in the chores thread, in turn with
   * the snapshots: a saved copy copied while one was being written would not pair up with its
   * check, and a restore would rebuild the books from the journal.
   */
  backUpInto(into: string): Promise<void> {
    return this.inWritingTurn(async () => {
      await this.runningChores().ask('copyLedger', { into })
    })
  }

  /**
   * Copies the ledger into `into` on another disk (counter/offsite-backup.ts) as backUpInto does, in turn with the
   * snapshots, then reads it back from there and checks it (backup-copy.ts copyLedgerOffDisk), telling onProgress as it
   * goes; sales go on meanwhile. The copy holds at least every line written before it began.
   */
  copyOffDisk(into: string): Promise<CopiedLedger> {
    return this.inWritingTurn(() => {
      const onProgress = (done: number, total: number) => this.options.onProgress?.({ task: 'backup', done, total })
      return this.runningChores().ask('copyOffDisk', { into, through: this.journal.lastSeq }, { onProgress })
    })
  }

  /** Resolves once every snapshot scheduled so far has been written (or has failed): for tests and tools that take turns with it. */
  async snapshotsSettled(): Promise<void> {
    for (let turn = this.writingTurn; ; turn = this.writingTurn) {
      await turn
      if (turn === this.writingTurn) return
    }
  }

  /** Exports and writes the live books in this thread: after archiving, and at close when no replica holds them. */
  private snapshotHere(): void {
    if (this.readOnlyReason || !this.unsaved) return
    // A snapshot durable ahead of its journal lines would, after a power cut, make the books read-only.
    this.journal.syncDeferred()
    const position = journalPosition(this.db)
    const bytes = this.db.export()
    prepareConnection(this.db)
    this.unsaved = false
    this.eventsSinceSnapshot = 0
    // Until both files are written, ledger.sqlite on disk is not one this ledger vouches for.
    this.saved = null
    try {
      this.snapshotWritten(writeSnapshot(this.dir, bytes, position))
    } catch (error) {
      this.unsaved = true
      throw error
    }
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
      await this.inWritingTurn(() => (this.chores?.running && this.replicaSeeded ? this.snapshotByReplica() : this.snapshotHere()))
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'disk full' : english((error as Error).message)
      problems.push(`The ledger's saved copy could not be written at exit (${why}); every sale is in the journal and the next start rebuilds it.`)
    } finally {
      await this.chores?.terminate()
      this.journal.close()
      this.db.close()
      this.unlock()
    }
    return problems
  }

  /** The chores thread while it runs, else null: tests stop it mid-task (Chores.terminate) to see that nothing is lost. */
  get choresThread(): Chores | null {
    return this.chores?.running ? this.chores : null
  }
}
