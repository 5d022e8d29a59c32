// Runs what the bench times on the app's main thread — the core's calls, the sales through the ledger thread and the thread hop's floor beside them — in a fresh process, and prints the results as one JSON line.
// Usage: node --import tsx tests/bench/main-child.ts '<json MainProcessJob>'
// Why a process of its own: the Electron main process holds the core and a ledger client, nothing
// else. The bench's own process has built and replayed every ledger (sql.js's memory, the shop's
// whole history in arrays); its collector's pauses would be counted as the counter's.
import { openLedger } from '../../electron/ledger/ledger-client'
import type { BuiltLedger } from './build-ledgers'
import { ourCommits, PACE, PACED_SALES, threadHopAppends, type OurCommitRun } from './commits'
import { measureCore, type CoreTimes } from './core-reads'

export interface MainProcessJob {
  built: BuiltLedger
  resourcesDir: string
  searchNumbers: string[]
  /** The day after the measured one, which the core's day close has closed: the commits go to it. */
  commitDay: string
  sales: number
  /** A scratch folder for the thread hop's floor. */
  scratch: string
}

export interface MainProcessResult {
  core: CoreTimes
  ours: OurCommitRun
  /** The same sales with snapshots held off (one is taken at close). */
  oursQuiet: OurCommitRun
  /** Fewer sales, snapshots running, paced as at a counter (PACE). */
  oursPaced: OurCommitRun
  /** The thread hop's floor, per sale: its two lines through a bare worker, in this same process. */
  threadHop: number[]
}

async function main(job: MainProcessJob): Promise<MainProcessResult> {
  const core = await measureCore(job.built, job.resourcesDir, job.searchNumbers)
  // Through the ledger thread, as the core commits: each of a sale's two writes is a round trip from this (the main) thread.
  const ledger = await openLedger({ dir: job.built.ledgerDir })
  let ours: OurCommitRun
  let oursPaced: OurCommitRun
  try {
    ours = await ourCommits(ledger, () => ledger.snapshot(), job.commitDay, job.sales)
    oursPaced = await ourCommits(ledger, () => ledger.snapshot(), job.commitDay, PACED_SALES, 4 * job.sales, PACE)
  } finally {
    await ledger.close()
  }
  const quietLedger = await openLedger({ dir: job.built.ledgerDir, snapshotEvery: Number.MAX_SAFE_INTEGER })
  let oursQuiet: OurCommitRun
  try {
    oursQuiet = await ourCommits(quietLedger, () => undefined, job.commitDay, job.sales, 2 * job.sales)
  } finally {
    await quietLedger.close()
  }
  const threadHop = await threadHopAppends(job.scratch, job.commitDay, job.sales)
  return { core, ours, oursQuiet, oursPaced, threadHop }
}

main(JSON.parse(process.argv[2]) as MainProcessJob).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
