// Times one durable sale (its intent, then its outcome) three ways: through the real ledger, as sql.js with a whole-database export per sale, and in better-sqlite3 with WAL and synchronous=FULL; and two floors: the disk's, a bare fsync'd append, and a thread hop's, the sale's two lines through a worker that only appends them.
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import type { BindParams, Database, QueryExecResult } from 'sql.js'
import { writeFileAtomically, writeFully } from '../../electron/ledger/durable-files'
import type { Sale } from '../../electron/contract'
import type { JournalEntry, LedgerEventData, LedgerEventType } from '../../electron/ledger/events'
import type { LedgerPort } from '../../electron/ledger/ledger-port'
import { loadSqlJs } from '../../electron/ledger/sql-engine'
import { prepareConnection } from '../../electron/ledger/connection'
import { journalPosition, project } from '../../electron/ledger/projections'
import { hashEntry } from '../../electron/ledger/segments'
import { withLoopDelay, type LoopDelay } from './event-loop'
import { elapsedMs } from './stats'

export interface CommitRun {
  /** Milliseconds per sale, warm-up excluded. */
  perSale: number[]
}

export interface OurCommitRun extends CommitRun {
  /** The main event loop while the sales ran. */
  loop: LoopDelay
  /** The ledger's own snapshot (the chores thread's replica: journal tail, export, atomic write), asked for every 500 events and awaited here. */
  snapshotMs: number[]
}

const WARM_UP_SALES = 20
const SNAPSHOT_SAMPLES = 3
/** The floor issue #8 asks for: a 300-byte line (a sale's journal lines are about 430 bytes each). */
const BARE_LINE_BYTES = 300

/** The i-th benchmark sale: a recharge like the shop's others, on `businessDay`. */
function saleEvents(i: number, businessDay: string): { intent: LedgerEventData['recharge.intent']; outcome: LedgerEventData['recharge.outcome'] } {
  const orderId = `CNBENCH${String(i).padStart(8, '0')}`
  return {
    intent: {
      orderId, kind: 'mobile', number: `98${String(10_000_000 + i * 7919).slice(-8)}`, operatorCode: 'RJP', operatorName: 'Jio', circle: 'DL',
      amountPaise: 239_00, businessDay, training: false, collectedPaise: 239_00, paymentMode: i % 3 === 0 ? 'upi' : 'cash',
    },
    outcome: {
      orderId, source: 'transaction', outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: 'Transaction Successful',
      fpayId: `RCH${String(300_000_000_000 + i)}BENCH`, operatorRef: `BR${String(i).padStart(4, '0')}MIKE46`,
    },
  }
}

/** The intent as the counter writes it; the ledger numbers its order id (BENCH, then the line's seq). */
async function sellIntent(ledger: SaleWrites, { orderId: _numberedByTheLedger, ...intent }: LedgerEventData['recharge.intent']): Promise<Sale> {
  const written = await ledger.write('rechargeIntent', intent, { head: 'CNBENCH', tail: '' })
  if (!('sale' in written)) throw new Error(`The ledger refused a bench sale: ${JSON.stringify(written)}`)
  return written.sale
}

/** A provider that answers in 20 ms (real ones take 1–30 s) and a customer every 10 ms after: both far quicker than a shop's, so that more happens per second here than at any counter. */
export const PACE = { answerMs: 20, betweenMs: 10 }
/** How many sales are paced so: each takes 30 ms, so fewer than back to back. */
export const PACED_SALES = 500

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A sale's two writes through the ledger thread, as the counter sends them (sale-writes.ts): a LedgerPort. */
export type SaleWrites = Pick<LedgerPort, 'write'>

/**
 * Sales through the ledger as the counter makes them: each intent one request (the number's open sale,
 * the id's seq, the line journaled and fsync'd, the sale read back), its outcome one more (journaled,
 * fsync'd by the next intent, events.ts LINE_SYNC, and the sale read back). Snapshots run between
 * sales, as in the app; the main event loop's delay is measured over the 2,000 sales.
 */
