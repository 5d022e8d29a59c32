// The office database's schema and the grants of its two roles, as numbered migrations (applied by a counter logged in as the office's owner on connect, or by `npm run office -- roles`); each runs once, in order, in its own transaction.
import type { ClientBase } from 'pg'
import { ARCHIVES_MIGRATION } from './archives'
import { ROLLUPS_MIGRATION } from './rollups'

/**
 * The office's two roles (README, Head office): the counters log in as members of the writer, the office page as a
 * member of the reader. NOLOGIN roles holding the grants, so the owner makes and changes the logins (and their
 * passwords) with PostgreSQL's own tools, and nothing here ever handles a password.
 */
export const OFFICE_ROLES = { writer: 'counter_office_writer', reader: 'counter_office_reader' } as const

/** The roles where missing, as PL/pgSQL statements (needs CREATEROLE): migration 8's, and `npm run office -- roles`'. */
const CREATE_ROLES = Object.values(OFFICE_ROLES)
  .map((role) => `IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} NOLOGIN; END IF;`)
  .join(' ')

export interface OfficeMigration {
  version: number
  name: string
  sql: string
  /**
   * What the roles may do with what this migration made: PL/pgSQL statements run right after `sql` when both roles
   * exist, and again by `npm run office -- roles` (roles made after the migrations ran get every migration's grants).
   * What a migration creates is readable by both roles without one (migration 8's default privileges); only what the
   * counters must write needs its grant here.
   */
  grants?: string
}

/**
 * Decision: a TS list, not .sql files, so the built shipper thread carries its schema with it (no
 * files to find beside out/main). A migration is never edited once shipped: a change is a new one.
 */
