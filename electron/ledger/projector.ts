// What a projector is (how one journal event type is checked against the tables, then applied) and the check every
// domain's projectors share. Its own file so projections.ts and the domain files it merges import it, never each other.
import type { Database } from 'sql.js'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'

export interface Projector<T extends LedgerEventType> {
  /** Why this event makes no sense against the current tables, or null when it can be applied. */
  problem(db: Database, data: LedgerEventData[T]): string | null
  /** Uses entry.at for every timestamp (never the clock), so a replay is identical to the original. */
  apply(db: Database, entry: JournalEntry<T>): void
}

/** Money and counts arrive already parsed; a fraction here means something upstream parsed wrongly. */
export function fractionProblem(fields: Record<string, number | null>): string | null {
  const wrong = Object.entries(fields).find(([, value]) => value !== null && !Number.isSafeInteger(value))
  return wrong ? `${wrong[0]} must be a whole number (got ${wrong[1]})` : null
}
