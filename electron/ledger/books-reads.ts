// The ledger's reads for the pending queue, reconciliation and day close: unresolved sales, top-ups, balance facts, a day's totals, owner PIN resets and its closure.
import type { Database, ParamsObject, SqlValue } from 'sql.js'
import type { CouponSale, CouponType, Earnings, PinReset, Role, Sale, SaleState, TopUp } from '../contract'
import type { LedgerEventData, SaleKind } from './events'
import { couponSaleFromRow, firstValue, saleFromRow, selectAll, topupFromRow } from './reads'

export interface UnresolvedSale {
  kind: SaleKind
  sale: Sale | CouponSale
  checks: number
  /** What the re-check queue heard last, else the sale's own last message. */
  lastAnswer: string
  lastCheckedAt: string | null
  nextCheckAt: string | null
}

/** One fact about the PAN balance, in journal order: what reconciliation walks. */
export type BalanceFact =
  | { kind: 'balance'; seq: number; at: string; businessDay: string; balancePaise: number }
  | { kind: 'coupon'; seq: number; at: string; businessDay: string; attemptId: string; oldBalPaise: number; newBalPaise: number; amountPaise: number }
  | { kind: 'topup'; seq: number; at: string; businessDay: string; topupId: string; amountPaise: number }
  /** A coupon known SUCCESS with its charge but no coupon_req balances, at its intent's place: the money left then. */
  | { kind: 'charge'; seq: number; at: string; businessDay: string; attemptId: string; amountPaise: number }

export interface DayTotals {
  recharges: { operatorCode: string; operatorName: string; state: SaleState; count: number; amountPaise: number }[]
  /** amountPaise: what the provider charged, or rate x qty where it has not said. */
  coupons: { type: CouponType; state: SaleState; orders: number; qty: number; amountPaise: number }[]
  /** From sales that took the customer's money: SUCCESS and unresolved ones, never FAILED. */
  collected: { cashPaise: number; upiPaise: number }
  earnings: Earnings
  /** Successful sales of both kinds by who sold them (the Z report's "who did what"). */
  byRole: { role: Role; count: number; amountPaise: number }[]
}

export interface DayClosure {
  closedAt: string
  data: LedgerEventData['day.closed']
}

/** A business_day condition for an optional range of days, both ends included. */
function dayRange(column: string, from: string | undefined, to: string | undefined): { sql: string; params: SqlValue[] } {
  const bounds = [from === undefined ? null : [`${column} >= ?`, from], to === undefined ? null : [`${column} <= ?`, to]].filter(
    (bound): bound is string[] => bound !== null,
  )
  return { sql: bounds.map(([condition]) => ` AND ${condition}`).join(''), params: bounds.map(([, day]) => day) }
}

const UNRESOLVED = "state IN ('SENDING', 'UNKNOWN')"

/** Sales without a final answer, both kinds, oldest first. */
export function unresolvedSales(db: Database): UnresolvedSale[] {
  const withQueue = <T extends Sale | CouponSale>(kind: SaleKind, table: string, fromRow: (row: ParamsObject) => T) =>
    selectAll(db, `SELECT * FROM ${table} WHERE ${UNRESOLVED} ORDER BY created_at, rowid`, [], (row) => ({
      kind,
      sale: fromRow(row),
      checks: Number(row.checks),
      lastAnswer: String(row.last_answer ?? row.message),
      lastCheckedAt: row.last_checked_at === null ? null : String(row.last_checked_at),
      nextCheckAt: row.next_check_at === null ? null : String(row.next_check_at),
    }))
  const all: UnresolvedSale[] = [...withQueue('recharge', 'sales', saleFromRow), ...withQueue('coupon', 'coupon_sales', couponSaleFromRow)]
  // A stable sort keeps each table's own order between sales made in the same millisecond.
  return all.sort((a, b) => (a.sale.createdAt < b.sale.createdAt ? -1 : a.sale.createdAt > b.sale.createdAt ? 1 : 0))
}

export function topupsBetween(db: Database, from?: string, to?: string): TopUp[] {
  const range = dayRange('business_day', from, to)
  return selectAll(db, `SELECT * FROM topups WHERE 1 = 1${range.sql} ORDER BY seq`, range.params, topupFromRow)
}

const pinResetFromRow = (row: ParamsObject): PinReset => ({ at: String(row.at), file: String(row.file) })

/** The owner PIN resets journaled on the days in the range (both ends included), oldest first. */
export function pinResetsBetween(db: Database, from?: string, to?: string): PinReset[] {
  const range = dayRange('business_day', from, to)
  return selectAll(db, `SELECT at, file FROM pin_resets WHERE 1 = 1${range.sql} ORDER BY seq`, range.params, pinResetFromRow)
}

