// How the shop's own bookkeeping events (settlements by phone, UPI payments confirmed, re-check notes, top-ups, day closes, owner PIN resets) change the ledger's tables.
import type { Database } from 'sql.js'
import type { SaleKind, UpiConfirmKind } from './events'
import { syncCreditSale } from './credit-projections'
import { fractionProblem, type Projector } from './projector'
import { firstValue } from './reads'

type BooksEventType = 'sale.settled' | 'sale.upiConfirmed' | 'pending.checked' | 'pan.topup' | 'day.closed' | 'clock.confirmed' | 'owner.pin.reset'

/** Where each kind of sale lives, and the column that names it. */
export const SALE_TABLES: Record<SaleKind, { table: string; id: string }> = {
  recharge: { table: 'sales', id: 'order_id' },
  coupon: { table: 'coupon_sales', id: 'attempt_id' },
}

function saleState(db: Database, kind: SaleKind, id: string): string | null {
  const { table, id: column } = SALE_TABLES[kind]
  const state = firstValue(db, `SELECT state FROM ${table} WHERE ${column} = ?`, [id])
  return state === undefined ? null : String(state)
}

const noSale = (kind: SaleKind, id: string) => `there is no ${kind === 'recharge' ? 'sale with order id' : 'coupon sale with attempt id'} ${id}`

/**
 * Where a UPI payment's row is, and the condition that finds it: a sale's, or a payment of a due's in credit_entries
 * by its receipt id (a payment is taken whole, so its state is always SUCCESS).
 */
const UPI_ROWS: Record<UpiConfirmKind, { table: string; where: string; mode: string; state: string }> = {
  recharge: { table: 'sales', where: 'order_id = ?', mode: 'payment_mode', state: 'state' },
  coupon: { table: 'coupon_sales', where: 'attempt_id = ?', mode: 'payment_mode', state: 'state' },
  payment: { table: 'credit_entries', where: "entry_id = ? AND kind = 'payment'", mode: 'mode', state: "'SUCCESS'" },
}

export function dayIsClosed(db: Database, businessDay: string): boolean {
  return db.exec('SELECT 1 FROM day_closes WHERE business_day = ?', [businessDay]).length > 0
}

export const booksProjectors: { [T in BooksEventType]: Projector<T> } = {
  'sale.settled': {
    problem: (db, { kind, id, outcome, note, chargedPaise }) => {
      const state = saleState(db, kind, id)
      if (state === null) return noSale(kind, id)
      if (state === 'SUCCESS' || state === 'FAILED') return `${id} is already settled (${state})`
      if (chargedPaise !== undefined && (kind !== 'coupon' || outcome !== 'SUCCESS')) return 'only a coupon settled as SUCCESS has a charge'
      if (chargedPaise !== undefined && !(chargedPaise > 0)) return 'a charge must be more than ₹0'
      return fractionProblem({ chargedPaise: chargedPaise ?? null }) ?? (note.trim() === '' ? 'settling by phone needs a note saying who confirmed it' : null)
    },
    apply: (db, { at, data }) => {
      const { table, id } = SALE_TABLES[data.kind]
      db.run(`UPDATE ${table} SET state = ?, settled_note = ?, updated_at = ? WHERE ${id} = ?`, [data.outcome, data.note, at, data.id])
      if (data.kind === 'recharge') syncCreditSale(db, data.id, at)
      // The provider's own amount, when an answer named it, stands; a collected amount nobody typed follows the charge.
      if (data.chargedPaise !== undefined) {
        db.run(
          `UPDATE coupon_sales SET amount_paise = COALESCE(amount_paise, :charged),
             collected_paise = CASE WHEN collected_default = 1 THEN COALESCE(amount_paise, :charged) ELSE collected_paise END
           WHERE attempt_id = :id`,
          { ':charged': data.chargedPaise, ':id': data.id },
        )
      }
    },
  },
  'sale.upiConfirmed': {
    problem: (db, { kind, id }) => {
      if (!Object.hasOwn(UPI_ROWS, kind)) return `"${kind}" is not a kind of sale paid by UPI`
      const { table, where, mode, state } = UPI_ROWS[kind]
      const row = db.exec(`SELECT ${mode}, ${state}, upi_confirmed_at FROM ${table} WHERE ${where}`, [id])[0]?.values[0]
      if (!row) return kind === 'payment' ? `there is no payment with receipt id ${id}` : noSale(kind, id)
      const [paidBy, stateNow, confirmedAt] = row
      if (paidBy !== 'upi') return `${id} was not paid by UPI`
      if (stateNow === 'FAILED') return `${id} failed: there is no UPI payment to confirm`
      return confirmedAt === null ? null : `the UPI payment of ${id} is already confirmed`
    },
    apply: (db, { at, data }) => {
      const { table, where } = UPI_ROWS[data.kind]
      db.run(`UPDATE ${table} SET upi_confirmed_at = ? WHERE ${where}`, [at, data.id])
    },
  },
  'pending.checked': {
    problem: (db, { kind, id }) => (saleState(db, kind, id) === null ? noSale(kind, id) : null),
    apply: (db, { at, data }) => {
      const { table, id } = SALE_TABLES[data.kind]
      db.run(`UPDATE ${table} SET checks = checks + 1, last_answer = ?, last_checked_at = ?, next_check_at = ? WHERE ${id} = ?`, [
        data.answer, at, data.nextCheckAt, data.id,
      ])
    },
  },
  'pan.topup': {
    problem: (db, { topupId, amountPaise }) => {
      if (db.exec('SELECT 1 FROM topups WHERE topup_id = ?', [topupId]).length > 0) return `a top-up with id ${topupId} is already recorded`
      return fractionProblem({ amountPaise }) ?? (amountPaise > 0 ? null : 'a top-up must add more than ₹0')
    },
    apply: (db, { seq, at, data }) => {
      db.run('INSERT INTO topups (topup_id, amount_paise, reference, note, business_day, at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        data.topupId, data.amountPaise, data.reference, data.note, data.businessDay, at, seq,
      ])
    },
  },
  // Only the journal position moves (project() records it): the floor lives in the journal's times.
  'clock.confirmed': {
    problem: () => null,
    apply: () => undefined,
  },
  'owner.pin.reset': {
    problem: () => null,
    apply: (db, { seq, at, data }) => {
      db.run('INSERT INTO pin_resets (seq, at, business_day, file) VALUES (?, ?, ?, ?)', [seq, at, data.businessDay, data.file])
    },
  },
  'day.closed': {
    problem: (db, data) =>
      dayIsClosed(db, data.businessDay)
        ? `the books for ${data.businessDay} are already closed`
        : fractionProblem({
            openingFloatPaise: data.openingFloatPaise,
            countedPaise: data.countedPaise,
            expectedCashPaise: data.expectedCashPaise,
            closingPanBalancePaise: data.closingPanBalancePaise,
            openingPanBalancePaise: data.openingPanBalancePaise,
            ...data.counted,
          }),
    apply: (db, { seq, at, data }) => {
      db.run('INSERT INTO day_closes (business_day, closed_at, seq, data) VALUES (?, ?, ?, ?)', [data.businessDay, at, seq, JSON.stringify(data)])
    },
  },
}
