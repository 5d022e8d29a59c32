// The ledger: journal first (fsync'd), then the sql.js projection; rebuilt on open from the latest good snapshot plus the journal's tail.
import fs from 'node:fs'
import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import type { Agent, CouponSale, CouponType, PasswordReset, Sale, TopUp } from '../contract'
import { archiveClosedYears, archivedBefore, listArchives, readArchive } from './archive'
import { dayIsClosed } from './books-projections'
import { balanceFactsBetween, closureOfDay, topupsBetween, totalsOfDay, unresolvedSales, type BalanceFact, type DayClosure, type DayTotals, type UnresolvedSale } from './books-reads'
import { DAY_BOUND_EVENTS, type JournalEntry, type LedgerEventData, type LedgerEventType } from './events'
import { searchHistory, type HistoryPage, type HistoryQuery } from './history'
import { Journal, verifyJournal } from './journal'
import { LedgerInUseError, lockFolder } from './folder-lock'
import { loadSqlJs, replayOntoSnapshot, type OpenReport } from './ledger-open'
import { eventProblem, project } from './projections'
import { agentFromRow, couponSaleFromRow, passwordResetFromRow, saleFromRow, selectAll } from './reads'
import { writeSnapshot } from './snapshot'
import { prepareConnection } from './connection'

export type { BalanceFact, DayClosure, DayTotals, UnresolvedSale } from './books-reads'
export type { HistoryPage, HistoryQuery } from './history'
export { verifyJournal } from './journal'
export { LedgerInUseError } from './folder-lock'
export type { OpenReport } from './ledger-open'

const NOTHING_WRITTEN = 'The ledger could not be written (disk full or folder read-only): nothing was sent.'
/** Segments are rotated past this size, so an open reads and verifies at most about this much journal. */
const SEGMENT_BYTES = 32 * 1024 * 1024

/** The one error a caller shows as is: the sale was not recorded, so it must not be sent either. */
export class LedgerWriteError extends Error {
  constructor(message = NOTHING_WRITTEN, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LedgerWriteError'
  }
}

/** Refusal to record a new sale, top-up or close on a day whose books are closed: nothing was written. */
export class DayClosedError extends Error {
  constructor(readonly businessDay: string) {
    super(`The books for ${businessDay} are closed.`)
    this.name = 'DayClosedError'
  }
}

export interface LedgerOptions {
  dir: string
  snapshotEvery?: number
  /** The journal starts a new segment at the first snapshot after its current one grows past this. */
  segmentBytes?: number
  now?: () => Date
}

const isDayBound = (type: LedgerEventType): type is (typeof DAY_BOUND_EVENTS)[number] => (DAY_BOUND_EVENTS as readonly string[]).includes(type)

export class Ledger {
  private closed = false
  private eventsSinceSnapshot: number
  private snapshotFailure: string | null = null
  private scheduledSnapshot: NodeJS.Immediate | null = null
  /** Sale counts of archives opened by history searches, by file version and query. */
  private readonly archiveCounts = new Map<string, number>()
  /** Days before this are in archived years: their books are closed. Changes only when archiving. */
  private archivedUntil: string | null

  private constructor(
    private readonly SQL: SqlJsStatic,
    private readonly dir: string,
    private readonly db: Database,
    private readonly journal: Journal,
    readonly report: OpenReport,
    private readOnlyReason: string | null,
    private unsaved: boolean,
    private readonly options: { snapshotEvery: number; segmentBytes: number; now: () => Date },
    private readonly unlock: () => void,
  ) {
    // Replayed entries count too: a long replay at open should not have to happen again next time.
    this.eventsSinceSnapshot = report.replayed
    this.archivedUntil = archivedBefore(db)
  }

