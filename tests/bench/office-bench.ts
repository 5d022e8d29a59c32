// `npm run bench:office`: ships 100 terminals × 10k journal entries and one terminal's 1M-entry backlog to a throwaway PostgreSQL through the real shipper thread, times a sale's commit on a terminal while it ships its own backlog, brings 300 counters online at once into an office of max_connections 100, and prints the Markdown table on stdout (progress on stderr).
// OFFICE_BENCH_SCALE=0.05 scales every size down, for a quick look; OFFICE_BENCH_SHIPPERS sets how many terminals ship at once (default 8).
// The page at scale (office-page-scale.ts): OFFICE_BENCH_PAGE_SIZES lists its office sizes in entries (default 1000000,10000000); OFFICE_BENCH_ONLY=page runs only it.
// A closed year exported and dropped (office-years.ts): OFFICE_BENCH_YEARS_ENTRIES entries of one terminal (default 500000); OFFICE_BENCH_ONLY=years runs only it.
import os from 'node:os'
import path from 'node:path'
import { openLedger } from '../../electron/ledger/ledger-client'
import type { OfficeAddress } from '../../electron/office/shipper'
import { startTestPostgres } from '../helpers/postgres'
import { ourCommits, type OurCommitRun } from './commits'
import { settleLedger, shopEvents, writeTerminal, type BuiltTerminal } from './office-journals'
import { caughtUpTo, countersAtOnce, OfficeMeter, shipFleet, startShipping, type AtOnce, type Cost } from './office-shipping'
import { ingestRates, pageAtScale, renderPageRows, type PageTimings } from './office-page-scale'
import { renderYearsRows, yearsAtScale } from './office-years'
import { machineLines } from './report'
import { runInScratchFolder } from './scratch'
import { median, percentile } from './stats'

const SCALE = Number(process.env.OFFICE_BENCH_SCALE ?? 1)
const FLEET_TERMINALS = Math.max(2, Math.round(100 * SCALE))
const FLEET_ENTRIES = Math.max(100, Math.round(10_000 * SCALE))
const BACKLOG_ENTRIES = Math.max(1_000, Math.round(1_000_000 * SCALE))
/**
 * The terminal that sells while it ships: its ledger must replay its journal once (a few thousand
 * entries/s here: 1M would take minutes), and a batch's work does not depend on how long the journal is (the
 * shipper's cursor reads on from where it stopped): a backlog the shipper cannot finish during the
 * sales (checked: "behind when they ended"), not 1M, is what the measure needs.
 */
const SELLING_ENTRIES = Math.max(50_000, Math.round(150_000 * SCALE))
const SHIPPERS_AT_ONCE = Number(process.env.OFFICE_BENCH_SHIPPERS ?? 8)
/** Counters online at once, each with a few sales waiting, into an office of PostgreSQL's default max_connections. */
const AT_ONCE_TERMINALS = Math.max(30, Math.round(300 * SCALE))
const AT_ONCE_ENTRIES = 50
const MAX_CONNECTIONS = 100
/** As ledger-bench's commit rows: 2,000 sales each way, snapshots running between them as in the app. */
const COMMIT_SALES = 2_000
const ROUNDS = 4
/** The issue's bound: a sale's commit while shipping within 10% of the same sales with no shipper. */
const WITHIN = 1.1
const PAGE_SIZES = (process.env.OFFICE_BENCH_PAGE_SIZES ?? '1000000,10000000').split(',').filter(Boolean).map(Number)
/** Entries stored at ingest with and without the roll-ups (the bench shop's, from the start of its history). */
const INGEST_ENTRIES = Math.max(10_000, Math.round(100_000 * SCALE))
/** The bench shop's history from 2020-04-01 (about 1,700 entries a business day): 500,000 reach into 2021, so 2020 is a closed year of about 330,000. */
const YEARS_ENTRIES = Number(process.env.OFFICE_BENCH_YEARS_ENTRIES ?? Math.max(200_000, Math.round(500_000 * SCALE)))
const REPO_ROOT = path.resolve(__dirname, '../..')
const RESOURCES_DIR = path.join(REPO_ROOT, 'resources')

