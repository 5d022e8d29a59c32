// The scripted shop day of the fault harness (recharges, coupons, a top-up, status checks, a balance read,
// day close) and the cashier who works it as a person would: retries what was refused unsent, never resells
// what may have gone through, and looks at the books before doing anything twice.
import type { AgentInput } from '../../electron/contract'
import type { CounterApp } from '../../electron/counter/app'
import { agentInput } from '../integration/helpers'

export type StepKind = 'recharge' | 'coupon' | 'topup' | 'checks' | 'balance' | 'summary' | 'close'

export interface Step {
  kind: StepKind
  /** The intended sale, top-up or close it makes; checks, reads and summaries have none. */
  key?: string
  /** The provider operations this step's answer-cutting faults hit: its own call. */
  operations: readonly string[]
}

// Each intended sale has its own number and amount (coupons their own type and quantity), so the
// provider's record of orders can be matched to it.
export const RECHARGES = {
  A: { kind: 'mobile', number: '9876510001', operatorCode: 'AT', amount: '101' },
  B: { kind: 'mobile', number: '9876510002', operatorCode: 'RJP', amount: '102' },
  D: { kind: 'mobile', number: '9876510004', operatorCode: 'VI', amount: '104' },
  E: { kind: 'mobile', number: '9876510005', operatorCode: 'AT', amount: '105', paymentMode: 'upi' },
  F: { kind: 'mobile', number: '9876510006', operatorCode: 'AT', amount: '106' },
} as const
/** The provider answers this one PENDING, as a real day has some: its first status check says PENDING again. */
export const PENDING_AT_PROVIDER = RECHARGES.B.number
export const COUPONS = { C1: { type: 1, qty: 1 }, C2: { type: 2, qty: 2 } } as const
export const TOPUP = { amount: '500', reference: 'UTR000000000001', note: 'Wallet top-up by NEFT' }
export const TOPUP_PAISE = 500_00
export const OPENING_PAN_BALANCE_PAISE = 5_000_00
export const AGENT: AgentInput = { ...agentInput('FAULTVLE1'), pan: 'ABCDE1234F' }

export const DAY: readonly Step[] = [
  { kind: 'recharge', key: 'A', operations: ['transaction'] },
  { kind: 'recharge', key: 'B', operations: ['transaction'] },
  { kind: 'coupon', key: 'C1', operations: ['coupon_req'] },
  { kind: 'topup', key: 'T1', operations: [] },
  { kind: 'checks', operations: ['check_status', 'coupon_status'] },
  { kind: 'recharge', key: 'D', operations: ['transaction'] },
  { kind: 'coupon', key: 'C2', operations: ['coupon_req'] },
  { kind: 'balance', operations: ['balance'] },
  { kind: 'checks', operations: ['check_status', 'coupon_status'] },
  { kind: 'recharge', key: 'E', operations: ['transaction'] },
  { kind: 'summary', operations: ['balance'] },
  { kind: 'close', key: 'CLOSE', operations: ['balance'] },
  // After the close: the books refuse it, nothing is sent.
  { kind: 'recharge', key: 'F', operations: ['transaction'] },
]

/** 'open': may have gone through (or been recorded): never done again, left for Pending and the books. */
export type IntentStatus = 'todo' | 'retry' | 'done' | 'open' | 'given-up'

export interface Attempt {
  /** The order, coupon attempt or top-up id the counter answered with; null when it answered an error or never answered. */
  id: string | null
  /** The state the counter answered (acknowledged); null without an answer. */
  state: string | null
  error: string | null
}

export interface Intent {
  key: string
  kind: 'recharge' | 'coupon' | 'topup' | 'close'
  status: IntentStatus
  attempts: Attempt[]
  /** Top-ups only: the wallet was funded at the provider once the books held it. */
  funded?: boolean
}

/** Everything the cashier knows; plain JSON, so a child that is killed can hand it to the next process. */
export interface CashierState {
  businessDay: string
  intents: Record<string, Intent>
  /** The journal's last seq each time the owner confirmed the clock. */
  confirmations: number[]
  /** Answers with code 'internal': a screen that cannot answer is a violation. */
  internal: string[]
}

