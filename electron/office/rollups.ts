// Office migration 9: the page's figures kept by business day as entries arrive (roll-ups), so the page reads what a day or range holds and never recomputes history.

/**
 * Decision: the roll-ups are kept by triggers on `entries`, not by SQL in ingest.ts: every way a line reaches the
 * table (a counter's batch, a bench's bulk load, an owner's repair) keeps them, and the rules live in one place.
 * A statement-level trigger sees a batch as one set (its transition table), so a batch of 500 lines is a handful of
 * set-based statements, not 500 calls. Its functions are SECURITY DEFINER: the counters' role writes them only
 * through its entries, never directly (migration 8: the writer may only add to the books).
 *
 * How a sale counts once, in its final state: `office_sales` holds one row per sale (terminal, kind, id), built from
 * its lines as the views read them: the intent's fields, and for each later fact (state, a coupon's answered amount,
 * its charge settled by phone) the value of the latest line with that fact and that line's seq. A line only replaces
 * a value whose seq is lower, so the row is the same whatever order its lines arrive in. The per-day tables are sums
 * of those rows' contributions: before a batch changes a sale's row its old contribution is taken off its day, after,
 * its new one put on. A line sent twice is not inserted twice (ingest's ON CONFLICT DO NOTHING), and a transition
 * table holds only the rows inserted, so it adds nothing; a refused batch rolls back with everything it did.
 */

/** The lines a set of entries (`src`, a relation) tells about sales beyond their intents: their states, a coupon's answered and phone-settled amounts. */
const saleFacts = (src: string) => `
  SELECT terminal, 'recharge' AS kind, COALESCE(data->>'orderId', data->>'attemptId', data->>'id') AS sale_id, 'state' AS fact, seq,
         COALESCE(data->>'outcome', 'SENDING') AS state, NULL::bigint AS paise
  FROM ${src} WHERE type = 'recharge.outcome' OR (type = 'sale.settled' AND data->>'kind' = 'recharge')
  UNION ALL
  SELECT terminal, 'coupon', data->>'attemptId', 'state', seq, COALESCE(data->>'outcome', 'SENDING'), NULL FROM ${src} WHERE type = 'pan.coupon.outcome'
  UNION ALL
  SELECT terminal, 'coupon', COALESCE(data->>'orderId', data->>'attemptId', data->>'id'), 'state', seq, COALESCE(data->>'outcome', 'SENDING'), NULL
  FROM ${src} WHERE type = 'sale.settled' AND data->>'kind' = 'coupon'
  UNION ALL
  SELECT terminal, 'coupon', data->>'attemptId', 'answer', seq, NULL, (data->>'amountPaise')::bigint
  FROM ${src} WHERE type = 'pan.coupon.outcome' AND data->>'amountPaise' IS NOT NULL
  UNION ALL
  SELECT terminal, 'coupon', data->>'id', 'charged', seq, NULL, (data->>'chargedPaise')::bigint
  FROM ${src} WHERE type = 'sale.settled' AND data->>'kind' = 'coupon' AND data->>'chargedPaise' IS NOT NULL`

/**
 * A sale's intent: what it sold, on which day, and how it was paid. Decision: a second intent under one id (the
 * ledger writes none) replaces the first, where the views would count the sale twice. The casts are the views': the
 * ledger checks an event's fields before it writes its line (events.ts), so they hold; were one not to, its batch
 * would fail and its counter say so, where the page would otherwise have failed on every load.
 */
const intents = (src: string) => `
  SELECT terminal, CASE type WHEN 'recharge.intent' THEN 'recharge' ELSE 'coupon' END AS kind,
         CASE type WHEN 'recharge.intent' THEN data->>'orderId' ELSE data->>'attemptId' END AS sale_id,
         seq, at, (data->>'businessDay')::date AS business_day,
         CASE type WHEN 'recharge.intent' THEN data->>'operatorName' END AS operator,
         CASE type WHEN 'pan.coupon.intent' THEN (data->>'type')::int END AS coupon_type,
         CASE type WHEN 'pan.coupon.intent' THEN (data->>'qty')::bigint END AS qty,
         COALESCE((data->>'training')::boolean, false) AS training,
         CASE type WHEN 'recharge.intent' THEN (data->>'amountPaise')::bigint ELSE (data->>'expectedRatePaise')::bigint * (data->>'qty')::bigint END AS intent_paise,
         (data->>'collectedPaise')::bigint AS collected_paise, (data->'margin'->>'marginPaise')::bigint AS margin_paise,
         data->>'paymentMode' AS payment_mode, data->'creditCustomer'->>'number' AS credit_number
  FROM ${src} WHERE type IN ('recharge.intent', 'pan.coupon.intent')`

