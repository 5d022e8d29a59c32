// How sales and the shop's naming change the customers and their names: a recharge intent remembers its number and last recharge, customer.named and customer.forgotten its name.
import type { Database } from 'sql.js'
import type { LedgerEventData } from './events'
import type { Projector } from './projector'
import { runCached } from './connection'
import { dueOf } from './credit-reads'

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

/**
 * The one place a number's name is written (customer_names, migration 10): the shop naming a regular,
 * a credit sale's customer and a credit limit all name the same customer, the latest line's name standing.
 */
export function nameCustomer(db: Database, number: string, name: string): void {
  runCached(db, 'INSERT INTO customer_names (number, name) VALUES (?, ?) ON CONFLICT (number) DO UPDATE SET name = excluded.name', [number, name])
}

/**
 * Decision: a customer who still owes (or is owed) keeps their name and credit standing when forgotten:
 * the counter refuses to forget them (customers.ts), so only a line written before it did so reaches
 * here, and the due stays under the number with the name it was taken by. Once nothing is owed,
 * forgetting takes the name and the credit limit too; the credit sales and payments stay in the books
 * (and come back on the statement if the number buys on credit again).
 */
function forget(db: Database, number: string): void {
  runCached(db, 'DELETE FROM customers WHERE number = ?', [number])
  if (dueOf(db, number) !== 0) return
  runCached(db, 'DELETE FROM customer_names WHERE number = ?', [number])
  runCached(db, 'DELETE FROM credit_customers WHERE number = ?', [number])
}

export const customerProjectors: { [T in 'customer.named' | 'customer.forgotten']: Projector<T> } = {
  'customer.named': {
    problem: (db, { number }) => (customerExists(db, number) ? null : unknownNumber(number)),
    apply: (db, { data }) => nameCustomer(db, data.number, data.name),
  },
  'customer.forgotten': {
    problem: (db, { number }) => (customerExists(db, number) ? null : unknownNumber(number)),
    apply: (db, { data }) => forget(db, data.number),
  },
}