export async function ourCommits(
  ledger: SaleWrites,
  snapshot: () => Promise<unknown> | unknown,
  businessDay: string,
  sales: number,
  /** The first sale's number: each run on one ledger sells to numbers of its own. */
  first = 0,
  /**
   * Back to back when absent. Given, as at a counter: the provider's answer takes `answerMs` between
   * the intent and the outcome, and the next customer comes `betweenMs` later. A sale's time is then
   * its two appends alone, and what the ledger does after answering (the tables) happens in the pauses.
   */
  pace?: { answerMs: number; betweenMs: number },
): Promise<OurCommitRun> {
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  const { result: perSale, delay: loop } = await withLoopDelay(async () => {
    const times: number[] = []
    for (let i = 0; i < WARM_UP_SALES + sales; i++) {
      const { intent, outcome } = saleEvents(first + i, businessDay)
      let started = process.hrtime.bigint()
      const sold = await sellIntent(ledger, intent)
      let spent = elapsedMs(started)
      if (pace) await pause(pace.answerMs)
      started = process.hrtime.bigint()
      await ledger.write('rechargeOutcome', { ...outcome, orderId: sold.orderId })
      spent += elapsedMs(started)
      if (i >= WARM_UP_SALES) times.push(spent)
      await (pace ? pause(pace.betweenMs) : nextTurn())
    }
    return times
  })
  const snapshotMs: number[] = []
  for (let i = 0; i < SNAPSHOT_SAMPLES; i++) {
    const { intent } = saleEvents(first + WARM_UP_SALES + sales + i, businessDay)
    await sellIntent(ledger, intent)
    const started = process.hrtime.bigint()
    await snapshot()
    snapshotMs.push(elapsedMs(started))
  }
  return { perSale, snapshotMs, loop }
}

/**
 * The floor under any durable commit on this disk: a 300-byte line appended to a plain file and
 * fsync'd, `times` times. Paced as ourCommits paces sales, each is a sale's two lines as the journal
 * writes them: the intent's fsync'd, then after `answerMs` the outcome's written, then `betweenMs`
 * to the next; a disk left idle that long answers its next fsync more slowly than one kept busy.
 */
export async function bareAppends(dir: string, times: number, pace?: { answerMs: number; betweenMs: number }): Promise<number[]> {
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  const fd = fs.openSync(path.join(dir, pace ? 'bare-appends-paced.ndjson' : 'bare-appends.ndjson'), 'a')
  const line = Buffer.from(`${'x'.repeat(BARE_LINE_BYTES - 1)}\n`)
  try {
    const perAppend: number[] = []
    for (let i = 0; i < WARM_UP_SALES + times; i++) {
      let started = process.hrtime.bigint()
      writeFully(fd, line)
      fs.fsyncSync(fd)
      let spent = elapsedMs(started)
      if (pace) {
        await pause(pace.answerMs)
        started = process.hrtime.bigint()
        writeFully(fd, line)
        spent += elapsedMs(started)
        await pause(pace.betweenMs)
      }
      if (i >= WARM_UP_SALES) perAppend.push(spent)
    }
    return perAppend
  } finally {
    fs.closeSync(fd)
  }
}

// The thread hop's floor: a worker that takes a line by message, appends it as JSON (fsync'd when asked) and answers its size.
const APPENDING_THREAD = `
  const { parentPort, workerData } = require('node:worker_threads')
  const fs = require('node:fs')
  const fd = fs.openSync(workerData, 'a')
  parentPort.on('message', ({ entry, sync }) => {
    const line = Buffer.from(JSON.stringify(entry) + '\\n')
    for (let at = 0; at < line.length; ) at += fs.writeSync(fd, line, at)
    if (sync) fs.fsyncSync(fd)
    parentPort.postMessage(line.length)
  })
`

/**
 * The floor under any commit made through a thread, as the counter's is: each of a sale's two lines sent
 * to a worker as a message, appended there as JSON (the intent's fsync'd, the outcome's not) and answered,
 * with no database, no checks and no hash. What ours takes beyond it is the ledger's own work.
 */
export async function threadHopAppends(dir: string, businessDay: string, sales: number): Promise<number[]> {
  const thread = new Worker(APPENDING_THREAD, { eval: true, workerData: path.join(dir, 'thread-hop-appends.ndjson') })
  const answered = (entry: object, sync: boolean) =>
    new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve())
      thread.once('error', reject)
      thread.postMessage({ entry, sync })
    }).finally(() => thread.removeAllListeners('error'))
  try {
    const perSale: number[] = []
    for (let i = 0; i < WARM_UP_SALES + sales; i++) {
      const { intent, outcome } = saleEvents(i, businessDay)
      const at = new Date().toISOString()
      const started = process.hrtime.bigint()
      await answered({ seq: 2 * i + 1, at, type: 'recharge.intent', data: intent }, true)
      await answered({ seq: 2 * i + 2, at, type: 'recharge.outcome', data: outcome }, false)
      if (i >= WARM_UP_SALES) perSale.push(elapsedMs(started))
      await nextTurn()
    }
    return perSale
  } finally {
    await thread.terminate()
  }
}