/**
 * The sales a batch touches, once, into the trigger's arrays. Decision: arrays, not the subquery in each statement,
 * so each statement finds those sales by office_sales' key (a nested loop of index lookups): a semi-join the planner
 * may hash would read all of office_sales, a cost that grows with history.
 */
const TOUCHED = `
      SELECT COALESCE(array_agg(terminal), '{}'), COALESCE(array_agg(kind), '{}'), COALESCE(array_agg(sale_id), '{}') INTO touched_terminals, touched_kinds, touched_ids
      FROM (SELECT terminal, kind, sale_id FROM (${saleFacts('new_entries')}) f UNION SELECT terminal, kind, sale_id FROM (${intents('new_entries')}) i) touched WHERE sale_id IS NOT NULL;`
const TOUCHED_SALES = '(s.terminal, s.kind, s.sale_id) IN (SELECT * FROM unnest(touched_terminals, touched_kinds, touched_ids))'

/** Folds a set of entries' sale lines into `into` (`office_sales`, or an archive's own, years.ts); each value kept only from a later line than the one it holds. */
export const foldSales = (src: string, into = 'office_sales') => `
  INSERT INTO ${into} AS s (terminal, kind, sale_id, intent_seq, intent_at, business_day, operator, coupon_type, qty, training, intent_paise, collected_paise, margin_paise, payment_mode, credit_number)
  SELECT DISTINCT ON (terminal, kind, sale_id) terminal, kind, sale_id, seq, at, business_day, operator, coupon_type, qty, training, intent_paise, collected_paise, margin_paise, payment_mode, credit_number
  FROM (${intents(src)}) i WHERE sale_id IS NOT NULL ORDER BY terminal, kind, sale_id, seq DESC
  ON CONFLICT (terminal, kind, sale_id) DO UPDATE SET intent_seq = EXCLUDED.intent_seq, intent_at = EXCLUDED.intent_at, business_day = EXCLUDED.business_day,
    operator = EXCLUDED.operator, coupon_type = EXCLUDED.coupon_type, qty = EXCLUDED.qty, training = EXCLUDED.training, intent_paise = EXCLUDED.intent_paise,
    collected_paise = EXCLUDED.collected_paise, margin_paise = EXCLUDED.margin_paise, payment_mode = EXCLUDED.payment_mode, credit_number = EXCLUDED.credit_number
  WHERE s.intent_seq IS NULL OR s.intent_seq < EXCLUDED.intent_seq;
  ${(['state', 'answer', 'charged'] as const)
    .map((fact) => {
      const [value, at] = fact === 'state' ? ['state', 'state_seq'] : [`${fact}_paise`, `${fact}_seq`]
      return `
  INSERT INTO ${into} AS s (terminal, kind, sale_id, ${value}, ${at})
  SELECT DISTINCT ON (terminal, kind, sale_id) terminal, kind, sale_id, ${fact === 'state' ? 'state' : 'paise'}, seq
  FROM (${saleFacts(src)}) f WHERE fact = '${fact}' AND sale_id IS NOT NULL ORDER BY terminal, kind, sale_id, seq DESC
  ON CONFLICT (terminal, kind, sale_id) DO UPDATE SET ${value} = EXCLUDED.${value}, ${at} = EXCLUDED.${at}
  WHERE s.${at} IS NULL OR s.${at} < EXCLUDED.${at};`
    })
    .join('')}`

