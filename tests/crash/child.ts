// Crash-test child: the real core in REAL mode against the driver's simulator sells once (acknowledged),
// then sells again with a failpoint that SIGKILLs this process at the kill point named on argv.
// Usage: node --import tsx tests/crash/child.ts <recharge|coupon> <kill point> <repetition>
import fs from 'node:fs'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { Ledger } from '../../electron/ledger/ledger'
import { PanApi } from '../../electron/partners/pan-api'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { resourcesDir } from '../integration/helpers'
import {
  childLine,
  COUPON_SALES,
  CRASH_AGENT,
  environmentOnlySecrets,
  FLOWS,
  KILL_POINTS,
  RECHARGE_SALES,
  snapshotDeathFor,
  type ChildLine,
  type Flow,
  type KillPoint,
} from './protocol'

type Method = (...args: unknown[]) => unknown

// Synchronous on purpose: a line must be out of the process before the kill that may follow it.
const say = (line: ChildLine) => fs.writeSync(1, childLine(line) + '\n')

function die(): never {
  process.kill(process.pid, 'SIGKILL')
  // SIGKILL is delivered before the kill syscall returns; nothing after this line ever runs.
  throw new Error('still alive after SIGKILL')
}

function missed(why: string): never {
  say({ kind: 'MISSED', detail: why })
  process.exit(3)
}

/** Replaces `owner[name]`, failing loudly when the core no longer has it: a moved method must not pass unnoticed. */
function wrapMethod(owner: object, name: string, label: string, around: (original: Method) => Method): void {
  const original = (owner as Record<string, unknown>)[name]
  if (typeof original !== 'function') missed(`failpoint target ${label} no longer exists`)
  ;(owner as Record<string, unknown>)[name] = around(original as Method)
}

const INTENT_EVENT: Record<Flow, string> = { recharge: 'recharge.intent', coupon: 'pan.coupon.intent' }

function parseArgs(): { flow: Flow; killPoint: KillPoint; repetition: number } {
  const [flow, killPoint, repetition] = process.argv.slice(2)
  if (!FLOWS.includes(flow as Flow) || !KILL_POINTS.includes(killPoint as KillPoint) || !/^\d+$/.test(repetition ?? '')) {
    missed(`usage: child.ts <${FLOWS.join('|')}> <${KILL_POINTS.join('|')}> <repetition>`)
  }
  return { flow: flow as Flow, killPoint: killPoint as KillPoint, repetition: Number(repetition) }
}

/**
 * Sets every failpoint (each acts only once armed, on the second sale) and returns the switch that
 * arms them. Each is set even when this run does not use it, so a moved target fails every run alike.
 */
function installFailpoints(flow: Flow, killPoint: KillPoint, repetition: number): { arm(): void; snapshotSurvived(): never } {
  let armed = false
  let snapshotDepth = 0
  let renamesInSnapshot = 0
  const snapshotDeath = snapshotDeathFor(repetition)
  const at = (point: KillPoint) => armed && killPoint === point
  const snapshotSurvived = () => missed(`the ${snapshotDeath.trigger} snapshot finished without reaching its rename #${snapshotDeath.renameNumber}`)

  wrapMethod(Ledger.prototype, 'append', 'Ledger.prototype.append', (append) =>
    function (this: Ledger, ...args: unknown[]) {
      const isIntent = args[0] === INTENT_EVENT[flow]
      if (isIntent && at('before-intent')) die()
      const entry = append.apply(this, args)
      if (isIntent && at('after-intent')) die()
      if (isIntent && at('mid-snapshot') && snapshotDeath.trigger === 'periodic') {
        // As if this append were the Nth since the last snapshot; the rename failpoint ends it.
        const saving = this.snapshot() as unknown
        if (saving instanceof Promise) void saving.then(snapshotSurvived)
        else snapshotSurvived()
      }
      return entry
    },
  )

  wrapMethod(Ledger.prototype, 'snapshot', 'Ledger.prototype.snapshot', (snapshot) =>
    function (this: Ledger, ...args: unknown[]) {
      snapshotDepth++
      let result: unknown
      try {
        result = snapshot.apply(this, args)
      } catch (error) {
        snapshotDepth--
        throw error
      }
      if (result instanceof Promise) return result.finally(() => snapshotDepth--)
      snapshotDepth--
      return result
    },
  )

  // The snapshot writes a temp file, then renames; dying before rename #N leaves the files a power cut would.
  const beforeSnapshotRename = () => {
    if (snapshotDepth > 0 && at('mid-snapshot') && ++renamesInSnapshot === snapshotDeath.renameNumber) die()
  }
  wrapMethod(fs, 'renameSync', 'fs.renameSync', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      beforeSnapshotRename()
      return rename.apply(this, args)
    },
  )
  wrapMethod(fs.promises, 'rename', 'fs.promises.rename', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      beforeSnapshotRename()
      return rename.apply(this, args)
    },
  )

  const dieOnAnswer = (send: Method) =>
    async function (this: unknown, ...args: unknown[]) {
      const reply = await send.apply(this, args)
      // The provider answered; the core has not journaled the outcome yet.
      if (at('after-answer')) die()
      return reply
    }
  wrapMethod(RechargeApi.prototype, 'transaction', 'RechargeApi.prototype.transaction', dieOnAnswer)
  wrapMethod(PanApi.prototype, 'couponRequest', 'PanApi.prototype.couponRequest', dieOnAnswer)

  return {
    arm() {
      armed = true
      say({ kind: 'ARMED', detail: killPoint })
    },
    snapshotSurvived,
  }
}

