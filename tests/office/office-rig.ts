// Shared set-up for the office tests: real journals written by the ledger, the office's rows read back, shippers in their threads.
import pg from 'pg'
import type { OfficeStatus } from '../../electron/contract'
import type { JournalEntry } from '../../electron/ledger/events'
import { Ledger } from '../../electron/ledger/ledger'
import { JOURNAL_DIR, listSegments, readChain, FROM_THE_START } from '../../electron/ledger/segments'
import type { TerminalName } from '../../electron/ledger/terminal-projections'
import type { OfficeAddress } from '../../electron/office/shipper'
import { startShipperThread, type ShipperLink } from '../../electron/office/shipper-link'
import type { CounterApp } from '../../electron/counter/app'
import { valueOf } from '../integration/helpers'
import { rechargeIntent, rechargeOutcome } from '../integration/ledger-rig'
import type { TestPostgres } from '../helpers/postgres'
import { join } from 'node:path'

export const officeOf = (db: TestPostgres): OfficeAddress => ({ host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false })

/**
 * The status bar's office part now: null until the shipper's first start, which waits until the counter
 * answers (app.ts), so a probe right after a start or restart may see null and should poll again.
 */
export const officeStatusNow = async (counter: CounterApp): Promise<OfficeStatus | null> => valueOf(await counter.call('app.status', {})).office ?? null

export async function query<R extends pg.QueryResultRow>(db: TestPostgres, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client(officeOf(db))
  await client.connect()
  try {
    return (await client.query<R>(sql, params)).rows
  } finally {
    await client.end()
  }
}

/** A real ledger in `dir`, named as a terminal, on a clock that moves a second per line unless given one. */
export async function namedLedger(dir: string, terminal: TerminalName, now?: () => Date): Promise<Ledger> {
  let tick = 0
  const ledger = await Ledger.open({ dir, now: now ?? (() => new Date(Date.parse('2025-03-14T04:30:00Z') + 1000 * tick++)) })
  ledger.append('terminal.named', terminal)
  return ledger
}

/** `count` recharges (intent and outcome each) sold on `ledger`, ids prefixed so two terminals' differ. */
export function sell(ledger: Ledger, prefix: string, from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    const orderId = `${prefix}${String(i).padStart(6, '0')}`
    ledger.append('recharge.intent', rechargeIntent(orderId, 19900, { training: false }))
    ledger.append('recharge.outcome', rechargeOutcome(orderId))
  }
}

export const journalDirOf = (ledgerDir: string) => join(ledgerDir, JOURNAL_DIR)

/** Every entry of the journal in `ledgerDir`, verified. */
export function journalEntries(ledgerDir: string): JournalEntry[] {
  const entries: JournalEntry[] = []
  readChain(listSegments(journalDirOf(ledgerDir)), FROM_THE_START, (entry) => entries.push(entry))
  return entries
}

/** What the office holds from `terminal`, in seq order. */
export async function officeEntries(db: TestPostgres, terminal: string): Promise<{ seq: number; hash: string; type: string }[]> {
  const rows = await query<{ seq: string; hash: string; type: string }>(db, 'SELECT seq, hash, type FROM entries WHERE terminal = $1 ORDER BY seq', [terminal])
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }))
}

export interface WatchedShipper {
  link: ShipperLink
  statuses: OfficeStatus[]
  last(): OfficeStatus | undefined
}

export function ship(ledgerDir: string, terminal: TerminalName, office: OfficeAddress, tuning: { batchSize?: number; pollMs?: number; backoff?: { firstMs: number; maxMs: number } } = {}): WatchedShipper {
  const statuses: OfficeStatus[] = []
  const link = startShipperThread({ journalDir: journalDirOf(ledgerDir), terminal, office, pollMs: 50, backoff: { firstMs: 100, maxMs: 1_000 }, ...tuning }, (status) => statuses.push(status))
  return { link, statuses, last: () => statuses.at(-1) }
}
