// Ships benchmark terminals to the office through the real shipper thread, and accounts for the CPU it took on each side (this process, PostgreSQL) and the WAL PostgreSQL wrote.
import fs from 'node:fs'
import pg from 'pg'
import type { OfficeStatus } from '../../electron/contract'
import { runShipper, type OfficeAddress } from '../../electron/office/shipper'
import { startShipperThread, type ShipperLink } from '../../electron/office/shipper-link'
import type { BuiltTerminal } from './office-journals'
import { elapsedMs } from './stats'

const TICKS_PER_SECOND = 100

/** One shipper thread on one terminal, with its statuses: `until` resolves on the first status that satisfies it. */
export interface RunningShipper {
  link: ShipperLink
  last(): OfficeStatus | undefined
  until(done: (status: OfficeStatus) => boolean): Promise<OfficeStatus>
  /** From the thread's start to its first status: loading its code (from source, tsx compiles it; the built app's is bundled). */
  startUpMs(): number | null
}

export function startShipping(built: BuiltTerminal, office: OfficeAddress): RunningShipper {
  let last: OfficeStatus | undefined
  let refused: Error | null = null
  const started = process.hrtime.bigint()
  let startUpMs: number | null = null
  const waiters: { done: (status: OfficeStatus) => boolean; resolve: (status: OfficeStatus) => void; reject: (error: Error) => void }[] = []
  const link = startShipperThread({ journalDir: built.journalDir, terminal: built.terminal, office }, (status) => {
    last = status
    startUpMs ??= elapsedMs(started)
    // A refusal would leave a bench waiting for ever: it ends the run instead, saying why.
    if (status.state === 'refused') refused = new Error(`The office refused ${built.terminal.terminalId}: ${JSON.stringify(status.message)}`)
    for (const waiter of waiters.filter((w) => refused || w.done(status))) {
      waiters.splice(waiters.indexOf(waiter), 1)
      if (refused) waiter.reject(refused)
      else waiter.resolve(status)
    }
  })
  return {
    link,
    last: () => last,
    startUpMs: () => startUpMs,
    until: (done) => {
      if (refused) return Promise.reject(refused)
      return last && done(last) ? Promise.resolve(last) : new Promise((resolve, reject) => waiters.push({ done, resolve, reject }))
    },
  }
}

export const caughtUpTo = (seq: number) => (status: OfficeStatus) => status.state === 'caught-up' && status.acknowledged === seq

/** CPU seconds (user + system) of a process and, for PostgreSQL's postmaster, of its children living and reaped. */
function cpuSeconds(pid: number, withReapedChildren: boolean): number {
  try {
    // Fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 12th to 15th of them.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')
    const ticks = Number(fields[11]) + Number(fields[12]) + (withReapedChildren ? Number(fields[13]) + Number(fields[14]) : 0)
    return ticks / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

function childrenOf(parent: number): number[] {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[1]) === parent
    } catch {
      return false
    }
  })
}

/** What one phase cost: wall time, CPU of this process (main, ledger and shipper threads), CPU of the whole PostgreSQL server, WAL bytes. */
export interface Cost {
  wallMs: number
  ourCpuS: number
  pgCpuS: number
  walBytes: number
}

/** Watches a PostgreSQL server's CPU and WAL from one connection of its own; `measure` gives a phase's cost. */
export class OfficeMeter {
  private constructor(
    private readonly client: pg.Client,
    private readonly postmaster: number,
  ) {}

  static async open(office: OfficeAddress): Promise<OfficeMeter> {
    const client = new pg.Client({ ...office, ssl: false })
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    const postmaster = Number(fs.readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[1])
    return new OfficeMeter(client, postmaster)
  }

  private pgCpu(): number {
    return cpuSeconds(this.postmaster, true) + childrenOf(this.postmaster).reduce((sum, pid) => sum + cpuSeconds(pid, false), 0)
  }

