// The office page at scale (issue #28 part 1): an office of 1M or 10M entries written straight into PostgreSQL, its roll-ups backfilled, and the page's reads timed; and what the roll-ups cost a batch at ingest.
import pg from 'pg'
import type { JournalEntry } from '../../electron/ledger/events'
import { GENESIS_HASH, hashEntry } from '../../electron/ledger/segments'
import { ingestBatch, registerTerminal } from '../../electron/office/ingest'
import { migrateOffice } from '../../electron/office/migrations'
import { OfficeReader, officeToday, readDues, shopBreaks } from '../../electron/office/office-view'
import type { OfficeAddress } from '../../electron/office/shipper'
import { startTestPostgres } from '../helpers/postgres'
import type { AnyDraft } from './shop-history'
import { OfficeMeter } from './office-shipping'
import { median } from './stats'

const ZONE = 'Asia/Kolkata'
/** One shop of three counters, as the owner. */
const COUNTERS = 3
/** A busy counter's day: 2,199 sales (every tenth a PAN coupon), each an intent and an outcome, a balance read, a credit payment and the close: 4,401 entries. */
const SLOTS = 2_199
const PER_DAY = 2 * SLOTS + 3
const COUPON_EVERY = 10
const COUPONS_PER_DAY = Math.ceil(SLOTS / COUPON_EVERY)
const COUPON_PAISE = 10_700
const OPENING_BALANCE_PAISE = 1_000_000_000_000
const CREDIT_CUSTOMERS = 200
/** The page's target (issue #28): each read within a second. */
export const PAGE_TARGET_MS = 1_000
const RUNS = 3

export interface PageTimings {
  entries: number
  days: number
  loadS: number
  backfillS: number
  /** Median ms over RUNS, after one warm-up read. */
  todayMs: number
  rangeMs: number
  duesMs: number
  chainMs: number
  /** Entries/s stored by ingest (batches of 500) into this office as a new counter: the roll-ups' cost with this much history. */
  ingestRate: number
}

/**
 * Days `from` to `days - 1` of the shop, every counter's, in one statement: seq, time and payload worked out from the
 * row's place. Decision: the lines are not hash-chained (the page never reads a hash; the tamper check is not timed
 * here) and their body is '{}', so 10M rows load in minutes, not the shipper's 15. The PAN balances chain across the
 * counters exactly (each coupon starts where the shop's one before it ended), as a real shop's do.
 */
