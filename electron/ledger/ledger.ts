// The ledger: journal first (fsync'd), then the sql.js projection; rebuilt on open from the latest good snapshot plus the journal.
import fs from 'node:fs'
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js'
import type { Agent, CouponSale, CouponType, PasswordReset, Sale } from '../contract'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import { Journal } from './journal'
import { migrate } from './migrations'
import { eventProblem, journalPosition, project } from './projections'
import { agentFromRow, couponSaleFromRow, passwordResetFromRow, saleFromRow, selectAll } from './reads'
import { readSnapshotFile, SNAPSHOT_FILE, SNAPSHOT_FILES_NEWEST_FIRST, writeSnapshot } from './snapshot'

const NOTHING_WRITTEN = 'The ledger could not be written (disk full or folder read-only): nothing was sent.'

/** The one error a caller shows as is: the sale was not recorded, so it must not be sent either. */
export class LedgerWriteError extends Error {
  constructor(message = NOTHING_WRITTEN, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LedgerWriteError'
  }
}

export interface OpenReport {
  /** The journal sequence the loaded snapshot contained (0: rebuilt from the journal alone). */
  snapshotSeq: number
  replayed: number
  tornTail: boolean
  /** Plain words, for the shop's staff or whoever supports them. */
  problems: string[]
}

export interface LedgerOptions {
  dir: string
  snapshotEvery?: number
  now?: () => Date
}

let sqlJs: Promise<SqlJsStatic> | null = null

/** One sql.js instance per process: compiling the wasm module is the slow part. */
function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') }).catch((error: unknown) => {
    sqlJs = null
    throw error
  })
  return sqlJs
}

interface Base {
  db: Database
  seq: number
  /** Whether the base is what ledger.sqlite holds now (if not, the next snapshot has something to save). */
  isNewestFile: boolean
  problems: string[]
  /** Set when a snapshot holds events the journal no longer has. */
  aheadOfJournal: string | null
}

/** The newest snapshot that loads and agrees with the journal, else an empty database. */
function chooseBase(SQL: SqlJsStatic, dir: string, journal: JournalEntry[]): Base {
  const problems: string[] = []
  let aheadOfJournal: string | null = null
  for (const name of SNAPSHOT_FILES_NEWEST_FIRST) {
    let db: Database | null = null
    try {
      const bytes = readSnapshotFile(dir, name)
      if (bytes === null) continue
      db = new SQL.Database(bytes)
      const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0]
      if (check !== 'ok') throw new Error(String(check))
    } catch (error) {
      db?.close()
      problems.push(`The saved copy ${name} could not be read (${(error as Error).message}); it was skipped and the journal replayed past an older copy.`)
      continue
    }
    const { seq, hash } = journalPosition(db)
    if (seq === 0 || journal[seq - 1]?.hash === hash) {
      return { db, seq, isNewestFile: name === SNAPSHOT_FILE, problems, aheadOfJournal }
    }
    db.close()
    if (seq > journal.length) {
      aheadOfJournal ??= `the saved copy ${name} holds entries up to #${seq} but the journal's readable lines end at #${journal.length}`
    } else {
      problems.push(`The saved copy ${name} does not match the journal at entry #${seq}; it was ignored.`)
    }
  }
  return { db: new SQL.Database(), seq: 0, isNewestFile: false, problems, aheadOfJournal }
}

export class Ledger {
  private closed = false
  private eventsSinceSnapshot: number
  private snapshotFailure: string | null = null

  private constructor(
    private readonly dir: string,
    private readonly db: Database,
    private readonly journal: Journal,
    readonly report: OpenReport,
    private readOnlyReason: string | null,
    private unsaved: boolean,
    private readonly snapshotEvery: number,
    private readonly now: () => Date,
  ) {
    // Replayed entries count too: a long replay at open should not have to happen again next time.
    this.eventsSinceSnapshot = report.replayed
  }

