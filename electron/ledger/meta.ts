// The ledger database's meta table: named values kept beside the books' tables (the schema version, the journal position, the terminal's name).
import type { Database } from 'sql.js'
import { firstValue } from './reads'

function hasTable(db: Database, name: string): boolean {
  return db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).length > 0
}

/** A meta value, or null when it (or the meta table itself, in a database not yet migrated) is absent. */
export function readMeta(db: Database, key: string): string | null {
  if (!hasTable(db, 'meta')) return null
  const value = firstValue(db, 'SELECT value FROM meta WHERE key = ?', [key])
  return value === undefined || value === null ? null : String(value)
}

/** Sets `pairs` meta values in one statement, bound as key, value, key, value… */
export const metaUpsert = (pairs: number): string =>
  `INSERT INTO meta (key, value) VALUES ${Array.from({ length: pairs }, () => '(?, ?)').join(', ')} ON CONFLICT (key) DO UPDATE SET value = excluded.value`

export const META_UPSERT = metaUpsert(1)

export function writeMeta(db: Database, key: string, value: string): void {
  db.run(META_UPSERT, [key, value])
}