/** The latest owner PIN reset journaled, or null. */
export function lastPinResetIn(db: Database): PinReset | null {
  return selectAll(db, 'SELECT at, file FROM pin_resets ORDER BY seq DESC LIMIT 1', [], pinResetFromRow)[0] ?? null
}

/**
 * Balance readings, coupon_req answers, coupon charges known without such an answer, and top-ups, by
 * journal order. A coupon answer that named its new balance but not its old one or its amount asserts
 * only the balance, so it is one. `fromSeq` keeps only the facts journaled at or after that line.
 */
export function balanceFactsBetween(db: Database, from?: string, to?: string, fromSeq?: number): BalanceFact[] {
  const days = dayRange('business_day', from, to)
  // Each table keeps its fact's journal line under its own column.
  const within = (seqColumn: string) => (fromSeq === undefined ? days : { sql: `${days.sql} AND ${seqColumn} >= ?`, params: [...days.params, fromSeq] })
  const [readings, answers, charges, topups] = [within('seq'), within('new_bal_seq'), within('intent_seq'), within('seq')]
  const sql = `
    SELECT 'balance' AS kind, seq, at, business_day, balance_paise AS a, NULL AS b, NULL AS c, NULL AS id
      FROM balance_checkpoints WHERE 1 = 1${readings.sql}
    UNION ALL
    -- A FAILED order explains no drop: its new_bal is only a reading, so money it took shows as a break.
    SELECT CASE WHEN old_bal_paise IS NULL OR amount_paise IS NULL OR state = 'FAILED' THEN 'balance' ELSE 'coupon' END,
           new_bal_seq, new_bal_at, business_day, new_bal_paise, old_bal_paise, amount_paise, attempt_id
      FROM coupon_sales WHERE new_bal_seq IS NOT NULL${answers.sql}
    UNION ALL
    SELECT 'charge', intent_seq, created_at, business_day, amount_paise, NULL, NULL, attempt_id
      FROM coupon_sales WHERE new_bal_seq IS NULL AND intent_seq IS NOT NULL AND state = 'SUCCESS' AND amount_paise IS NOT NULL${charges.sql}
    UNION ALL
    SELECT 'topup', seq, at, business_day, amount_paise, NULL, NULL, topup_id FROM topups WHERE 1 = 1${topups.sql}
    ORDER BY seq`
  return selectAll(db, sql, [...readings.params, ...answers.params, ...charges.params, ...topups.params], (row): BalanceFact => {
    const common = { seq: Number(row.seq), at: String(row.at), businessDay: String(row.business_day) }
    if (row.kind === 'topup') return { kind: 'topup', ...common, topupId: String(row.id), amountPaise: Number(row.a) }
    if (row.kind === 'charge') return { kind: 'charge', ...common, attemptId: String(row.id), amountPaise: Number(row.a) }
    if (row.kind === 'balance') return { kind: 'balance', ...common, balancePaise: Number(row.a) }
    return { kind: 'coupon', ...common, attemptId: String(row.id), newBalPaise: Number(row.a), oldBalPaise: Number(row.b), amountPaise: Number(row.c) }
  })
}

