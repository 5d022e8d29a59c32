// The journal shipper's loop: connect to the office when there is something to send, migrate, send it in batches, let go; back off while it is away.
import type pg from 'pg'
import { postgresClient } from './pg-client'
import type { OfficeStatus } from '../contract/office'
import type { TerminalName } from '../ledger/terminal-projections'
import { samePoint, type ChainPoint } from '../ledger/segments'
import { findParting, recordFork, type Parting } from './forks'
import { ingestBatch, OfficeRefusal, registerTerminal, touchTerminal } from './ingest'
import { JournalCursor, JournalEnd, type Batch } from './journal-reader'
import { migrateOffice } from './migrations'
import { say, type Said } from '../shared/words'

/** The head office's database as the counter's settings give it (counter/settings.ts officeConfig); the password only ever goes there. */
export interface OfficeAddress {
  host: string
  port: number
  database: string
  user: string
  password: string
  tls: boolean
}

/** Where and as whom to connect: the same for the shipper and the office view. */
export function officeConnection(office: OfficeAddress): Pick<pg.ClientConfig, 'host' | 'port' | 'database' | 'user' | 'password' | 'ssl'> {
  // Decision: the certificate is checked against the system's CAs; an office with its own CA adds it to the OS.
  return { host: office.host, port: office.port, database: office.database, user: office.user, password: office.password, ssl: office.tls ? { rejectUnauthorized: true } : false }
}

export interface ShipperOptions {
  journalDir: string
  terminal: TerminalName
  office: OfficeAddress
  onStatus(status: OfficeStatus): void
  /** Entries per transaction. */
  batchSize?: number
  /** How often a caught-up shipper looks for new lines. */
  pollMs?: number
  /** Back-off while the office is away: from firstMs, doubling, at most maxMs. */
  backoff?: { firstMs: number; maxMs: number }
  /** How long connecting, or any one statement, may take before the office counts as unreachable. */
  timeoutMs?: number
  /**
   * The last seq the office acknowledged as last heard (counter/office.ts keeps it across restarts):
   * only for "N entries behind" while the office is away; what is sent always starts from the office's own answer.
   */
  acknowledged?: number | null
}

/** Decision (issue #11): 1 s doubling to 5 minutes: a shop offline for days costs the office a try every 5 minutes. */
const BACKOFF = { firstMs: 1_000, maxMs: 5 * 60_000 }
/** While caught up, last contact is refreshed this often (the office view's "last seen"). */
const HEARTBEAT_MS = 30_000
/**
 * Decision (issue #11: shipping never slows a sale): while sales are on, the shipper rests after each
 * batch SALES_ON_REST times as long as the batch took, so it and the office's work on it (a
 * PostgreSQL on this same PC shares its cores and disk) run at most an eighth of the time; it still
 * sends a batch every turn, so catching up slows while the shop sells and never stops. Sales are on
 * while the journal has grown within SALES_ON_MS: a sale's outcome follows its intent by the
 * provider's answer, seconds later. Measured by `npm run bench:office` (README, Head office): at a
 * quarter of the time (3), a sale's commit rose 11–16% beside a PostgreSQL on the same disk (its
 * own flushes; 0.98–1.04× with them off), and shipping during sales still ran at ~1,900 entries a
 * second, where a busy counter writes two lines every few seconds: an eighth leaves it hundreds of
 * times ahead of the shop.
 */
const SALES_ON_REST = 7
const SALES_ON_MS = 5_000
/**
 * Decision (issue #28, connections that scale): a counter holds a connection only while it has something to
 * send, and LINGER_MS after its last batch, then lets go; its next line connects again. Holding one for good
 * capped an office at PostgreSQL's max_connections (100 by default, about 95 counters). 5 s because a sale
 * writes its intent and, the provider's answer seconds later, its outcome, and a queue at the counter sells
 * again within seconds: those lines share one connection (one TLS handshake and login, not one per line),
 * while a counter that has gone quiet holds nothing. A quiet counter's heartbeat connects, touches and lets
 * go at once. Counters busy at the same moment still hold one each: past max_connections see OFFICE_FULL.
 */
const LINGER_MS = 5_000
/**
 * Decision: the office answering "too many clients" (53300: max_connections, or a role's or database's own
 * connection limit) is not the office being away: a connection frees within seconds (LINGER_MS), so the
 * shipper tries again after a short wait, doubling to maxMs, each drawn at random between half and one and a
 * half times it so the counters refused together do not come back together. Meanwhile the status bar shows
 * it connecting with its lines waiting, not a failure; only after patienceMs with no free connection is it
 * said (office.full): more counters at once than the office takes is the owner's to fix.
 */
const OFFICE_FULL = { firstMs: 250, maxMs: 15_000, patienceMs: 5 * 60_000 }