  static async open({ dir, snapshotEvery = 500, now = () => new Date() }: LedgerOptions): Promise<Ledger> {
    const SQL = await loadSqlJs()
    let opened: ReturnType<typeof Journal.open>
    try {
      fs.mkdirSync(dir, { recursive: true })
      opened = Journal.open(dir)
    } catch (cause) {
      throw new LedgerWriteError(`The ledger folder ${dir} could not be opened for writing (${(cause as Error).message}).`, { cause })
    }
    const { journal, scan } = opened
    let base: Base | null = null
    try {
      base = chooseBase(SQL, dir, scan.entries)
      const migration = migrate(base.db)
      const problems: string[] = []
      if (scan.tornTail) problems.push(`The last journal line (line ${scan.tornTail.line}) was incomplete: it was never confirmed and has been removed.`)
      problems.push(...base.problems)
      const baseSeq = base.seq
      const pending = scan.entries.filter((entry) => entry.seq > baseSeq)
      for (const entry of pending) {
        const problem = project(base.db, entry)
        if (problem !== null) problems.push(`Journal entry #${entry.seq} (${entry.type}) was not applied: ${problem}.`)
      }
      const blockers = [
        scan.broken && `The journal is damaged at line ${scan.broken.line}: ${scan.broken.reason}.`,
        base.aheadOfJournal && `Journal lines are missing: ${base.aheadOfJournal}.`,
      ].filter((blocker): blocker is string => Boolean(blocker))
      problems.push(...blockers)
      const readOnly = blockers.length > 0 ? `${blockers[0]} The ledger is read-only until this is looked into.` : null
      const report: OpenReport = { snapshotSeq: baseSeq, replayed: pending.length, tornTail: scan.tornTail !== null, problems }
      const unsaved = !base.isNewestFile || pending.length > 0 || migration.from !== migration.to
      return new Ledger(dir, base.db, journal, report, readOnly, unsaved, snapshotEvery, now)
    } catch (error) {
      base?.db.close()
      journal.close()
      throw error
    }
  }

  /** Why nothing can be written (a damaged journal, or missing lines); null when the ledger is writable. */
  get readOnly(): string | null {
    return this.readOnlyReason
  }

  /** Why the last periodic snapshot failed, if it did; the journal still holds every event. */
  get snapshotProblem(): string | null {
    return this.snapshotFailure
  }

  /**
   * Records one event: journal line fsync'd first, then the tables. When this returns the event is
   * durable; when it throws LedgerWriteError nothing was recorded and the caller must not act.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T]): JournalEntry<T> {
    if (this.closed) throw new LedgerWriteError('The ledger is closed: nothing was sent.')
    if (this.readOnlyReason) throw new LedgerWriteError(`${this.readOnlyReason} Nothing was sent.`)
    const problem = eventProblem(this.db, type, data)
    if (problem !== null) throw new Error(`The ledger refused ${type}: ${problem}.`)
    let entry: JournalEntry<T>
    try {
      entry = this.journal.append(type, data, this.now().toISOString())
    } catch (cause) {
      throw new LedgerWriteError(NOTHING_WRITTEN, { cause })
    }
    try {
      project(this.db, entry)
    } catch (error) {
      // The journal has the event but the tables do not: stop writing rather than diverge further.
      this.readOnlyReason = `Entry #${entry.seq} is in the journal but could not be applied (${(error as Error).message}); restart Counter.`
      throw error
    }
    this.unsaved = true
    if (++this.eventsSinceSnapshot >= this.snapshotEvery) this.snapshotQuietly()
    return entry
  }

  private snapshotQuietly(): void {
    try {
      this.snapshot()
      this.snapshotFailure = null
    } catch (error) {
      this.snapshotFailure = `The ledger's saved copy could not be updated (${(error as Error).message}); every sale is still in the journal.`
    }
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

  /**
   * Saves the database atomically. Skipped when nothing changed since the last one, and when
   * read-only: the files on disk are then left exactly as found, for whoever investigates.
   */
  snapshot(): void {
    if (this.readOnlyReason || !this.unsaved) return
    writeSnapshot(this.dir, this.db.export())
    this.unsaved = false
    this.eventsSinceSnapshot = 0
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      this.snapshot()
    } finally {
      this.journal.close()
      this.db.close()
    }
  }
}