export const OFFICE_MIGRATIONS: readonly OfficeMigration[] = [
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
  {
    version: 4,
    name: 'journal ends, coupon sales, margins, dues and day closes',
    sql: `
      -- What each terminal last said its journal's end was (shipper.ts, on register, heartbeat and each
      -- batch): the office knows only what it received, so a backlog is this less last_seq.
      ALTER TABLE terminals ADD COLUMN journal_end bigint, ADD COLUMN journal_end_at timestamptz;

      -- Each terminal's backlog as the office sees it. Decision: NULL (not 0) when its shipper has never
      -- reported an end (one older than migration 4): the office cannot tell, and says so.
      CREATE VIEW terminal_backlog AS
      SELECT terminal, shop, counter, last_contact, last_seq, journal_end, journal_end_at,
             -- GREATEST skips NULLs: without the CASE an unreported end would read as "up to date".
             CASE WHEN journal_end IS NOT NULL THEN GREATEST(journal_end - last_seq, 0) END AS backlog
      FROM terminals;

      -- A coupon's outcomes name it by attemptId; the index of migration 1 takes their orderId first.
      -- Partial: every other line would only cost the shipper's inserts an index entry.
      CREATE INDEX entries_by_attempt ON entries (terminal, (data->>'attemptId')) WHERE type = 'pan.coupon.outcome';

      -- Each recharge of recharge_sales with its intent's line (payload and place), for margins and dues.
      CREATE VIEW recharge_sale_lines AS
      SELECT r.*, i.seq, i.data
      FROM recharge_sales r
      JOIN entries i ON i.terminal = r.terminal AND i.type = 'recharge.intent'
        AND COALESCE(i.data->>'orderId', i.data->>'attemptId', i.data->>'id') = r.order_id;

      -- Each PAN coupon order as it stands now, as pan-projections.ts keeps it on the counter: the state
      -- of its latest outcome or settlement by phone (SENDING when none); the amount is what the shop
      -- typed as collected, else the provider's amount once an outcome names it, else rate x qty.
      CREATE VIEW coupon_sales AS
      SELECT i.terminal,
             i.data->>'attemptId' AS attempt_id,
             (i.data->>'businessDay')::date AS business_day,
             (i.data->>'type')::int AS coupon_type,
             (i.data->>'qty')::bigint AS qty,
             COALESCE((i.data->>'training')::boolean, false) AS training,
             COALESCE((i.data->>'collectedPaise')::bigint,
               (SELECT (o.data->>'amountPaise')::bigint FROM entries o
                WHERE o.terminal = i.terminal AND o.type = 'pan.coupon.outcome' AND o.data->>'attemptId' = i.data->>'attemptId'
                  AND o.data->>'amountPaise' IS NOT NULL
                ORDER BY o.seq DESC LIMIT 1),
               (i.data->>'expectedRatePaise')::bigint * (i.data->>'qty')::bigint) AS amount_paise,
             (i.data->'margin'->>'marginPaise')::bigint AS margin_paise,
             COALESCE((
               SELECT w.state FROM (
                 SELECT o.seq, o.data->>'outcome' AS state FROM entries o
                 WHERE o.terminal = i.terminal AND o.type = 'pan.coupon.outcome' AND o.data->>'attemptId' = i.data->>'attemptId'
                 UNION ALL
                 SELECT o.seq, o.data->>'outcome' FROM entries o
                 WHERE o.terminal = i.terminal AND o.type = 'sale.settled' AND o.data->>'kind' = 'coupon'
                   AND COALESCE(o.data->>'orderId', o.data->>'attemptId', o.data->>'id') = i.data->>'attemptId'
               ) w ORDER BY w.seq DESC LIMIT 1
             ), 'SENDING') AS state
      FROM entries i
      WHERE i.type = 'pan.coupon.intent';

      -- PAN coupon sales by day, terminal and coupon type (1 P-Coupon, 2 E-Coupon), as recharge_sales_by_day.
      CREATE VIEW coupon_sales_by_day AS
      SELECT business_day, terminal, coupon_type,
             count(*) FILTER (WHERE state = 'SUCCESS') AS sales,
             COALESCE(sum(qty) FILTER (WHERE state = 'SUCCESS'), 0) AS coupons,
             COALESCE(sum(amount_paise) FILTER (WHERE state = 'SUCCESS'), 0) AS amount_paise,
             count(*) FILTER (WHERE state NOT IN ('SUCCESS', 'FAILED')) AS unresolved
      FROM coupon_sales
      WHERE NOT training
      GROUP BY business_day, terminal, coupon_type;

      -- What each sale earned: the margin its intent carries (events.ts SaleMargin, the rate as it stood
      -- then). Decision (shared/margin.ts earnedOnce): SUCCESS earns it, FAILED earns 0, a sale still
      -- unresolved NULL; a line written before Counter kept margins is NULL too (unknown, never a guessed 0).
      CREATE VIEW sale_margins AS
      SELECT terminal, 'recharge' AS kind, order_id AS sale_id, business_day, state, amount_paise,
             CASE state WHEN 'SUCCESS' THEN (data->'margin'->>'marginPaise')::bigint WHEN 'FAILED' THEN 0 END AS earned_paise
      FROM recharge_sale_lines WHERE NOT training
      UNION ALL
      SELECT terminal, 'coupon', attempt_id, business_day, state, amount_paise,
             CASE state WHEN 'SUCCESS' THEN margin_paise WHEN 'FAILED' THEN 0 END
      FROM coupon_sales WHERE NOT training;

      -- Margins by day, terminal and kind: earned_paise sums what is known; margin_unknown counts the
      -- successful sales whose lines carry no margin, so a total is never read as complete when it is not.
      CREATE VIEW margins_by_day AS
      SELECT business_day, terminal, kind,
             COALESCE(sum(earned_paise), 0) AS earned_paise,
             count(*) FILTER (WHERE state = 'SUCCESS' AND earned_paise IS NULL) AS margin_unknown
      FROM sale_margins
      GROUP BY business_day, terminal, kind;

      -- What each credit customer owes at each terminal (dues.ts dueChange): successful credit sales at
      -- what was collected, less payments. Decision: per terminal, as each counter keeps its own credit
      -- book (a customer's number is not one account across counters); shop is there to add them up.
      -- The name is the latest the terminal wrote for the number (credit sale, limit or naming).
      CREATE VIEW credit_dues AS
      WITH lines AS (
        SELECT terminal, data->'creditCustomer'->>'number' AS number,
               CASE WHEN state = 'SUCCESS' THEN COALESCE((data->>'collectedPaise')::bigint, amount_paise) ELSE 0 END AS sold_paise,
               0::bigint AS paid_paise
        FROM recharge_sale_lines WHERE data->>'paymentMode' = 'credit' AND NOT training
        UNION ALL
        SELECT terminal, data->>'number', 0, (data->>'amountPaise')::bigint FROM entries WHERE type = 'credit.payment'
      )
      SELECT l.terminal, t.shop, l.number,
             (SELECT COALESCE(n.data->'creditCustomer'->>'name', n.data->>'name') FROM entries n
              WHERE n.terminal = l.terminal AND (n.type IN ('credit.limit', 'customer.named') AND n.data->>'number' = l.number
                OR n.type = 'recharge.intent' AND n.data->'creditCustomer'->>'number' = l.number)
              ORDER BY n.seq DESC LIMIT 1) AS name,
             sum(l.sold_paise) AS sold_paise, sum(l.paid_paise) AS paid_paise, sum(l.sold_paise) - sum(l.paid_paise) AS due_paise
      FROM lines l JOIN terminals t ON t.terminal = l.terminal
      GROUP BY l.terminal, t.shop, l.number;

      -- Each day close as the counter locked it: the drawer counted against what was expected, and the PAN balance.
      CREATE VIEW day_closes AS
      SELECT terminal, (data->>'businessDay')::date AS business_day, at AS closed_at,
             (data->>'openingFloatPaise')::bigint AS opening_float_paise,
             (data->>'countedPaise')::bigint AS counted_paise,
             (data->>'expectedCashPaise')::bigint AS expected_cash_paise,
             (data->>'countedPaise')::bigint - (data->>'expectedCashPaise')::bigint AS cash_difference_paise,
             (data->>'closingPanBalancePaise')::bigint AS closing_pan_balance_paise,
             data->>'overrideNote' AS override_note
      FROM entries
      WHERE type = 'day.closed';
    `,
  },
  {
    version: 5,
    name: 'one definition of each figure',
    sql: `
      -- Decision: the office counts each figure as the counter's own books do (electron/ledger/books-reads.ts, the
      -- day summary and the Z report): a coupon's amount is what the provider charged (the latest answer's amount,
      -- else the charge the owner confirmed settling it by phone, else rate x qty); what the shop collected is apart
      -- (what was typed, else the amount); earned is the margin plus the service charge (collected above the
      -- amount). Version 4 took a coupon's collected money for its amount and earned for the margin alone.
      -- Columns are only added at the end, so the page's queries stand.
      CREATE OR REPLACE VIEW coupon_sales AS
      SELECT i.terminal,
             i.data->>'attemptId' AS attempt_id,
             (i.data->>'businessDay')::date AS business_day,
             (i.data->>'type')::int AS coupon_type,
             (i.data->>'qty')::bigint AS qty,
             COALESCE((i.data->>'training')::boolean, false) AS training,
             charged.paise AS amount_paise,
             (i.data->'margin'->>'marginPaise')::bigint AS margin_paise,
             COALESCE((
               SELECT w.state FROM (
                 SELECT o.seq, o.data->>'outcome' AS state FROM entries o
                 WHERE o.terminal = i.terminal AND o.type = 'pan.coupon.outcome' AND o.data->>'attemptId' = i.data->>'attemptId'
                 UNION ALL
                 SELECT o.seq, o.data->>'outcome' FROM entries o
                 WHERE o.terminal = i.terminal AND o.type = 'sale.settled' AND o.data->>'kind' = 'coupon'
                   AND COALESCE(o.data->>'orderId', o.data->>'attemptId', o.data->>'id') = i.data->>'attemptId'
               ) w ORDER BY w.seq DESC LIMIT 1
             ), 'SENDING') AS state,
             COALESCE((i.data->>'collectedPaise')::bigint, charged.paise) AS collected_paise
      FROM entries i
      CROSS JOIN LATERAL (
        SELECT COALESCE(
          (SELECT (o.data->>'amountPaise')::bigint FROM entries o
           WHERE o.terminal = i.terminal AND o.type = 'pan.coupon.outcome' AND o.data->>'attemptId' = i.data->>'attemptId'
             AND o.data->>'amountPaise' IS NOT NULL
           ORDER BY o.seq DESC LIMIT 1),
          (SELECT (o.data->>'chargedPaise')::bigint FROM entries o
           WHERE o.terminal = i.terminal AND o.type = 'sale.settled' AND o.data->>'kind' = 'coupon' AND o.data->>'id' = i.data->>'attemptId'
             AND o.data->>'chargedPaise' IS NOT NULL
           ORDER BY o.seq DESC LIMIT 1),
          (i.data->>'expectedRatePaise')::bigint * (i.data->>'qty')::bigint) AS paise
      ) charged
      WHERE i.type = 'pan.coupon.intent';

      -- What each sale earned, as the counter's day summary says it: SUCCESS earns its margin (0 where none was
      -- recorded, counted apart) and its service charge; FAILED earns 0; a sale still unresolved NULL.
      CREATE OR REPLACE VIEW sale_margins AS
      SELECT terminal, 'recharge' AS kind, order_id AS sale_id, business_day, state, amount_paise,
             CASE state WHEN 'SUCCESS' THEN COALESCE((data->'margin'->>'marginPaise')::bigint, 0)
               + COALESCE((data->>'collectedPaise')::bigint, amount_paise) - amount_paise WHEN 'FAILED' THEN 0 END AS earned_paise,
             (data->'margin'->>'marginPaise')::bigint AS margin_paise,
             COALESCE((data->>'collectedPaise')::bigint, amount_paise) - amount_paise AS service_paise
      FROM recharge_sale_lines WHERE NOT training
      UNION ALL
      SELECT terminal, 'coupon', attempt_id, business_day, state, amount_paise,
             CASE state WHEN 'SUCCESS' THEN COALESCE(margin_paise, 0) + collected_paise - amount_paise WHEN 'FAILED' THEN 0 END,
             margin_paise, collected_paise - amount_paise
      FROM coupon_sales WHERE NOT training;

      CREATE OR REPLACE VIEW margins_by_day AS
      SELECT business_day, terminal, kind,
             COALESCE(sum(earned_paise), 0) AS earned_paise,
             count(*) FILTER (WHERE state = 'SUCCESS' AND margin_paise IS NULL) AS margin_unknown
      FROM sale_margins
      GROUP BY business_day, terminal, kind;
    `,
  },
  {
    // Decision: version 7, not the next free number: version 6 is another change's (the PAN balance), and this one
    // neither needs it nor touches what it changes, so either may reach an office first.
    version: 7,
    name: 'forks: two journals claiming one terminal, and a terminal registered anew',
    sql: `
      -- A terminal registered anew after a fork (counter/office.ts registerAnew) shares its first entries with the
      -- terminal it was: up to parent_through they are held once, under parent_terminal, and never stored twice.
      ALTER TABLE terminals ADD COLUMN parent_terminal text REFERENCES terminals (terminal), ADD COLUMN parent_through bigint NOT NULL DEFAULT 0;

      -- The hash the office holds at (terminal, seq): the terminal's own entry, or a parent's for what it shares.
      CREATE FUNCTION held_hash(of_terminal text, at_seq bigint) RETURNS text LANGUAGE sql STABLE AS $fn$
        WITH RECURSIVE holder (terminal) AS (
          SELECT of_terminal
          UNION ALL
          SELECT t.parent_terminal FROM holder h JOIN terminals t ON t.terminal = h.terminal
          WHERE t.parent_terminal IS NOT NULL AND at_seq <= t.parent_through
        )
        SELECT e.hash FROM holder h JOIN entries e ON e.terminal = h.terminal AND e.seq = at_seq LIMIT 1
      $fn$;

      -- A journal the office refused under a terminal id whose entries it already holds from another journal (a
      -- copied data folder): one row per claimant, where the two part. office_hash is what the office holds at
      -- part_seq; claimant_hash the refused journal's entry there (NULL: it ends before, every entry it has is held).
      -- Until resolved_as names the terminal the claimant was registered anew as, its entries from part_seq wait on it.
      CREATE TABLE terminal_forks (
        terminal text NOT NULL REFERENCES terminals (terminal),
        part_seq bigint NOT NULL CHECK (part_seq > 0),
        office_hash text NOT NULL,
        claimant_hash text,
        claimant_shop text,
        claimant_counter text,
        claimant_journal_end bigint,
        first_seen timestamptz NOT NULL DEFAULT now(),
        last_seen timestamptz NOT NULL DEFAULT now(),
        resolved_as text REFERENCES terminals (terminal),
        resolved_at timestamptz
      );
      CREATE UNIQUE INDEX terminal_forks_claimant ON terminal_forks (terminal, part_seq, (COALESCE(claimant_hash, '')));
    `,
  },
  {
    version: 8,
    name: 'the text each entry was hashed over, and the roles the counters and the page use',
    sql: `
      -- Decision: the office keeps each line's hashed text (segments.ts hashedBody) as it came, so the tamper check
      -- (chain-check.ts) can recompute every hash and find a row changed after it arrived: data cannot (jsonb orders
      -- keys its own way) nor can at (timestamptz forgets how the time was written). json, not text: PostgreSQL keeps
      -- a json value's text exactly, and refuses one that is not JSON, so the check reads it without failing.
      ALTER TABLE entries ADD COLUMN body json;
      -- Every row from now on carries its text: a Counter older than this migration is refused until it is upgraded.
      -- NOT VALID spares the rows received before, which have none: the check follows their links (a deleted one is
      -- found) but cannot recompute their hashes. It still holds any UPDATE to giving the row a text, which the check hashes.
      ALTER TABLE entries ADD CONSTRAINT entries_body_kept CHECK (body IS NOT NULL) NOT VALID;
      -- The roles, where the user migrating may make them; else npm run office -- roles prints the statements for an administrator.
      DO $roles$ BEGIN
        IF (SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user) THEN ${CREATE_ROLES} END IF;
      END $roles$;
    `,
    // Decision: the writer may only add to the books. It reads everything (a counter's day close reads the shop's facts,
    // shop-facts.ts; shipping reads what the office holds, ingest.ts and forks.ts), INSERTs entries, terminals and
    // forks, and UPDATEs only the bookkeeping columns shipping writes: a terminal's names, contact, reported journal
    // end and acknowledged chain end (ingest.ts registerTerminal, touchTerminal, ingestBatch) and a fork's sightings and
    // resolution (forks.ts recordFork, ingestBatch). Column grants, not a SECURITY DEFINER function doing those
    // updates: the books are the entries, which it can neither change nor delete either way, and the chain is unkeyed,
    // so a function could not tell a counter's lines from well-made ones its login wrote (README, Head office). The
    // reader may only read. Both read what later migrations make without a grant of their own (default privileges).
    grants: `
      EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO ${OFFICE_ROLES.writer}, ${OFFICE_ROLES.reader}', current_schema());
      EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO ${OFFICE_ROLES.writer}, ${OFFICE_ROLES.reader}', current_schema());
      GRANT INSERT ON entries, terminals, terminal_forks TO ${OFFICE_ROLES.writer};
      GRANT UPDATE (shop, counter, last_contact, journal_end, journal_end_at, last_seq, last_hash, first_hash) ON terminals TO ${OFFICE_ROLES.writer};
      GRANT UPDATE (last_seen, claimant_shop, claimant_counter, claimant_journal_end, resolved_as, resolved_at) ON terminal_forks TO ${OFFICE_ROLES.writer};
    `,
  },
  ROLLUPS_MIGRATION,
  ARCHIVES_MIGRATION,
]

