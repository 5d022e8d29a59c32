// Crash-test driver: for each flow x kill point x victim x repetition, a child runs the real core against a
// fresh simulator and, mid-sale, dies by SIGKILL or loses only a ledger thread (then closes and exits by
// itself); the core is restarted here on the same folder and the invariants are checked.
// Full run: CRASH_RUNS=20 npx tsx tests/crash/crash-runs.ts  (20 per kill point and victim = 480 runs; exits 1 on any violation)
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { Outcome } from '../../electron/contract'
import type { CounterApp } from '../../electron/counter/app'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import { realApiKey, realCredentials, tempDir } from '../integration/helpers'
import { childArgs } from '../helpers/child-bundle'
import { checkRun, type RechargeRow, type RunCounts } from './invariants'
import { cutUnsyncedTail } from './power-cut'
import {
  childLine,
  END_LEDGER_THREAD,
  FLOWS,
  KILL_POINTS,
  ORDER_OPERATION,
  parseChildLine,
  powerCutFor,
  RECHARGE_AFTER_RESTART,
  VICTIMS,
  type ChildLine,
  type Flow,
  type KillPoint,
  type Victim,
} from './protocol'
import { counterEnvironment, startRealCore } from './real-core'

const REPO_ROOT = resolve(__dirname, '../..')
const CHILD_SCRIPT = resolve(__dirname, 'child.ts')
const CHILD_TIME_LIMIT_MS = 60_000
const START_UP_TIME_LIMIT_MS = 15_000
const PROVIDER_TIMEOUT_MS = 5_000
/** How long the in-flight hook waits for the child to report its ledger thread gone. */
const THREAD_DEATH_LIMIT_MS = 10_000
const NO_COUNTS: RunCounts = { acked: 0, ordersAtProvider: 0, resolvedByStatusCheck: 0, leftForPhone: 0 }

export interface RunResult {
  flow: Flow
  killPoint: KillPoint
  victim: Victim
  repetition: number
  violations: string[]
  counts: RunCounts
  /** The child's output and the restarted core's log, kept only when something failed. */
  diagnostics: string
  ms: number
}

interface ChildRun {
  code: number | null
  signal: NodeJS.Signals | null
  lines: ChildLine[]
  stderr: string
}

/** Starts the child; `kill` and `endLedgerThread` are for the simulator's in-flight hook, `exited` settles when it is gone. */
function startChild(script: string[], flow: Flow, killPoint: KillPoint, victim: Victim, repetition: number, env: Record<string, string>) {
  const child = spawn(process.execPath, [...script, flow, killPoint, String(repetition), victim], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const lines: ChildLine[] = []
  let stderr = ''
  let onThreadEnded = () => {}
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = parseChildLine(text)
    if (line) lines.push(line)
    if (line?.kind === 'THREAD-ENDED') onThreadEnded()
  })
  // A child that died first closes its stdin under the writer: nothing to report, the run's judge sees how it ended.
  child.stdin.on('error', () => {})
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const stdoutClosed = new Promise((done) => child.stdout.once('close', done))
  const limit = setTimeout(() => child.kill('SIGKILL'), CHILD_TIME_LIMIT_MS)
  const exited = new Promise<ChildRun>((done) => {
    child.once('exit', (code, signal) => {
      clearTimeout(limit)
      // Every line the child wrote before it died is read before the run is judged.
      void stdoutClosed.then(() => done({ code, signal, lines, stderr }))
    })
  })
  return {
    exited,
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
    /** Tells the child to end its ledger thread and waits until it says the thread is gone (or the limit passes). */
    async endLedgerThread() {
      const ended = new Promise<void>((done) => {
        onThreadEnded = done
        setTimeout(done, THREAD_DEATH_LIMIT_MS)
      })
      child.stdin.write(END_LEDGER_THREAD + '\n')
      await Promise.race([ended, exited])
    },
  }
}

async function value<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const answer = await result
  if (!answer.ok) throw new Error(answer.error.message)
  return answer.value
}

