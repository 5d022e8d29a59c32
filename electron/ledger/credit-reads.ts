// The ledger's reads for credit (udhaar): every customer's due, one customer's statement, a payment
// for its receipt, and a day's credit figures (with the payments staff took) for day close.
import type { Database, ParamsObject } from 'sql.js'
import type { CreditLine, CreditPayment, Due, StaffPayment } from '../contract'
import { dueFigures, type CreditEntry } from './dues'
import { firstValue, selectAll } from './reads'

export interface CreditDay {
  salesCount: number
  salesPaise: number
  paidCashPaise: number
  paidUpiPaise: number
  outstandingPaise: number
  staffPayments: StaffPayment[]
}

interface EntryRow extends CreditEntry {
  number: string
  reversedAt: string | null
  note: string
}

const entryFromRow = (row: ParamsObject): EntryRow => ({
  id: String(row.entry_id),
  number: String(row.number),
  kind: String(row.kind) as EntryRow['kind'],
  amountPaise: Number(row.amount_paise),
  state: row.state === null ? null : String(row.state),
  reversedAt: row.reversed_at === null ? null : String(row.reversed_at),
  mode: row.mode === null ? null : (String(row.mode) as EntryRow['mode']),
  note: String(row.note),
  businessDay: String(row.business_day),
  at: String(row.at),
})

interface CustomerRow {
  number: string
  name: string
  limitPaise: number | null
}

/** A customer's due as the tables hold it now: successful credit sales less payments. */
export function dueOf(db: Database, number: string): number {
  const due = db.exec(
    `SELECT COALESCE(sum(CASE WHEN kind = 'payment' THEN -amount_paise WHEN state = 'SUCCESS' THEN amount_paise ELSE 0 END), 0)
     FROM credit_entries WHERE number = ?`,
    [number],
  )[0]?.values[0]?.[0]
  return Number(due ?? 0)
}

/** Credit customers with their names from the one name store (every credit customer has one: customer-projections.ts forget). */
function customers(db: Database, number?: string): CustomerRow[] {
  return selectAll(
    db,
    `SELECT number, customer_names.name, limit_paise FROM credit_customers JOIN customer_names USING (number)${number === undefined ? '' : ' WHERE number = ?'} ORDER BY customer_names.name, number`,
    number === undefined ? [] : [number],
    (row) => ({ number: String(row.number), name: String(row.name), limitPaise: row.limit_paise === null ? null : Number(row.limit_paise) }),
  )
}

function entries(db: Database, number?: string): EntryRow[] {
  return selectAll(db, `SELECT * FROM credit_entries${number === undefined ? '' : ' WHERE number = ?'} ORDER BY seq`, number === undefined ? [] : [number], entryFromRow)
}

function dueOfCustomer(customer: CustomerRow, own: readonly EntryRow[]): Due {
  const { duePaise, since, lastPayment } = dueFigures(own)
  return { ...customer, duePaise, since, lastPayment }
}

/** Every credit customer with what they owe, largest due first. */
export function creditDues(db: Database): Due[] {
  const byNumber = new Map<string, EntryRow[]>()
  for (const entry of entries(db)) byNumber.set(entry.number, [...(byNumber.get(entry.number) ?? []), entry])
  return customers(db)
    .map((customer) => dueOfCustomer(customer, byNumber.get(customer.number) ?? []))
    .sort((a, b) => b.duePaise - a.duePaise)
}

/** One customer's credit sales and payments in journal order with the due after each; null for an unknown number. */
export function creditStatement(db: Database, number: string): { customer: Due; lines: CreditLine[] } | null {
  const customer = customers(db, number)[0]
  if (!customer) return null
  const own = entries(db, number)
  const { running } = dueFigures(own)
  return {
    customer: dueOfCustomer(customer, own),
    lines: own.map((entry, index) => ({
      id: entry.id,
      kind: entry.kind,
      at: entry.at,
      businessDay: entry.businessDay,
      amountPaise: entry.amountPaise,
      state: entry.state as CreditLine['state'],
      reversedAt: entry.reversedAt,
      mode: entry.mode,
      note: entry.note,
      duePaise: running[index],
    })),
  }
}

/** A payment as its receipt shows it, with the due left right after it. */
export function creditPayment(db: Database, receiptId: string): Omit<CreditPayment, 'training'> | null {
  const payment = selectAll(db, "SELECT * FROM credit_entries WHERE entry_id = ? AND kind = 'payment'", [receiptId], entryFromRow)[0]
  const statement = payment && creditStatement(db, payment.number)
  if (!payment || !statement) return null
  const line = statement.lines.find((l) => l.id === receiptId)!
  return {
    receiptId,
    number: payment.number,
    name: statement.customer.name,
    amountPaise: payment.amountPaise,
    mode: payment.mode ?? 'cash',
    note: payment.note,
    at: payment.at,
    businessDay: payment.businessDay,
    dueAfterPaise: line.duePaise,
    upiConfirmedAt: upiConfirmedAt(db, receiptId),
  }
}

/** When staff confirmed a payment's UPI money arrived (migration 15), or null. */
function upiConfirmedAt(db: Database, receiptId: string): string | null {
  const at = firstValue(db, 'SELECT upi_confirmed_at FROM credit_entries WHERE entry_id = ?', [receiptId])
  return at === undefined || at === null ? null : String(at)
}

/** The payments staff took on a day, in journal order, through the day index (credit_entries_by_day). */
function staffPaymentsOf(db: Database, businessDay: string): StaffPayment[] {
  return selectAll(
    db,
    `SELECT entry_id, number, customer_names.name, amount_paise, mode, at FROM credit_entries LEFT JOIN customer_names USING (number)
     WHERE business_day = ? AND kind = 'payment' AND recorded_by = 'staff' ORDER BY seq`,
    [businessDay],
    (row) => ({
      receiptId: String(row.entry_id),
      number: String(row.number),
      name: row.name === null ? null : String(row.name),
      amountPaise: Number(row.amount_paise),
      mode: String(row.mode) as StaffPayment['mode'],
      at: String(row.at),
    }),
  )
}

/**
 * A day's credit. Decision: credit sales are counted as cash and UPI sales are (SUCCESS and still
 * unresolved, never FAILED: what the customer promised to pay); outstanding is what customers owe
 * now, from successful sales only, summing positive dues (an overpaid customer's advance is not netted off).
 */
export function creditDay(db: Database, businessDay: string): CreditDay {
  const row = db.exec(
    `SELECT
       COALESCE(sum(CASE WHEN kind = 'sale' AND state != 'FAILED' THEN 1 ELSE 0 END), 0),
       COALESCE(sum(CASE WHEN kind = 'sale' AND state != 'FAILED' THEN amount_paise ELSE 0 END), 0),
       COALESCE(sum(CASE WHEN kind = 'payment' AND mode = 'cash' THEN amount_paise ELSE 0 END), 0),
       COALESCE(sum(CASE WHEN kind = 'payment' AND mode = 'upi' THEN amount_paise ELSE 0 END), 0)
     FROM credit_entries WHERE business_day = ?`,
    [businessDay],
  )[0].values[0].map(Number)
  const outstandingPaise = creditDues(db).reduce((total, due) => total + Math.max(due.duePaise, 0), 0)
  return { salesCount: row[0], salesPaise: row[1], paidCashPaise: row[2], paidUpiPaise: row[3], outstandingPaise, staffPayments: staffPaymentsOf(db, businessDay) }
}
