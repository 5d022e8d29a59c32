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