/** Every recharge the ledger holds, whatever its business day (a run may straddle midnight in India). */
async function recharges(counter: CounterApp): Promise<RechargeRow[]> {
  const { rows } = await value(counter.call('history.search', { kind: 'recharge' }))
  return rows.map((row) => ({ orderId: row.id, state: row.state }))
}

/**
 * Start-up is done when no recharge and no provider-named coupon is left open, and the PAN balance has
 * been read since the restart. Polled: the core does this in the background while it already serves.
 */
async function startUpSettled(counter: CounterApp, restartedAt: number): Promise<boolean> {
  const deadline = Date.now() + START_UP_TIME_LIMIT_MS
  while (Date.now() < deadline) {
    const sales = await recharges(counter)
    const { sales: coupons } = await value(counter.call('pan.coupons.list', {}))
    const { items } = await value(counter.call('pending.list', {}))
    // An open sale may stay open after its check (an order the provider never received is not settled at once): asked since the restart is enough.
    const askedSince = new Set(items.filter((item) => item.lastCheckedAt !== null && Date.parse(item.lastCheckedAt) >= restartedAt).map((item) => item.id))
    const open = [...sales.map((s) => ({ id: s.orderId, state: s.state })), ...coupons.filter((c) => c.orderId !== null).map((c) => ({ id: c.attemptId, state: c.state }))]
    const unasked = open.some((s) => (s.state === 'SENDING' || s.state === 'UNKNOWN') && !askedSince.has(s.id))
    const { panBalance } = await value(counter.call('app.status', {}))
    const balanceRead = panBalance.readAt !== null && Date.parse(panBalance.readAt) >= restartedAt
    if (!unasked && balanceRead) return true
    await new Promise((wait) => setTimeout(wait, 25))
  }
  return false
}

/** Restarts the core on the crashed data folder, lets start-up finish, and judges the run. */
async function restartAndJudge(
  run: { flow: Flow; killPoint: KillPoint; victim: Victim; repetition: number; childRun: ChildRun },
  provider: Simulator,
  dataDir: string,
  coreLog: string[],
): Promise<{ violations: string[]; counts: RunCounts }> {
  const childRequests = provider.requests.slice()
  const restartedAt = Date.now()
  const counter = await startRealCore(dataDir, provider.url, { providerTimeoutMs: PROVIDER_TIMEOUT_MS, log: (line) => coreLog.push(line) })
  try {
    const settled = await startUpSettled(counter, restartedAt)
    const restartRequests = provider.requests.slice(childRequests.length)
    const sales = await recharges(counter)
    const { sales: coupons } = await value(counter.call('pan.coupons.list', {}))
    const { items: pending } = await value(counter.call('pending.list', {}))
    const { panBalance } = await value(counter.call('app.status', {}))

    const truthClient = new RechargeApi({ baseUrl: provider.url, credentials: realCredentials, timeoutMs: PROVIDER_TIMEOUT_MS })
    const providerTruth = new Map<string, Outcome>()
    const sentOrderIds = childRequests.filter((r) => r.operation === 'transaction').map((r) => r.fields.order_id)
    // What the provider's answer means for a sale sent seconds ago, as every sale here was: an order it
    // never received stays UNKNOWN ("no such order" settles only NOT_FOUND_SETTLES_AFTER_MS on).
    for (const orderId of new Set([...sales.map((s) => s.orderId), ...sentOrderIds])) {
      providerTruth.set(orderId, (await truthClient.checkStatus(orderId, 0)).outcome)
    }
    truthClient.close()

    const { flow, killPoint, victim, repetition, childRun } = run
    const judged = checkRun({
      flow,
      killPoint,
      victim,
      repetition,
      child: { code: childRun.code, signal: childRun.signal, lines: childRun.lines },
      childRequests,
      restartRequests,
      sales,
      coupons,
      pending,
      panBalancePaise: panBalance.balancePaise,
      providerBalancePaise: provider.pan.balancePaise(),
      providerTruth,
    })
    if (!settled) judged.violations.push(`(3) start-up checks had not finished after ${START_UP_TIME_LIMIT_MS / 1000} s`)
    // (5) The crash left the ledger writable: the counter sells again.
    const again = await counter.call('recharge.sell', RECHARGE_AFTER_RESTART)
    if (!again.ok || again.value.state !== 'SUCCESS') {
      judged.violations.push(`(5) a sale after the restart did not go through: ${again.ok ? again.value.state : again.error.message}`)
    }
    return judged
  } finally {
    await counter.close()
  }
}

