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
  {
    version: 3,
    name: 'PAN balance chain across the terminals of one shop',
    sql: `
      -- Decision: the terminals of one shop (terminal.named's shop) share one provider account; the
      -- office cannot tell accounts apart otherwise, as the api_key never leaves a counter.
      -- Every balance fact of the shop in time order: a coupon's old and new balance, a balance read,
      -- a top-up. expected_paise is the balance the chain predicts just before the fact (the last
      -- known balance of the shop, plus top-ups since); break_paise what the provider showed less that.
      -- local_* are the same with only this terminal's own facts: what that counter alone calls an
      -- outside debit. A row with local_break_paise <> 0 and break_paise = 0 is a movement another
      -- terminal's sale explains (previous_terminal names where the chain's last balance came from).
      CREATE VIEW pan_balance_chain AS
      WITH facts AS (
        SELECT t.shop, e.terminal, e.seq, e.at, e.type,
               CASE WHEN e.type = 'pan.coupon.outcome' THEN (e.data->>'oldBalPaise')::bigint
                    WHEN e.type = 'pan.balance.read' THEN (e.data->>'balancePaise')::bigint END AS seen_paise,
               CASE WHEN e.type = 'pan.coupon.outcome' THEN (e.data->>'newBalPaise')::bigint
                    WHEN e.type = 'pan.balance.read' THEN (e.data->>'balancePaise')::bigint END AS balance_paise,
               CASE WHEN e.type = 'pan.topup' THEN (e.data->>'amountPaise')::bigint ELSE 0 END AS topup_paise
        FROM entries e JOIN terminals t ON t.terminal = e.terminal
        WHERE (e.type = 'pan.coupon.outcome' AND e.data->>'outcome' = 'SUCCESS' AND e.data->>'newBalPaise' IS NOT NULL AND e.data->>'oldBalPaise' IS NOT NULL)
           OR e.type IN ('pan.balance.read', 'pan.topup')
      ), runs AS (
        SELECT f.*,
               sum(topup_paise) OVER shop_order AS shop_topups,
               count(balance_paise) OVER shop_order AS shop_known,
               sum(topup_paise) OVER own_order AS own_topups,
               count(balance_paise) OVER own_order AS own_known
        FROM facts f
        WINDOW shop_order AS (PARTITION BY shop ORDER BY at, terminal, seq),
               own_order AS (PARTITION BY terminal ORDER BY at, seq)
      ), anchors AS (
        SELECT shop, terminal, shop_known, own_known, balance_paise, shop_topups, own_topups FROM runs WHERE balance_paise IS NOT NULL
      )
      SELECT r.shop, r.terminal, r.seq, r.at, r.type, r.seen_paise, r.balance_paise, r.topup_paise,
             s.terminal AS previous_terminal,
             s.balance_paise + (r.shop_topups - s.shop_topups) AS expected_paise,
             r.seen_paise - (s.balance_paise + (r.shop_topups - s.shop_topups)) AS break_paise,
             o.balance_paise + (r.own_topups - o.own_topups) AS local_expected_paise,
             r.seen_paise - (o.balance_paise + (r.own_topups - o.own_topups)) AS local_break_paise
      FROM runs r
      LEFT JOIN anchors s ON s.shop = r.shop
        AND s.shop_known = r.shop_known - CASE WHEN r.balance_paise IS NULL THEN 0 ELSE 1 END
      LEFT JOIN anchors o ON o.terminal = r.terminal
        AND o.own_known = r.own_known - CASE WHEN r.balance_paise IS NULL THEN 0 ELSE 1 END;
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
