// How sales and the shop's naming change the customers table: a recharge intent remembers its number and last recharge, customer.named and customer.forgotten its name.
import type { Database } from 'sql.js'
import type { LedgerEventData } from './events'
import type { Projector } from './projector'
import { runCached } from './connection'

function customerExists(db: Database, number: string): boolean {
  return db.exec('SELECT 1 FROM customers WHERE number = ?', [number]).length > 0
}

const unknownNumber = (number: string) => `no sale to ${number} is remembered`

/**
 * Called by the recharge intent's projector: the number becomes (or stays) a customer, its last
 * recharge this one. Decision: the last recharge is the last one sent, whatever its outcome: a
 * failed one is most often tried again as it was, and repeat only fills the form for the shop to check.
 */
export function rememberSale(db: Database, at: string, data: LedgerEventData['recharge.intent']): void {
  runCached(
    db,
    `INSERT INTO customers (number, kind, name, last_operator_code, last_operator_name, last_circle, last_amount_paise, last_at, sales)
     VALUES (?, ?, NULL, ?, ?, ?, ?, ?, 1)
     ON CONFLICT (number) DO UPDATE SET kind = excluded.kind, last_operator_code = excluded.last_operator_code,
       last_operator_name = excluded.last_operator_name, last_circle = excluded.last_circle,
       last_amount_paise = excluded.last_amount_paise, last_at = excluded.last_at, sales = sales + 1`,
    [data.number, data.kind, data.operatorCode, data.operatorName, data.circle, data.amountPaise, at],
  )
}

export const customerProjectors: { [T in 'customer.named' | 'customer.forgotten']: Projector<T> } = {
  'customer.named': {
    problem: (db, { number }) => (customerExists(db, number) ? null : unknownNumber(number)),
    apply: (db, { data }) => runCached(db, 'UPDATE customers SET name = ? WHERE number = ?', [data.name, data.number]),
  },
  'customer.forgotten': {
    problem: (db, { number }) => (customerExists(db, number) ? null : unknownNumber(number)),
    apply: (db, { data }) => runCached(db, 'DELETE FROM customers WHERE number = ?', [data.number]),
  },
}