export interface DayRig {
  counter(): CounterApp
  /** Whether the computer's clock is right now (the owner confirms it only then). */
  clockRight(): boolean
  /** The owner paid the provider wallet. */
  fundWallet(paise: number): void
  /** Said before each sale, top-up or close is tried: a child tells its parent, which may see it killed mid-way. */
  attempting(key: string): void
}

const MAX_ATTEMPTS = 3
const OVERRIDE_NOTE = 'Sales left open by a fault: the status checks will settle them.'

export function newCashierState(businessDay: string): CashierState {
  const intents: Record<string, Intent> = {}
  for (const step of DAY) {
    if (step.key) intents[step.key] = { key: step.key, kind: step.kind as Intent['kind'], status: 'todo', attempts: [] }
  }
  return { businessDay, intents, confirmations: [], internal: [] }
}

type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

/** What the cashier makes of a refusal: try later, never again, or confirm the clock first. */
function readRefusal(error: { code: string; message: string }, kind: Intent['kind']): 'retry' | 'open' | 'given-up' | 'clock' {
  if (error.code === 'clock_unconfirmed') return 'clock'
  if (error.code === 'day_closed' || error.code === 'invalid_input' || error.code === 'not_found') return 'given-up'
  // Only a sale refused with words that nothing was sent is sold again; top-ups and closes reach no provider.
  if (error.code === 'ledger_unavailable') return kind !== 'recharge' && kind !== 'coupon' ? 'retry' : /nothing was sent/i.test(error.message) ? 'retry' : 'open'
  return 'open'
}

async function attempt(rig: DayRig, state: CashierState, intent: Intent, confirmedOnce = false): Promise<void> {
  const counter = rig.counter()
  rig.attempting(intent.key)
  let answer: Answer<{ id: string; state: string }>
  switch (intent.kind) {
    case 'recharge': {
      const r = await counter.call('recharge.sell', RECHARGES[intent.key as keyof typeof RECHARGES])
      answer = r.ok ? { ok: true, value: { id: r.value.orderId, state: r.value.state } } : r
      break
    }
    case 'coupon': {
      const r = await counter.call('pan.coupons.sell', { vleId: AGENT.vleId, ...COUPONS[intent.key as keyof typeof COUPONS] })
      answer = r.ok ? { ok: true, value: { id: r.value.attemptId, state: r.value.state } } : r
      break
    }
    case 'topup': {
      const r = await counter.call('topups.add', TOPUP)
      answer = r.ok ? { ok: true, value: { id: r.value.topupId, state: 'SUCCESS' } } : r
      break
    }
    case 'close': {
      const counted = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
      const r = await counter.call('day.close', { businessDay: state.businessDay, openingFloat: '1000', counted, overrideNote: OVERRIDE_NOTE })
      answer = r.ok ? { ok: true, value: { id: state.businessDay, state: 'SUCCESS' } } : r
      break
    }
  }
  if (answer.ok) {
    intent.attempts.push({ id: answer.value.id, state: answer.value.state, error: null })
    intent.status = answer.value.state === 'SUCCESS' ? 'done' : answer.value.state === 'FAILED' ? 'retry' : 'open'
  } else {
    const { code, message } = answer.error
    intent.attempts.push({ id: null, state: null, error: `${code}: ${message}` })
    if (code === 'internal') state.internal.push(`${intent.key}: ${message}`)
    const reading = readRefusal(answer.error, intent.kind)
    if (reading === 'clock' && rig.clockRight() && !confirmedOnce) {
      const confirmed = await counter.call('app.confirmClock', {})
      if (confirmed.ok) state.confirmations.push(await counter.session().ledger.read('lastSeq'))
      return attempt(rig, state, intent, true)
    }
    intent.status = reading === 'clock' ? 'retry' : reading
  }
  if (intent.status === 'retry' && intent.attempts.length >= MAX_ATTEMPTS) intent.status = 'given-up'
  fundIfRecorded(rig, intent)
}