/** Adds (`sign` 1) or takes off (-1) the contributions of the sales `where` picks to their days and their customers' dues. */
export const contribute = (sign: 1 | -1, where: string) => {
  const figures = (kind: string) => `FROM office_sale_figures s WHERE s.kind = '${kind}' AND s.intent_seq IS NOT NULL AND NOT s.training AND ${where}`
  const day = (extra: string[]) =>
    [
      `${sign} * count(*)`,
      `${sign} * count(*) FILTER (WHERE state = 'SUCCESS')`,
      ...extra,
      `${sign} * COALESCE(sum(amount_paise) FILTER (WHERE state = 'SUCCESS'), 0)`,
      `${sign} * count(*) FILTER (WHERE state NOT IN ('SUCCESS', 'FAILED'))`,
      `${sign} * COALESCE(sum(earned_paise), 0)`,
      `${sign} * count(*) FILTER (WHERE state = 'SUCCESS' AND margin_paise IS NULL)`,
    ].join(', ')
  const adding = (columns: string[]) => columns.map((column) => `${column} = d.${column} + EXCLUDED.${column}`).join(', ')
  const sums = ['sales_n', 'sales', 'amount_paise', 'unresolved', 'earned_paise', 'margin_unknown']
  return `
  INSERT INTO office_recharge_days AS d (business_day, terminal, operator, sales_n, sales, amount_paise, unresolved, earned_paise, margin_unknown)
  SELECT business_day, terminal, COALESCE(operator, ''), ${day([])} ${figures('recharge')} AND s.business_day IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (business_day, terminal, operator) DO UPDATE SET ${adding(sums)};
  INSERT INTO office_coupon_days AS d (business_day, terminal, coupon_type, sales_n, sales, coupons, amount_paise, unresolved, earned_paise, margin_unknown)
  SELECT business_day, terminal, COALESCE(coupon_type, 0), ${day([`${sign} * COALESCE(sum(qty) FILTER (WHERE state = 'SUCCESS'), 0)`])} ${figures('coupon')} AND s.business_day IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (business_day, terminal, coupon_type) DO UPDATE SET ${adding([...sums, 'coupons'])};
  INSERT INTO office_dues AS d (terminal, number, sold_paise, lines)
  SELECT terminal, credit_number, ${sign} * COALESCE(sum(collected) FILTER (WHERE state = 'SUCCESS'), 0), ${sign} * count(*)
  ${figures('recharge')} AND s.payment_mode = 'credit' AND s.credit_number IS NOT NULL GROUP BY 1, 2
  ON CONFLICT (terminal, number) DO UPDATE SET ${adding(['sold_paise', 'lines'])};`
}

/** What a set of entries adds that is not a sale (credit payments, the names of credit customers, day closes) to `dues` and `closes`. */
export const foldBooks = (src: string, dues = 'office_dues', closes = 'office_day_closes') => `
  INSERT INTO ${dues} AS d (terminal, number, paid_paise, lines)
  SELECT terminal, data->>'number', COALESCE(sum((data->>'amountPaise')::bigint), 0), count(*)
  FROM ${src} WHERE type = 'credit.payment' AND data->>'number' IS NOT NULL GROUP BY 1, 2
  ON CONFLICT (terminal, number) DO UPDATE SET paid_paise = d.paid_paise + EXCLUDED.paid_paise, lines = d.lines + EXCLUDED.lines;
  INSERT INTO ${dues} AS d (terminal, number, name, name_seq)
  SELECT DISTINCT ON (terminal, number) terminal, number, name, seq FROM (
    SELECT terminal, CASE type WHEN 'recharge.intent' THEN data->'creditCustomer'->>'number' ELSE data->>'number' END AS number,
           COALESCE(data->'creditCustomer'->>'name', data->>'name') AS name, seq
    FROM ${src} WHERE type IN ('credit.limit', 'customer.named', 'recharge.intent')
  ) n WHERE number IS NOT NULL ORDER BY terminal, number, seq DESC
  ON CONFLICT (terminal, number) DO UPDATE SET name = EXCLUDED.name, name_seq = EXCLUDED.name_seq WHERE d.name_seq IS NULL OR d.name_seq < EXCLUDED.name_seq;
  INSERT INTO ${closes} (terminal, seq, business_day, closed_at, opening_float_paise, counted_paise, expected_cash_paise, closing_pan_balance_paise, override_note)
  SELECT terminal, seq, (data->>'businessDay')::date, at, (data->>'openingFloatPaise')::bigint, (data->>'countedPaise')::bigint,
         (data->>'expectedCashPaise')::bigint, (data->>'closingPanBalancePaise')::bigint, data->>'overrideNote'
  FROM ${src} WHERE type = 'day.closed'
  ON CONFLICT (terminal, seq) DO NOTHING;`

export const DEFINER = 'LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT'

