// What a sql.js connection keeps between statements: the statements every sale runs, compiled once, and its settings.
import type { BindParams, Database, Statement } from 'sql.js'

const prepared = new WeakMap<Database, Map<string, Statement>>()

/**
 * Sets up a connection for writing, and again after every db.export(): sql.js closes and reopens
 * the connection there, freeing its statements and forgetting its settings. The rollback journal
 * lives in memory: the database itself does, and a journal file in sql.js's in-memory file system
 * only costs a file per transaction.
 */
export function prepareConnection(db: Database): void {
  prepared.delete(db)
  db.run('PRAGMA journal_mode = MEMORY')
}

/** Runs one statement through `db`'s cache of compiled statements. */
export function runCached(db: Database, sql: string, params: BindParams): void {
  let statements = prepared.get(db)
  if (!statements) prepared.set(db, (statements = new Map()))
  let statement = statements.get(sql)
  if (!statement) statements.set(sql, (statement = db.prepare(sql)))
  try {
    statement.run(params)
  } catch (error) {
    // A failed step leaves the statement mid-way; the next run must start clean.
    statement.reset()
    throw error
  }
}
