// How credit (udhaar) changes the ledger's tables: a credit sale's intent opens its entry, every later
// word on the sale's state is copied to it, and payments and limits are their own events.
import type { Database } from 'sql.js'
import type { JournalEntry } from './events'
import { fractionProblem, type Projector } from './projector'
import { runCached } from './connection'
import { dueOf } from './credit-reads'
import { nameCustomer } from './customer-projections'

const customerExists = (db: Database, number: string) => db.exec('SELECT 1 FROM credit_customers WHERE number = ?', [number]).length > 0

/** The name goes to the one name store; credit_customers keeps the limit and dates (its name column is left empty since migration 10). */
function upsertCustomer(db: Database, number: string, name: string, at: string): void {
  nameCustomer(db, number, name)
  runCached(
    db,
    `INSERT INTO credit_customers (number, name, limit_paise, created_at, updated_at) VALUES (?, '', NULL, ?, ?)
     ON CONFLICT (number) DO UPDATE SET updated_at = excluded.updated_at`,
    [number, at, at],
  )
}

/** Why a recharge intent's credit part cannot be recorded, or null (also null for a sale not on credit). */
export function creditIntentProblem(data: JournalEntry<'recharge.intent'>['data']): string | null {
  const onCredit = data.paymentMode === 'credit'
  if (onCredit !== Boolean(data.creditCustomer)) return 'a sale on credit, and only one, names the customer who pays later'
  if (data.creditCustomer && data.creditCustomer.name.trim() === '') return 'a sale on credit needs the customer\'s name'
  return null
}

/** A credit sale's entry, opened with its intent: it adds nothing to the due until the sale is SUCCESS. */
export function openCreditSale(db: Database, { seq, at, data }: JournalEntry<'recharge.intent'>): void {
  if (!data.creditCustomer) return
  upsertCustomer(db, data.creditCustomer.number, data.creditCustomer.name, at)
  runCached(
    db,
    `INSERT INTO credit_entries (entry_id, number, kind, amount_paise, state, reversed_at, mode, note, business_day, at, seq, recorded_by)
     VALUES (?, ?, 'sale', ?, 'SENDING', NULL, NULL, '', ?, ?, ?, ?)`,
    [data.orderId, data.creditCustomer.number, data.collectedPaise ?? data.amountPaise, data.businessDay, at, seq, data.by ?? 'owner'],
  )
}

/**
 * Copies the sale's state (after an outcome or a settlement by phone) to its credit entry, if it has one.
 * Decision: a counted sale that a later status check finds FAILED is reversed by that very outcome line:
 * the due is derived from the state, so nothing else is journaled; reversed_at marks when it left the due,
 * for the statement. Payments already taken stay; the due may then go below zero (the shop owes the customer).
 */
export function syncCreditSale(db: Database, orderId: string, at: string): void {
  runCached(
    db,
    `UPDATE credit_entries SET
       reversed_at = CASE WHEN state = 'SUCCESS' AND (SELECT state FROM sales WHERE order_id = :id) != 'SUCCESS' THEN :at ELSE reversed_at END,
       state = (SELECT state FROM sales WHERE order_id = :id)
     WHERE entry_id = :id AND kind = 'sale'`,
    { ':id': orderId, ':at': at },
  )
}

export const creditProjectors: { [T in 'credit.payment' | 'credit.limit']: Projector<T> } = {
  'credit.payment': {
    problem: (db, { receiptId, number, amountPaise }) => {
      if (db.exec('SELECT 1 FROM credit_entries WHERE entry_id = ?', [receiptId]).length > 0) return `a payment with receipt id ${receiptId} is already recorded`
      if (!customerExists(db, number)) return `there is no credit customer with number ${number}`
      const fraction = fractionProblem({ amountPaise })
      if (fraction) return fraction
      if (amountPaise <= 0) return 'a payment must be more than ₹0'
      return amountPaise > dueOf(db, number) ? 'a payment must not be more than the due' : null
    },
    apply: (db, { seq, at, data }) => {
      runCached(
        db,
        `INSERT INTO credit_entries (entry_id, number, kind, amount_paise, state, reversed_at, mode, note, business_day, at, seq, recorded_by)
         VALUES (?, ?, 'payment', ?, NULL, NULL, ?, ?, ?, ?, ?, ?)`,
        [data.receiptId, data.number, data.amountPaise, data.mode, data.note, data.businessDay, at, seq, data.by ?? 'owner'],
      )
    },
  },
  'credit.limit': {
    problem: (_db, { name, limitPaise }) =>
      name.trim() === '' ? "a credit customer needs a name" : (fractionProblem({ limitPaise }) ?? (limitPaise !== null && limitPaise < 0 ? 'a limit cannot be below ₹0' : null)),
    apply: (db, { at, data }) => {
      upsertCustomer(db, data.number, data.name, at)
      runCached(db, 'UPDATE credit_customers SET limit_paise = ? WHERE number = ?', [data.limitPaise, data.number])
    },
  },
}