  private async walLsn(): Promise<bigint> {
    const { rows } = await this.client.query<{ bytes: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS bytes")
    return BigInt(rows[0].bytes)
  }

  async measure<T>(work: () => Promise<T>): Promise<{ result: T; cost: Cost }> {
    const [ours, pgBefore, walBefore] = [process.cpuUsage(), this.pgCpu(), await this.walLsn()]
    const started = process.hrtime.bigint()
    const result = await work()
    const wallMs = elapsedMs(started)
    const used = process.cpuUsage(ours)
    return {
      result,
      cost: { wallMs, ourCpuS: (used.user + used.system) / 1e6, pgCpuS: this.pgCpu() - pgBefore, walBytes: Number((await this.walLsn()) - walBefore) },
    }
  }

  async sizes(): Promise<{ database: number; tables: { name: string; bytes: number }[] }> {
    const database = await this.client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes')
    const tables = await this.client.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC`,
    )
    return { database: Number(database.rows[0].bytes), tables: tables.rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) })) }
  }

  async createDatabase(name: string): Promise<void> {
    await this.client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
  }

  async close(): Promise<void> {
    await this.client.end()
  }
}

/**
 * Ships every terminal to its end, `concurrent` shipper threads at a time (each its own connection,
 * as each counter has); a thread starts, ships its terminal, reports caught up and stops.
 */
export async function shipFleet(terminals: readonly BuiltTerminal[], office: OfficeAddress, concurrent: number): Promise<{ startUpMs: number[] }> {
  let next = 0
  const startUpMs: number[] = []
  const lane = async () => {
    while (next < terminals.length) {
      const built = terminals[next++]
      const shipper = startShipping(built, office)
      await shipper.until(caughtUpTo(built.entries))
      startUpMs.push(shipper.startUpMs()!)
      await shipper.link.stop()
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrent, terminals.length) }, lane))
  return { startUpMs }
}

/** What `countersAtOnce` saw: wall time to every line in, the most connections the counters held at once, those held once quiet, counters told of a failure. */
export interface AtOnce {
  wallMs: number
  peak: number
  quiet: number
  failed: number
}

/**
 * Every terminal comes online at once with its lines waiting (a morning after the office was away), each its own
 * shipper, in this process (runShipper: a thread each would be hundreds of threads), into `office`, which may take
 * fewer connections than there are terminals. Counter connections are counted from a connection of the bench's own,
 * every 50 ms, by their application_name; "quiet" is once all are caught up and their linger is over.
 */
export async function countersAtOnce(terminals: readonly BuiltTerminal[], office: OfficeAddress): Promise<AtOnce> {
  const watcher = new pg.Client({ ...office, ssl: false })
  await watcher.connect()
  const held = async () => Number((await watcher.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'counter %'")).rows[0].n)
  const failed = new Set<string>()
  const caughtUp = new Set<string>()
  const started = process.hrtime.bigint()
  const shippers = terminals.map((built) =>
    runShipper({
      journalDir: built.journalDir,
      terminal: built.terminal,
      office,
      onStatus: (status) => {
        if (status.state === 'unreachable' || status.state === 'refused') failed.add(built.terminal.terminalId)
        if (caughtUpTo(built.entries)(status)) caughtUp.add(built.terminal.terminalId)
      },
    }),
  )
  let peak = 0
  try {
    while (caughtUp.size < terminals.length) {
      if (elapsedMs(started) > 600_000) throw new Error(`${terminals.length - caughtUp.size} counters not caught up after 10 minutes (${failed.size} told of a failure)`)
      peak = Math.max(peak, await held())
      await new Promise((done) => setTimeout(done, 50))
    }
    const wallMs = elapsedMs(started)
    const quietBy = Date.now() + 30_000
    let quiet = await held()
    while (quiet > 0 && Date.now() < quietBy) {
      await new Promise((done) => setTimeout(done, 250))
      quiet = await held()
    }
    return { wallMs, peak, quiet, failed: failed.size }
  } finally {
    await Promise.all(shippers.map((shipper) => shipper.stop()))
    await watcher.end()
  }
}