const started = Date.now()
const progress = (line: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

/**
 * The two offices measured: PostgreSQL as it ships (durable), and with its own disk flushes turned
 * off, to show what of a cost is its fsync work. The fleet runs on the first only: the full run stays
 * under ten minutes, and the backlog row shows the same comparison.
 */
const OFFICES = [
  { label: 'PostgreSQL durable (its defaults)', durable: true, fleet: true },
  { label: 'PostgreSQL, fsync off', durable: false, fleet: false },
] as const

interface SalesRun {
  quiet: OurCommitRun
  shipping: OurCommitRun
  /** Over the shipping halves only. */
  duringCost: Cost
  /** How far the shipper got while the sales ran, and how far it still had to go when they ended. */
  shippedDuring: number
  behindAtEnd: number | null
}

interface OfficeRun {
  label: string
  fleet: { cost: Cost; startUpMs: number[] } | null
  backlog: Cost
  backlogEntries: number
  sizes: Awaited<ReturnType<OfficeMeter['sizes']>>
  sales: SalesRun
}

/**
 * The same sales as ledger-bench's commit rows, on the selling terminal through its ledger thread,
 * in ROUNDS rounds of two halves: with no shipper, then while its shipper sends its backlog to a
 * fresh office database (on from where the last round left it). Alternating keeps the machine's
 * drift (page cache, other work) out of the comparison. The shipper has shipped a batch before a
 * half's clock starts, and is stopped when its sales end.
 */
async function salesWhileShipping(selling: BuiltTerminal, office: OfficeAddress, meter: OfficeMeter, first: number): Promise<SalesRun> {
  const ledger = await openLedger({ dir: selling.ledgerDir })
  const perRound = COMMIT_SALES / ROUNDS
  let next = first
  const sell = async () => {
    const run = await ourCommits(ledger, () => ledger.snapshot(), selling.nextDay, perRound, next)
    next += perRound + 100
    return run
  }
  const runs: { quiet: OurCommitRun[]; shipping: OurCommitRun[]; costs: Cost[] } = { quiet: [], shipping: [], costs: [] }
  let shippedDuring = 0
  let behindAtEnd: number | null = null
  try {
    // Not measured: the first sales after an open warm the ledger thread up.
    await sell()
    for (let round = 0; round < ROUNDS; round++) {
      progress(`  round ${round + 1} of ${ROUNDS}: ${perRound} sales with no shipper, then ${perRound} while it ships`)
      runs.quiet.push(await sell())
      const shipper = startShipping(selling, office)
      const shipping = await shipper.until((status) => status.state === 'shipping')
      const { result, cost } = await meter.measure(sell)
      runs.shipping.push(result)
      runs.costs.push(cost)
      const end = shipper.last()!
      await shipper.link.stop()
      shippedDuring += (end.acknowledged ?? 0) - (shipping.acknowledged ?? 0)
      behindAtEnd = end.state === 'caught-up' ? 0 : end.behind
    }
  } finally {
    await ledger.close()
  }
  const pooled = (list: OurCommitRun[]): OurCommitRun => ({ ...list[0], perSale: list.flatMap((run) => run.perSale) })
  const duringCost = runs.costs.reduce((sum, cost) => ({ wallMs: sum.wallMs + cost.wallMs, ourCpuS: sum.ourCpuS + cost.ourCpuS, pgCpuS: sum.pgCpuS + cost.pgCpuS, walBytes: sum.walBytes + cost.walBytes }))
  return { quiet: pooled(runs.quiet), shipping: pooled(runs.shipping), duringCost, shippedDuring, behindAtEnd }
}

async function measureOffice(spec: (typeof OFFICES)[number], fleet: BuiltTerminal[], backlog: BuiltTerminal, selling: BuiltTerminal, first: number): Promise<OfficeRun> {
  progress(`${spec.label}: starting a throwaway cluster`)
  const db = await startTestPostgres({ durable: spec.durable })
  const office: OfficeAddress = { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false }
  const meter = await OfficeMeter.open(office)
  try {
    let fleetRun: OfficeRun['fleet'] = null
    if (spec.fleet) {
      progress(`${spec.label}: ${fleet.length} terminals × ${FLEET_ENTRIES} entries, ${SHIPPERS_AT_ONCE} shipper threads at once`)
      const { result, cost } = await meter.measure(() => shipFleet(fleet, office, SHIPPERS_AT_ONCE))
      fleetRun = { cost, startUpMs: result.startUpMs }
    }
    const backlogEntries = backlog.entries
    progress(`${spec.label}: one terminal's backlog of ${backlogEntries} entries`)
    const { cost: backlogCost } = await meter.measure(async () => {
      const shipper = startShipping(backlog, office)
      await shipper.until(caughtUpTo(backlogEntries))
      await shipper.link.stop()
    })
    const sizes = await meter.sizes()
    await meter.createDatabase('sales_run')
    progress(`${spec.label}: a sale's commit on the selling terminal, shipping to a fresh database`)
    const sales = await salesWhileShipping(selling, { ...office, database: 'sales_run' }, meter, first)
    return { label: spec.label, fleet: fleetRun, backlog: backlogCost, backlogEntries, sizes, sales }
  } finally {
    await meter.close()
    db.remove()
  }
}

async function measureAtOnce(terminals: number, events: ReturnType<typeof shopEvents>, root: string): Promise<AtOnce> {
  const built = Array.from({ length: terminals }, (_, i) => writeTerminal(path.join(root, 'at-once'), `at-once-${String(i + 1).padStart(3, '0')}`, events))
  const db = await startTestPostgres({ durable: true, maxConnections: MAX_CONNECTIONS })
  try {
    return await countersAtOnce(built, { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false })
  } finally {
    db.remove()
  }
}

const MB = 1024 * 1024
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0))
const count = (value: number) => Math.round(value).toLocaleString('en-US')
const seconds = (cost: Cost) => (cost.wallMs / 1000).toFixed(1)
const rate = (entries: number, cost: Cost) => count(entries / (cost.wallMs / 1000))
const cpu = (cost: Cost) => `${cost.ourCpuS.toFixed(1)} / ${cost.pgCpuS.toFixed(1)}`
const spread = (run: OurCommitRun) => `${ms(median(run.perSale))} / ${ms(percentile(run.perSale, 99))} / ${ms(Math.max(...run.perSale))}`
const ratioOf = (sales: SalesRun, p: number) => percentile(sales.shipping.perSale, p) / percentile(sales.quiet.perSale, p)

