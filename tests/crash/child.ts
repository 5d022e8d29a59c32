// Crash-test child: the real core in REAL mode against the driver's simulator sells once (acknowledged),
// then sells again with a failpoint that, at the kill point named on argv, SIGKILLs this process or ends
// only a ledger thread (the victim); a child whose thread died closes its core and exits by itself.
// Usage: node --import tsx tests/crash/child.ts <recharge|coupon> <kill point> <repetition> <process|thread>
import fs from 'node:fs'
import { createInterface } from 'node:readline'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { ledgerDir } from '../../electron/counter/session'
import { PanApi } from '../../electron/partners/pan-api'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { resourcesDir } from '../integration/helpers'
import { installLedgerFailpoints } from './failpoints'
import {
  childLine,
  COUPON_SALES,
  CRASH_AGENT,
  END_LEDGER_THREAD,
  FLOWS,
  KILL_POINTS,
  RECHARGE_SALES,
  VICTIMS,
  type ChildLine,
  type Flow,
  type KillPoint,
  type Victim,
} from './protocol'
import { environmentOnlySecrets } from './real-core'
import { startSimulator } from '../../electron/simulator/server'

type Method = (...args: unknown[]) => unknown

/** How long a 'thread' victim's child waits for the thread's death to be seen, once its sale and close are done. */
const THREAD_DEATH_WAIT_MS = 5_000

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

function parseArgs(): { flow: Flow; killPoint: KillPoint; repetition: number; victim: Victim } {
  const [flow, killPoint, repetition, victim] = process.argv.slice(2)
  if (!FLOWS.includes(flow as Flow) || !KILL_POINTS.includes(killPoint as KillPoint) || !/^\d+$/.test(repetition ?? '') || !VICTIMS.includes(victim as Victim)) {
    missed(`usage: child.ts <${FLOWS.join('|')}> <${KILL_POINTS.join('|')}> <repetition> <${VICTIMS.join('|')}>`)
  }
  return { flow: flow as Flow, killPoint: killPoint as KillPoint, repetition: Number(repetition), victim: victim as Victim }
}

/**
 * The one failpoint of this thread: the provider has answered and the core has not journaled the
 * outcome yet. The process dies there, or the ledger thread is told to end at the core's next append.
 */
function installAnswerFailpoint(killPoint: KillPoint, onAnswer: () => void): { arm(): void } {
  let armed = false
  const atAnswer = (send: Method) =>
    async function (this: unknown, ...args: unknown[]) {
      const reply = await send.apply(this, args)
      if (armed && killPoint === 'after-answer') onAnswer()
      return reply
    }
  wrapMethod(RechargeApi.prototype, 'transaction', 'RechargeApi.prototype.transaction', atAnswer)
  wrapMethod(PanApi.prototype, 'couponRequest', 'PanApi.prototype.couponRequest', atAnswer)
  return { arm: () => void (armed = true) }
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

/** After a ledger thread's death the core goes on: its books answer and take writes again, without a restart of the process. */
async function booksBack(counter: CounterApp, flow: Flow): Promise<void> {
  const read = await counter.call('history.search', { kind: flow === 'recharge' ? 'recharge' : 'coupon' })
  const { readOnly } = counter.session().ledger
  if (!read.ok) say({ kind: 'STUCK', detail: `the books did not answer: ${read.error.message}` })
  else if (readOnly !== null) say({ kind: 'STUCK', detail: `the books are read-only: ${readOnly}` })
}

async function main(): Promise<void> {
  const { flow, killPoint, repetition, victim } = parseArgs()
  const dataDir = process.env.COUNTER_DATA_DIR
  if (!dataDir) missed('COUNTER_DATA_DIR is not set')
  // Set before the core starts: every ledger thread it starts carries them.
  const ledgerFailpoints = installLedgerFailpoints({ flow, killPoint, repetition, victim, ledgerDir: ledgerDir(dataDir, 'real') })
  const answerFailpoint = installAnswerFailpoint(killPoint, victim === 'process' ? die : ledgerFailpoints.providerAnswered)
  const counter = await startCounter({
    dataDir,
    resourcesDir,
    platform: 'test',
    startTraining: () => startSimulator(),
    secrets: environmentOnlySecrets,
    env: process.env,
    providerTimeoutMs: 5_000,
    log: (line) => process.stderr.write(line + '\n'),
  })
  if (counter.session().mode !== 'real') missed('the core did not start in REAL mode')
  if (ledgerFailpoints.ledgerThreads() === 0) missed('the failpoints never reached a thread holding the ledger')
  if (flow === 'coupon') await setUpAgent(counter)
  await sell(counter, flow, 0)
  // A saved copy before the armed sale, so a mid-snapshot death can find one to move aside.
  await counter.session().ledger.snapshot()
  say({ kind: 'READY' })

  let toldEnded = false
  const tellEnded = (role: Awaited<ReturnType<typeof ledgerFailpoints.ended>>) => {
    if (role === null || toldEnded) return
    toldEnded = true
    say({ kind: 'THREAD-ENDED', role })
  }
  if (victim === 'thread' && killPoint === 'in-flight') {
    // The driver, holding the order at the provider, says when; it goes on once it reads THREAD-ENDED.
    createInterface({ input: process.stdin }).on('line', (line) => line === END_LEDGER_THREAD && ledgerFailpoints.endLedgerThread())
    void ledgerFailpoints.ended(THREAD_DEATH_WAIT_MS * 10).then(tellEnded)
  }
  ledgerFailpoints.arm()
  answerFailpoint.arm()
  say({ kind: 'ARMED', detail: killPoint })
  await sell(counter, flow, 1)
  if (victim === 'thread') await booksBack(counter, flow)
  // The clean-exit snapshot is a kill point too ('mid-snapshot', on exit).
  await counter.close()
  if (victim === 'process') missed(`the sale and the close finished without reaching ${killPoint}`)
  const role = await ledgerFailpoints.ended(THREAD_DEATH_WAIT_MS)
  if (role === null) missed(`the sale and the close finished without reaching ${killPoint}`)
  tellEnded(role)
  say({ kind: 'CLOSED' })
  process.exit(0)
}

main().catch((error: unknown) => missed(`the child failed: ${error instanceof Error ? error.message : String(error)}`))
