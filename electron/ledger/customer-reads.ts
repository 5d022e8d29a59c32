// The ledger's reads of its customers: one number's, suggestions for the digits typed, and the names History shows and searches by.
import type { Database } from 'sql.js'
import type { Customer } from '../contract'
import { customerFromRow, selectAll } from './reads'

export function customerOf(db: Database, number: string): Customer | null {
  return selectAll(db, 'SELECT * FROM customers WHERE number = ?', [number], customerFromRow)[0] ?? null
}

/**
 * Customers whose number starts with `digits`, the most recently sold to first. Numbers are digits,
 * so ']' follows every one that starts with them in byte order: a range of customers_by_number_time,
 * which alone picks the newest (measured at 100k sales, a prefix shared by 4,916 customers: 42 ms
 * when every row of the range was read to sort it); only the chosen rows are read.
 */
export function customersStartingWith(db: Database, digits: string, limit: number): Customer[] {
  return selectAll(
    db,
    `SELECT * FROM customers WHERE number IN (
       SELECT number FROM customers INDEXED BY customers_by_number_time WHERE number >= :digits AND number < :end ORDER BY last_at DESC, number LIMIT :limit
     ) ORDER BY last_at DESC, number`,
    { ':digits': digits, ':end': `${digits}]`, ':limit': limit },
    customerFromRow,
  )
}

/** The names of those of `numbers` that have one. */
export function namesOf(db: Database, numbers: string[]): Map<string, string> {
  if (numbers.length === 0) return new Map()
  const rows = db.exec('SELECT number, name FROM customers WHERE name IS NOT NULL AND number IN (SELECT value FROM json_each(?))', [JSON.stringify(numbers)])[0]
  return new Map((rows?.values ?? []).map(([number, name]) => [String(number), String(name)]))
}

/** The numbers whose customer name holds `text`, without regard to case, as a JSON array (History binds it). */
export function numbersNamedLike(db: Database, likePattern: string): string {
  const rows = db.exec("SELECT json_group_array(number) FROM customers WHERE name LIKE ? ESCAPE '\\'", [likePattern])[0]
  return String(rows?.values[0]?.[0] ?? '[]')
}