export async function runOnce(flow: Flow, killPoint: KillPoint, victim: Victim, repetition: number): Promise<RunResult> {
  const started = Date.now()
  const dir = tempDir('counter-crash-')
  const coreLog: string[] = []
  let child: ReturnType<typeof startChild> | undefined
  let orderRequests = 0
  const provider = await startSimulator({
    recharge: realCredentials,
    pan: { apiKey: realApiKey, approveAfterChecks: 0 },
    // In flight: the child (or its ledger thread) dies once the provider has the armed (second) order, which it then still processes.
    onRequest: async (request) => {
      if (killPoint !== 'in-flight' || request.operation !== ORDER_OPERATION[flow] || ++orderRequests !== 2) return
      if (victim === 'process') await child?.kill()
      else await child?.endLedgerThread()
    },
  })
  try {
    child = startChild(await childArgs(CHILD_SCRIPT), flow, killPoint, victim, repetition, counterEnvironment(provider.url, dir.path))
    const childRun = await child.exited
    // An in-flight order is processed synchronously once the hook's kill returns: done before the next turn.
    await new Promise((turn) => setImmediate(turn))
    // A power cut takes the machine, not a thread: a child that closed its core has fsync'd every line.
    const powerCut = killPoint === 'after-outcome' && victim === 'process'
    const waiting = powerCut ? cutUnsyncedTail(resolve(dir.path, 'ledger'), powerCutFor(repetition)) : 0
    const { violations, counts } = await restartAndJudge({ flow, killPoint, victim, repetition, childRun }, provider, dir.path, coreLog).catch(
      (error: unknown) => ({ violations: [`the restart failed: ${error instanceof Error ? error.stack : String(error)}`], counts: NO_COUNTS }),
    )
    // A recharge's outcome waits for the next fsync; were it fsync'd at once the power cut would take nothing and prove nothing.
    if (powerCut && flow === 'recharge' && waiting === 0) violations.push('harness: no journal line was waiting for its fsync at the kill')
    const diagnostics = violations.length ? `child stdout:\n${childRun.lines.map(childLine).join('\n')}\nchild stderr:\n${childRun.stderr}\ncore log after restart:\n${coreLog.join('\n')}` : ''
    return { flow, killPoint, victim, repetition, violations, counts, diagnostics, ms: Date.now() - started }
  } finally {
    await child?.kill()
    await provider.close()
    dir.remove()
  }
}

export interface CrashPlanOptions {
  /** Repetitions per flow, kill point and victim. */
  repetitions: number
  /** The first repetition's number (it picks the power cut and the snapshot's death): a one-repetition sample starts at 1, the first with a power cut. */
  firstRepetition?: number
  /**
   * One victim per flow and kill point instead of both: the process at the recharge's even kill points and the
   * coupon's odd ones, a ledger thread at the rest, so across the two flows every kill point meets both victims
   * (and the recharge's after-outcome, where a power cut bites, is the process's).
   */
  oneVictimEach?: boolean
}

export interface CrashSuiteOptions extends CrashPlanOptions {
  /** Runs at once; each is a child process plus a core here. */
  concurrency?: number
  onRun?: (result: RunResult) => void
}

