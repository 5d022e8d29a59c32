// `npm run bench`: builds ledgers of 10k, 100k and 1M sales in a temp folder, measures each, prints the Markdown table on stdout (progress on stderr), and removes the folder.
// BENCH_SIZES=10000,100000 measures fewer sizes, for a quick look; the table is only the with all three.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { buildLedgers, regularNumbers, type BuiltLedger } from './build-ledgers'
import { bareAppends, betterSqliteCommits, naiveCommits, PACE, PACED_SALES } from './commits'
import type { LoopFloor } from './loop-floor-child'
import type { MainProcessJob, MainProcessResult } from './main-child'
import type { OpenSample } from './open-child'
import { deadAddress } from './core-reads'
import { launcherStarts, type LauncherStart } from './launcher-start'
import { counterEnvironment } from '../crash/real-core'
import { ledgerFiles, machineLines, renderReport, sizeLabel, type SizeResult } from './report'
import { runInScratchFolder } from './scratch'
import { FIRST_DAY } from './shop-history'

const SIZES = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : [10_000, 100_000, 1_000_000]
const REPO_ROOT = path.resolve(__dirname, '../..')
const RESOURCES_DIR = path.join(REPO_ROOT, 'resources')
const OPEN_CHILD = path.join(__dirname, 'open-child.ts')
const MAIN_CHILD = path.join(__dirname, 'main-child.ts')
const LOOP_FLOOR_CHILD = path.join(__dirname, 'loop-floor-child.ts')
const OPEN_RUNS = 5
const SEARCHES = 5
const COMMIT_SALES = 2_000
/** Browser mode's start from spawn: on a fresh folder (training, each run its own folder), and on each built ledger (real mode). */
const FRESH_STARTS = 5
const BUILT_STARTS = 3
/** The export per sale is measured up to this size: past it one sale takes seconds. */
const NAIVE_UP_TO = 100_000
const NAIVE_MAX_SALES = 200
const NAIVE_MAX_MS = 15_000

const started = Date.now()
const progress = (line: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

function mainProcessRuns(job: MainProcessJob): MainProcessResult {
  const output = execFileSync(process.execPath, ['--import', 'tsx', MAIN_CHILD, JSON.stringify(job)], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] })
  return JSON.parse(output.trim().split('\n').at(-1)!) as MainProcessResult
}

function loopFloorInFreshProcess(): LoopFloor {
  const output = execFileSync(process.execPath, ['--import', 'tsx', LOOP_FLOOR_CHILD], { cwd: REPO_ROOT, encoding: 'utf8' })
  return JSON.parse(output.trim().split('\n').at(-1)!) as LoopFloor
}

