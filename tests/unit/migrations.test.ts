// The schema chain: an empty database through every migration, with the version kept in meta.
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readMeta, writeMeta } from '../../electron/ledger/meta'
import { migrate, migrations } from '../../electron/ledger/migrations'

let SQL: SqlJsStatic
let db: Database
beforeAll(async () => {
  SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') })
})
beforeEach(() => {
  db = new SQL.Database()
})
afterEach(() => db.close())

/** Every index matching `where`, as name -> "table(columns)". */
function indexesOf(where: string): Record<string, string> {
  const indexes = db.exec(`SELECT tbl_name, name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND ${where} ORDER BY name`)[0].values
  return Object.fromEntries(indexes.map(([table, name]) => [name, `${table}(${db.exec(`PRAGMA index_info(${name})`)[0].values.map((row) => row[2]).join(', ')})`]))
}

const described = (table: string) => columns(table).map(({ name, type, notNull }) => `${name} ${type}${notNull ? ' NOT NULL' : ''}`)

const columns = (table: string) =>
  db.exec(`PRAGMA table_info(${table})`)[0].values.map(([, name, type, notNull, , primaryKey]) => ({ name, type, notNull, primaryKey }))

describe('migrations', () => {
  it('are numbered 1, 2, 3... in order, each with a name', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, index) => index + 1))
    for (const migration of migrations) expect(migration.name).not.toBe('')
  })

  it('build the whole schema from an empty database and record the version', () => {
    const latest = migrations.length
    expect(migrate(db)).toEqual({ from: 0, to: latest })
    expect(readMeta(db, 'schema_version')).toBe(String(latest))

    expect(columns('meta')).toEqual([
      { name: 'key', type: 'TEXT', notNull: 0, primaryKey: 1 },
      { name: 'value', type: 'TEXT', notNull: 0, primaryKey: 0 },
    ])
    expect(columns('sales').map(({ name, type }) => `${name} ${type}`)).toEqual([
      'order_id TEXT', 'kind TEXT', 'number TEXT', 'operator_code TEXT', 'operator_name TEXT', 'circle TEXT',
      'amount_paise INTEGER', 'state TEXT', 'provider_status TEXT', 'message TEXT', 'fpay_id TEXT', 'operator_ref TEXT',
      'business_day TEXT', 'created_at TEXT', 'updated_at TEXT', 'last_checked_at TEXT', 'training INTEGER',
      'collected_paise INTEGER', 'payment_mode TEXT', 'settled_note TEXT', 'checks INTEGER', 'last_answer TEXT', 'next_check_at TEXT',
      'margin_paise INTEGER', 'sold_by TEXT', 'upi_confirmed_at TEXT',
    ])
    const required = columns('sales').filter((column) => column.notNull === 1).map((column) => column.name)
    expect(required).toEqual(expect.arrayContaining(['amount_paise', 'business_day']))
    expect(columns('sales').find((column) => column.primaryKey === 1)?.name).toBe('order_id')

    expect(indexesOf("tbl_name = 'sales'")).toEqual({
      sales_by_created: 'sales(created_at, order_id)',
      sales_by_day: 'sales(business_day, created_at)',
      sales_by_number: 'sales(number, created_at)',
      sales_by_state: 'sales(state, created_at)',
    })
  })

  it('add the PAN tables in version 2 (with what version 3 adds to them), money in INTEGER paise, with an index for each read', () => {
    migrate(db)
    expect(described('agents')).toEqual([
      'vle_id TEXT', 'name TEXT NOT NULL', 'mobile TEXT NOT NULL', 'email TEXT NOT NULL', 'shop TEXT NOT NULL',
      'location TEXT NOT NULL', 'state_code TEXT NOT NULL', 'pin TEXT NOT NULL', 'uid_masked TEXT NOT NULL', 'pan TEXT NOT NULL',
      'status TEXT NOT NULL', 'message TEXT NOT NULL', 'created_at TEXT NOT NULL', 'updated_at TEXT NOT NULL', 'last_checked_at TEXT',
    ])
    expect(described('coupon_sales')).toEqual([
      'attempt_id TEXT', 'order_id TEXT', 'vle_id TEXT NOT NULL', 'vle_name TEXT', 'coupon_type INTEGER NOT NULL',
      'qty INTEGER NOT NULL', 'expected_rate_paise INTEGER NOT NULL', 'state TEXT NOT NULL', 'provider_status TEXT',
      'message TEXT NOT NULL', 'order_date TEXT', 'rate_paise INTEGER', 'amount_paise INTEGER', 'old_bal_paise INTEGER',
      'new_bal_paise INTEGER', 'new_bal_seq INTEGER', 'new_bal_at TEXT', 'problems TEXT NOT NULL', 'business_day TEXT NOT NULL',
      'created_at TEXT NOT NULL', 'updated_at TEXT NOT NULL', 'last_checked_at TEXT', 'training INTEGER NOT NULL',
      'collected_paise INTEGER', 'collected_default INTEGER NOT NULL', 'payment_mode TEXT NOT NULL', 'settled_note TEXT',
      'checks INTEGER NOT NULL', 'last_answer TEXT', 'next_check_at TEXT', 'margin_paise INTEGER', 'sold_by TEXT NOT NULL',
      'intent_seq INTEGER', 'upi_confirmed_at TEXT',
    ])
    expect(described('password_resets')).toEqual([
      'attempt_id TEXT', 'order_id TEXT', 'vle_id TEXT NOT NULL', 'vle_name TEXT', 'status TEXT NOT NULL',
      'message TEXT NOT NULL', 'created_at TEXT NOT NULL', 'updated_at TEXT NOT NULL', 'business_day TEXT',
    ])
    expect(described('balance_checkpoints')).toEqual([
      'seq INTEGER', 'at TEXT NOT NULL', 'balance_paise INTEGER NOT NULL', 'source TEXT NOT NULL', 'business_day TEXT',
    ])
    const keys = ['agents', 'coupon_sales', 'password_resets', 'balance_checkpoints'].map((table) => columns(table).find((column) => column.primaryKey === 1)?.name)
    expect(keys).toEqual(['vle_id', 'attempt_id', 'attempt_id', 'seq'])

    expect(indexesOf("tbl_name IN ('agents', 'coupon_sales', 'password_resets')")).toEqual({
      agents_by_created: 'agents(created_at)',
      coupon_sales_by_created: 'coupon_sales(created_at)',
      coupon_sales_by_created_id: 'coupon_sales(created_at, attempt_id)',
      coupon_sales_by_day: 'coupon_sales(business_day, created_at)',
      coupon_sales_by_state: 'coupon_sales(state, created_at)',
      coupon_sales_charged: 'coupon_sales(coupon_type, created_at)',
      coupon_sales_by_new_bal: 'coupon_sales(new_bal_seq)',
      coupon_sales_charged_by_intent: 'coupon_sales(intent_seq)',
      password_resets_by_agent: 'password_resets(vle_id, created_at)',
    })
  })

  it('add top-ups, day closes and archive counts in version 3, with an index for each read', () => {
    migrate(db)
    expect(described('topups')).toEqual([
      'topup_id TEXT', 'amount_paise INTEGER NOT NULL', 'reference TEXT NOT NULL', 'note TEXT NOT NULL', 'business_day TEXT NOT NULL',
      'at TEXT NOT NULL', 'seq INTEGER NOT NULL',
    ])
    expect(described('day_closes')).toEqual(['business_day TEXT', 'closed_at TEXT NOT NULL', 'seq INTEGER NOT NULL', 'data TEXT NOT NULL'])
    expect(described('archive_counts')).toEqual([
      'archive TEXT NOT NULL', 'archive_bytes INTEGER NOT NULL', 'kind TEXT NOT NULL', 'state TEXT NOT NULL', 'row_count INTEGER NOT NULL',
    ])
    expect(indexesOf("tbl_name IN ('topups', 'day_closes', 'balance_checkpoints')")).toEqual({
      balance_checkpoints_by_day: 'balance_checkpoints(business_day)',
      topups_by_day: 'topups(business_day, seq)',
    })
  })

  it('upgrade a version 1 database keeping its sales and journal position, collected in cash what each cost', () => {
    db.exec(migrations[0].sql)
    writeMeta(db, 'schema_version', '1')
    writeMeta(db, 'journal_seq', '2')
    db.run(
      `INSERT INTO sales VALUES ('A1', 'mobile', '9876543210', 'JIO', 'Jio', 'DL', 19900, 'SUCCESS', 'Success', 'Done',
         'FP1', 'OP1', '2025-03-14', '2025-03-14T04:30:00.000Z', '2025-03-14T04:30:01.000Z', NULL, 0)`,
    )
    const salesBefore = db.exec('SELECT * FROM sales')[0].values[0]
    expect(migrate(db)).toEqual({ from: 1, to: migrations.length })
    expect(db.exec('SELECT * FROM sales')[0].values).toEqual([[...salesBefore, 19900, 'cash', null, 0, null, null, null, 'owner', null]])
    expect(readMeta(db, 'journal_seq')).toBe('2')
    expect(db.exec('SELECT count(*) FROM coupon_sales')[0].values).toEqual([[0]])
  })

  it('upgrade a version 2 database: coupon sales collected rate x qty until charged, old readings dated in India', () => {
    for (const migration of migrations.slice(0, 2)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '2')
    const coupon = (attemptId: string, amount: number | null) =>
      db.run(
        `INSERT INTO coupon_sales (attempt_id, vle_id, coupon_type, qty, expected_rate_paise, state, message, amount_paise, problems,
           business_day, created_at, updated_at, training) VALUES (?, 'VLE1', 1, 3, 10700, 'SUCCESS', '', ?, '[]', '2025-03-14', 'x', 'x', 0)`,
        [attemptId, amount],
      )
    coupon('C1', 33000)
    coupon('C2', null)
    db.run("INSERT INTO balance_checkpoints VALUES (5, '2025-03-14T19:00:00.000Z', 500000, 'balance')")
    db.run("INSERT INTO password_resets VALUES ('R1', NULL, 'VLE1', NULL, 'PENDING', '', '2025-03-14T10:00:00.000Z', 'x')")
    migrate(db)
    expect(db.exec('SELECT attempt_id, collected_paise, collected_default, payment_mode FROM coupon_sales ORDER BY attempt_id')[0].values).toEqual([
      ['C1', 33000, 1, 'cash'],
      ['C2', 32100, 1, 'cash'],
    ])
    // 19:00 UTC is half past midnight in India: the next day there.
    expect(db.exec('SELECT business_day FROM balance_checkpoints')[0].values).toEqual([['2025-03-15']])
    expect(db.exec('SELECT business_day FROM password_resets')[0].values).toEqual([['2025-03-14']])
  })

  it('upgrade a version 5 database in version 6: every sale gains a margin, unknown (NULL) for sales made before it', () => {
    for (const migration of migrations.slice(0, 5)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '5')
    db.run(
      `INSERT INTO sales (order_id, kind, number, operator_code, operator_name, amount_paise, state, message, business_day, created_at,
         updated_at, training, collected_paise) VALUES ('A1', 'mobile', '9876543210', 'AT', 'Airtel', 19900, 'SUCCESS', '', '2025-03-14', 'x', 'x', 0, 21000)`,
    )
    db.run(
      `INSERT INTO coupon_sales (attempt_id, vle_id, coupon_type, qty, expected_rate_paise, state, message, problems, business_day,
         created_at, updated_at, training, collected_paise) VALUES ('C1', 'VLE1', 1, 2, 10700, 'SUCCESS', '', '[]', '2025-03-14', 'x', 'x', 0, 21400)`,
    )
    const before = (table: string) => db.exec(`SELECT * FROM ${table}`)[0].values[0]
    const [sale, coupon] = [before('sales'), before('coupon_sales')]
    expect(migrate(db)).toEqual({ from: 5, to: migrations.length })
    expect(migrations[5]).toMatchObject({ version: 6, name: 'margin frozen per sale' })
    expect(db.exec('SELECT * FROM sales')[0].values).toEqual([[...sale, null, 'owner', null]])
    // Margin (6), who sold it (8), where its intent sits (11) and a UPI payment confirmed (15): unknown for a sale made before each.
    expect(db.exec('SELECT * FROM coupon_sales')[0].values).toEqual([[...coupon, null, 'owner', null, null]])
  })

  it('record who sold each sale from version 8, sales made before it read as the owner\'s', () => {
    for (const migration of migrations.slice(0, 5)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '5')
    db.run(
      `INSERT INTO sales (order_id, kind, number, operator_code, operator_name, amount_paise, state, message, business_day, created_at, updated_at, training)
       VALUES ('A1', 'mobile', '9876543210', 'JIO', 'Jio', 19900, 'SUCCESS', 'Done', '2025-03-14', 'x', 'x', 0)`,
    )
    db.run(
      `INSERT INTO coupon_sales (attempt_id, vle_id, coupon_type, qty, expected_rate_paise, state, message, problems, business_day, created_at, updated_at, training)
       VALUES ('C1', 'VLE1', 1, 1, 10700, 'SUCCESS', '', '[]', '2025-03-14', 'x', 'x', 0)`,
    )
    expect(migrate(db)).toEqual({ from: 5, to: migrations.length })
    expect(migrations[7]).toMatchObject({ version: 8, name: 'who sold each sale' })
    expect(db.exec('SELECT sold_by FROM sales UNION ALL SELECT sold_by FROM coupon_sales')[0].values).toEqual([['owner'], ['owner']])
  })

  it('add customers in version 9, filled from the sales already in the books: the last recharge of each number and how many', () => {
    for (const migration of migrations.filter((m) => m.version <= 8)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '8')
    const sale = (orderId: string, number: string, operator: string, amount: number, at: string) =>
      db.run(
        `INSERT INTO sales (order_id, kind, number, operator_code, operator_name, circle, amount_paise, state, message, business_day,
           created_at, updated_at, training) VALUES (?, 'mobile', ?, ?, ?, 'DL', ?, 'SUCCESS', '', '2025-03-14', ?, ?, 0)`,
        [orderId, number, operator, operator, amount, at, at],
      )
    sale('A1', '9876543210', 'AT', 19900, '2025-03-14T04:30:00.000Z')
    sale('A2', '9876543210', 'RJP', 29900, '2025-03-14T05:30:00.000Z')
    sale('A3', '9123456780', 'VI', 4900, '2025-03-14T06:30:00.000Z')
    expect(migrate(db)).toEqual({ from: 8, to: migrations.length })
    expect(described('customers')).toEqual([
      'number TEXT', 'kind TEXT NOT NULL', 'name TEXT', 'last_operator_code TEXT NOT NULL', 'last_operator_name TEXT NOT NULL',
      'last_circle TEXT', 'last_amount_paise INTEGER NOT NULL', 'last_at TEXT NOT NULL', 'sales INTEGER NOT NULL',
    ])
    expect(columns('customers').find((column) => column.primaryKey === 1)?.name).toBe('number')
    expect(db.exec('SELECT number, name, last_operator_code, last_amount_paise, last_at, sales FROM customers ORDER BY number')[0].values).toEqual([
      ['9123456780', null, 'VI', 4900, '2025-03-14T06:30:00.000Z', 1],
      ['9876543210', null, 'RJP', 29900, '2025-03-14T05:30:00.000Z', 2],
    ])
    // A suggestion's prefix range is read from the index alone, never the whole table.
    expect(indexesOf("tbl_name = 'customers'")).toEqual({ customers_by_number_time: 'customers(number, last_at)' })
    const plan = db.exec(
      "EXPLAIN QUERY PLAN SELECT number FROM customers INDEXED BY customers_by_number_time WHERE number >= '9876' AND number < '9876]' ORDER BY last_at DESC LIMIT 8",
    )[0].values.map((row) => String(row[3]))
    expect(plan.join(' | ')).toMatch(/SEARCH customers USING COVERING INDEX customers_by_number_time \(number>\? AND number<\?\)/)
  })

  it('move every name to customer_names in version 10: credit names and regulars\' names, the regular\'s where both named a number', () => {
    for (const migration of migrations.filter((m) => m.version <= 9)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '9')
    const customer = (number: string, name: string | null) =>
      db.run(
        `INSERT INTO customers (number, kind, name, last_operator_code, last_operator_name, last_circle, last_amount_paise, last_at, sales)
         VALUES (?, 'mobile', ?, 'AT', 'Airtel', 'DL', 19900, '2025-03-14T04:30:00.000Z', 1)`,
        [number, name],
      )
    const creditCustomer = (number: string, name: string, limit: number | null) =>
      db.run("INSERT INTO credit_customers VALUES (?, ?, ?, '2025-03-14T04:30:00.000Z', '2025-03-14T05:30:00.000Z')", [number, name, limit])
    customer('9876500001', 'Ramesh')
    customer('9876500002', null)
    customer('9876500003', 'Sita Devi')
    creditCustomer('9876500002', 'Mohan', 50000)
    creditCustomer('9876500003', 'Sita', null)
    creditCustomer('9123400000', 'Ram Lal', null)
    expect(migrate(db)).toEqual({ from: 9, to: migrations.length })
    expect(described('customer_names')).toEqual(['number TEXT', 'name TEXT NOT NULL'])
    expect(columns('customer_names').find((column) => column.primaryKey === 1)?.name).toBe('number')
    expect(db.exec('SELECT number, name FROM customer_names ORDER BY number')[0].values).toEqual([
      ['9123400000', 'Ram Lal'],
      ['9876500001', 'Ramesh'],
      ['9876500002', 'Mohan'],
      ['9876500003', 'Sita Devi'],
    ])
    // One store: the old columns keep no second copy; limits and dates stay where they were.
    expect(db.exec('SELECT count(*) FROM customers WHERE name IS NOT NULL')[0].values).toEqual([[0]])
    expect(db.exec('SELECT number, name, limit_paise FROM credit_customers ORDER BY number')[0].values).toEqual([
      ['9123400000', '', null],
      ['9876500002', '', 50000],
      ['9876500003', '', null],
    ])
  })

  it("record who took each credit entry from version 12, entries already in the books read as the owner's", () => {
    for (const migration of migrations.filter((m) => m.version <= 11)) db.exec(migration.sql)
    writeMeta(db, 'schema_version', '11')
    db.run("INSERT INTO credit_customers VALUES ('9876500001', '', NULL, '2026-11-20T04:30:00.000Z', '2026-11-20T04:30:00.000Z')")
    const entry = (id: string, kind: string, mode: string | null, seq: number) =>
      db.run(
        `INSERT INTO credit_entries (entry_id, number, kind, amount_paise, state, reversed_at, mode, note, business_day, at, seq)
         VALUES (?, '9876500001', ?, 19900, ?, NULL, ?, '', '2026-11-20', '2026-11-20T05:30:00.000Z', ?)`,
        [id, kind, kind === 'sale' ? 'SUCCESS' : null, mode, seq],
      )
    entry('CN1', 'sale', null, 1)
    entry('UP1', 'payment', 'upi', 2)
    const before = db.exec('SELECT * FROM credit_entries ORDER BY seq')[0].values
    expect(migrate(db)).toEqual({ from: 11, to: migrations.length })
    expect(migrations[11]).toMatchObject({ version: 12, name: 'who took each credit payment' })
    expect(db.exec('SELECT * FROM credit_entries ORDER BY seq')[0].values).toEqual(before.map((row) => [...row, 'owner', null]))
  })

  it('do nothing on a database that is already current', () => {
    migrate(db)
    db.run("INSERT INTO meta (key, value) VALUES ('journal_seq', '7')")
    expect(migrate(db)).toEqual({ from: migrations.length, to: migrations.length })
    expect(readMeta(db, 'journal_seq')).toBe('7')
  })

  it('refuse a database written by a newer version of Counter', () => {
    migrate(db)
    writeMeta(db, 'schema_version', String(migrations.length + 1))
    expect(() => migrate(db)).toThrow(/newer version of Counter/)
  })

  it('leave a database untouched when a migration fails part-way', () => {
    db.run('CREATE TABLE sales (order_id TEXT)')
    expect(() => migrate(db)).toThrow(/Ledger migration 1 \(meta and sales\) failed/)
    expect(db.exec("SELECT name FROM sqlite_master WHERE name = 'meta'")).toEqual([])
    expect(readMeta(db, 'schema_version')).toBeNull()
  })

  it('add credit (udhaar) in version 7: customers and their entries, money in INTEGER paise, indexed by customer and day', () => {
    migrate(db)
    expect(described('credit_customers')).toEqual(['number TEXT', 'name TEXT NOT NULL', 'limit_paise INTEGER', 'created_at TEXT NOT NULL', 'updated_at TEXT NOT NULL'])
    expect(described('credit_entries')).toEqual([
      'entry_id TEXT', 'number TEXT NOT NULL', 'kind TEXT NOT NULL', 'amount_paise INTEGER NOT NULL', 'state TEXT', 'reversed_at TEXT',
      'mode TEXT', 'note TEXT NOT NULL', 'business_day TEXT NOT NULL', 'at TEXT NOT NULL', 'seq INTEGER NOT NULL', 'recorded_by TEXT NOT NULL',
      'upi_confirmed_at TEXT',
    ])
    expect(indexesOf("tbl_name LIKE 'credit_%'")).toEqual({
      credit_entries_by_day: 'credit_entries(business_day, kind)',
      credit_entries_by_number: 'credit_entries(number, seq)',
    })
  })

  it('add cash in and out of the drawer and saved counts in version 14, money in INTEGER paise, indexed by day', () => {
    migrate(db)
    expect(migrations[13]).toMatchObject({ version: 14 })
    expect(described('cash_moves')).toEqual([
      'seq INTEGER', 'move_id TEXT NOT NULL', 'at TEXT NOT NULL', 'business_day TEXT NOT NULL', 'kind TEXT NOT NULL', 'direction TEXT NOT NULL',
      'amount_paise INTEGER NOT NULL', 'reason TEXT NOT NULL', 'recorded_by TEXT NOT NULL',
    ])
    expect(described('drawer_counts')).toEqual([
      'seq INTEGER', 'at TEXT NOT NULL', 'business_day TEXT NOT NULL', 'opening_float_paise INTEGER NOT NULL', 'counted TEXT NOT NULL',
      'counted_paise INTEGER NOT NULL', 'recorded_by TEXT NOT NULL',
    ])
    expect(indexesOf("tbl_name IN ('cash_moves', 'drawer_counts')")).toEqual({
      cash_moves_by_day: 'cash_moves(business_day, seq)',
      drawer_counts_by_day: 'drawer_counts(business_day, seq)',
    })
  })

  it('add when staff confirmed a UPI payment in version 15: a column of every sale and payment, NULL for those before it', () => {
    for (const m of migrations.filter((migration) => migration.version <= 14)) db.exec(m.sql)
    writeMeta(db, 'schema_version', '14')
    db.run(`INSERT INTO sales (order_id, kind, number, operator_code, operator_name, amount_paise, state, message, business_day, created_at, updated_at, training, payment_mode)
            VALUES ('U1', 'mobile', '9812345678', 'AT', 'Airtel', 20900, 'SUCCESS', '', '2026-11-28', 'x', 'x', 0, 'upi')`)
    expect(migrate(db)).toEqual({ from: 14, to: migrations.length })
    expect(migrations[14]).toMatchObject({ version: 15 })
    for (const table of ['sales', 'coupon_sales', 'credit_entries']) expect(described(table)).toContain('upi_confirmed_at TEXT')
    expect(db.exec('SELECT order_id, upi_confirmed_at FROM sales')[0].values).toEqual([['U1', null]])
  })

  it('migrate a version 5 database to the latest without touching its sales (additive)', () => {
    const upTo5 = migrations.filter((m) => m.version <= 5)
    for (const m of upTo5) db.exec(m.sql)
    writeMeta(db, 'schema_version', '5')
    db.run(`INSERT INTO sales (order_id, kind, number, operator_code, operator_name, amount_paise, state, message, business_day, created_at, updated_at, training)
            VALUES ('CN1', 'mobile', '9812345678', 'AT', 'Airtel', 19900, 'SUCCESS', '', '2026-04-01', 'x', 'x', 0)`)
    expect(migrate(db).from).toBe(5)
    expect(readMeta(db, 'schema_version')).toBe(String(migrations[migrations.length - 1].version))
    expect(db.exec('SELECT order_id, amount_paise FROM sales')[0].values).toEqual([['CN1', 19900]])
    expect(db.exec('SELECT count(*) FROM credit_entries')[0].values).toEqual([[0]])
  })
})
