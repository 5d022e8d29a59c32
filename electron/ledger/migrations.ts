// The ledger database's schema: versioned, additive migrations, and the version they keep in the meta table (meta.ts).
import type { Database } from 'sql.js'
import { readMeta, writeMeta } from './meta'

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
  {
    version: 3,
    name: 'collected money, settlements, the re-check queue, top-ups, day closes and archive counts',
    // Rows written before: collected what the sale cost, in cash. Resets and balance readings had no
    // business day: the Indian date (UTC+05:30) of their time. archive_counts lets history count the
    // archived years without opening them; archive_bytes tells whether the file is still the one counted.
    sql: `
      ALTER TABLE sales ADD COLUMN collected_paise INTEGER;
      UPDATE sales SET collected_paise = amount_paise;
      ALTER TABLE sales ADD COLUMN payment_mode TEXT NOT NULL DEFAULT 'cash';
      ALTER TABLE sales ADD COLUMN settled_note TEXT;
      ALTER TABLE sales ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sales ADD COLUMN last_answer TEXT;
      ALTER TABLE sales ADD COLUMN next_check_at TEXT;
      CREATE INDEX sales_by_created ON sales (created_at, order_id);
      CREATE INDEX sales_by_state ON sales (state, created_at);

      ALTER TABLE coupon_sales ADD COLUMN collected_paise INTEGER;
      ALTER TABLE coupon_sales ADD COLUMN collected_default INTEGER NOT NULL DEFAULT 1;
      UPDATE coupon_sales SET collected_paise = COALESCE(amount_paise, expected_rate_paise * qty);
      ALTER TABLE coupon_sales ADD COLUMN payment_mode TEXT NOT NULL DEFAULT 'cash';
      ALTER TABLE coupon_sales ADD COLUMN settled_note TEXT;
      ALTER TABLE coupon_sales ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE coupon_sales ADD COLUMN last_answer TEXT;
      ALTER TABLE coupon_sales ADD COLUMN next_check_at TEXT;
      CREATE INDEX coupon_sales_by_created_id ON coupon_sales (created_at, attempt_id);

      ALTER TABLE password_resets ADD COLUMN business_day TEXT;
      UPDATE password_resets SET business_day = date(created_at, '+330 minutes');
      ALTER TABLE balance_checkpoints ADD COLUMN business_day TEXT;
      UPDATE balance_checkpoints SET business_day = date(at, '+330 minutes');
      CREATE INDEX balance_checkpoints_by_day ON balance_checkpoints (business_day);

      CREATE TABLE topups (
        topup_id TEXT PRIMARY KEY,
        amount_paise INTEGER NOT NULL,
        reference TEXT NOT NULL,
        note TEXT NOT NULL,
        business_day TEXT NOT NULL,
        at TEXT NOT NULL,
        seq INTEGER NOT NULL
      );
      CREATE INDEX topups_by_day ON topups (business_day, seq);
      CREATE TABLE day_closes (
        business_day TEXT PRIMARY KEY,
        closed_at TEXT NOT NULL,
        seq INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE TABLE archive_counts (
        archive TEXT NOT NULL,
        archive_bytes INTEGER NOT NULL,
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        PRIMARY KEY (archive, kind, state)
      );
    `,
  },
  {
    version: 4,
    name: 'history search by number',
    // History takes a run of digits as the start of a mobile number or subscriber id.
    sql: `CREATE INDEX sales_by_number ON sales (number, created_at);`,
  },
  {
    version: 5,
    name: 'saved copies carry a check',
    // Changes no table: it marks a snapshot as written by a Counter that writes ledger.sqlite.check
    // beside it. A snapshot below this version with no check at all is an older Counter's, taken as
    // it is once at the update (ledger-open.ts); one at or past it without its check is not trusted.
    sql: `SELECT 1;`,
  },
  {
    version: 6,
    name: 'margin frozen per sale',
    // The commission each sale earns, as its intent recorded it. Rows from before stay NULL: their
    // margin is unknown (shown "—"), not ₹0, since no rate was in force to say what it was.
    sql: `
      ALTER TABLE sales ADD COLUMN margin_paise INTEGER;
      ALTER TABLE coupon_sales ADD COLUMN margin_paise INTEGER;
    `,
  },
  {
    version: 7,
    name: 'credit (udhaar): customers, credit sales and payments',
    // Decision: these tables are never archived (archive.ts ARCHIVED_TABLES): a due outlives the
    // financial year its sale was made in. A credit sale's row keeps its own copy of the sale's
    // state, so the due reads the same after the sale itself moved to an archive.
    sql: `
      CREATE TABLE credit_customers (
        number TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        limit_paise INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE credit_entries (
        entry_id TEXT PRIMARY KEY,
        number TEXT NOT NULL,
        kind TEXT NOT NULL,
        amount_paise INTEGER NOT NULL,
        state TEXT,
        reversed_at TEXT,
        mode TEXT,
        note TEXT NOT NULL,
        business_day TEXT NOT NULL,
        at TEXT NOT NULL,
        seq INTEGER NOT NULL
      );
      CREATE INDEX credit_entries_by_number ON credit_entries (number, seq);
      CREATE INDEX credit_entries_by_day ON credit_entries (business_day, kind);
    `,
  },
  {
    version: 8,
    name: 'who sold each sale',
    // The role at the counter when the sale's intent was written (events.ts WrittenBy); sales made
    // before roles existed were the owner's, who ran everything then.
    sql: `
      ALTER TABLE sales ADD COLUMN sold_by TEXT NOT NULL DEFAULT 'owner';
      ALTER TABLE coupon_sales ADD COLUMN sold_by TEXT NOT NULL DEFAULT 'owner';
    `,
  },
  {
    version: 9,
    name: 'customers',
    // A customer is a number sold to: its optional name (customer.named / customer.forgotten lines)
    // and its last recharge, for suggestions and repeat. A suggestion walks its prefix's range of
    // customers_by_number_time, which covers the sort by time too (no row is read until the 8 are chosen). Filled here from the sales the active database holds; a number sold to only
    // in archived years is remembered again at its next sale.
    sql: `
      CREATE TABLE customers (
        number TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT,
        last_operator_code TEXT NOT NULL,
        last_operator_name TEXT NOT NULL,
        last_circle TEXT,
        last_amount_paise INTEGER NOT NULL,
        last_at TEXT NOT NULL,
        sales INTEGER NOT NULL
      );
      CREATE INDEX customers_by_number_time ON customers (number, last_at);
      INSERT INTO customers (number, kind, name, last_operator_code, last_operator_name, last_circle, last_amount_paise, last_at, sales)
        SELECT number, kind, NULL, operator_code, operator_name, circle, amount_paise, created_at, sales FROM (
          SELECT *, row_number() OVER (PARTITION BY number ORDER BY created_at DESC, rowid DESC) AS newest,
            count(*) OVER (PARTITION BY number) AS sales
          FROM sales
        ) WHERE newest = 1;
    `,
  },
  {
    version: 10,
    name: 'one name per customer',
    // A customer's name is one thing, whether the shop named a regular or took it with a credit sale:
    // customer_names, by number. The names move here from customers.name and credit_customers.name,
    // which are no longer read or written (left empty: a shipped table is not rebuilt). Decision: where
    // both named a number, the regular's name wins, as the shop typed it to name that customer; the
    // journal cannot be asked which came last here, and a later name of either kind replaces it.
    sql: `
      CREATE TABLE customer_names (number TEXT PRIMARY KEY, name TEXT NOT NULL);
      INSERT INTO customer_names (number, name) SELECT number, name FROM credit_customers;
      INSERT INTO customer_names (number, name) SELECT number, name FROM customers WHERE name IS NOT NULL
        ON CONFLICT (number) DO UPDATE SET name = excluded.name;
      UPDATE customers SET name = NULL;
      UPDATE credit_customers SET name = '';
    `,
  },
  {
    version: 11,
    name: "coupon charges without an answer's balances",
    // Where each coupon order's intent sits in the journal: a coupon known SUCCESS with its charge but no
    // coupon_req balances (settled by phone, or named by a status check) is a charge at that place in the
    // PAN balance chain (books-reads.ts balanceFactsBetween), as the provider took the money when the order
    // was sent. Orders recorded before this are left out of the chain, as they were.
    sql: `
      ALTER TABLE coupon_sales ADD COLUMN intent_seq INTEGER;
      CREATE INDEX coupon_sales_charged_by_intent ON coupon_sales (intent_seq) WHERE new_bal_seq IS NULL AND intent_seq IS NOT NULL;
    `,
  },
  {
    version: 12,
    name: 'who took each credit payment',
    // The role at the counter when a credit entry's line was written (events.ts WrittenBy): the day close
    // lists the payments staff took apart, for the owner. Decision: entries already in a snapshot read as
    // the owner's, as lines without `by` do; the snapshot never kept the role, and the counter is not
    // stopped at the update to read the whole journal again for it. Books rebuilt from the journal (a
    // snapshot not trusted, or none) get every entry's real role from its line.
    sql: `ALTER TABLE credit_entries ADD COLUMN recorded_by TEXT NOT NULL DEFAULT 'owner';`,
  },
  {
    version: 13,
    name: 'owner PIN resets',
    // One row per owner.pin.reset line: the day's Z report lists them and the status bar shows the last one. Decision:
    // never archived with a closed year (archive.ts ARCHIVED_TABLES): a few rows a year, and the last reset must stay
    // at hand however long the shop goes without setting a PIN.
    sql: `
      CREATE TABLE pin_resets (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, business_day TEXT NOT NULL, file TEXT NOT NULL);
      CREATE INDEX pin_resets_by_day ON pin_resets (business_day, seq);
    `,
  },
  {
    version: 14,
    name: 'cash in and out of the drawer, and counts saved before the close',
    // One row per drawer.cash and drawer.counted line (issue #29): the day close's expected drawer and the Z report read
    // them by day. Decision: never archived with a closed year (archive.ts ARCHIVED_TABLES), as pin_resets: a closed
    // day's figures are kept whole in its day.closed line, and a few rows a day cost nothing to keep at hand.
    sql: `
      CREATE TABLE cash_moves (
        seq INTEGER PRIMARY KEY,
        move_id TEXT NOT NULL UNIQUE,
        at TEXT NOT NULL,
        business_day TEXT NOT NULL,
        kind TEXT NOT NULL,
        direction TEXT NOT NULL,
        amount_paise INTEGER NOT NULL,
        reason TEXT NOT NULL,
        recorded_by TEXT NOT NULL
      );
      CREATE INDEX cash_moves_by_day ON cash_moves (business_day, seq);
      CREATE TABLE drawer_counts (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        business_day TEXT NOT NULL,
        opening_float_paise INTEGER NOT NULL,
        counted TEXT NOT NULL,
        counted_paise INTEGER NOT NULL,
        recorded_by TEXT NOT NULL
      );
      CREATE INDEX drawer_counts_by_day ON drawer_counts (business_day, seq);
    `,
  },
  {
    version: 15,
    name: 'UPI payments confirmed by staff',
    // When staff pressed "UPI received" for a sale or a payment of a due (sale.upiConfirmed, issue #29 part 1); NULL
    // until then, and for every row before this version. A column of each row, so it moves to an archive with its sale.
    sql: `
      ALTER TABLE sales ADD COLUMN upi_confirmed_at TEXT;
      ALTER TABLE coupon_sales ADD COLUMN upi_confirmed_at TEXT;
      ALTER TABLE credit_entries ADD COLUMN upi_confirmed_at TEXT;
    `,
  },
]