export function crashPlan({ repetitions, firstRepetition = 0, oneVictimEach = false }: CrashPlanOptions): { flow: Flow; killPoint: KillPoint; victim: Victim; repetition: number }[] {
  const numbers = Array.from({ length: repetitions }, (_, index) => firstRepetition + index)
  const victimsOf = (flow: Flow, killPoint: KillPoint): readonly Victim[] =>
    oneVictimEach ? [VICTIMS[(KILL_POINTS.indexOf(killPoint) + FLOWS.indexOf(flow)) % VICTIMS.length]] : VICTIMS
  return FLOWS.flatMap((flow) =>
    KILL_POINTS.flatMap((killPoint) => victimsOf(flow, killPoint).flatMap((victim) => numbers.map((repetition) => ({ flow, killPoint, victim, repetition })))),
  )
}

export async function runCrashSuite({ concurrency = 2, onRun, ...planOptions }: CrashSuiteOptions): Promise<RunResult[]> {
  const plan = crashPlan(planOptions)
  const results: RunResult[] = []
  let next = 0
  const worker = async () => {
    while (next < plan.length) {
      const { flow, killPoint, victim, repetition } = plan[next++]
      const result = await runOnce(flow, killPoint, victim, repetition).catch(
        (error: unknown): RunResult => ({
          flow,
          killPoint,
          victim,
          repetition,
          violations: [`harness: the run failed: ${error instanceof Error ? error.stack : String(error)}`],
          counts: NO_COUNTS,
          diagnostics: '',
          ms: 0,
        }),
      )
      results.push(result)
      onRun?.(result)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  return results
}

/** One row per flow, kill point and victim, and a total: runs, what was checked, and the violations (all must be 0). */
export function totalsTable(results: RunResult[]): string {
  const header = ['flow', 'kill point', 'victim', 'runs', 'acked kept', 'orders at provider', 'resolved by status check', 'left for phone', 'violations']
  const rows: string[][] = []
  const sum = (of: RunResult[], pick: (r: RunResult) => number) => of.reduce((total, r) => total + pick(r), 0)
  const row = (flow: string, killPoint: string, victim: string, of: RunResult[]) => [
    flow,
    killPoint,
    victim,
    String(of.length),
    String(sum(of, (r) => r.counts.acked)),
    String(sum(of, (r) => r.counts.ordersAtProvider)),
    String(sum(of, (r) => r.counts.resolvedByStatusCheck)),
    String(sum(of, (r) => r.counts.leftForPhone)),
    String(sum(of, (r) => r.violations.length)),
  ]
  for (const flow of FLOWS) {
    for (const killPoint of KILL_POINTS) {
      for (const victim of VICTIMS) rows.push(row(flow, killPoint, victim, results.filter((r) => r.flow === flow && r.killPoint === killPoint && r.victim === victim)))
    }
  }
  rows.push(row('all', '', '', results))
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i].length)))
  const format = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(format)].join('\n')
}

export function describeViolations(results: RunResult[]): string {
  return results
    .filter((r) => r.violations.length > 0)
    .map((r) => `${r.flow} / ${r.killPoint} / ${r.victim} #${r.repetition}:\n  ${r.violations.join('\n  ')}\n${r.diagnostics}`)
    .join('\n')
}

async function main(): Promise<void> {
  const repetitions = Number(process.env.CRASH_RUNS ?? 20)
  const concurrency = Number(process.env.CRASH_CONCURRENCY ?? 2)
  if (!Number.isInteger(repetitions) || repetitions < 1) throw new Error('CRASH_RUNS must be a whole number of at least 1')
  const started = Date.now()
  const results = await runCrashSuite({
    repetitions,
    concurrency,
    onRun: (r) => process.stderr.write(`${r.violations.length ? 'FAIL' : 'ok  '} ${r.flow} / ${r.killPoint} / ${r.victim} #${r.repetition} (${r.ms} ms)\n`),
  })
  const failures = describeViolations(results)
  if (failures) console.log(`Violations:\n${failures}\n`)
  console.log(totalsTable(results))
  console.log(`${results.length} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  process.exitCode = failures ? 1 : 0
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
