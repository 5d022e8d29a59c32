// Reading the ledger's tables back as the contract's shapes: one row mapper per table and the query loop they share.
import type { BindParams, Database, ParamsObject, SqlValue, Statement } from 'sql.js'
import { cachedStatement } from './connection'
import type { Agent, CouponSale, CouponType, Customer, PasswordReset, PaymentMode, RechargeKind, Sale, SaleState, TopUp } from '../contract'

const nullable = (value: SqlValue | undefined): string | null => (value === null || value === undefined ? null : String(value))
const nullableNumber = (value: SqlValue | undefined): number | null => (value === null || value === undefined ? null : Number(value))

/**
 * Each compiled statement's column names, read at its first row. Why: sql.js's getAsObject reads every name
 * from SQLite again at every row, each a call into its WebAssembly and a string decoded. A sale's row of 22
 * columns, bound, read and reset, took 48 µs through getAsObject and 16 µs with the names kept (one process,
 * 5,000 reads each way); a sale reads its row back twice, a day's summary reads the day's every sale.
 * The names are read again should the count of values change: SQLite recompiles a statement whose tables
 * changed, and `SELECT sales.*` then names what the table now has. A column renamed with the count unchanged
 * would keep its old name here: no migration renames one (migrations.ts).
 */
const columnNames = new WeakMap<Statement, string[]>()

/** The statement's current row as an object keyed by column, as getAsObject makes it. */
function rowObject(statement: Statement): ParamsObject {
  const values = statement.get()
  let names = columnNames.get(statement)
  if (names?.length !== values.length) columnNames.set(statement, (names = statement.getColumnNames()))
  const row: ParamsObject = {}
  for (let i = 0; i < names.length; i++) row[names[i]] = values[i]
  return row
}

/** Each row of `sql`, mapped; the statement compiled once a connection (connection.ts cachedStatement) and left reset. */
export function selectAll<T>(db: Database, sql: string, params: BindParams, fromRow: (row: ParamsObject) => T): T[] {
  const statement = cachedStatement(db, sql)
  try {
    statement.bind(params)
    const rows: T[] = []
    while (statement.step()) rows.push(fromRow(rowObject(statement)))
    return rows
  } finally {
    statement.reset()
  }
}

/** The first column of the first row of `sql`, or undefined when it finds no row: as selectAll, compiled once. */
export function firstValue(db: Database, sql: string, params: BindParams): SqlValue | undefined {
  const statement = cachedStatement(db, sql)
  try {
    statement.bind(params)
    return statement.step() ? statement.get()[0] : undefined
  } finally {
    statement.reset()
  }
}

export function saleFromRow(row: ParamsObject): Sale {
  return {
    orderId: String(row.order_id),
    kind: String(row.kind) as RechargeKind,
    number: String(row.number),
    operatorCode: String(row.operator_code),
    operatorName: String(row.operator_name),
    circle: nullable(row.circle),
    amountPaise: Number(row.amount_paise),
    state: String(row.state) as SaleState,
    providerStatus: nullable(row.provider_status),
    message: String(row.message),
    fpayId: nullable(row.fpay_id),
    operatorRef: nullable(row.operator_ref),
    customerName: nullable(row.customer_name),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    lastCheckedAt: nullable(row.last_checked_at),
    training: row.training === 1,
    collectedPaise: Number(row.collected_paise ?? row.amount_paise),
    paymentMode: String(row.payment_mode) as PaymentMode,
    settledNote: nullable(row.settled_note),
    upiConfirmedAt: nullable(row.upi_confirmed_at),
  }
}

/**
 * A sale's row with its customer's name (customer_name), as every read of sales for a screen or receipt selects it.
 * Decision: the name by a subquery, not a LEFT JOIN (the same answer: a number has at most one name). In sql.js 1.16
 * each step of the join took about 43 µs even on an empty table, the subquery's 0.7 µs (measured, 4,000 steps each),
 * and every sale reads itself back twice: 1.35–1.43 ms a sale at the median became 0.97–1.22 (three alternating
 * rounds of 3,000 sales on a fresh ledger).
 */
export const SALES_WITH_NAMES = 'SELECT sales.*, (SELECT name FROM customer_names WHERE customer_names.number = sales.number) AS customer_name FROM sales'

export function customerFromRow(row: ParamsObject): Customer {
  return {
    number: String(row.number),
    kind: String(row.kind) as RechargeKind,
    name: nullable(row.name),
    operatorCode: String(row.last_operator_code),
    operatorName: String(row.last_operator_name),
    circle: nullable(row.last_circle),
    lastAmountPaise: Number(row.last_amount_paise),
    lastAt: String(row.last_at),
    sales: Number(row.sales),
  }
}

export function agentFromRow(row: ParamsObject): Agent {
  return {
    vleId: String(row.vle_id),
    name: String(row.name),
    mobile: String(row.mobile),
    email: String(row.email),
    shop: String(row.shop),
    location: String(row.location),
    stateCode: String(row.state_code),
    pin: String(row.pin),
    uidMasked: String(row.uid_masked),
    pan: String(row.pan),
    status: String(row.status),
    message: String(row.message),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    lastCheckedAt: nullable(row.last_checked_at),
  }
}

export function couponSaleFromRow(row: ParamsObject): CouponSale {
  return {
    attemptId: String(row.attempt_id),
    orderId: nullable(row.order_id),
    vleId: String(row.vle_id),
    vleName: nullable(row.vle_name),
    type: Number(row.coupon_type) as CouponType,
    qty: Number(row.qty),
    expectedRatePaise: Number(row.expected_rate_paise),
    state: String(row.state) as SaleState,
    providerStatus: nullable(row.provider_status),
    message: String(row.message),
    date: nullable(row.order_date),
    ratePaise: nullableNumber(row.rate_paise),
    amountPaise: nullableNumber(row.amount_paise),
    oldBalPaise: nullableNumber(row.old_bal_paise),
    newBalPaise: nullableNumber(row.new_bal_paise),
    problems: JSON.parse(String(row.problems)) as string[],
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    lastCheckedAt: nullable(row.last_checked_at),
    training: row.training === 1,
    collectedPaise: Number(row.collected_paise),
    paymentMode: String(row.payment_mode) as PaymentMode,
    settledNote: nullable(row.settled_note),
    upiConfirmedAt: nullable(row.upi_confirmed_at),
  }
}

export function passwordResetFromRow(row: ParamsObject): PasswordReset {
  return {
    attemptId: String(row.attempt_id),
    orderId: nullable(row.order_id),
    vleId: String(row.vle_id),
    vleName: nullable(row.vle_name),
    status: String(row.status),
    message: String(row.message),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  }
}

export function topupFromRow(row: ParamsObject): TopUp {
  return {
    topupId: String(row.topup_id),
    amountPaise: Number(row.amount_paise),
    reference: String(row.reference),
    note: String(row.note),
    at: String(row.at),
    businessDay: String(row.business_day),
  }
}
