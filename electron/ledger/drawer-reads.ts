// The ledger's reads of the drawer apart from sales (issue #29): a day's cash in and out, and the latest count saved before its close.
import type { Database, ParamsObject } from 'sql.js'
import type { CashMove, CashMoveKind, DrawerCount, DrawerMoves, Role } from '../contract'
import { paiseToDecimal } from '../shared/money'
import { selectAll } from './reads'

const moveFromRow = (row: ParamsObject): CashMove => ({
  moveId: String(row.move_id),
  kind: String(row.kind) as CashMoveKind,
  direction: row.direction === 'in' ? 'in' : 'out',
  amountPaise: Number(row.amount_paise),
  reason: String(row.reason),
  at: String(row.at),
  businessDay: String(row.business_day),
  by: String(row.recorded_by) as Role,
})

/** The day's movements in the order recorded, with what went in and what came out. */
export function drawerMovesOf(db: Database, businessDay: string): DrawerMoves {
  const moves = selectAll(db, 'SELECT * FROM cash_moves WHERE business_day = ? ORDER BY seq', [businessDay], moveFromRow)
  const total = (direction: 'in' | 'out') => moves.filter((move) => move.direction === direction).reduce((sum, move) => sum + move.amountPaise, 0)
  return { moves, inPaise: total('in'), outPaise: total('out') }
}

/** The latest count saved for the day, as recorded (no expected figure: the core adds it for whom it may). */
export function drawerCountOf(db: Database, businessDay: string): DrawerCount | null {
  return (
    selectAll(db, 'SELECT * FROM drawer_counts WHERE business_day = ? ORDER BY seq DESC LIMIT 1', [businessDay], (row) => {
      const counted = JSON.parse(String(row.counted)) as Record<'n500' | 'n200' | 'n100' | 'n50' | 'n20' | 'n10' | 'coinsPaise', number>
      return {
        businessDay: String(row.business_day),
        openingFloatPaise: Number(row.opening_float_paise),
        counted: { n500: counted.n500, n200: counted.n200, n100: counted.n100, n50: counted.n50, n20: counted.n20, n10: counted.n10, coins: paiseToDecimal(counted.coinsPaise) },
        countedPaise: Number(row.counted_paise),
        at: String(row.at),
        by: String(row.recorded_by) as Role,
      }
    })[0] ?? null
  )
}