function renderOfficeReport(runs: OfficeRun[], fleetEntries: number, buildSeconds: number, atOnce: AtOnce): string {
  const each = (cell: (run: OfficeRun) => string) => runs.map(cell)
  const eachFleet = (cell: (fleet: NonNullable<OfficeRun['fleet']>) => string) => runs.map((run) => (run.fleet ? cell(run.fleet) : '—'))
  const tables = [...new Set(runs.flatMap((run) => run.sizes.tables.map((table) => table.name)))]
  const rows: { measure: string; cells: string[]; target?: string; met?: boolean }[] = [
    { measure: `Fleet: ${FLEET_TERMINALS} terminals × ${count(FLEET_ENTRIES)} entries, ${SHIPPERS_AT_ONCE} shipper threads at once, wall s`, cells: eachFleet((f) => seconds(f.cost)) },
    { measure: '… entries/s', cells: eachFleet((f) => rate(fleetEntries, f.cost)) },
    { measure: '… a shipper thread’s start-up (tsx compiling its source), median ms, in the wall time', cells: eachFleet((f) => count(median(f.startUpMs))) },
    { measure: '… CPU s: this process (shipper threads) / PostgreSQL', cells: eachFleet((f) => cpu(f.cost)) },
    { measure: '… WAL written, MB', cells: eachFleet((f) => (f.cost.walBytes / MB).toFixed(0)) },
    { measure: 'Backlog: one terminal’s entries, caught up from none, s', cells: each((r) => `${seconds(r.backlog)} (${count(r.backlogEntries)} entries)`) },
    { measure: '… entries/s', cells: each((r) => rate(r.backlogEntries, r.backlog)) },
    { measure: '… CPU s: this process (shipper thread) / PostgreSQL', cells: each((r) => cpu(r.backlog)) },
    { measure: '… WAL written, MB', cells: each((r) => (r.backlog.walBytes / MB).toFixed(0)) },
    { measure: 'Database size with the rows above in it (pg_database_size), MB', cells: each((r) => (r.sizes.database / MB).toFixed(0)) },
    ...tables.map((name) => ({ measure: `… table \`${name}\` with its indexes and TOAST, MB`, cells: each((r) => ((r.sizes.tables.find((t) => t.name === name)?.bytes ?? 0) / MB).toFixed(1)) })),
    { measure: `Sale commit on a terminal with ${count(SELLING_ENTRIES)} entries to ship, no shipper (${count(COMMIT_SALES)} sales), p50 / p99 / max ms`, cells: each((r) => spread(r.sales.quiet)) },
    { measure: `… the same sales while its shipper sends the backlog (${count(COMMIT_SALES)}), p50 / p99 / max ms`, cells: each((r) => spread(r.sales.shipping)) },
    { measure: 'While shipping ÷ no shipper, p50', cells: each((r) => `${ratioOf(r.sales, 50).toFixed(2)}×`), target: `≤ ${WITHIN}×`, met: runs.every((r) => ratioOf(r.sales, 50) <= WITHIN) },
    { measure: '… p99', cells: each((r) => `${ratioOf(r.sales, 99).toFixed(2)}×`) },
    { measure: 'Shipped while the sales ran: entries (entries/s); behind when they ended', cells: each((r) => `${count(r.sales.shippedDuring)} (${rate(r.sales.shippedDuring, r.sales.duringCost)}); ${r.sales.behindAtEnd === null ? '?' : count(r.sales.behindAtEnd)}`) },
    { measure: '… CPU s over the sales: this process (ledger + shipper threads) / PostgreSQL', cells: each((r) => cpu(r.sales.duringCost)) },
  ]
  const atOnceRow = `| Counters served at once within max_connections ${MAX_CONNECTIONS}: ${count(AT_ONCE_TERMINALS)} online together, ${AT_ONCE_ENTRIES} entries each | ${[
    `all in after ${(atOnce.wallMs / 1000).toFixed(1)} s`,
    `at most ${atOnce.peak} connections held at once, ${atOnce.quiet} once quiet`,
    `${atOnce.failed} told of a failure`,
  ].join('; ')} | ${count(AT_ONCE_TERMINALS)} counters, none told of a failure | ${atOnce.failed === 0 ? '✓' : '✗'} |`
  const header = ['Measure', ...runs.map((r) => r.label), 'Target', 'Met']
  const table = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((row) => `| ${[row.measure, ...row.cells, row.target ?? '', row.met === undefined ? '' : row.met ? '✓' : '✗'].join(' | ')} |`),
  ]
  const notes = [
    `Terminals: journals of the benchmark shop's history (tests/bench/shop-history.ts: recharges, coupons, balance reads, top-ups, day closes), ` +
      `each its own chain from its own \`terminal.named\` line, written in the ledger's line format; the selling terminal's ledger replayed its journal into a snapshot. Built in ${buildSeconds.toFixed(0)} s.`,
    'Shipping: the real shipper thread (electron/office/shipper-link.ts) per terminal, batches of 500, each batch checked again and stored by the office in one transaction; ' +
      'a fleet thread starts, ships its terminal, reports caught up and stops, the next terminal taking its place. Wall times include starting each thread.',
    'Everything runs on this one machine: PostgreSQL (a throwaway cluster, tests/helpers/postgres.ts) shares its cores and its disk with the terminal, which a head office normally does not ' +
      '(the owner’s own PC may). "Durable" is PostgreSQL’s defaults (fsync, synchronous_commit, full_page_writes on); "fsync off" sets those aside, so the difference between the columns ' +
      'is PostgreSQL’s own flushing to the disk the terminal’s journal fsyncs to. CPU: this process’s (process.cpuUsage: the bench’s main thread, the ledger thread, the shipper threads) ' +
      'and the PostgreSQL server’s (its postmaster and every backend, from /proc).',
    `Sale commits: as \`npm run bench\`'s: a sale's intent (fsync'd) and outcome, one request each to the ledger thread as the counter sends them (electron/ledger/sale-writes.ts), snapshots every 500 events as in the app; ` +
      `${count(COMMIT_SALES)} each way, in ${ROUNDS} rounds of ${count(COMMIT_SALES / ROUNDS)} with no shipper then ${count(COMMIT_SALES / ROUNDS)} while it ships (each half after 20 warm-up sales), ` +
      'so drift on the machine falls on both alike. The shipper sends the selling terminal to a fresh database from its first entry, each round on from where the last left it; ' +
      'it has shipped a batch before a half starts, and is stopped when the half ends. While the journal grows the shipper rests seven times as long as each batch took ' +
      '(electron/office/shipper.ts, SALES_ON_REST): "shipped while the sales ran" is that paced rate, sales back to back; the CPU row splits the same window between this process and PostgreSQL.',
  ]
  const atOnceTable = ['| Measure | PostgreSQL durable (its defaults) | Target | Met |', '| --- | ---: | ---: | ---: |', atOnceRow]
  const atOnceNote =
    `Counters at once: ${count(AT_ONCE_TERMINALS)} terminals start shipping together into a fresh office started with max_connections ${MAX_CONNECTIONS} ` +
    '(one of them the bench’s own, counting the counters’ connections every 50 ms), each a shipper of its own in the bench’s process (runShipper, not a thread each). ' +
    'A counter holds a connection for its batches and 5 s after (LINGER_MS), and waits and tries again when PostgreSQL answers "too many clients": before, each held one for good, ' +
    `so fewer than ${MAX_CONNECTIONS} could ship at all.`
  return ['## Office benchmark (`npm run bench:office`)', '', ...machineLines(os.tmpdir()), `- Scale: ${SCALE}`, '', ...table, '', ...atOnceTable, '', notes.join('\n\n'), '', atOnceNote, ''].join('\n')
}