  static async open({ dir, snapshotEvery = 500, segmentBytes = SEGMENT_BYTES, now = () => new Date() }: LedgerOptions): Promise<Ledger> {
    const SQL = await loadSqlJs()
    let journal: Journal
    let unlock: () => void
    try {
      fs.mkdirSync(dir, { recursive: true })
      unlock = lockFolder(dir)
    } catch (cause) {
      if (cause instanceof LedgerInUseError) throw cause
      throw new LedgerWriteError(`The ledger folder ${dir} could not be opened for writing (${(cause as Error).message}).`, { cause })
    }
    try {
      journal = Journal.open(dir)
    } catch (cause) {
      unlock()
      throw new LedgerWriteError(`The ledger folder ${dir} could not be opened for writing (${(cause as Error).message}).`, { cause })
    }
    try {
      const { db, report, readOnly, unsaved } = replayOntoSnapshot(SQL, dir, journal, now)
      return new Ledger(SQL, dir, db, journal, report, readOnly, unsaved, { snapshotEvery, segmentBytes, now }, unlock)
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

  /**
   * The full audit: the whole journal's hash chain from its first line, where open checks only
   * the part past the snapshot. A break makes the ledger read-only, as at open.
   */
  auditJournal(): { entries: number; ok: boolean; problem: string | null } {
    const audit = verifyJournal(this.dir)
    if (!audit.ok) this.readOnlyReason ??= `The journal is damaged: ${audit.problem} The ledger is read-only until this is looked into.`
    return audit
  }

  /** Why the last snapshot (or the segment rotation after it) failed, if it did; the journal still holds every event. */
  get snapshotProblem(): string | null {
    return this.snapshotFailure
  }

  /**
   * Records one event: journal line fsync'd first, then the tables. When this returns the event is
   * durable; when it throws LedgerWriteError or DayClosedError nothing was recorded and the caller must not act.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): JournalEntry<T> {
    if (this.closed) throw new LedgerWriteError('The ledger is closed: nothing was sent.')
    if (this.readOnlyReason) throw new LedgerWriteError(`${this.readOnlyReason} Nothing was sent.`)
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
    try {
      project(this.db, entry, problem)
    } catch (error) {
      // The journal has the event but the tables do not: stop writing rather than diverge further.
      this.readOnlyReason = `Entry #${entry.seq} is in the journal but could not be applied (${(error as Error).message}); restart Counter.`
      throw error
    }
    this.unsaved = true
    if (++this.eventsSinceSnapshot >= this.options.snapshotEvery) this.scheduleSnapshot()
    return entry
  }

  /** The business day an event would add to after its books were closed (or its year archived), else null. */
  private closedDayOf<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): string | null {
    if (!isDayBound(type)) return null
    const { businessDay } = data as { businessDay: string }
    const inArchivedYear = this.archivedUntil !== null && businessDay < this.archivedUntil
    return inArchivedYear || dayIsClosed(this.db, businessDay) ? businessDay : null
  }

  /** The sale is acknowledged first: the export runs once the caller has had its answer. */
  private scheduleSnapshot(): void {
    this.scheduledSnapshot ??= setImmediate(() => {
      this.scheduledSnapshot = null
      try {
        this.snapshot()
      } catch (error) {
        // Tried again after another snapshotEvery events, not on every sale meanwhile.
        this.eventsSinceSnapshot = 0
        this.snapshotFailure = `The ledger's saved copy could not be updated (${(error as Error).message}); every sale is still in the journal.`
      }
    })
  }

  getSale(orderId: string): Sale | null {
    return this.selectSales('SELECT * FROM sales WHERE order_id = ?', [orderId])[0] ?? null
  }

  /** Newest first; rowid breaks ties between sales recorded in the same millisecond. */
  salesForDay(businessDay: string): Sale[] {
    return this.selectSales('SELECT * FROM sales WHERE business_day = ? ORDER BY created_at DESC, rowid DESC', [businessDay])
  }

  /** Sales without a final answer (interrupted, or the provider never said), oldest first. */
  unresolvedSales(): Sale[] {
    return this.selectSales("SELECT * FROM sales WHERE state IN ('SENDING', 'UNKNOWN') ORDER BY created_at, rowid", [])
  }

  private selectSales(sql: string, params: SqlValue[]): Sale[] {
    return selectAll(this.db, sql, params, saleFromRow)
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

  /** Both kinds of sale still waiting for an answer, oldest first, with the re-check queue's notes. */
  unresolved(): UnresolvedSale[] {
    return unresolvedSales(this.db)
  }

  /** Top-ups entered for the days in the range (both ends included), oldest first. Closed years are in their archives. */
  topups(fromDay?: string, toDay?: string): TopUp[] {
    return topupsBetween(this.db, fromDay, toDay)
  }

  /** Every balance fact in journal order: balance reads, coupon_req answers (old/new), top-ups. */
  balanceFacts(fromDay?: string, toDay?: string): BalanceFact[] {
    return balanceFactsBetween(this.db, fromDay, toDay)
  }

  dayTotals(businessDay: string): DayTotals {
    return totalsOfDay(this.db, businessDay)
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
    return searchHistory(this.SQL, this.db, this.dir, query, this.archiveCounts)
  }

  /**
   * Moves the settled rows of financial years before `today`'s (YYYY-MM-DD) into read-only
   * archive/FY<yyyy-yy>.sqlite files, then snapshots. The journal keeps every line. Returns the
   * archives written; running it again merges into them.
   */
  archiveClosedYears(today: string): string[] {
    if (this.closed) throw new LedgerWriteError('The ledger is closed.')
    if (this.readOnlyReason) throw new LedgerWriteError(`${this.readOnlyReason} Nothing was archived.`)
    const written = archiveClosedYears(this.SQL, this.db, this.dir, today)
    this.archivedUntil = archivedBefore(this.db)
    this.unsaved = true
    this.snapshot()
    return written
  }

  /**
   * Saves the database atomically, then starts a new journal segment if the current one is large.
   * Skipped when nothing changed since the last one, and when read-only: the files on disk are
   * then left exactly as found, for whoever investigates.
   */
  snapshot(): void {
    if (this.readOnlyReason || !this.unsaved) return
    const bytes = this.db.export()
    prepareConnection(this.db)
    writeSnapshot(this.dir, bytes)
    this.unsaved = false
    this.eventsSinceSnapshot = 0
    this.snapshotFailure = null
    try {
      this.journal.rotateIfLarger(this.options.segmentBytes)
    } catch (error) {
      this.snapshotFailure = `A new journal segment could not be started (${(error as Error).message}); the current one goes on.`
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.scheduledSnapshot) clearImmediate(this.scheduledSnapshot)
    this.scheduledSnapshot = null
    try {
      this.snapshot()
    } finally {
      this.journal.close()
      this.db.close()
      this.unlock()
    }
  }
}
