// What the crash driver, its child and the failpoints in the ledger's threads agree on: flows, kill points,
// victims, the sales each run makes, and the stdout lines. Light on purpose: every ledger thread loads it.
import type { AgentInput } from '../../electron/contract'
import { verhoeffDigit } from '../../electron/shared/verhoeff'

export const FLOWS = ['recharge', 'coupon'] as const
export type Flow = (typeof FLOWS)[number]

/**
 * Where the second sale of a run dies. 'in-flight' is the driver's doing (it kills the child when the
 * simulator receives the order, then lets the simulator process it); 'after-answer' is set on the
 * provider clients in the child's main thread; every other point is a failpoint in the ledger's
 * threads (failpoints.ts). 'after-outcome': right after the outcome line is written,
 * before the sale's answer returns; a recharge's outcome is then not fsync'd yet (events.ts LINE_SYNC),
 * and the driver may add a power cut (powerCutFor).
 */
export const KILL_POINTS = ['before-intent', 'after-intent', 'in-flight', 'after-answer', 'after-outcome', 'mid-snapshot'] as const
export type KillPoint = (typeof KILL_POINTS)[number]

/**
 * What dies at the kill point: the whole child process (SIGKILL), or only a ledger thread (process.exit
 * inside it), after which the child's core starts the ledger thread again, answers the sale somehow,
 * closes and exits by itself. The thread that dies is the one at the kill point: the ledger thread,
 * which it is even in flight (ended then by the driver's word while it is idle) and after the answer
 * (at the core's next append, the outcome's); at 'mid-snapshot', the thread writing the snapshot files.
 */
export const VICTIMS = ['process', 'thread'] as const
export type Victim = (typeof VICTIMS)[number]

/** Which thread ended for a 'thread' victim: the ledger thread (the sale's call in it went unanswered), or another of the ledger's (the chores thread). */
export type ThreadRole = 'ledger' | 'other'

/** Written to the child's stdin by the driver: an in-flight thread death, the order being at the provider. */
export const END_LEDGER_THREAD = 'END-LEDGER-THREAD'

/**
 * What a power cut right after an 'after-outcome' kill takes from the journal's lines not yet fsync'd:
 * nothing (the kill alone: they stay in the page cache), half of the first (a torn last line), or all
 * of them. Repetitions cycle through the three, the torn line second.
 */
export type PowerCut = 'none' | 'torn' | 'whole'
export const powerCutFor = (repetition: number): PowerCut => (['none', 'torn', 'whole'] as const)[repetition % 3]

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

/**
 * The child's stdout, one line each: READY (set-up done), SELL (a sale call starts), ACK <id> <state>
 * (a sale call returned), REFUSED <code> (it returned an error), ARMED <kill point>, THREAD-ENDED
 * <ledger|other> (a 'thread' victim died), STUCK <why> (after that death the books did not answer or
 * stayed read-only), CLOSED (a 'thread' victim's child closed its core and exits), and MISSED <why> when
 * the kill point was never reached (the child, or the thread that found out, then ends the run).
 */
export type ChildLine =
  | { kind: 'READY' | 'SELL' | 'CLOSED' }
  | { kind: 'ACK'; id: string; state: string }
  | { kind: 'REFUSED' | 'ARMED' | 'MISSED' | 'STUCK'; detail: string }
  | { kind: 'THREAD-ENDED'; role: ThreadRole }

export function parseChildLine(line: string): ChildLine | null {
  const [word, ...rest] = line.trim().split(' ')
  if (word === 'READY' || word === 'SELL' || word === 'CLOSED') return { kind: word }
  if (word === 'ACK' && rest.length === 2) return { kind: 'ACK', id: rest[0], state: rest[1] }
  if (word === 'REFUSED' || word === 'ARMED' || word === 'MISSED' || word === 'STUCK') return { kind: word, detail: rest.join(' ') }
  if (word === 'THREAD-ENDED' && (rest[0] === 'ledger' || rest[0] === 'other')) return { kind: word, role: rest[0] }
  return null
}

export function childLine(line: ChildLine): string {
  if (line.kind === 'ACK') return `ACK ${line.id} ${line.state}`
  if (line.kind === 'THREAD-ENDED') return `THREAD-ENDED ${line.role}`
  return 'detail' in line ? `${line.kind} ${line.detail}` : line.kind
}