const LOAD_DAYS = `
  INSERT INTO entries (terminal, seq, at, type, data, prev, hash, body)
  SELECT 'bench-shop/counter-' || (t + 1), d * ${PER_DAY} + x + 1, opened + make_interval(secs => s.offset_s::float8), s.type, s.data, '', '', '{}'
  FROM generate_series(0, ${COUNTERS - 1}) t, generate_series($1::int, $2::int - 1) d, generate_series(0, ${PER_DAY - 1}) x
  CROSS JOIN LATERAL (SELECT ($3::date - ($4::int - 1 - d))::date AS day) bd
  CROSS JOIN LATERAL (SELECT (bd.day + time '08:00') AT TIME ZONE '${ZONE}' AS opened, (x - 1) / 2 AS k, (x - 1) % 2 AS part) p
  CROSS JOIN LATERAL (SELECT ${OPENING_BALANCE_PAISE}::bigint - ((d::bigint * ${COUPONS_PER_DAY} + p.k / ${COUPON_EVERY}) * ${COUNTERS} + t) * ${COUPON_PAISE} AS before_paise) b
  CROSS JOIN LATERAL (
    SELECT CASE WHEN x = 0 THEN 0 ELSE p.k * 10 + t + p.part * 0.3 + 1 END AS offset_s,
      CASE WHEN x = 0 THEN 'pan.balance.read' WHEN x = ${2 * SLOTS + 1} THEN 'credit.payment' WHEN x = ${2 * SLOTS + 2} THEN 'day.closed'
           WHEN p.k % ${COUPON_EVERY} = 0 THEN CASE p.part WHEN 0 THEN 'pan.coupon.intent' ELSE 'pan.coupon.outcome' END
           ELSE CASE p.part WHEN 0 THEN 'recharge.intent' ELSE 'recharge.outcome' END END AS type,
      CASE WHEN x = 0 THEN jsonb_build_object('balancePaise', ${OPENING_BALANCE_PAISE}::bigint - d::bigint * ${COUPONS_PER_DAY * COUNTERS * COUPON_PAISE}, 'source', 'balance', 'businessDay', bd.day)
           WHEN x = ${2 * SLOTS + 1} THEN jsonb_build_object('receiptId', 'P' || d, 'number', '98' || lpad((d % ${CREDIT_CUSTOMERS})::text, 8, '0'), 'amountPaise', 10000, 'mode', 'cash', 'businessDay', bd.day)
           WHEN x = ${2 * SLOTS + 2} THEN jsonb_build_object('businessDay', bd.day, 'openingFloatPaise', 200000, 'countedPaise', 500000, 'expectedCashPaise', 500000, 'closingPanBalancePaise', 0, 'overrideNote', NULL)
           WHEN p.k % ${COUPON_EVERY} = 0 AND p.part = 0 THEN jsonb_build_object('attemptId', t || '-' || d || '-' || p.k, 'vleId', 'VLE1', 'type', 1, 'qty', 1, 'expectedRatePaise', ${COUPON_PAISE},
             'businessDay', bd.day, 'training', false, 'margin', jsonb_build_object('marginPaise', 500))
           WHEN p.k % ${COUPON_EVERY} = 0 THEN jsonb_build_object('attemptId', t || '-' || d || '-' || p.k, 'orderId', 'ORD', 'outcome', 'SUCCESS', 'amountPaise', ${COUPON_PAISE},
             'oldBalPaise', b.before_paise, 'newBalPaise', b.before_paise - ${COUPON_PAISE})
           WHEN p.part = 0 THEN jsonb_build_object('orderId', t || '-' || d || '-' || p.k, 'operatorName', (ARRAY['Jio', 'Airtel', 'Vi'])[p.k % 3 + 1], 'amountPaise', 19900 + (p.k % 7) * 1000,
             'businessDay', bd.day, 'training', false, 'margin', jsonb_build_object('marginPaise', 500))
             || CASE WHEN p.k % 50 = 1 THEN jsonb_build_object('paymentMode', 'credit', 'creditCustomer', jsonb_build_object('number', '98' || lpad((p.k % ${CREDIT_CUSTOMERS})::text, 8, '0'), 'name', 'Customer ' || p.k % ${CREDIT_CUSTOMERS})) ELSE '{}' END
           ELSE jsonb_build_object('orderId', t || '-' || d || '-' || p.k, 'outcome', CASE WHEN p.k % 97 = 0 THEN 'FAILED' ELSE 'SUCCESS' END) END AS data
  ) s`

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9

async function timed(work: () => Promise<unknown>): Promise<number> {
  await work()
  const runs: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint()
    await work()
    runs.push(seconds(started) * 1000)
  }
  return median(runs)
}

/** The shop's office as built: its size, its days (the last one today), and how long the load and the backfill took. */
export interface LoadedOffice { entries: number; days: number; today: string; loadS: number; backfillS: number }

/**
 * Writes about `entries` entries (whole days of the shop, the last one today) into `client`'s migrated office as a
 * restore would: the roll-ups' triggers off, then office migration 9's backfill over all of it at once.
 */
export async function loadOffice(client: pg.Client, entries: number, progress: (line: string) => void): Promise<LoadedOffice> {
  const days = Math.ceil(entries / (COUNTERS * PER_DAY))
  const today = officeToday(new Date(), ZONE)
  for (let t = 1; t <= COUNTERS; t++) {
    await client.query("INSERT INTO terminals (terminal, shop, counter, last_seq, last_contact) VALUES ($1, 'Bench Shop', $2, $3, now())", [`bench-shop/counter-${t}`, `Counter ${t}`, days * PER_DAY])
  }
  await client.query('ALTER TABLE entries DISABLE TRIGGER USER')
  const loading = process.hrtime.bigint()
  const chunk = Math.max(1, Math.floor(250_000 / (COUNTERS * PER_DAY)))
  for (let from = 0; from < days; from += chunk) {
    await client.query(LOAD_DAYS, [from, Math.min(days, from + chunk), today, days])
    progress(`  ${Math.min(days, from + chunk)} of ${days} days loaded (${seconds(loading).toFixed(0)} s)`)
  }
  const loadS = seconds(loading)
  await client.query('ALTER TABLE entries ENABLE TRIGGER USER')
  await client.query('VACUUM ANALYZE entries')
  const backfilling = process.hrtime.bigint()
  await client.query('SELECT office_rollup_rebuild(ARRAY (SELECT terminal FROM terminals))')
  const backfillS = seconds(backfilling)
  await client.query('VACUUM ANALYZE')
  progress(`  ${days * COUNTERS * PER_DAY} entries: loaded in ${loadS.toFixed(0)} s, roll-ups backfilled in ${backfillS.toFixed(0)} s; timing the page`)
  return { entries: days * COUNTERS * PER_DAY, days, today, loadS, backfillS }
}

