// One fault run, VOPR style: (fault kind, step, seed) -> the scripted day against a fresh simulator with that
// one fault injected at that step, then the fault cleared, a restart, a status-check round and the judge.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { CounterApp } from '../../electron/counter/app'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import { realApiKey, realCredentials, tempDir } from '../integration/helpers'
import { installFsShim, type FsCallClass, type FsErrno } from './fs-shim'
import { judge } from './judge'
import { isRefusal, RELAY_FAULTS, startRelay, STATUS_CHECKS, type RelayFault } from './relay'
import { parseChildLine, startCore, type ChildOrders } from './rig'
import { checkRound, DAY, OPENING_PAN_BALANCE_PAISE, PENDING_AT_PROVIDER, retryPass, runStep, setUpDay, type CashierState, type DayRig } from './shop-day'
import { childArgs } from '../helpers/child-bundle'

const DAY_MS = 86_400_000
export const FS_FAULTS: Record<string, { code: FsErrno; cls: FsCallClass }> = {
  'ENOSPC-write': { code: 'ENOSPC', cls: 'write' },
  'ENOSPC-fsync': { code: 'ENOSPC', cls: 'fsync' },
  'ENOSPC-other': { code: 'ENOSPC', cls: 'other' },
  'EIO-write': { code: 'EIO', cls: 'write' },
  'EIO-fsync': { code: 'EIO', cls: 'fsync' },
}
/** A clock jump starts at its step with a restart (the computer started with a wrong clock) and is put right two steps later. */
export const CLOCK_FAULTS: Record<string, number> = { 'clock+1d': DAY_MS, 'clock-1d': -DAY_MS, 'clock+200d': 200 * DAY_MS }
const CLOCK_STEPS = 2

/**
 * 'thread-kill': the ledger's thread making the chosen call into the ledger folder ends just before it
 * (the ledger thread, or the chores thread when the call is a snapshot's); the core starts it again and
 * the day goes on in the same process, where 'sigkill' ends the whole process and a new one goes on.
 */
export const FAULT_KINDS: readonly string[] = [...Object.keys(FS_FAULTS), ...RELAY_FAULTS, ...Object.keys(CLOCK_FAULTS), 'sigkill', 'thread-kill']
/** 'none': the day without a fault, which also counts each step's calls into the ledger folder. */
export type FaultKind = string

/**
 * The seed picks what the kind leaves open: for a disk fault, SIGKILL and a thread kill, which of the step's
 * calls into the ledger folder (seed 0 = the first of its class, or of any class for the kills); for a refused
 * check, which refusal text; a clock jump has nothing to pick.
 */
export interface RunSpec {
  kind: FaultKind
  step: number
  seed: number
}

export interface RunResult extends RunSpec {
  /** Whether the fault really hit something (a disk call, a request, a kill). */
  fired: boolean
  violations: string[]
  /** Calls into the ledger folder per step, by class: a fault-free run's counts drive the matrix. */
  fsCalls: Record<FsCallClass, number>[]
  ms: number
  log: string[]
}

const CHILD_SCRIPT = path.resolve(__dirname, 'day-child.ts')
const REPO_ROOT = path.resolve(__dirname, '../..')
const CHILD_TIME_LIMIT_MS = 60_000
const START_UP_LIMIT_MS = 5_000

export const reproduce = (spec: RunSpec) => `npm run faults -- --only ${spec.kind}:${spec.step} --seed ${spec.seed}`

/** The provider as the day needs it: the agent approved at its first check, and sale B answered PENDING once. */
async function scriptedProvider(): Promise<Simulator> {
  let answeredPending = false
  const provider: Simulator = await startSimulator({
    recharge: realCredentials,
    pan: { apiKey: realApiKey, approveAfterChecks: 0, balancePaise: OPENING_PAN_BALANCE_PAISE },
    onRequest(req) {
      if (answeredPending || req.operation !== 'transaction' || req.fields.number !== PENDING_AT_PROVIDER) return
      answeredPending = true
      provider.setFault({ kind: 'pendingThenSuccess', times: 1, checksUntilFinal: 1 })
    },
  })
  return provider
}

interface ChildDay {
  state: CashierState | null
  killed: boolean
  /** How the child ended and how long it took, for a run that cannot go on. */
  ending: string
}

/** Runs the day in a child up to `step`, where it dies; its cashier's last state, with a sale it never heard back about left open. */
async function dayInChild(orders: ChildOrders, provider: Simulator): Promise<ChildDay> {
  const began = Date.now()
  const child = spawn(process.execPath, [...(await childArgs(CHILD_SCRIPT)), JSON.stringify(orders)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let state: CashierState | null = null
  let attempting: string | null = null
  let stderr = ''
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = parseChildLine(text)
    if (line?.kind === 'STATE') [state, attempting] = [line.state, null]
    if (line?.kind === 'ATTEMPT') attempting = line.key
    if (line?.kind === 'FUND') provider.pan.setBalance(provider.pan.balancePaise() + line.paise)
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const closed = new Promise((done) => child.stdout.once('close', done))
  const limit = setTimeout(() => child.kill('SIGKILL'), CHILD_TIME_LIMIT_MS)
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (...ended) => done(ended)))
  clearTimeout(limit)
  await closed
  const last = state as CashierState | null
  if (last && attempting) {
    const intent = last.intents[attempting]
    intent.attempts.push({ id: null, state: null, error: 'the counter was killed before it answered' })
    // The cashier never heard back: the sale may have gone through, so it is not sold again.
    intent.status = intent.kind === 'recharge' || intent.kind === 'coupon' ? 'open' : 'retry'
  }
  const ending = `exit code ${code}, signal ${signal}, after ${Date.now() - began} ms; ${stderr.slice(-2000)}`
  return { state: last, killed: signal === 'SIGKILL', ending }
}