/** Journal entries continuing `db`'s position, made before the clock starts: neither rival keeps a journal. */
function entriesAfter(db: Database, i: number, businessDay: string): [JournalEntry, JournalEntry] {
  const { seq, hash } = journalPosition(db)
  const { intent, outcome } = saleEvents(i, businessDay)
  const at = new Date().toISOString()
  const entry = <T extends LedgerEventType>(n: number, prev: string, type: T, data: LedgerEventData[T]): JournalEntry<T> => ({
    seq: n, at, type, data, prev, hash: hashEntry(prev, { seq: n, at, type, data }),
  })
  const first = entry(seq + 1, hash, 'recharge.intent', intent)
  return [first, entry(seq + 2, first.hash, 'recharge.outcome', outcome)]
}

/**
 * The naive sql.js way, with a bound on time as each sale costs a whole export: the same
 * projection, then the database exported and written atomically once per sale (once, where the
 * same guarantee as the journal's would need it after the intent too: this favours the naive way).
 */
export async function naiveCommits(snapshotFile: string, businessDay: string, maxSales: number, maxMs: number): Promise<CommitRun> {
  const SQL = await loadSqlJs()
  const db = new SQL.Database(fs.readFileSync(snapshotFile))
  const dir = path.dirname(snapshotFile)
  try {
    prepareConnection(db)
    const perSale: number[] = []
    const deadline = Date.now() + maxMs
    for (let i = 0; i < 2 + maxSales && (perSale.length < 10 || Date.now() < deadline); i++) {
      const [intent, outcome] = entriesAfter(db, i, businessDay)
      const started = process.hrtime.bigint()
      project(db, intent)
      project(db, outcome)
      const bytes = db.export()
      prepareConnection(db)
      writeFileAtomically(dir, 'naive.sqlite', bytes)
      if (i >= 2) perSale.push(elapsedMs(started))
    }
    return { perSale }
  } finally {
    db.close()
  }
}

/**
 * Just enough of sql.js's Database over a better-sqlite3 connection for the ledger's projection to
 * run on it unchanged: the same statements, rows and transactions, with SQLite's own durability.
 */
function sqlJsFace(db: BetterSqlite3.Database): Database {
  const bind = (params: BindParams | undefined): unknown[] => {
    if (params === null || params === undefined) return []
    if (Array.isArray(params)) return [params]
    // sql.js names parameters with their prefix (':state'); better-sqlite3 without it.
    return [Object.fromEntries(Object.entries(params).map(([key, value]) => [key.slice(1), value]))]
  }
  const face = {
    exec(sql: string, params?: BindParams): QueryExecResult[] {
      const statement = db.prepare(sql)
      if (!statement.reader) {
        statement.run(...bind(params))
        return []
      }
      const values = statement.raw().all(...bind(params)) as QueryExecResult['values']
      return values.length > 0 ? [{ columns: statement.columns().map((column) => column.name), values }] : []
    },
    run(sql: string, params?: BindParams) {
      db.prepare(sql).run(...bind(params))
      return face
    },
    // What the ledger's reads and cached writes use of a sql.js statement: bind, step through the rows, run, reset.
    prepare(sql: string) {
      const statement = db.prepare(sql)
      let bound: BindParams | undefined
      let rows: unknown[][] | null = null
      let at = -1
      const columns = () => statement.columns().map((column) => column.name)
      return {
        bind: (params?: BindParams) => ((bound = params), (rows = null), (at = -1), true),
        step: () => {
          rows ??= statement.raw().all(...bind(bound)) as unknown[][]
          return ++at < rows.length
        },
        get: () => rows![at],
        getAsObject: () => Object.fromEntries(columns().map((name, i) => [name, rows![at][i]])),
        run: (params?: BindParams) => void statement.run(...bind(params)),
        reset: () => ((rows = null), (at = -1), true),
        free: () => true,
      }
    },
  }
  return face as unknown as Database
}

/** The same sale in better-sqlite3 on a copy of the same snapshot: each event one transaction, each commit fsync'd. */
export function betterSqliteCommits(snapshotFile: string, businessDay: string, sales: number): CommitRun {
  const file = path.join(path.dirname(snapshotFile), 'better-sqlite3.sqlite')
  fs.copyFileSync(snapshotFile, file)
  const native = new BetterSqlite3(file)
  try {
    native.pragma('journal_mode = WAL')
    native.pragma('synchronous = FULL')
    const db = sqlJsFace(native)
    const perSale: number[] = []
    for (let i = 0; i < WARM_UP_SALES + sales; i++) {
      const [intent, outcome] = entriesAfter(db, i, businessDay)
      const started = process.hrtime.bigint()
      project(db, intent)
      project(db, outcome)
      if (i >= WARM_UP_SALES) perSale.push(elapsedMs(started))
    }
    return { perSale }
  } finally {
    native.close()
  }
}