/** An office of about `entries` entries, loaded and backfilled, its page timed, then `drafts` ingested into it as a new counter's. */
export async function pageAtScale(entries: number, drafts: readonly AnyDraft[], progress: (line: string) => void): Promise<PageTimings> {
  const db = await startTestPostgres()
  const office: OfficeAddress = { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false }
  const client = new pg.Client(office)
  await client.connect()
  const reader = new OfficeReader(office)
  try {
    await migrateOffice(client)
    const { today, ...loaded } = await loadOffice(client, entries, progress)
    const monthAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)
    const timings = {
      ...loaded,
      todayMs: await timed(() => reader.day(today, ZONE)),
      rangeMs: await timed(() => reader.day(monthAgo, ZONE, today)),
      duesMs: await timed(() => readDues(client, true)),
      chainMs: await timed(() => shopBreaks(client, ['Bench Shop'], today, today, ZONE)),
    }
    return { ...timings, ingestRate: await ingestRate(client, chained(drafts)) }
  } finally {
    await reader.close()
    await client.end()
    db.remove()
  }
}

/** `drafts` chained as one terminal's journal, as its shipper would send it. */
export function chained(drafts: readonly AnyDraft[]): JournalEntry[] {
  let prev = GENESIS_HASH
  return drafts.map(({ at, type, data }, i) => {
    const body = { seq: i + 1, at, type, data }
    const hash = hashEntry(prev, body)
    const entry = { ...body, prev, hash } as JournalEntry
    prev = hash
    return entry
  })
}

/** Entries/s `client`'s office stores `entries` at, as a new terminal's, in batches of 500 as its shipper sends them. */
async function ingestRate(client: pg.Client, entries: readonly JournalEntry[]): Promise<number> {
  const terminal = { terminalId: 'bench-ingest/counter-1', shop: 'Bench Ingest', counter: 'Counter 1' }
  await registerTerminal(client, terminal)
  const started = process.hrtime.bigint()
  for (let from = 0; from < entries.length; from += 500) await ingestBatch(client, terminal.terminalId, entries.slice(from, from + 500))
  return entries.length / seconds(started)
}

/** Ingest's entries/s with the roll-ups kept and with their triggers off (as before office migration 9), in one kind of office. */
export interface IngestRates {
  durable: boolean
  withRollups: number
  without: number
  /** PostgreSQL's CPU per entry stored, µs: less at the mercy of other work on the machine than the wall clock. */
  cpuWith: number
  cpuWithout: number
  /** The roll-ups' own time, µs per entry: their trigger function's, as PostgreSQL counts it (track_functions). */
  triggerUs: number
}

/**
 * Entries/s the office stores in batches of 500 (ingest.ts, one transaction each), with and without the roll-ups:
 * durable (PostgreSQL's defaults, each commit flushed) and with fsync off (what is left is the work itself). Twice
 * each, each first once, the medians: drift on the machine falls on both alike.
 */
