// The ledger database's schema: versioned, additive migrations and the meta table they keep the version in.
import type { Database } from 'sql.js'

export interface Migration {
  version: number
  name: string
  sql: string
}

/** Only ever append: a shipped migration is never edited, since old snapshots were built by it. */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'meta and sales',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
      CREATE TABLE sales (
        order_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        number TEXT NOT NULL,
        operator_code TEXT NOT NULL,
        operator_name TEXT NOT NULL,
        circle TEXT,
        amount_paise INTEGER NOT NULL,
        state TEXT NOT NULL,
        provider_status TEXT,
        message TEXT NOT NULL,
        fpay_id TEXT,
        operator_ref TEXT,
        business_day TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_checked_at TEXT,
        training INTEGER NOT NULL
      );
      CREATE INDEX sales_by_day ON sales (business_day, created_at);
    `,
  },
  {
    version: 2,
    name: 'PAN agents, coupon sales, password resets and balance checkpoints',
    // new_bal_seq/new_bal_at: the journal entry whose coupon_req answer reported new_bal, so that
    // figure can be weighed against balance checkpoints by journal order.
    sql: `
      CREATE TABLE agents (
        vle_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        mobile TEXT NOT NULL,
        email TEXT NOT NULL,
        shop TEXT NOT NULL,
        location TEXT NOT NULL,
        state_code TEXT NOT NULL,
        pin TEXT NOT NULL,
        uid_masked TEXT NOT NULL,
        pan TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_checked_at TEXT
      );
      CREATE INDEX agents_by_created ON agents (created_at);
      CREATE TABLE coupon_sales (
        attempt_id TEXT PRIMARY KEY,
        order_id TEXT,
        vle_id TEXT NOT NULL,
        vle_name TEXT,
        coupon_type INTEGER NOT NULL,
        qty INTEGER NOT NULL,
        expected_rate_paise INTEGER NOT NULL,
        state TEXT NOT NULL,
        provider_status TEXT,
        message TEXT NOT NULL,
        order_date TEXT,
        rate_paise INTEGER,
        amount_paise INTEGER,
        old_bal_paise INTEGER,
        new_bal_paise INTEGER,
        new_bal_seq INTEGER,
        new_bal_at TEXT,
        problems TEXT NOT NULL,
        business_day TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_checked_at TEXT,
        training INTEGER NOT NULL
      );
      CREATE INDEX coupon_sales_by_created ON coupon_sales (created_at);
      CREATE INDEX coupon_sales_by_day ON coupon_sales (business_day, created_at);
      CREATE INDEX coupon_sales_by_state ON coupon_sales (state, created_at);
      CREATE INDEX coupon_sales_charged ON coupon_sales (coupon_type, created_at) WHERE rate_paise IS NOT NULL;
      CREATE INDEX coupon_sales_by_new_bal ON coupon_sales (new_bal_seq) WHERE new_bal_seq IS NOT NULL;
      CREATE TABLE password_resets (
        attempt_id TEXT PRIMARY KEY,
        order_id TEXT,
        vle_id TEXT NOT NULL,
        vle_name TEXT,
        status TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX password_resets_by_agent ON password_resets (vle_id, created_at);
      CREATE TABLE balance_checkpoints (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        balance_paise INTEGER NOT NULL,
        source TEXT NOT NULL
      );
    `,
  },
]

const SCHEMA_VERSION_KEY = 'schema_version'

function hasTable(db: Database, name: string): boolean {
  return db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).length > 0
}

/** A meta value, or null when it (or the meta table itself, in a database not yet migrated) is absent. */
export function readMeta(db: Database, key: string): string | null {
  if (!hasTable(db, 'meta')) return null
  const value = db.exec('SELECT value FROM meta WHERE key = ?', [key])[0]?.values[0]?.[0]
  return value === undefined || value === null ? null : String(value)
}

export function writeMeta(db: Database, key: string, value: string): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value])
}

/** Brings `db` to the latest schema, each migration in its own transaction with its version number. */
export function migrate(db: Database): { from: number; to: number } {
  const from = Number(readMeta(db, SCHEMA_VERSION_KEY) ?? 0)
  const latest = migrations.at(-1)?.version ?? 0
  if (from > latest) {
    throw new Error(`This ledger was written by a newer version of Counter (schema ${from}; this version knows up to ${latest}). Update Counter to open it.`)
  }
  for (const migration of migrations.filter((m) => m.version > from)) {
    db.run('BEGIN')
    try {
      db.exec(migration.sql)
      writeMeta(db, SCHEMA_VERSION_KEY, String(migration.version))
      db.run('COMMIT')
    } catch (error) {
      db.run('ROLLBACK')
      throw new Error(`Ledger migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error })
    }
  }
  return { from, to: latest }
}