function fundIfRecorded(rig: DayRig, intent: Intent): void {
  if (intent.kind === 'topup' && intent.status === 'done' && !intent.funded) {
    intent.funded = true
    rig.fundWallet(TOPUP_PAISE)
  }
}

/**
 * What a person does before trying anything again: looks at the books. An open sale a status check
 * settled FAILED is sold again (the shop was told it is safe); one it settled SUCCESS is done; a top-up
 * or a close that answered an error but is in the books is done.
 */
async function lookAtTheBooks(rig: DayRig, state: CashierState): Promise<void> {
  const counter = rig.counter()
  const { ledger } = counter.session()
  for (const intent of Object.values(state.intents)) {
    if (intent.status === 'open' && (intent.kind === 'recharge' || intent.kind === 'coupon')) {
      const id = intent.attempts.at(-1)?.id
      const now = id ? (await (intent.kind === 'recharge' ? ledger.read('getSale', id) : ledger.read('couponSale', id)))?.state : undefined
      if (now === 'SUCCESS') intent.status = 'done'
      if (now === 'FAILED') intent.status = intent.attempts.length >= MAX_ATTEMPTS ? 'given-up' : 'retry'
    }
    if ((intent.status === 'retry' || intent.status === 'open') && intent.kind === 'topup') {
      if ((await ledger.read('topups')).some((t) => t.reference === TOPUP.reference)) intent.status = 'done'
      else if (intent.status === 'open') intent.status = 'retry'
    }
    if ((intent.status === 'retry' || intent.status === 'open') && intent.kind === 'close') {
      if (await ledger.read('dayClosure', state.businessDay)) intent.status = 'done'
      else if (intent.status === 'open') intent.status = 'retry'
    }
    fundIfRecorded(rig, intent)
  }
}

/** Once the fault is cleared: everything refused unsent is tried again, in the day's order. */
export async function retryPass(rig: DayRig, state: CashierState): Promise<void> {
  await lookAtTheBooks(rig, state)
  for (const step of DAY) {
    const intent = step.key ? state.intents[step.key] : undefined
    if (intent?.status === 'retry') await attempt(rig, state, intent)
  }
}

/** Every open sale the provider can be asked about, asked once. */
export async function checkRound(rig: DayRig): Promise<void> {
  const counter = rig.counter()
  const pending = await counter.call('pending.list', {})
  if (!pending.ok) return
  for (const item of pending.value.items.filter((i) => i.checkable)) {
    if (item.kind === 'recharge') await counter.call('recharge.checkStatus', { orderId: item.id })
    else await counter.call('pan.coupons.checkStatus', { attemptId: item.id })
  }
}

export async function runStep(rig: DayRig, state: CashierState, index: number): Promise<void> {
  const step = DAY[index]
  const counter = rig.counter()
  if (step.key) {
    const intent = state.intents[step.key]
    if (intent.status === 'todo') await attempt(rig, state, intent)
  } else if (step.kind === 'checks') await checkRound(rig)
  else if (step.kind === 'balance') await counter.call('pan.balance.refresh', {})
  else if (step.kind === 'summary') await counter.call('day.summary', {})
}

/** The agent the coupons are sold for, approved by the provider; and the first balance read. */
export async function setUpDay(rig: DayRig): Promise<CashierState> {
  const counter = rig.counter()
  const created = await counter.call('pan.agents.create', AGENT)
  if (!created.ok) throw new Error(`the agent could not be created: ${created.error.message}`)
  const refreshed = await counter.call('pan.agents.refresh', { vleId: AGENT.vleId })
  if (!refreshed.ok || refreshed.value.agents[0]?.status !== 'APPROVED') throw new Error('the agent was not approved on its first check')
  const status = await counter.call('app.status', {})
  if (!status.ok || status.value.panBalance.balancePaise !== OPENING_PAN_BALANCE_PAISE) throw new Error('the opening PAN balance was not read')
  return newCashierState(status.value.businessDay)
}