export async function ingestRates(drafts: readonly AnyDraft[]): Promise<IngestRates[]> {
  const entries = chained(drafts)
  const rate = async (durable: boolean, rollups: boolean) => {
    const db = await startTestPostgres({ durable })
    const office: OfficeAddress = { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false }
    const client = new pg.Client(office)
    await client.connect()
    const meter = await OfficeMeter.open(office)
    try {
      await migrateOffice(client)
      if (!rollups) await client.query('ALTER TABLE entries DISABLE TRIGGER USER')
      await client.query("SET track_functions = 'pl'")
      const { result, cost } = await meter.measure(() => ingestRate(client, entries))
      await client.query('SELECT pg_stat_force_next_flush()')
      const trigger = await client.query<{ ms: number | null }>("SELECT sum(total_time) AS ms FROM pg_stat_user_functions WHERE funcname = 'office_rollup_insert'")
      return { rate: result, cpuUs: (cost.pgCpuS * 1e6) / entries.length, triggerUs: ((trigger.rows[0].ms ?? 0) * 1000) / entries.length }
    } finally {
      await meter.close()
      await client.end()
      db.remove()
    }
  }
  const rates: IngestRates[] = []
  for (const durable of [true, false]) {
    const runs: Record<'with' | 'without', { rate: number; cpuUs: number; triggerUs: number }[]> = { with: [], without: [] }
    // Each first in one round: the first run of a pair was the faster here, whichever it was.
    for (const first of [false, true]) {
      for (const rollups of [first, !first]) runs[rollups ? 'with' : 'without'].push(await rate(durable, rollups))
    }
    const of = (list: { rate: number; cpuUs: number; triggerUs: number }[], key: 'rate' | 'cpuUs' | 'triggerUs') => median(list.map((run) => run[key]))
    rates.push({
      durable, withRollups: of(runs.with, 'rate'), without: of(runs.without, 'rate'), cpuWith: of(runs.with, 'cpuUs'), cpuWithout: of(runs.without, 'cpuUs'), triggerUs: of(runs.with, 'triggerUs'),
    })
  }
  return rates
}

const count = (value: number) => Math.round(value).toLocaleString('en-US')
const sizeOf = (entries: number) => (entries >= 1_000_000 ? `${(entries / 1_000_000).toFixed(1)}M` : `${count(entries / 1000)}k`)

/** The page's rows of the office bench's report: each read at each size, against the target. */
export function renderPageRows(timings: PageTimings[], ingest: readonly IngestRates[]): string[] {
  const met = (ms: number) => (ms <= PAGE_TARGET_MS ? '✓' : '✗')
  const rows = timings.flatMap((t) => {
    const size = `${sizeOf(t.entries)} entries (${t.days} days × ${COUNTERS} counters)`
    return [
      `| Page at ${size}: today, ms | ${t.todayMs.toFixed(0)} | ≤ ${PAGE_TARGET_MS} | ${met(t.todayMs)} |`,
      `| … a range of 30 days, ms | ${t.rangeMs.toFixed(0)} | ≤ ${PAGE_TARGET_MS} | ${met(t.rangeMs)} |`,
      `| … the credit dues, ms | ${t.duesMs.toFixed(0)} | ≤ ${PAGE_TARGET_MS} | ${met(t.duesMs)} |`,
      `| … the PAN balance chain (today's breaks), ms | ${t.chainMs.toFixed(0)} | ≤ ${PAGE_TARGET_MS} | ${met(t.chainMs)} |`,
      `| … loading them (set-based SQL, not timed as shipping) / backfilling the roll-ups (office migration 9), s | ${t.loadS.toFixed(0)} / ${t.backfillS.toFixed(0)} | | |`,
      `| … ingest into it with the roll-ups kept, a new counter's batches of 500 (fsync off), entries/s | ${count(t.ingestRate)} | | |`,
    ]
  })
  const ingestRows = ingest.flatMap((r) => {
    const kind = r.durable ? 'durable' : 'fsync off'
    return [
      `| Ingest into an empty office (batches of 500, one transaction each, ${kind}): with the roll-ups kept vs their triggers off, entries/s | ${count(r.withRollups)} vs ${count(r.without)} | | |`,
      `| … PostgreSQL CPU per entry (${kind}), µs: with vs without | ${r.cpuWith.toFixed(0)} vs ${r.cpuWithout.toFixed(0)} | | |`,
      `| … the roll-ups' trigger alone (${kind}), µs per entry (ms per batch of 500) | ${r.triggerUs.toFixed(0)} (${((r.triggerUs * 500) / 1000).toFixed(1)}) | | |`,
    ]
  })
  return ['| Measure | PostgreSQL | Target | Met |', '| --- | ---: | ---: | ---: |', ...rows, ...ingestRows]
}
