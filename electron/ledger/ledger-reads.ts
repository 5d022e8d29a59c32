// The ledger's reads, declared once: a table of name to function over the books, answered by Ledger.read and typed for the port (ledger-port.ts) from the table itself.
import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import type { Agent, CouponSale, CouponType, CreditLine, CreditPayment, Customer, Due, DrawerCount, DrawerMoves, PasswordReset, PinReset, Sale, TopUp } from '../contract'
import { listArchives, readArchive } from './archive'
import { balanceFactsBetween, closureOfDay, lastPinResetIn, pinResetsBetween, topupsBetween, totalsOfDay, unresolvedSales, type BalanceFact, type DayClosure, type DayTotals, type UnresolvedSale } from './books-reads'
import { creditDay, creditDues, creditPayment, creditStatement, type CreditDay } from './credit-reads'
import { customerOf, customersStartingWith } from './customer-reads'
import { drawerCountOf, drawerMovesOf } from './drawer-reads'
import { searchHistory, type HistoryPage, type HistoryQuery } from './history'
import { agentFromRow, couponSaleFromRow, firstValue, passwordResetFromRow, saleFromRow, selectAll, SALES_WITH_NAMES } from './reads'
import { terminalOf, type TerminalName } from './terminal-projections'

/** What a read may look at: the live tables, the archived years beside them, and where the journal ends. */
export interface ReadBooks {
  readonly db: Database
  readonly SQL: SqlJsStatic
  readonly dir: string
  readonly journal: { readonly lastSeq: number }
  /** Sale counts of archives opened by history searches, by file version and query. */
  readonly archiveCounts: Map<string, number>
  /** Whether the ledger may write: a history search builds a missing number index only then (its files stay as found otherwise). */
  writable(): boolean
}

/** The first column of the first row as text, or null when there is no row. */
function firstText(db: Database, sql: string, params: SqlValue[]): string | null {
  const value = firstValue(db, sql, params)
  return value === undefined || value === null ? null : String(value)
}

/**
 * The id of the oldest of `sql`'s rows (each its id, created_at and rowid) by created_at, then rowid; null when it finds none.
 * Decision: the rows come unordered and the oldest is chosen here. Every intent asks this of its number or agent, which
 * has one such row at most (an intent is refused while there is one); yet with ORDER BY the statement was compiled anew
 * at every intent (connection.ts cachedStatement says why): in the ledger thread, over 6,000 intents, 108–118 µs at the
 * median with ORDER BY against 10–15 µs without.
 */
export function oldestId(db: Database, sql: string, key: string): string | null {
  let oldest: { id: string; at: string; rowid: number } | null = null
  for (const row of selectAll(db, sql, [key], (row) => ({ id: String(row.id), at: String(row.created_at), rowid: Number(row.rowid) }))) {
    if (oldest === null || row.at < oldest.at || (row.at === oldest.at && row.rowid < oldest.rowid)) oldest = row
  }
  return oldest?.id ?? null
}

const selectSales = (db: Database, sql: string, params: SqlValue[]): Sale[] => selectAll(db, sql, params, saleFromRow)

const selectCouponSales = (db: Database, sql: string, params: SqlValue[]): CouponSale[] => selectAll(db, sql, params, couponSaleFromRow)

/** The rate the provider charged on the latest coupon sale of this type that reported one. */
function lastChargedRatePaise({ db }: ReadBooks, type: CouponType): number | null {
  const rate = db.exec(
    'SELECT rate_paise FROM coupon_sales WHERE coupon_type = ? AND rate_paise IS NOT NULL ORDER BY created_at DESC, rowid DESC LIMIT 1',
    [type],
  )[0]?.values[0]?.[0]
  return rate === undefined || rate === null ? null : Number(rate)
}

/** The balance the provider reported last (a balance call, or a coupon_req answer's new_bal), by journal order. */
function lastKnownPanBalance({ db }: ReadBooks): { balancePaise: number; at: string; seq: number } | null {
  const row = db.exec(
    `SELECT * FROM (SELECT balance_paise, at, seq FROM balance_checkpoints ORDER BY seq DESC LIMIT 1)
     UNION ALL
     SELECT * FROM (SELECT new_bal_paise, new_bal_at, new_bal_seq FROM coupon_sales WHERE new_bal_seq IS NOT NULL ORDER BY new_bal_seq DESC LIMIT 1)
     ORDER BY seq DESC LIMIT 1`,
  )[0]?.values[0]
  return row ? { balancePaise: Number(row[0]), at: String(row[1]), seq: Number(row[2]) } : null
}