/**
 * The trigger function folding a batch in: the touched sales' old contributions off, their rows folded on, their new
 * contributions on. `restoreTouched` runs first, with the touched sales known (archives.ts brings back an archived
 * sale's row there). `create`: migration 9 creates it, a later one replaces it.
 */
export const rollupInsertFunction = (create: 'CREATE' | 'CREATE OR REPLACE', restoreTouched = '') => `${create} FUNCTION office_rollup_insert() RETURNS trigger ${DEFINER} AS $fn$
    DECLARE touched_terminals text[]; touched_kinds text[]; touched_ids text[];
    BEGIN
      ${TOUCHED}${restoreTouched}
      ${contribute(-1, TOUCHED_SALES)}
      ${foldSales('new_entries')}
      ${contribute(1, TOUCHED_SALES)}
      ${foldBooks('new_entries')}
      RETURN NULL;
    END $fn$;`

/** The roll-up tables, each figure's own. */
export const ROLLUP_TABLES = ['office_sales', 'office_recharge_days', 'office_coupon_days', 'office_dues', 'office_day_closes']


/** The lines the shop's PAN balance chain is made of (shop-facts.ts), indexed by kind, terminal and time. */
export const BALANCE_FACT_TYPES = ['pan.balance.read', 'pan.coupon.outcome', 'pan.coupon.intent', 'pan.topup'] as const
const BALANCE_FACT_SQL = `(${BALANCE_FACT_TYPES.map((type) => `'${type}'`).join(', ')})`

