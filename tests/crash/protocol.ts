// What the crash driver and its child agree on: flows, kill points, the sales each run makes,
// the environment that puts the core in REAL mode against the driver's simulator, and the stdout lines.
import type { AgentInput } from '../../electron/contract'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import type { SecretStore } from '../../electron/counter/credentials'
import { verhoeffDigit } from '../../electron/counter/verhoeff'
import { realApiKey, realCredentials, resourcesDir } from '../integration/helpers'

export const FLOWS = ['recharge', 'coupon'] as const
export type Flow = (typeof FLOWS)[number]

/**
 * Where the second sale of a run dies. 'in-flight' is the driver's doing (it kills the child when the
 * simulator receives the order, then lets the simulator process it); every other point is a failpoint
 * the child sets on the core's own classes.
 */
export const KILL_POINTS = ['before-intent', 'after-intent', 'in-flight', 'after-answer', 'mid-snapshot'] as const
export type KillPoint = (typeof KILL_POINTS)[number]

/**
 * How a mid-snapshot death happens: the snapshot is the periodic one (forced right after the intent
 * is journaled) or the clean-exit one (after the sale was acknowledged); the child dies before the
 * snapshot's first rename (temp file written and fsync'd) or its second (the newest copy already
 * moved aside). Repetitions cycle through all four; the first two already differ in both.
 */
export interface SnapshotDeath {
  trigger: 'periodic' | 'on-exit'
  renameNumber: 1 | 2
}

export function snapshotDeathFor(repetition: number): SnapshotDeath {
  return { trigger: repetition % 2 === 0 ? 'periodic' : 'on-exit', renameNumber: (repetition + Math.floor(repetition / 2)) % 2 === 0 ? 1 : 2 }
}

/** The request that carries a flow's order to the provider, as the simulator names it. */
export const ORDER_OPERATION: Record<Flow, 'transaction' | 'coupon_req'> = { recharge: 'transaction', coupon: 'coupon_req' }

export const CRASH_AGENT: AgentInput = {
  vleId: 'CRASHVLE1',
  name: 'Crash Test Agent',
  mobile: '9812345678',
  email: 'crash@example.in',
  shop: 'Crash Test Seva',
  location: 'Station Road, Sitapur',
  stateCode: '35',
  pin: '261001',
  uid: '23456789012' + verhoeffDigit('23456789012'),
  pan: 'ABCDE1234F',
}

/** Each run sells twice: a first sale that must be acknowledged, then the one the kill point interrupts. */
export const RECHARGE_SALES = [
  { kind: 'mobile', number: '9876500001', operatorCode: 'AT', amount: '199' },
  { kind: 'mobile', number: '9876500002', operatorCode: 'AT', amount: '249.50' },
] as const
/** After the restart: proves the ledger is writable again, not stuck read-only by the crash. */
export const RECHARGE_AFTER_RESTART = { kind: 'mobile', number: '9876500003', operatorCode: 'AT', amount: '10' } as const
export const COUPON_SALES = [
  { vleId: CRASH_AGENT.vleId, type: 1, qty: 1 },
  { vleId: CRASH_AGENT.vleId, type: 2, qty: 2 },
] as const

/** The environment that makes the core run in REAL mode against `providerUrl`, keeping its files in `dataDir`. */
export function counterEnvironment(providerUrl: string, dataDir: string): Record<string, string> {
  return {
    COUNTER_DATA_DIR: dataDir,
    COUNTER_USER_ID: realCredentials.userId,
    COUNTER_TOKEN: realCredentials.token,
    COUNTER_SECRET_KEY: realCredentials.secretKey,
    COUNTER_RECHARGE_BASE_URL: providerUrl,
    COUNTER_API_KEY: realApiKey,
    COUNTER_PAN_BASE_URL: providerUrl,
  }
}

/** Every secret comes from COUNTER_*: no keychain (nor its D-Bus session) is needed to start the core. */
export const environmentOnlySecrets: SecretStore = {
  get: async () => null,
  set: async () => {
    throw new Error('The crash runs keep their secrets in the environment only')
  },
  delete: async () => {
    throw new Error('The crash runs keep their secrets in the environment only')
  },
}

/** The real core in REAL mode against `providerUrl`, secrets from the environment only: what the crash and fault runs start. */
export function startRealCore(
  dataDir: string,
  providerUrl: string,
  options: { providerTimeoutMs: number; log: (line: string) => void; now?: () => Date },
): Promise<CounterApp> {
  return startCounter({
    dataDir,
    resourcesDir,
    platform: 'test',
    secrets: environmentOnlySecrets,
    env: counterEnvironment(providerUrl, dataDir),
    ...options,
  })
}

/**
 * The child's stdout, one line each: READY (set-up done), SELL (a sale call starts), ACK <id> <state>
 * (a sale call returned), REFUSED <code> (it returned an error), ARMED <kill point>, and MISSED <why>
 * when the kill point was never reached (the child then exits 3).
 */
export type ChildLine =
  | { kind: 'READY' | 'SELL' }
  | { kind: 'ACK'; id: string; state: string }
  | { kind: 'REFUSED' | 'ARMED' | 'MISSED'; detail: string }

export function parseChildLine(line: string): ChildLine | null {
  const [word, ...rest] = line.trim().split(' ')
  if (word === 'READY' || word === 'SELL') return { kind: word }
  if (word === 'ACK' && rest.length === 2) return { kind: 'ACK', id: rest[0], state: rest[1] }
  if (word === 'REFUSED' || word === 'ARMED' || word === 'MISSED') return { kind: word, detail: rest.join(' ') }
  return null
}

export function childLine(line: ChildLine): string {
  if (line.kind === 'ACK') return `ACK ${line.id} ${line.state}`
  return 'detail' in line ? `${line.kind} ${line.detail}` : line.kind
}
