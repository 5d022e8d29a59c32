// Shared set-up for tests that run the real core: temp data folders, a private keychain service,
// and a standalone simulator the core reaches over real HTTP as if it were the provider.
import { randomBytes, randomInt } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Agent, AgentInput, AppStatus, CounterEvent, PendingItem, Result } from '../../electron/contract'
import { startCounter, type CounterApp, type CounterOptions } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { ledgerDir } from '../../electron/counter/session'
import { speakAll } from '../../electron/shared/words'
import { verhoeffDigit } from '../../electron/shared/verhoeff'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../electron/simulator/server'

export const resourcesDir = resolve(__dirname, '../../resources')

/** A new folder under `parent` (the system's temp folder; /dev/shm for one on another file system, a tmpfs). */
export function tempDir(prefix = 'counter-test-', parent = tmpdir()): { path: string; remove(): void } {
  const path = mkdtempSync(join(parent, prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

/** A keychain service no other test (and no real install) uses. */
export function privateKeychainService(): string {
  return `CounterTest-${randomBytes(6).toString('hex')}`
}

export const realCredentials = {
  userId: 'FISPL604796',
  token: 'tok-3f9a1c77e2b84d5a',
  secretKey: '8f3c9a1b2d4e6f708192a3b4c5d6e7f8',
}
export const realApiKey = '5f2c9e1a-7b3d-4c8e-9a6f-0d1e2f3a4b5c'

export interface RealModeRig {
  counter: CounterApp
  provider: Simulator
  dataDir: string
  logLines: string[]
  /** Stops the core, does `meanwhile` (an edit of its files while it is stopped) and starts it again. */
  restart(meanwhile?: () => void | Promise<void>): Promise<CounterApp>
  close(): Promise<void>
}

/** The environment that puts the core in REAL mode with the test credentials, both partner APIs at `providerUrl`. */
export const realModeEnv = (providerUrl: string): Record<string, string> => ({
  COUNTER_USER_ID: realCredentials.userId,
  COUNTER_TOKEN: realCredentials.token,
  COUNTER_SECRET_KEY: realCredentials.secretKey,
  COUNTER_RECHARGE_BASE_URL: providerUrl,
  COUNTER_API_KEY: realApiKey,
  COUNTER_PAN_BASE_URL: providerUrl,
})

/** The core in REAL mode (credentials from the environment) against a simulator standing in for the provider. */
export async function startRealModeRig(
  simulatorOptions: Omit<SimulatorOptions, 'recharge'> = {},
  counterOptions: Partial<CounterOptions> = {},
): Promise<RealModeRig> {
  const dir = tempDir()
  const provider = await startSimulator({ ...simulatorOptions, recharge: realCredentials, pan: { ...simulatorOptions.pan, apiKey: realApiKey } })
  const logLines: string[] = []
  const service = privateKeychainService()
  const start = () =>
    startCounter({
      dataDir: dir.path,
      resourcesDir,
      platform: 'test',
      startTraining: () => startSimulator(),
      secrets: keychainSecrets(service),
      env: realModeEnv(provider.url),
      providerTimeoutMs: 1_000,
      log: (line) => logLines.push(line),
      ...counterOptions,
    })
  const rig: RealModeRig = {
    counter: await start(),
    provider,
    dataDir: dir.path,
    logLines,
    async restart(meanwhile) {
      await rig.counter.close()
      await meanwhile?.()
      rig.counter = await start()
      return rig.counter
    },
    async close() {
      await rig.counter.close()
      await provider.close()
      dir.remove()
    },
  }
  return rig
}

/** The provider back at `url` once that simulator was closed (the shop's line back up): same address, the test credentials. */
export const providerBackAt = (url: string): Promise<Simulator> =>
  startSimulator({ host: new URL(url).hostname, port: Number(new URL(url).port), recharge: realCredentials, pan: { apiKey: realApiKey } })

/**
 * A loopback address of the caller's own (Linux answers the whole of 127.0.0.0/8). A test that frees a port and counts
 * on it being refused, or on having it back, uses one: every other server listens on 127.0.0.1, so none can take the
 * port meanwhile (one on 127.0.0.1 once answered a sale meant to find the provider down, with the same credentials).
 */
export const privateLoopback = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`

/** The statuses the core sends as status.changed from now on, as the screen would receive them. */
export function statusEvents(counter: CounterApp): AppStatus[] {
  const seen: AppStatus[] = []
  counter.onEvent((event) => {
    if (event.name === 'status.changed') seen.push((event as CounterEvent<'status.changed'>).payload)
  })
  return seen
}

/** Polls until `probe` gives something truthy: the core's queues work in the background. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(25)
  }
}

/** What the Pending screen lists now. */
export async function pendingItems(rig: RealModeRig): Promise<PendingItem[]> {
  const listed = await rig.counter.call('pending.list', {})
  if (!listed.ok) throw new Error(listed.error.message)
  return listed.value.items
}

/**
 * Every line of the real ledger's journal, in order, parsed; a said message in it (a sale's message, a check's answer,
 * a coupon's problems: shared/words) read in English, as the screens hear it on an English screen.
 */
export function journalOf(rig: RealModeRig): { seq: number; at: string; type: string; data: Record<string, unknown> }[] {
  const dir = join(ledgerDir(rig.dataDir, 'real'), 'journal')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => speakAll(JSON.parse(line), 'en'))
}

/** A valid Aadhaar number: eleven digits and their Verhoeff check digit. */
export const aadhaar = (first11: string) => first11 + verhoeffDigit(first11)

export const agentInput = (vleId = 'VLE1001'): AgentInput => ({
  vleId,
  name: 'Ravi Kumar',
  mobile: '9812345678',
  email: 'ravi@example.in',
  shop: 'Ravi Digital Seva',
  location: 'Gandhi Chowk, Sitapur',
  stateCode: '35',
  pin: '261001',
  uid: aadhaar('23456789012'),
  pan: 'abcde1234f',
})

/** Creates an agent through the core and refreshes its status until the simulator approves it. */
export async function approvedAgent(counter: CounterApp, vleId = 'VLE1001'): Promise<Agent> {
  const created = await counter.call('pan.agents.create', agentInput(vleId))
  if (!created.ok || created.value.status !== 'PENDING') throw new Error(`agent not created: ${JSON.stringify(created)}`)
  for (let i = 0; i < 5; i++) {
    const refreshed = await counter.call('pan.agents.refresh', { vleId })
    if (refreshed.ok && refreshed.value.agents[0].status === 'APPROVED') return refreshed.value.agents[0]
  }
  throw new Error('agent never approved')
}

/** The value of a contract call that must succeed; its error, when it did not, in the failure. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value
}