/** The page at each size and ingest's cost of the roll-ups, as the report's own table. */
async function pageSection(): Promise<string> {
  progress(`Ingest: ${INGEST_ENTRIES} entries in batches of 500, with the roll-ups and without`)
  const drafts = shopEvents(RESOURCES_DIR, INGEST_ENTRIES)
  const ingest = await ingestRates(drafts)
  const timings: PageTimings[] = []
  for (const size of PAGE_SIZES) {
    progress(`The page at ${size} entries`)
    timings.push(await pageAtScale(size, drafts, progress))
  }
  const note =
    'The page at scale: one shop of three busy counters (4,401 entries a counter a day: 2,199 sales, every tenth a PAN coupon, a balance read, a credit payment, the close), ' +
    'whole days up to today written straight into a throwaway PostgreSQL with set-based SQL (tests/bench/office-page-scale.ts), then office migration 9’s backfill; ' +
    'each read is the page’s own (OfficeReader.day for today and for 30 days, which include the dues and the chain; then the dues and the chain alone), median of 3 after a warm-up.'
  return ['## Office page at scale', '', ...renderPageRows(timings, ingest), '', note, ''].join('\n')
}

async function yearsSection(root: string): Promise<string> {
  const run = await yearsAtScale(shopEvents(RESOURCES_DIR, YEARS_ENTRIES), root, progress)
  const note =
    'A closed year: the bench shop’s history from its first day as one terminal’s entries, stored in batches of 500 as its shipper sends them into a durable throwaway PostgreSQL, ' +
    'then its first calendar year exported and dropped by years.ts as `npm run office -- export-year` and `drop-year` do it; sizes by pg_total_relation_size after VACUUM FULL.'
  return ['## A closed year exported and dropped', '', ...renderYearsRows(run), '', note, ''].join('\n')
}