/** PostgreSQL's too_many_connections: no connection slot free for this login at this moment. */
export function officeFull(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '53300'
}

/**
 * Plain words for why the office did not answer, from the error's code only: a driver's own
 * message could quote the connection's settings, and none of it would help the shop. Said
 * (shared/words): the core speaks them in the screen's language.
 */
export function unreachableWords(error: unknown, office: OfficeAddress): Said {
  const where = `${office.host}:${office.port}`
  const code = (error as { code?: string } | null)?.code
  switch (code) {
    case 'ECONNREFUSED':
      return say('office.connectionRefused', { where })
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return say('office.hostNotFound', { host: office.host })
    case 'ECONNRESET':
    case 'EPIPE':
    case '57P01':
    case '57P02':
    case '57P03':
      return say('office.connectionClosed', { where })
    case '28P01':
    case '28000':
      return say('office.login', { user: office.user })
    case '3D000':
      return say('office.noDatabase', { database: office.database })
    case '53300':
      return say('office.full', { where })
    // Refused a right: a counter logged in as the office's writer role meets a migration it may not apply, or grants missing.
    case '42501':
      return say('office.notAllowed', { user: office.user })
    default:
      // node-postgres's own words, with no code, for a connection the server dropped (a restart while the shipper rested).
      if (/connection terminated|not queryable|client was closed/i.test(String((error as Error | null)?.message))) return say('office.connectionClosed', { where })
      if (/timeout|timed out/i.test(String((error as Error | null)?.message))) return say('office.noAnswer', { where })
      if (/ssl|tls|certificate/i.test(String((error as Error | null)?.message))) return say('office.tls', { where })
      return say('office.unusable', { where, code: code ?? '' })
  }
}

export interface Shipper {
  /** Ends the loop and its connection; whatever was committed is acknowledged, the rest ships next time. */
  stop(): Promise<void>
}

