// What a sql.js connection keeps between statements: the statements every sale runs, compiled once, its settings, and room in its file for the next sales.
import type { BindParams, Database, Statement } from 'sql.js'

const prepared = new WeakMap<Database, Map<string, Statement>>()

/**
 * Sets up a connection for writing, and again after every db.export(): older sql.js closed and
 * reopened the connection there, freeing its statements and forgetting its settings (1.16 copies through
 * SQLite's backup API and keeps both). Either way the compiled statements are let go here, freed, so none
 * is used after a reopen and none is left behind in sql.js's memory until the close. The rollback journal
 * lives in memory: the database itself does, and a journal file in sql.js's in-memory file system
 * only costs a file per transaction. The lock is held for good: no other connection ever opens this
 * file, and without it every transaction began by looking for another's hot journal in that file
 * system (a third of a 600k-line replay went to those look-ups).
 */
export function prepareConnection(db: Database): void {
  for (const statement of prepared.get(db)?.values() ?? []) statement.free()
  prepared.delete(db)
  db.run('PRAGMA journal_mode = MEMORY')
  db.run('PRAGMA locking_mode = EXCLUSIVE')
}

/**
 * At most this many compiled statements kept a connection: the ledger's own statements are far fewer, and a
 * statement built from a caller's choices (a day range, a column list) must not grow the cache without end.
 */
const MOST_STATEMENTS_KEPT = 256

/**
 * `sql` compiled once for `db`, reset and ready to bind. Decision: every statement a sale, a read or a replay
 * runs is compiled once a connection. Compiling was a third of each read's time (a sale's two reads back:
 * 0.16 ms of its 1.3 ms, profiled in the ledger thread over 3,000 sales). The least recently used goes
 * past MOST_STATEMENTS_KEPT.
 *
 * What the cache cannot keep: a statement whose plan depends on a value bound to it, which SQLite compiles again at
 * the first step after each new binding. ORDER BY served by an index on a column compared with `= ?` is one:
 * `WHERE number = ? ORDER BY created_at` took 28 µs a run kept here against 2 µs without the ORDER BY and 3 µs with
 * `CAST(? AS TEXT)` for the `?` (one process, 3,000 runs each), and its time grew with its text as a fresh compile's
 * does. A read made at every sale stays clear of the shape (ledger-reads.ts oldestId).
 */
export function cachedStatement(db: Database, sql: string): Statement {
  let statements = prepared.get(db)
  if (!statements) prepared.set(db, (statements = new Map()))
  let statement = statements.get(sql)
  if (statement) {
    statements.delete(sql)
  } else {
    statement = db.prepare(sql)
    if (statements.size >= MOST_STATEMENTS_KEPT) {
      const [oldestSql, oldest] = statements.entries().next().value as [string, Statement]
      statements.delete(oldestSql)
      oldest.free()
    }
  }
  statements.set(sql, statement)
  return statement
}

/** Runs one statement through `db`'s cache of compiled statements. */
export function runCached(db: Database, sql: string, params: BindParams): void {
  const statement = cachedStatement(db, sql)
  try {
    statement.run(params)
  } catch (error) {
    // A failed step leaves the statement mid-way; the next run must start clean.
    statement.reset()
    throw error
  }
}

/** A database file's free pages kept for the sales to come: an eighth of its pages, as emscripten's file system would grow it. */
const ROOM_TO_GROW_FRACTION = 1 / 8

const pragmaNumber = (db: Database, name: string) => Number(db.exec(`PRAGMA ${name}`)[0]?.values[0]?.[0] ?? 0)

/**
 * Leaves free pages inside the database file, so the sales after open write into the file instead
 * of past its end. Why: sql.js holds the file in one typed array sized to the bytes it loaded, and
 * the first write past the end copies the whole file into an array an eighth larger (emscripten's
 * in-memory file system). At 1M sales, a 97 MB year, that copy held one sale after open for
 * 317–339 ms (three experiments on the bench's ledger). Made here, at open, the copy
 * comes before any sale, and SQLite fills free pages before it grows the file again: an eighth of a
 * year's file is about six weeks of sales at this shop's pace. The price is that eighth in memory;
 * snapshots come from the chores thread's replica, which loads the snapshot file as it is, so they
 * carry the free pages only when the replica was seeded from these books (a new ledger, one rebuilt
 * from the journal), and then at most an eighth more bytes.
 */
export function keepRoomToGrow(db: Database): void {
  const wanted = Math.ceil(pragmaNumber(db, 'page_count') * ROOM_TO_GROW_FRACTION)
  const missing = wanted - pragmaNumber(db, 'freelist_count')
  if (missing <= 0) return
  // A filler written and dropped: its pages join the free list, and the tables are as they were.
  try {
    db.run('CREATE TABLE room_to_grow (filler BLOB)')
    db.run('INSERT INTO room_to_grow VALUES (zeroblob(?))', [missing * pragmaNumber(db, 'page_size')])
  } catch {
    // Room only spares a later sale the copy: the books open as they are without it (a failed
    // statement is undone by SQLite itself; the table, if made, goes below).
  } finally {
    db.run('DROP TABLE IF EXISTS room_to_grow')
  }
}
