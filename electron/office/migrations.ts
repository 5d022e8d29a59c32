// The office database's schema, as numbered migrations the shipper applies on connect; each runs once, in order, in its own transaction.
import type { ClientBase } from 'pg'

/**
 * Decision: a TS list, not .sql files, so the built shipper thread carries its schema with it (no
 * files to find beside out/main). A migration is never edited once shipped: a change is a new one.
 */
export const OFFICE_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'entries and terminals',
    sql: `
      CREATE TABLE terminals (
        terminal text PRIMARY KEY,
        shop text,
        counter text,
        first_hash text,
        last_seq bigint NOT NULL DEFAULT 0,
        last_hash text NOT NULL DEFAULT '${'0'.repeat(64)}',
        last_contact timestamptz
      );
      -- One row per journal line, exactly as the terminal hashed it (data is the line's payload).
      CREATE TABLE entries (
        terminal text NOT NULL REFERENCES terminals (terminal),
        seq bigint NOT NULL CHECK (seq > 0),
        at timestamptz NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        prev text NOT NULL,
        hash text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (terminal, seq)
      );
      CREATE INDEX entries_by_type ON entries (type, terminal);
      -- A sale's later lines (outcome, status check, settled by phone) found by the id its intent gave it.
      CREATE INDEX entries_by_sale ON entries (terminal, (COALESCE(data->>'orderId', data->>'attemptId', data->>'id')));
    `,
  },
  {
    version: 2,
    name: 'recharge sales by day, terminal and operator',
    sql: `
      -- Each recharge as it stands now: its intent with the state of the latest outcome or settlement (SENDING when none).
      CREATE VIEW recharge_sales AS
      SELECT i.terminal,
             i.data->>'orderId' AS order_id,
             (i.data->>'businessDay')::date AS business_day,
             i.data->>'operatorName' AS operator,
             (i.data->>'amountPaise')::bigint AS amount_paise,
             COALESCE((i.data->>'training')::boolean, false) AS training,
             COALESCE((
               SELECT COALESCE(o.data->>'outcome', 'SENDING') FROM entries o
               WHERE o.terminal = i.terminal
                 AND COALESCE(o.data->>'orderId', o.data->>'attemptId', o.data->>'id') = i.data->>'orderId'
                 AND (o.type = 'recharge.outcome' OR (o.type = 'sale.settled' AND o.data->>'kind' = 'recharge'))
               ORDER BY o.seq DESC LIMIT 1
             ), 'SENDING') AS state
      FROM entries i
      WHERE i.type = 'recharge.intent';

      CREATE VIEW recharge_sales_by_day AS
      SELECT business_day, terminal, operator,
             count(*) FILTER (WHERE state = 'SUCCESS') AS sales,
             COALESCE(sum(amount_paise) FILTER (WHERE state = 'SUCCESS'), 0) AS amount_paise,
             count(*) FILTER (WHERE state NOT IN ('SUCCESS', 'FAILED')) AS unresolved
      FROM recharge_sales
      WHERE NOT training
      GROUP BY business_day, terminal, operator;
    `,
  },
]

/** Serialises two terminals migrating one new office at once (any fixed number both agree on). */
const MIGRATION_LOCK = 0x0ff1ce

export async function migrateOffice(client: ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    await client.query('CREATE TABLE IF NOT EXISTS office_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM office_schema')).rows.map((row) => row.version))
    for (const migration of OFFICE_MIGRATIONS) {
      if (done.has(migration.version)) continue
      await client.query('BEGIN')
      try {
        await client.query(migration.sql)
        await client.query('INSERT INTO office_schema (version, name) VALUES ($1, $2)', [migration.version, migration.name])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
  }
}
