// The schema chain: an empty database through every migration, with the version kept in meta.
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { migrate, migrations, readMeta, writeMeta } from '../../electron/ledger/migrations'

let SQL: SqlJsStatic
let db: Database
beforeAll(async () => {
  SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') })
})
beforeEach(() => {
  db = new SQL.Database()
})
afterEach(() => db.close())

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
    ])
    const required = columns('sales').filter((column) => column.notNull === 1).map((column) => column.name)
    expect(required).toEqual(expect.arrayContaining(['amount_paise', 'business_day']))
    expect(columns('sales').find((column) => column.primaryKey === 1)?.name).toBe('order_id')

    const indexed = db.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sales' AND sql IS NOT NULL")[0].values.flat()
    expect(indexed).toHaveLength(1)
    expect(db.exec(`PRAGMA index_info(${indexed[0]})`)[0].values.map((row) => row[2])).toEqual(['business_day', 'created_at'])
  })

  it('add the PAN tables in version 2, money in INTEGER paise, with an index for each read', () => {
    migrate(db)
    const described = (table: string) => columns(table).map(({ name, type, notNull }) => `${name} ${type}${notNull ? ' NOT NULL' : ''}`)
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
    ])
    expect(described('password_resets')).toEqual([
      'attempt_id TEXT', 'order_id TEXT', 'vle_id TEXT NOT NULL', 'vle_name TEXT', 'status TEXT NOT NULL',
      'message TEXT NOT NULL', 'created_at TEXT NOT NULL', 'updated_at TEXT NOT NULL',
    ])
    expect(described('balance_checkpoints')).toEqual(['seq INTEGER', 'at TEXT NOT NULL', 'balance_paise INTEGER NOT NULL', 'source TEXT NOT NULL'])
    const keys = ['agents', 'coupon_sales', 'password_resets', 'balance_checkpoints'].map((table) => columns(table).find((column) => column.primaryKey === 1)?.name)
    expect(keys).toEqual(['vle_id', 'attempt_id', 'attempt_id', 'seq'])

    const indexes = db.exec("SELECT tbl_name, name FROM sqlite_master WHERE type = 'index' AND tbl_name != 'sales' AND sql IS NOT NULL ORDER BY name")[0].values
    const indexed = Object.fromEntries(indexes.map(([table, name]) => [name, `${table}(${db.exec(`PRAGMA index_info(${name})`)[0].values.map((row) => row[2]).join(', ')})`]))
    expect(indexed).toEqual({
      agents_by_created: 'agents(created_at)',
      coupon_sales_by_created: 'coupon_sales(created_at)',
      coupon_sales_by_day: 'coupon_sales(business_day, created_at)',
      coupon_sales_by_state: 'coupon_sales(state, created_at)',
      coupon_sales_charged: 'coupon_sales(coupon_type, created_at)',
      coupon_sales_by_new_bal: 'coupon_sales(new_bal_seq)',
      password_resets_by_agent: 'password_resets(vle_id, created_at)',
    })
  })

  it('upgrade a version 1 database to version 2 keeping its sales and journal position', () => {
    db.exec(migrations[0].sql)
    writeMeta(db, 'schema_version', '1')
    writeMeta(db, 'journal_seq', '2')
    db.run(
      `INSERT INTO sales VALUES ('A1', 'mobile', '9876543210', 'JIO', 'Jio', 'DL', 19900, 'SUCCESS', 'Success', 'Done',
         'FP1', 'OP1', '2025-03-14', '2025-03-14T04:30:00.000Z', '2025-03-14T04:30:01.000Z', NULL, 0)`,
    )
    const salesBefore = db.exec('SELECT * FROM sales')
    expect(migrate(db)).toEqual({ from: 1, to: migrations.length })
    expect(db.exec('SELECT * FROM sales')).toEqual(salesBefore)
    expect(readMeta(db, 'journal_seq')).toBe('2')
    expect(db.exec('SELECT count(*) FROM coupon_sales')[0].values).toEqual([[0]])
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
})