/** Sells and reports: ACK only once the call has returned, with the state the core answered. */
async function sell(counter: CounterApp, flow: Flow, index: 0 | 1): Promise<void> {
  say({ kind: 'SELL' })
  const result =
    flow === 'recharge'
      ? await counter.call('recharge.sell', RECHARGE_SALES[index]).then((r) => (r.ok ? { ok: true as const, id: r.value.orderId, state: r.value.state } : r))
      : await counter.call('pan.coupons.sell', COUPON_SALES[index]).then((r) => (r.ok ? { ok: true as const, id: r.value.attemptId, state: r.value.state } : r))
  say(result.ok ? { kind: 'ACK', id: result.id, state: result.state } : { kind: 'REFUSED', detail: `${result.error.code} ${result.error.message}` })
}

/** An approved agent, known to the ledger and the provider alike, for the coupon flow. */
async function setUpAgent(counter: CounterApp): Promise<void> {
  const created = await counter.call('pan.agents.create', CRASH_AGENT)
  if (!created.ok) missed(`the agent could not be created: ${created.error.message}`)
  const refreshed = await counter.call('pan.agents.refresh', { vleId: CRASH_AGENT.vleId })
  if (!refreshed.ok || refreshed.value.agents[0]?.status !== 'APPROVED') missed('the agent was not approved on its first check')
}

async function main(): Promise<void> {
  const { flow, killPoint, repetition } = parseArgs()
  const failpoints = installFailpoints(flow, killPoint, repetition)
  const dataDir = process.env.COUNTER_DATA_DIR
  if (!dataDir) missed('COUNTER_DATA_DIR is not set')
  const counter = await startCounter({
    dataDir,
    resourcesDir,
    platform: 'test',
    secrets: environmentOnlySecrets,
    env: process.env,
    providerTimeoutMs: 5_000,
    log: (line) => process.stderr.write(line + '\n'),
  })
  if (counter.session().mode !== 'real') missed('the core did not start in REAL mode')
  if (flow === 'coupon') await setUpAgent(counter)
  await sell(counter, flow, 0)
  // A saved copy before the armed sale, so a mid-snapshot death can find one to move aside.
  await counter.session().ledger.snapshot()
  say({ kind: 'READY' })

  failpoints.arm()
  await sell(counter, flow, 1)
  if (killPoint === 'mid-snapshot') {
    await counter.close()
    failpoints.snapshotSurvived()
  }
  // Every kill point, the driver's 'in-flight' too, lies before the sale's answer reaches this line.
  missed(`the sale finished without reaching ${killPoint}`)
}

main().catch((error: unknown) => missed(`the child failed: ${error instanceof Error ? error.message : String(error)}`))