/** Typed where migrations.ts lists it (OFFICE_MIGRATIONS), which imports this file: this one imports nothing back. */
export const ROLLUPS_MIGRATION = {
  // Decision: version 9, after the last shipped (8); the roll-ups read only what migrations 1 to 8 made.
  version: 9,
  name: 'roll-ups by business day, kept as entries arrive',
  sql: `
    -- One row per sale as its lines stand (see rollups.ts): its intent's fields, and each later fact with the seq of the line that said it.
    CREATE TABLE office_sales (
      terminal text NOT NULL, kind text NOT NULL, sale_id text NOT NULL,
      intent_seq bigint, intent_at timestamptz, business_day date, operator text, coupon_type int, qty bigint,
      training boolean NOT NULL DEFAULT false, intent_paise bigint, collected_paise bigint, margin_paise bigint, payment_mode text, credit_number text,
      state text NOT NULL DEFAULT 'SENDING', state_seq bigint,
      answer_paise bigint, answer_seq bigint,
      charged_paise bigint, charged_seq bigint,
      PRIMARY KEY (terminal, kind, sale_id)
    );
    -- The shop's balance chain takes a coupon known only by its charge at its intent's time (shop-facts.ts).
    CREATE INDEX office_sales_coupons_by_time ON office_sales (terminal, intent_at) WHERE kind = 'coupon';

    -- A sale's figures as the views of migrations 4 and 5 count them: a coupon's amount is what the provider charged
    -- (its latest answer's amount, else the charge settled by phone, else rate x qty); collected what was typed, else
    -- the amount; earned its margin and service charge when SUCCESS, 0 when FAILED, NULL while unresolved.
    CREATE VIEW office_sale_figures AS
    SELECT s.*, a.amount_paise, COALESCE(s.collected_paise, a.amount_paise) AS collected,
           CASE s.state WHEN 'SUCCESS' THEN COALESCE(s.margin_paise, 0) + COALESCE(s.collected_paise, a.amount_paise) - a.amount_paise WHEN 'FAILED' THEN 0 END AS earned_paise
    FROM office_sales s
    CROSS JOIN LATERAL (SELECT CASE s.kind WHEN 'coupon' THEN COALESCE(s.answer_paise, s.charged_paise, s.intent_paise) ELSE s.intent_paise END AS amount_paise) a;

    -- Per business day, terminal and operator (coupon type): sales_n counts every sale (any state) so a day with only a
    -- FAILED sale still has its row, as the views have it. Decision: keys are NOT NULL ('' for no operator, 0 for no
    -- coupon type) rather than NULLS NOT DISTINCT, which PostgreSQL before 15 lacks; the page reads '' back as NULL.
    CREATE TABLE office_recharge_days (
      business_day date NOT NULL, terminal text NOT NULL, operator text NOT NULL,
      sales_n bigint NOT NULL DEFAULT 0, sales bigint NOT NULL DEFAULT 0, amount_paise bigint NOT NULL DEFAULT 0, unresolved bigint NOT NULL DEFAULT 0,
      earned_paise bigint NOT NULL DEFAULT 0, margin_unknown bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (business_day, terminal, operator)
    );
    CREATE TABLE office_coupon_days (
      business_day date NOT NULL, terminal text NOT NULL, coupon_type int NOT NULL,
      sales_n bigint NOT NULL DEFAULT 0, sales bigint NOT NULL DEFAULT 0, coupons bigint NOT NULL DEFAULT 0, amount_paise bigint NOT NULL DEFAULT 0,
      unresolved bigint NOT NULL DEFAULT 0, earned_paise bigint NOT NULL DEFAULT 0, margin_unknown bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (business_day, terminal, coupon_type)
    );
    -- What each credit customer owes at each terminal, as credit_dues (lines: its credit sales and payments; a row
    -- with none only names the customer). Decision: a line with no customer number is left out (the view made one
    -- row of them all, with no number to show).
    CREATE TABLE office_dues (
      terminal text NOT NULL, number text NOT NULL,
      sold_paise bigint NOT NULL DEFAULT 0, paid_paise bigint NOT NULL DEFAULT 0, lines bigint NOT NULL DEFAULT 0,
      name text, name_seq bigint,
      PRIMARY KEY (terminal, number)
    );
    CREATE TABLE office_day_closes (
      terminal text NOT NULL, seq bigint NOT NULL, business_day date, closed_at timestamptz NOT NULL,
      opening_float_paise bigint, counted_paise bigint, expected_cash_paise bigint, closing_pan_balance_paise bigint, override_note text,
      PRIMARY KEY (terminal, seq)
    );
    CREATE INDEX office_day_closes_by_day ON office_day_closes (business_day);

    -- Decision: the PAN balance chain reads a shop's facts by time through this index, not a copy of them: they are
    -- single lines (a read, an answer, a top-up), and a day's window is one range of it per kind and terminal.
    -- Kind first: entries_by_type (type, terminal) would otherwise look as good, and read every answer ever given.
    CREATE INDEX entries_balance_facts ON entries (type, terminal, at) WHERE type IN ${BALANCE_FACT_SQL};

    -- A batch of lines: the touched sales' old contributions off, their rows folded on, their new contributions on.
    ${rollupInsertFunction('CREATE')}

    -- The roll-ups of \`which\` terminals made again from their entries: the migration's backfill, and after a line is
    -- changed or deleted at the office (only its owner can: the tamper check's case), so the page shows what the books
    -- hold, changes included, as the views did. Decision: slow for a long history, but it never runs in shipping.
    CREATE FUNCTION office_rollup_rebuild(which text[]) RETURNS void ${DEFINER} AS $fn$
    BEGIN
      ${ROLLUP_TABLES.map((table) => `DELETE FROM ${table} WHERE terminal = ANY (which);`).join('\n      ')}
      ${foldSales('(SELECT * FROM entries WHERE terminal = ANY (which)) e')}
      ${contribute(1, 's.terminal = ANY (which)')}
      ${foldBooks('(SELECT * FROM entries WHERE terminal = ANY (which)) e')}
    END $fn$;
    -- Only the owner (and the triggers, which run as the owner) rebuilds: neither role may spend the office's time on it.
    REVOKE EXECUTE ON FUNCTION office_rollup_rebuild(text[]) FROM PUBLIC;

    CREATE FUNCTION office_rollup_changed() RETURNS trigger ${DEFINER} AS $fn$
    BEGIN
      PERFORM office_rollup_rebuild(ARRAY (SELECT DISTINCT terminal FROM old_entries));
      RETURN NULL;
    END $fn$;

    CREATE TRIGGER office_rollup_insert AFTER INSERT ON entries REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION office_rollup_insert();
    CREATE TRIGGER office_rollup_update AFTER UPDATE ON entries REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION office_rollup_changed();
    CREATE TRIGGER office_rollup_delete AFTER DELETE ON entries REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION office_rollup_changed();

    -- The backfill: every terminal's roll-ups from the entries held.
    SELECT office_rollup_rebuild(ARRAY (SELECT terminal FROM terminals));
  `,
}
