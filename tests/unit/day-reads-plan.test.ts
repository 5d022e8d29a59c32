// The day's figures read only the day's rows: every statement behind totalsOfDay reaches sales and coupon_sales through their business-day index.
import { describe, expect, it } from 'vitest'
import type { BindParams, Database } from 'sql.js'
import { loadSqlJs } from '../../electron/ledger/sql-engine'
import { migrate } from '../../electron/ledger/migrations'
import { totalsOfDay } from '../../electron/ledger/books-reads'

const DAY = '2026-11-23'

/** The statements `read` runs on `db`, each with the parameters it was given. */
function statementsOf(db: Database, read: () => void): { sql: string; params: BindParams }[] {
  const seen: { sql: string; params: BindParams }[] = []
  const { exec, prepare } = db
  db.exec = (sql, params) => (seen.push({ sql, params: params ?? [] }), exec.call(db, sql, params))
  db.prepare = (sql, params) => {
    if (params !== undefined) seen.push({ sql, params })
    const statement = prepare.call(db, sql, params)
    const { bind } = statement
    statement.bind = (values) => (seen.push({ sql, params: values ?? [] }), bind.call(statement, values))
    return statement
  }
  try {
    read()
  } finally {
    Object.assign(db, { exec, prepare })
  }
  return seen
}

describe("the day's figures", () => {
  it('walk the day index of sales and coupon_sales, never a whole table or the state index', async () => {
    const SQL = await loadSqlJs()
    const db = new SQL.Database()
    migrate(db)
    const statements = statementsOf(db, () => totalsOfDay(db, DAY))
    const onSales = statements.filter(({ sql }) => /\bFROM (coupon_)?sales\b/.test(sql))
    expect(onSales.length).toBeGreaterThanOrEqual(6)
    for (const { sql, params } of onSales) {
      const plan = db.exec(`EXPLAIN QUERY PLAN ${sql}`, params)[0].values.map((row) => String(row[3]))
      const steps = plan.filter((step) => /\b(coupon_)?sales\b/.test(step))
      expect(steps.length, sql).toBeGreaterThan(0)
      for (const step of steps) expect(step, sql).toMatch(/USING (COVERING )?INDEX (coupon_)?sales_by_day\b/)
    }
    db.close()
  })
})