/** From this schema version on, every snapshot is written with its check (snapshot.ts). */
export const CHECKED_SNAPSHOTS_VERSION = 5

export const LATEST_SCHEMA_VERSION = migrations[migrations.length - 1].version

const SCHEMA_VERSION_KEY = 'schema_version'

/** The schema version `db` was last migrated to (0: never). */
export function schemaVersion(db: Database): number {
  return Number(readMeta(db, SCHEMA_VERSION_KEY) ?? 0)
}

/** Brings `db` to the latest schema, each migration in its own transaction with its version number. */
export function migrate(db: Database): { from: number; to: number } {
  const from = schemaVersion(db)
  const latest = LATEST_SCHEMA_VERSION
  if (from > latest) {
    throw new Error(`This ledger was written by a newer version of Counter (schema ${from}; this version knows up to ${latest}). Update Counter to open it.`)
  }
  const due = migrations.filter((m) => m.version > from)
  if (due.length === 0) return { from, to: latest }
  // One transaction for all that are due: a failure leaves the database as it was, and SQLite reads the schema
  // anew once, not after each one's commit (a fresh ledger's migrations took 40% longer one by one).
  db.run('BEGIN')
  try {
    for (const migration of due) {
      try {
        db.exec(migration.sql)
        writeMeta(db, SCHEMA_VERSION_KEY, String(migration.version))
      } catch (error) {
        throw new Error(`Ledger migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error })
      }
    }
    db.run('COMMIT')
  } catch (error) {
    db.run('ROLLBACK')
    throw error
  }
  return { from, to: latest }
}