export async function runFault(spec: RunSpec): Promise<RunResult> {
  const started = Date.now()
  const dir = tempDir('counter-faults-')
  const log: string[] = []
  const provider = await scriptedProvider()
  const relay = await startRelay(provider.url)
  const shim = installFsShim(path.join(dir.path, 'ledger'))
  const fsCalls: Record<FsCallClass, number>[] = []
  let offsetMs = 0
  let counter: CounterApp | null = null
  const start = async () => (counter = await startCore(dir.path, relay.url, () => new Date(Date.now() + offsetMs), (line) => log.push(line)))
  const stop = async () => {
    const closing = counter
    counter = null
    await closing?.close().catch((error: unknown) => log.push(`harness: the core's close failed: ${String(error)}`))
  }
  const rig: DayRig = {
    counter: () => counter ?? (() => { throw new Error('the core is not running') })(),
    clockRight: () => offsetMs === 0,
    fundWallet: (paise) => provider.pan.setBalance(provider.pan.balancePaise() + paise),
    attempting: () => undefined,
  }
  const violations: string[] = []
  let fired = false
  try {
    let state: CashierState
    let from = 0
    if (spec.kind === 'sigkill') {
      const child = await dayInChild({ dataDir: dir.path, providerUrl: relay.url, step: spec.step, call: spec.seed + 1 }, provider)
      if (!child.state) throw new Error(`the child never finished its set-up (${child.ending})`)
      ;[state, fired, from] = [child.state, child.killed, spec.step + 1]
      if (!child.killed) log.push(`harness: the child finished step ${spec.step} alive (${child.ending})`)
      await start()
    } else {
      await start()
      state = await setUpDay(rig)
    }
    for (let step = from; step < DAY.length; step++) {
      const clockJump = CLOCK_FAULTS[spec.kind]
      if (clockJump !== undefined && step === spec.step) {
        offsetMs = clockJump
        fired = true
        await stop()
        await start()
      }
      if (clockJump !== undefined && step === spec.step + CLOCK_STEPS) offsetMs = 0
      if (offsetMs === 0) await retryPass(rig, state)
      shim.resetCounts()
      if (step === spec.step) arm(spec)
      await runStep(rig, state, step)
      fsCalls.push(shim.counts())
      if (step === spec.step) {
        fired ||= shim.fired() || relay.fired() > 0
        shim.disarm()
        await relay.disarm()
        provider.setFault(null)
      }
    }
    offsetMs = 0
    await stop()
    const restartedAt = Date.now()
    await start()
    await startUpDone(rig.counter(), restartedAt)
    for (let round = 0; round < 3 && (await checkableLeft(rig.counter())); round++) await checkRound(rig)
    await retryPass(rig, state)
    await checkRound(rig)
    for (let tries = 0; tries < 3 && !(await rig.counter().call('pan.balance.refresh', {})).ok; tries++);
    violations.push(...(await judge({ state, counter: rig.counter(), book: provider.orderBook(), providerBalancePaise: provider.pan.balancePaise(), dataDir: dir.path })))
  } catch (error) {
    violations.push(`harness: the run could not finish: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await stop()
    shim.uninstall()
    await relay.close()
    await provider.close()
    dir.remove()
  }
  return { ...spec, fired, violations, fsCalls, ms: Date.now() - started, log }

  function arm({ kind, seed }: RunSpec): void {
    const disk = FS_FAULTS[kind]
    if (disk) shim.arm({ cls: disk.cls, occurrence: seed + 1 }, { kind: 'errno', code: disk.code })
    if (kind === 'thread-kill') shim.arm({ cls: 'any', occurrence: seed + 1 }, { kind: 'die-thread' })
    if ((RELAY_FAULTS as readonly string[]).includes(kind)) {
      const fault = kind as RelayFault
      relay.arm({ fault, seed, operations: isRefusal(fault) ? STATUS_CHECKS : DAY[spec.step].operations })
    }
  }
}

/** The restarted core has read the PAN balance (its start-up round is then under way). */
async function startUpDone(counter: CounterApp, since: number): Promise<void> {
  const deadline = Date.now() + START_UP_LIMIT_MS
  while (Date.now() < deadline) {
    const status = await counter.call('app.status', {})
    const readAt = status.ok ? status.value.panBalance.readAt : null
    if (readAt !== null && Date.parse(readAt) >= since) return
    await new Promise((wait) => setTimeout(wait, 25))
  }
}

async function checkableLeft(counter: CounterApp): Promise<boolean> {
  const pending = await counter.call('pending.list', {})
  return pending.ok && pending.value.items.some((item) => item.checkable)
}