export function runShipper(options: ShipperOptions): Shipper {
  const { journalDir, terminal, office, onStatus } = options
  const batchSize = options.batchSize ?? 500
  const pollMs = options.pollMs ?? 1_000
  const backoff = options.backoff ?? BACKOFF
  const timeoutMs = options.timeoutMs ?? 15_000
  const cursor = new JournalCursor(journalDir)
  const end = new JournalEnd(journalDir)
  let stopped = false
  let journalSeen = end.lastSeq()
  let grewAt = -Infinity
  let wake: (() => void) | null = null
  let client: pg.Client | null = null

  const status = (state: OfficeStatus['state'], acked: Pick<ChainPoint, 'seq'> | null, unreachableSince: string | null, message: string | null, fork: Parting | null = null) => {
    const acknowledged = acked?.seq ?? options.acknowledged ?? null
    const behind = acknowledged === null ? null : Math.max(0, end.lastSeq() - acknowledged)
    onStatus({ state, terminalId: terminal.terminalId, behind, acknowledged, unreachableSince, message, fork: fork && { partsAt: fork.seq } })
  }
  /**
   * A fork met, by the journal reader or by the office: where this journal parts from what the office holds under
   * its id, recorded at the office (its page shows both claimants). Decision: "behind" counts from the parting, not
   * from the other journal's last entry, which may lie past this journal's end: every entry of this journal the
   * office does not hold under this id is waiting, and the bar says so.
   */
  const refuseFork = async (held: pg.Client, acked: ChainPoint | null, words: string) => {
    const parting = await findParting(held, terminal.terminalId, journalDir)
    if (!parting) return status('refused', acked, null, words)
    const journalEnd = end.lastSeq()
    await recordFork(held, terminal, parting, journalEnd)
    const waiting = Math.max(0, journalEnd - parting.sharedThrough)
    status('refused', { seq: parting.sharedThrough }, null, say('office.forked', { terminal: terminal.terminalId, seq: parting.seq, waiting }), parting)
  }
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wake = null
        resolve()
      }
      wake = done
    })
  /** The rest after a full batch that took `batchMs`: none unless a sale has been written lately. */
  const restForSales = (batchMs: number) => {
    const journalNow = end.lastSeq()
    if (journalNow !== journalSeen) {
      journalSeen = journalNow
      grewAt = Date.now()
    }
    return Date.now() - grewAt < SALES_ON_MS ? pause(batchMs * SALES_ON_REST) : Promise.resolve()
  }
  const drop = async () => {
    const was = client
    client = null
    await was?.end().catch(() => undefined)
  }

  async function connect(): Promise<pg.Client> {
    const next = await postgresClient({
      ...officeConnection(office),
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      application_name: `counter ${terminal.terminalId}`.slice(0, 63),
    })
    // A connection lost while idle is noticed by the next query; this keeps it from ending the thread meanwhile.
    next.on('error', () => undefined)
    try {
      await next.connect()
      await migrateOffice(next)
    } catch (error) {
      await next.end().catch(() => undefined)
      throw error
    }
    return next
  }

  async function loop() {
    let acked: ChainPoint | null = null
    let unreachableSince: string | null = null
    let wait = backoff.firstMs
    let lastContact = 0
    /** When the last batch went in: the connection is let go LINGER_MS after it. */
    let lastSent = -Infinity
    let inTouch = false
    /** Since when, and how long to wait next, while the office has no free connection (OFFICE_FULL). */
    let fullSince: number | null = null
    let fullWait = OFFICE_FULL.firstMs
    /** A batch read while no connection was held, to send on the one it opens. */
    let pending: Batch | null = null
    while (!stopped) {
      try {
        if (!client) {
          if (acked !== null && unreachableSince === null && fullSince === null) {
            // Nothing to send and no heartbeat due: no connection is opened; the journal is looked at again after pollMs.
            pending = cursor.read(acked, batchSize)
            if (pending.entries.length === 0 && !pending.refused && Date.now() - lastContact <= HEARTBEAT_MS) {
              status('caught-up', acked, null, null)
              await pause(pollMs)
              continue
            }
          }
          if (acked === null || unreachableSince !== null) status('connecting', acked, unreachableSince, unreachableSince ? say('office.tryingAgain', { since: unreachableSince }) : null)
          client = await connect()
          const held = await registerTerminal(client, terminal, end.lastSeq())
          // The office's answer is what is sent after: a batch read before it from another point is read again.
          if (acked === null || !samePoint(held, acked)) pending = null
          acked = held
          inTouch = false
          fullSince = null
          fullWait = OFFICE_FULL.firstMs
        }
        const batchStarted = Date.now()
        const batch = pending ?? cursor.read(acked!, batchSize)
        pending = null
        // In touch only once this journal agrees with what the office holds under the id: a fork's claimant never is.
        if (!inTouch && batch.refused?.kind !== 'fork') {
          await touchTerminal(client, terminal, end.lastSeq())
          inTouch = true
          lastContact = Date.now()
        }
        if (batch.entries.length > 0) {
          acked = await ingestBatch(client, terminal.terminalId, batch.entries, end.lastSeq())
          lastContact = Date.now()
          lastSent = lastContact
        }
        unreachableSince = null
        wait = backoff.firstMs
        if (batch.refused) {
          // What came before the break is in the office; from it on, nothing until the journal is looked at (or, a
          // fork, until the owner registers this counter anew). No connection is held meanwhile.
          if (batch.refused.kind === 'fork') await refuseFork(client, acked, batch.refused.message)
          else status('refused', acked, null, batch.refused.message)
          await drop()
          await pause(backoff.maxMs)
          continue
        }
        if (batch.entries.length === batchSize) {
          status('shipping', acked, null, null)
          await restForSales(Date.now() - batchStarted)
          continue
        }
        status('caught-up', acked, null, null)
        if (Date.now() - lastSent >= LINGER_MS) await drop()
        await pause(pollMs)
        if (Date.now() - lastContact > HEARTBEAT_MS && client && !stopped) {
          acked = await touchTerminal(client, terminal, end.lastSeq())
          lastContact = Date.now()
        }
      } catch (error) {
        if (stopped) break
        if (error instanceof OfficeRefusal) {
          if (error.kind === 'fork' && client) await refuseFork(client, acked, error.message).catch(() => status('refused', acked, null, error.message))
          else status('refused', acked, null, error.message)
          await drop()
          await pause(backoff.maxMs)
          continue
        }
        await drop()
        if (officeFull(error)) {
          fullSince ??= Date.now()
          if (Date.now() - fullSince >= OFFICE_FULL.patienceMs) {
            unreachableSince ??= new Date(fullSince).toISOString()
            status('unreachable', acked, unreachableSince, unreachableWords(error, office))
          } else status('connecting', acked, unreachableSince, unreachableSince ? say('office.tryingAgain', { since: unreachableSince }) : null)
          await pause(fullWait * (0.5 + Math.random()))
          fullWait = Math.min(fullWait * 2, OFFICE_FULL.maxMs)
          continue
        }
        fullSince = null
        unreachableSince ??= new Date().toISOString()
        status('unreachable', acked, unreachableSince, unreachableWords(error, office))
        await pause(wait)
        wait = Math.min(wait * 2, backoff.maxMs)
      }
    }
    // A connection opened while stop() was under way is let go here.
    await drop()
  }

  const running = loop()
  return {
    async stop() {
      stopped = true
      wake?.()
      await drop()
      await running
    },
  }
}