function openInFreshProcess(ledgerDir: string): OpenSample {
  const output = execFileSync(process.execPath, ['--import', 'tsx', OPEN_CHILD, ledgerDir], { cwd: REPO_ROOT, encoding: 'utf8' })
  const sample = JSON.parse(output.trim().split('\n').at(-1)!) as OpenSample
  if (sample.problems.length > 0) throw new Error(`Opening ${ledgerDir} reported: ${sample.problems.join(' ')}`)
  return sample
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/** Everything for one size, the reads before the writes: the files and the open see the ledger as built. */
async function measure(built: BuiltLedger, scratchRoot: string, searchNumbers: string[]): Promise<SizeResult> {
  const label = sizeLabel(built.sales)
  const files = ledgerFiles(built.ledgerDir)
  const scratch = path.join(scratchRoot, `scratch-${label}`)
  fs.mkdirSync(scratch, { recursive: true })
  const baseSnapshot = path.join(scratch, 'base.sqlite')
  fs.copyFileSync(path.join(built.ledgerDir, 'ledger.sqlite'), baseSnapshot)

  progress(`${label}: opening in ${OPEN_RUNS} fresh processes`)
  const opens = Array.from({ length: OPEN_RUNS }, () => openInFreshProcess(built.ledgerDir))
  // The measured day is closed by the core's run: the commits go to the next one.
  const commitDay = nextDay(built.today)
  progress(`${label}: ${COMMIT_SALES} bare fsync'd appends`)
  const bare = await bareAppends(scratch, COMMIT_SALES)
  progress(`${label}: ${PACED_SALES} bare appends paced as the sales are`)
  const barePaced = await bareAppends(scratch, PACED_SALES, PACE)
  progress(`${label}: the main event loop's floor, in a fresh process: idle beside a thread allocating nonstop, then alone`)
  const loopFloor = loopFloorInFreshProcess()
  progress(`${label}: in a fresh process, as the app's main one: the core in real mode (start, day summary, history, searches, day close), then ${COMMIT_SALES} durable sale commits through the ledger thread`)
  const { core, ours, oursQuiet, oursPaced, threadHop } = mainProcessRuns({ built, resourcesDir: RESOURCES_DIR, searchNumbers, commitDay, sales: COMMIT_SALES, scratch })
  let naive = null
  if (built.sales <= NAIVE_UP_TO) {
    progress(`${label}: sales with a whole-database export each (up to ${NAIVE_MAX_MS / 1000} s)`)
    naive = await naiveCommits(baseSnapshot, commitDay, NAIVE_MAX_SALES, NAIVE_MAX_MS)
  }
  progress(`${label}: ${COMMIT_SALES} sales in better-sqlite3`)
  const better = betterSqliteCommits(baseSnapshot, commitDay, COMMIT_SALES)
  fs.rmSync(scratch, { recursive: true, force: true })
  progress(`${label}: browser mode's launcher started ${BUILT_STARTS} times on these books in real mode, its provider refusing connections`)
  const launcher = await launcherStarts(() => built.dataDir, counterEnvironment(await deadAddress(), built.dataDir), BUILT_STARTS)
  return { sales: built.sales, entries: built.entries, today: built.today, files, opens, core, bare, barePaced, loopFloor, ours, oursQuiet, oursPaced, threadHop, naive, better, launcher }
}

function notes(results: SizeResult[], buildSeconds: number): string[] {
  const days = results.map((result) => `${sizeLabel(result.sales)} on ${result.today}`).join(', ')
  return [
    `Ledgers: one shop's history from ${FIRST_DAY}, about 200k sales a year over business days (recharges across operators and plans, a few coupon orders, ` +
      `balance reads and top-ups a day, every day closed); each size is that history cut on the evening of a 500-sale day (${days}), ` +
      `closed financial years archived by the ledger itself. Built in ${buildSeconds.toFixed(0)} s: journal lines written with the ledger's hash chain ` +
      'and segment names, replayed into snapshots by `Ledger.open`, archived by `archiveClosedYears`.',
    `Sale commits: ${COMMIT_SALES.toLocaleString('en-US')} sales after 20 warm-up ones, on the ledger as built, its snapshots running between sales as in the app; ` +
      'a sale is its two requests to the ledger thread as the counter sends them (`electron/ledger/sale-writes.ts`): the intent (the number’s open sale and the order id’s seq checked, ' +
      'the line fsync’d before the provider would be called, the sale read back) and the outcome (the line, fsync’d by the next line that syncs, at the latest 200 ms later, and the sale read back). ' +
      `Bare append: a 300-byte line written and fsync’d ${COMMIT_SALES.toLocaleString('en-US')} times to a plain file in the same folder, just before. ` +
      'The thread hop’s floor: the same sales’ two lines each sent as a message to a worker thread that only writes it as JSON (the intent’s fsync’d) and answers, ' +
      'in the commits’ own process after them: what any ledger in a thread of its own pays before doing its work (tests/bench/commits.ts threadHopAppends). ' +
      'Event-loop delay: `perf_hooks.monitorEventLoopDelay` (1 ms resolution) on the main thread over the 2,000 sales, the day close and the first audit. ' +
      'Its floor: the same monitor for 5 s in a fresh process whose main thread does nothing, beside one worker thread allocating short-lived objects nonstop, ' +
      'then 5 s alone (tests/bench/loop-floor-child.ts). ' +
      'A process start’s floor: the same monitor in the counter’s own process just before the first audit, while a worker thread starts three bare Node processes in turn ' +
      '(tests/bench/process-start.ts): the audit starts one, and on Linux a start forks the whole process, books included. ' +
      'The core and the commits run in a fresh process holding only them, as the app\'s main process does (the bench\'s own process has built every ledger). ' +
      `Export per sale: up to ${NAIVE_MAX_MS / 1000} s of sales, one export after the outcome (the journal's guarantee would need one after the intent too: ` +
      'this favours the export). better-sqlite3 runs the ledger’s own projection statements on a copy of the same snapshot, each event its own transaction.',
    `Open: \`Ledger.open\` in a new Node process per run after a clean close (sql.js wasm load included; files in the page cache); peak RSS is that ` +
      "process's VmHWM, Node and the TypeScript loader included. Core rows: `startCounter` in real mode, its " +
      'provider address refusing connections, so the day summary’s balance read fails at once and it shows the last known balance.',
  ]
}

runInScratchFolder('counter-bench-', async (root) => {
  progress(`Browser mode's launcher started ${FRESH_STARTS} times, each on a fresh folder (training)`)
  const fresh: LauncherStart = await launcherStarts((run) => fs.mkdtempSync(path.join(root, `fresh-${run}-`)), {}, FRESH_STARTS)
  progress(`Building ledgers of ${SIZES.map(sizeLabel).join(', ')} sales in ${root}`)
  const built = await buildLedgers(root, RESOURCES_DIR, SIZES, progress)
  const buildSeconds = (Date.now() - started) / 1000
  const searchNumbers = regularNumbers(RESOURCES_DIR, SIZES, SEARCHES)
  const results: SizeResult[] = []
  for (const ledger of built) results.push(await measure(ledger, root, searchNumbers))
  process.stdout.write(renderReport(machineLines(root), results, notes(results, buildSeconds), fresh))
  progress('Done')
})