runInScratchFolder('counter-office-bench-', async (root) => {
  if (process.env.OFFICE_BENCH_ONLY === 'years') {
    process.stdout.write(['## Office benchmark (`npm run bench:office`)', '', ...machineLines(os.tmpdir()), '', await yearsSection(root)].join('\n'))
    progress('Done')
    return
  }
  if (process.env.OFFICE_BENCH_ONLY === 'page') {
    process.stdout.write(['## Office benchmark (`npm run bench:office`)', '', ...machineLines(os.tmpdir()), '', await pageSection()].join('\n'))
    progress('Done')
    return
  }
  progress(`Writing ${FLEET_TERMINALS} journals of ${FLEET_ENTRIES} entries, one of ${BACKLOG_ENTRIES} and one of ${SELLING_ENTRIES} in ${root}`)
  const fleetEvents = shopEvents(RESOURCES_DIR, FLEET_ENTRIES - 1)
  const fleet = Array.from({ length: FLEET_TERMINALS }, (_, i) => writeTerminal(path.join(root, 'fleet'), `counter-${String(i + 1).padStart(3, '0')}`, fleetEvents))
  const events = shopEvents(RESOURCES_DIR, BACKLOG_ENTRIES - 1)
  const backlog = writeTerminal(root, 'backlog', events)
  const selling = writeTerminal(root, 'selling', events.slice(0, SELLING_ENTRIES - 1))
  progress(`Replaying the selling terminal's ${SELLING_ENTRIES} entries into its ledger`)
  await settleLedger(selling.ledgerDir)
  const buildSeconds = (Date.now() - started) / 1000
  const runs: OfficeRun[] = []
  // Each office's sales get their own order ids: the ledger refuses none, but the journal stays one shop's.
  for (const [index, spec] of OFFICES.entries()) runs.push(await measureOffice(spec, fleet, backlog, selling, index * 10 * COMMIT_SALES))
  progress(`Counters at once: ${AT_ONCE_TERMINALS} terminals of ${AT_ONCE_ENTRIES} entries into an office of max_connections ${MAX_CONNECTIONS}`)
  const atOnce = await measureAtOnce(AT_ONCE_TERMINALS, fleetEvents.slice(0, AT_ONCE_ENTRIES - 1), root)
  process.stdout.write(renderOfficeReport(runs, fleet.reduce((sum, t) => sum + t.entries, 0), buildSeconds, atOnce))
  process.stdout.write(`\n${await pageSection()}`)
  process.stdout.write(`\n${await yearsSection(root)}`)
  progress('Done')
})