export function totalsOfDay(db: Database, businessDay: string): DayTotals {
  const recharges = selectAll(
    db,
    `SELECT operator_code, operator_name, state, count(*) AS n, sum(amount_paise) AS paise FROM sales WHERE business_day = ?
     GROUP BY operator_code, operator_name, state ORDER BY operator_name, operator_code, state`,
    [businessDay],
    (row) => ({
      operatorCode: String(row.operator_code),
      operatorName: String(row.operator_name),
      state: String(row.state) as SaleState,
      count: Number(row.n),
      amountPaise: Number(row.paise),
    }),
  )
  const coupons = selectAll(
    db,
    `SELECT coupon_type, state, count(*) AS n, sum(qty) AS qty, sum(COALESCE(amount_paise, expected_rate_paise * qty)) AS paise
     FROM coupon_sales WHERE business_day = ? GROUP BY coupon_type, state ORDER BY coupon_type, state`,
    [businessDay],
    (row) => ({ type: Number(row.coupon_type) as CouponType, state: String(row.state) as SaleState, orders: Number(row.n), qty: Number(row.qty), amountPaise: Number(row.paise) }),
  )
  const byMode = selectAll(
    db,
    `SELECT payment_mode, sum(collected_paise) AS paise FROM (
       SELECT payment_mode, collected_paise FROM sales WHERE business_day = :day AND state != 'FAILED'
       UNION ALL
       SELECT payment_mode, collected_paise FROM coupon_sales WHERE business_day = :day AND state != 'FAILED'
     ) GROUP BY payment_mode`,
    { ':day': businessDay },
    (row) => [String(row.payment_mode), Number(row.paise)] as const,
  )
  const collected = Object.fromEntries(byMode)
  // `+state` (here and in earningsOfDay): the day's index must pick the rows. Offered state = 'SUCCESS'
  // as well, SQLite took the state index and walked every successful sale ever (75 ms of a 100k-sale
  // day summary; 140 ms at 1M, `npm run bench`), where the day holds a few hundred.
  const byRole = selectAll(
    db,
    `SELECT sold_by, count(*) AS n, sum(paise) AS paise FROM (
       SELECT sold_by, amount_paise AS paise FROM sales WHERE business_day = :day AND +state = 'SUCCESS'
       UNION ALL
       SELECT sold_by, COALESCE(amount_paise, expected_rate_paise * qty) FROM coupon_sales WHERE business_day = :day AND +state = 'SUCCESS'
     ) GROUP BY sold_by ORDER BY sold_by`,
    { ':day': businessDay },
    (row) => ({ role: String(row.sold_by) as Role, count: Number(row.n), amountPaise: Number(row.paise) }),
  )
  return { recharges, coupons, collected: { cashPaise: collected.cash ?? 0, upiPaise: collected.upi ?? 0 }, earnings: earningsOfDay(db, businessDay), byRole }
}

// Each query names its sale's amount `turnover`; a coupon's is what the provider charged, else rate x qty.
const EARNING_COLUMNS = (turnover: string) => `sum(${turnover}) AS turnover, sum(COALESCE(margin_paise, 0)) AS margin,
  sum(margin_paise IS NULL) AS unrated, sum(collected_paise - (${turnover})) AS service`

function earningFigures(row: ParamsObject): Earnings['total'] {
  const marginPaise = Number(row.margin)
  const serviceChargePaise = Number(row.service)
  return { turnoverPaise: Number(row.turnover), marginPaise, unrated: Number(row.unrated), serviceChargePaise, earnedPaise: marginPaise + serviceChargePaise }
}

/** Only SUCCESS sales earn (shared/margin.ts earnedOnce): a FAILED one gave the money back, an open one has not earned yet. */
function earningsOfDay(db: Database, businessDay: string): Earnings {
  const recharges = selectAll(
    db,
    `SELECT operator_code, operator_name, count(*) AS n, ${EARNING_COLUMNS('amount_paise')}
     FROM sales WHERE business_day = ? AND +state = 'SUCCESS' GROUP BY operator_code, operator_name ORDER BY operator_name, operator_code`,
    [businessDay],
    (row) => ({ operatorCode: String(row.operator_code), operatorName: String(row.operator_name), count: Number(row.n), ...earningFigures(row) }),
  )
  const coupons = selectAll(
    db,
    `SELECT coupon_type, count(*) AS n, sum(qty) AS qty, ${EARNING_COLUMNS('COALESCE(amount_paise, expected_rate_paise * qty)')}
     FROM coupon_sales WHERE business_day = ? AND +state = 'SUCCESS' GROUP BY coupon_type ORDER BY coupon_type`,
    [businessDay],
    (row) => ({ type: Number(row.coupon_type) as CouponType, orders: Number(row.n), qty: Number(row.qty), ...earningFigures(row) }),
  )
  const rows = [...recharges, ...coupons]
  const total = (key: keyof Earnings['total']) => rows.reduce((sum, row) => sum + row[key], 0)
  return {
    recharges,
    coupons,
    total: { turnoverPaise: total('turnoverPaise'), marginPaise: total('marginPaise'), unrated: total('unrated'), serviceChargePaise: total('serviceChargePaise'), earnedPaise: total('earnedPaise') },
  }
}

export function closureOfDay(db: Database, businessDay: string): DayClosure | null {
  const row = db.exec('SELECT closed_at, data FROM day_closes WHERE business_day = ?', [businessDay])[0]?.values[0]
  return row ? { closedAt: String(row[0]), data: JSON.parse(String(row[1])) as LedgerEventData['day.closed'] } : null
}

/** The latest business day whose books were closed in this database, or null. */
export function latestClosedDayIn(db: Database): string | null {
  const day = firstValue(db, 'SELECT max(business_day) FROM day_closes', [])
  return day === null || day === undefined ? null : String(day)
}