/** Serialises two terminals migrating one new office at once (any fixed number both agree on). */
const MIGRATION_LOCK = 0x0ff1ce

/** The versions this office has applied; none before the first migration. */
async function appliedVersions(client: ClientBase): Promise<Set<number>> {
  const known = (await client.query<{ known: boolean }>("SELECT to_regclass('office_schema') IS NOT NULL AS known")).rows[0].known
  return new Set(known ? (await client.query<{ version: number }>('SELECT version FROM office_schema')).rows.map((row) => row.version) : [])
}

/** Both roles exist (in the cluster: roles are not a database's own). */
async function rolesExist(client: ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ANY ($1)', [Object.values(OFFICE_ROLES)])
  return rows[0].n === Object.values(OFFICE_ROLES).length
}

const runGrants = (client: ClientBase, grants: string) => client.query(`DO $grants$ BEGIN ${grants} END $grants$`)

/**
 * Decision: an office already up to date is only read, never written: a counter logs in as a member of the writer role,
 * which may create nothing (not even CREATE TABLE IF NOT EXISTS, which checks the right to create first). An office a
 * newer Counter would migrate waits for its owner (npm run office -- roles), and the counter says so.
 */
export async function migrateOffice(client: ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    const done = await appliedVersions(client)
    const pending = OFFICE_MIGRATIONS.filter((migration) => !done.has(migration.version))
    if (pending.length === 0) return
    await client.query('CREATE TABLE IF NOT EXISTS office_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    for (const migration of pending) {
      await client.query('BEGIN')
      try {
        await client.query(migration.sql)
        if (migration.grants && (await rolesExist(client))) await runGrants(client, migration.grants)
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

/** What an administrator runs once where the office's owner may not make roles (npm run office -- roles prints it). */
export const CREATE_ROLES_SQL = Object.values(OFFICE_ROLES).map((role) => `CREATE ROLE ${role} NOLOGIN;`).join('\n')

/**
 * `npm run office -- roles`, as the office's owner: migrates, makes the roles where it may, and grants them what every
 * migration gives them (idempotent: run again after an upgrade, or after an administrator made the roles). False when
 * the roles are missing and this login may not make them: CREATE_ROLES_SQL is then for an administrator.
 */
export async function setUpOfficeRoles(client: ClientBase): Promise<boolean> {
  await migrateOffice(client)
  const mayCreate = (await client.query<{ may: boolean }>('SELECT rolsuper OR rolcreaterole AS may FROM pg_roles WHERE rolname = current_user')).rows[0].may
  if (mayCreate) await client.query(`DO $roles$ BEGIN ${CREATE_ROLES} END $roles$`)
  if (!(await rolesExist(client))) return false
  await client.query('BEGIN')
  try {
    for (const migration of OFFICE_MIGRATIONS) if (migration.grants) await runGrants(client, migration.grants)
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
  return true
}
