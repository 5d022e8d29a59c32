// How cash put into the drawer or taken out apart from sales, and the drawer's counts saved before the close, change the ledger's tables (issue #29).
import type { Database } from 'sql.js'
import type { CashMoveKind } from '../contract'
import { fractionProblem, type Projector } from './projector'

/** The kinds the contract's CashMoveKindSchema lists (the ledger imports no schema): 'float' goes in, the rest out. */
const KINDS: readonly CashMoveKind[] = ['float', 'expense', 'withdrawal', 'supplier']
const directionOf = (kind: CashMoveKind) => (kind === 'float' ? 'in' : 'out')

type DrawerEventType = 'drawer.cash' | 'drawer.counted'

export const drawerProjectors: { [T in DrawerEventType]: Projector<T> } = {
  'drawer.cash': {
    problem: (db: Database, { moveId, kind, amountPaise, reason }) => {
      if (db.exec('SELECT 1 FROM cash_moves WHERE move_id = ?', [moveId]).length > 0) return `a cash movement with id ${moveId} is already recorded`
      if (!KINDS.includes(kind)) return `"${kind}" is not a kind of cash movement`
      if (reason.trim() === '') return 'cash in or out needs its reason'
      return fractionProblem({ amountPaise }) ?? (amountPaise > 0 ? null : 'cash in or out must be more than ₹0')
    },
    apply: (db, { seq, at, data }) => {
      db.run(
        `INSERT INTO cash_moves (seq, move_id, at, business_day, kind, direction, amount_paise, reason, recorded_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [seq, data.moveId, at, data.businessDay, data.kind, directionOf(data.kind), data.amountPaise, data.reason, data.by ?? 'owner'],
      )
    },
  },
  'drawer.counted': {
    problem: (_db, data) => fractionProblem({ openingFloatPaise: data.openingFloatPaise, countedPaise: data.countedPaise, ...data.counted }),
    apply: (db, { seq, at, data }) => {
      db.run(
        `INSERT INTO drawer_counts (seq, at, business_day, opening_float_paise, counted, counted_paise, recorded_by) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [seq, at, data.businessDay, data.openingFloatPaise, JSON.stringify(data.counted), data.countedPaise, data.by ?? 'owner'],
      )
    },
  },
}
