// The ledger's compiled statements (connection.ts cachedStatement, through reads.ts selectAll and firstValue): the same answers as compiling afresh, after an export, past the cache's bound, after a read that threw mid-way, and after the table changed under a statement whose column names were kept.
import { beforeEach, describe, expect, it } from 'vitest'
import type { Database } from 'sql.js'
import { cachedStatement, prepareConnection } from '../../electron/ledger/connection'
import { firstValue, selectAll } from '../../electron/ledger/reads'
import { loadSqlJs } from '../../electron/ledger/sql-engine'

let db: Database

beforeEach(async () => {
  const SQL = await loadSqlJs()
  db = new SQL.Database()
  prepareConnection(db)
  db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
  for (let id = 1; id <= 5; id++) db.run('INSERT INTO t VALUES (?, ?)', [id, `n${id}`])
})

const namesFrom = (from: number) => selectAll(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id', [from], (row) => String(row.name))

describe("the ledger's compiled statements", () => {
  it('compile a statement once and answer each binding afresh', () => {
    expect(namesFrom(4)).toEqual(['n4', 'n5'])
    expect(namesFrom(2)).toEqual(['n2', 'n3', 'n4', 'n5'])
    expect(cachedStatement(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id')).toBe(cachedStatement(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id'))
    expect(firstValue(db, 'SELECT name FROM t WHERE id = ?', [3])).toBe('n3')
    expect(firstValue(db, 'SELECT name FROM t WHERE id = ?', [9])).toBeUndefined()
  })

  it('see rows written after they were compiled, and are let go, freed, when the connection is set up again after an export', () => {
    expect(namesFrom(5)).toEqual(['n5'])
    db.run('INSERT INTO t VALUES (6, ?)', ['n6'])
    expect(namesFrom(5)).toEqual(['n5', 'n6'])
    const before = cachedStatement(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id')
    db.export()
    prepareConnection(db)
    // Freed (sql.js says so on any use), not left in its memory until the close; compiled again at the next read.
    expect(() => before.step()).toThrow('Statement closed')
    expect(namesFrom(5)).toEqual(['n5', 'n6'])
    expect(firstValue(db, 'SELECT count(*) FROM t', [])).toBe(6)
  })

  it('keep at most a bounded number, compiling again one that was let go', () => {
    expect(namesFrom(5)).toEqual(['n5'])
    const first = cachedStatement(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id')
    for (let i = 0; i < 300; i++) expect(firstValue(db, `SELECT ${i} + id FROM t WHERE id = ?`, [1])).toBe(i + 1)
    expect(cachedStatement(db, 'SELECT name FROM t WHERE id >= ? ORDER BY id')).not.toBe(first)
    expect(namesFrom(4)).toEqual(['n4', 'n5'])
  })

  it('start clean after a read that threw part-way through its rows', () => {
    const failing = () =>
      selectAll(db, 'SELECT name FROM t ORDER BY id', [], (row) => {
        if (row.name === 'n2') throw new Error('refused')
        return String(row.name)
      })
    expect(failing).toThrow('refused')
    expect(selectAll(db, 'SELECT name FROM t ORDER BY id', [], (row) => String(row.name))).toEqual(['n1', 'n2', 'n3', 'n4', 'n5'])
    // A write after it commits: no statement was left mid-way holding the table.
    db.run('DELETE FROM t WHERE id = 1')
    expect(firstValue(db, 'SELECT count(*) FROM t', [])).toBe(4)
  })

  it("name each row's columns as sql.js's own getAsObject does, and by the table's new columns once it has them", () => {
    const everyColumn = () => selectAll(db, 'SELECT t.* FROM t WHERE id <= ? ORDER BY id', [2], (row) => row)
    const compiledAfresh = (sql: string) => {
      const statement = db.prepare(sql)
      const rows = []
      while (statement.step()) rows.push(statement.getAsObject())
      statement.free()
      return rows
    }
    expect(everyColumn()).toEqual(compiledAfresh('SELECT t.* FROM t WHERE id <= 2 ORDER BY id'))
    // SQLite compiles the kept statement again for the changed table: `t.*` now has one more column.
    db.run("ALTER TABLE t ADD COLUMN note TEXT NOT NULL DEFAULT 'none'")
    expect(everyColumn()).toEqual([
      { id: 1, name: 'n1', note: 'none' },
      { id: 2, name: 'n2', note: 'none' },
    ])
    // A name given twice keeps its last value, as getAsObject keeps it.
    const twice = 'SELECT id AS a, name AS a FROM t WHERE id = 3'
    expect(selectAll(db, twice, [], (row) => row)).toEqual(compiledAfresh(twice))
  })
})