/** How the day was closed, or null while it is open. Looks in the year's archive for a closed year. */
function dayClosure({ db, SQL, dir }: ReadBooks, businessDay: string): DayClosure | null {
  const closure = closureOfDay(db, businessDay)
  if (closure) return closure
  const archive = listArchives(dir).find((file) => file.start <= businessDay && businessDay < file.end)
  return archive ? readArchive(SQL, archive.file, (archiveDb) => closureOfDay(archiveDb, businessDay)) : null
}

const READS = {
  getSale: ({ db }: ReadBooks, orderId: string): Sale | null => selectSales(db, `${SALES_WITH_NAMES} WHERE order_id = ?`, [orderId])[0] ?? null,

  /** Newest first; rowid breaks ties between sales recorded in the same millisecond. */
  salesForDay: ({ db }: ReadBooks, businessDay: string): Sale[] =>
    selectSales(db, `${SALES_WITH_NAMES} WHERE business_day = ? ORDER BY created_at DESC, sales.rowid DESC`, [businessDay]),


  /** A recharge's state alone, or null when there is no such sale: what a write checks without reading the whole row. */
  saleState: ({ db }: ReadBooks, orderId: string): Sale['state'] | null => firstText(db, 'SELECT state FROM sales WHERE order_id = ?', [orderId]) as Sale['state'] | null,

  /** The order id of the number's oldest recharge without a final answer, or null: a new one to it waits for that answer. */
  unresolvedSaleOf: ({ db }: ReadBooks, number: string): string | null =>
    oldestId(db, "SELECT order_id AS id, created_at, rowid FROM sales WHERE state IN ('SENDING', 'UNKNOWN') AND number = ?", number),

  /** The attempt id of the agent's oldest coupon order without a final answer, or null: a new order for the agent waits for that answer. */
  unresolvedCouponOf: ({ db }: ReadBooks, vleId: string): string | null =>
    oldestId(db, "SELECT attempt_id AS id, created_at, rowid FROM coupon_sales WHERE state IN ('SENDING', 'UNKNOWN') AND vle_id = ?", vleId),

  /** The number's customer (name and last recharge), or null when no sale to it is remembered. */
  customer: ({ db }: ReadBooks, number: string): Customer | null => customerOf(db, number),

  /** Up to `limit` customers whose number starts with `digits`, the most recently sold to first. */
  customerSuggestions: ({ db }: ReadBooks, digits: string, limit: number): Customer[] => customersStartingWith(db, digits, limit),

  /** Every agent, newest first, including those the provider refused (NOT_CREATED): the UI filters. */
  agents: ({ db }: ReadBooks): Agent[] => selectAll(db, 'SELECT * FROM agents ORDER BY created_at DESC, rowid DESC', [], agentFromRow),

  getAgent: ({ db }: ReadBooks, vleId: string): Agent | null => selectAll(db, 'SELECT * FROM agents WHERE vle_id = ?', [vleId], agentFromRow)[0] ?? null,

  couponSale: ({ db }: ReadBooks, attemptId: string): CouponSale | null => selectCouponSales(db, 'SELECT * FROM coupon_sales WHERE attempt_id = ?', [attemptId])[0] ?? null,

  /** The most recent coupon sales, newest first. */
  couponSales: ({ db }: ReadBooks, limit = 200): CouponSale[] => selectCouponSales(db, 'SELECT * FROM coupon_sales ORDER BY created_at DESC, rowid DESC LIMIT ?', [limit]),

  couponSalesForDay: ({ db }: ReadBooks, businessDay: string): CouponSale[] =>
    selectCouponSales(db, 'SELECT * FROM coupon_sales WHERE business_day = ? ORDER BY created_at DESC, rowid DESC', [businessDay]),

  lastChargedRatePaise,
  lastKnownPanBalance,

  /** One agent's password resets, newest first. */
  passwordResets: ({ db }: ReadBooks, vleId: string): PasswordReset[] =>
    selectAll(db, 'SELECT * FROM password_resets WHERE vle_id = ? ORDER BY created_at DESC, rowid DESC', [vleId], passwordResetFromRow),

  passwordReset: ({ db }: ReadBooks, attemptId: string): PasswordReset | null =>
    selectAll(db, 'SELECT * FROM password_resets WHERE attempt_id = ?', [attemptId], passwordResetFromRow)[0] ?? null,

  lastSeq: ({ journal }: ReadBooks): number => journal.lastSeq,

  /** How the shop last named this counter (terminal.named), or null before it did. */
  terminal: ({ db }: ReadBooks): TerminalName | null => terminalOf(db),

  /** Both kinds of sale still waiting for an answer, oldest first, with the re-check queue's notes. */
  unresolved: ({ db }: ReadBooks): UnresolvedSale[] => unresolvedSales(db),

  /** Top-ups entered for the days in the range (both ends included), oldest first. Closed years are in their archives. */
  topups: ({ db }: ReadBooks, fromDay?: string, toDay?: string): TopUp[] => topupsBetween(db, fromDay, toDay),

  /** Owner PIN resets journaled on the days in the range (both ends included), oldest first; never archived. */
  pinResets: ({ db }: ReadBooks, fromDay?: string, toDay?: string): PinReset[] => pinResetsBetween(db, fromDay, toDay),

  /** The day's cash put into the drawer and taken out apart from sales, in the order recorded; never archived. */
  drawerMoves: ({ db }: ReadBooks, businessDay: string): DrawerMoves => drawerMovesOf(db, businessDay),

  /** The latest drawer count saved for the day before its close, or null. */
  drawerCount: ({ db }: ReadBooks, businessDay: string): DrawerCount | null => drawerCountOf(db, businessDay),

  /** The latest owner PIN reset journaled, or null: the status bar shows it until a PIN is set. */
  lastPinReset: ({ db }: ReadBooks): PinReset | null => lastPinResetIn(db),

  /** Every balance fact in journal order: balance reads, coupon_req answers (old/new), top-ups. */
  balanceFacts: ({ db }: ReadBooks, fromDay?: string, toDay?: string): BalanceFact[] => balanceFactsBetween(db, fromDay, toDay),

  /**
   * The last balance the provider reported and the top-ups journaled after it: what the balance
   * Counter expects now is built from (reconcile.ts expectedPanBalance). After is by journal order,
   * never by clock: a top-up entered before that reading is already in it, one entered after is
   * not. Empty before any reading, as the first reading already holds every top-up before it.
   */
  balanceFactsSinceReading: (books: ReadBooks): BalanceFact[] => {
    const reading = lastKnownPanBalance(books)
    return reading ? balanceFactsBetween(books.db, undefined, undefined, reading.seq) : []
  },

  dayTotals: ({ db }: ReadBooks, businessDay: string): DayTotals => totalsOfDay(db, businessDay),

  dayClosure,

  /** Every credit customer's due (credit-reads.ts). */
  creditDues: ({ db }: ReadBooks): Due[] => creditDues(db),

  creditStatement: ({ db }: ReadBooks, number: string): { customer: Due; lines: CreditLine[] } | null => creditStatement(db, number),

  creditPayment: ({ db }: ReadBooks, receiptId: string): Omit<CreditPayment, 'training'> | null => creditPayment(db, receiptId),

  creditDay: ({ db }: ReadBooks, businessDay: string): CreditDay => creditDay(db, businessDay),

  /** Sales of both kinds, newest first, from the active year and the archived ones the range reaches. */
  historySearch: ({ SQL, db, dir, archiveCounts, writable }: ReadBooks, query: HistoryQuery): HistoryPage => searchHistory(SQL, db, dir, query, archiveCounts, writable()),
}

type Reads = typeof READS
export type ReadName = keyof Reads
/** Each read's arguments after the books. */
export type ReadArgs = { [K in ReadName]: Reads[K] extends (books: ReadBooks, ...args: infer A) => unknown ? A : never }
export type ReadValue = { [K in ReadName]: ReturnType<Reads[K]> }

/**
 * The same table, typed name by name (microsoft/TypeScript#47109): indexed by a generic name, it
 * stays a function of that name's arguments and value, so Ledger.read needs no cast.
 */
export const LEDGER_READS: { [K in ReadName]: (books: ReadBooks, ...args: ReadArgs[K]) => ReadValue[K] } = READS
