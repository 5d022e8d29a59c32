// The crash test's verdict on one run: what must hold after a SIGKILL (or a ledger thread's death) and a
// restart, judged only from the core's contract answers, the child's stdout and the simulator's request log.
import type { CouponSale, Outcome, PendingItem, SaleState } from '../../electron/contract'
import type { SimRequest } from '../../electron/simulator/server'
import { ORDER_OPERATION, powerCutFor, snapshotDeathFor, type ChildLine, type Flow, type KillPoint, type ThreadRole, type Victim } from './protocol'

export interface RechargeRow {
  orderId: string
  state: SaleState
}

export interface RunObservation {
  flow: Flow
  killPoint: KillPoint
  victim: Victim
  repetition: number
  child: { code: number | null; signal: NodeJS.Signals | null; lines: ChildLine[] }
  /** What the provider received while the child ran. */
  childRequests: SimRequest[]
  /** What it received from the restarted core, up to the end of its start-up checks. */
  restartRequests: SimRequest[]
  sales: RechargeRow[]
  coupons: CouponSale[]
  pending: PendingItem[]
  panBalancePaise: number | null
  providerBalancePaise: number
  /** The provider's own answer to check_status for each recharge order the ledger or the provider knows. */
  providerTruth: Map<string, Outcome>
}

export interface RunCounts {
  acked: number
  ordersAtProvider: number
  resolvedByStatusCheck: number
  leftForPhone: number
}

const FINAL = new Set(['SUCCESS', 'FAILED'])
const isFinal = (state: string) => FINAL.has(state)

/**
 * How many orders reach the provider: the kill point decides. A ledger thread that dies in the intent's
 * append leaves it unanswered, and the core sends nothing for an intent it was not told is written;
 * a periodic snapshot written by another thread (the chores thread) lets the sale go on to the provider.
 */
function expectedOrders(killPoint: KillPoint, repetition: number, ended: ThreadRole | null): number {
  if (killPoint === 'mid-snapshot') return snapshotDeathFor(repetition).trigger === 'periodic' && ended !== 'other' ? 1 : 2
  return killPoint === 'before-intent' || killPoint === 'after-intent' ? 1 : 2
}

function duplicates(ids: string[]): string[] {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))]
}

export function checkRun(run: RunObservation): { violations: string[]; counts: RunCounts } {
  const violations: string[] = []
  const fail = (text: string) => violations.push(text)
  const { flow, child } = run
  const acks = child.lines.filter((l): l is Extract<ChildLine, { kind: 'ACK' }> => l.kind === 'ACK')
  const sellCalls = child.lines.filter((l) => l.kind === 'SELL').length
  const orderRequests = run.childRequests.filter((r) => r.operation === ORDER_OPERATION[flow])

  // The run itself: killed (or its thread ended), at the armed sale, having reached the provider exactly as the kill point implies.
  const said = child.lines.filter((l) => l.kind === 'MISSED' || l.kind === 'REFUSED').map((l) => ('detail' in l ? l.detail : ''))
  const ended = child.lines.find((l): l is Extract<ChildLine, { kind: 'THREAD-ENDED' }> => l.kind === 'THREAD-ENDED')?.role ?? null
  for (const line of child.lines) if (line.kind === 'MISSED') fail(`kill point: not reached: ${line.detail}`)
  if (run.victim === 'process' && child.signal !== 'SIGKILL') {
    fail(`kill point: the child was not killed (exit code ${child.code}${said.length ? `: ${said.join('; ')}` : ''})`)
  }
  if (run.victim === 'thread') {
    if (ended === null) fail('kill point: no ledger thread ended')
    // After its thread's death the core still answers the sale, closes and lets the process exit.
    if (child.code !== 0 || !child.lines.some((l) => l.kind === 'CLOSED')) {
      fail(`kill point: the child whose ledger thread ended did not close and exit (exit code ${child.code}, signal ${child.signal}${said.length ? `: ${said.join('; ')}` : ''})`)
    }
  }
  if (acks.length === 0) fail('kill point: the first sale was never acknowledged')
  if (!child.lines.some((l) => l.kind === 'ARMED')) fail('kill point: the child died before its failpoint was armed')
  // (5) for a thread's death: the running core got its books back, writable, without a restart.
  for (const line of child.lines) if (line.kind === 'STUCK') fail(`(5) after the ledger thread ended, ${line.detail}`)
  const ordersExpected = expectedOrders(run.killPoint, run.repetition, ended)
  if (orderRequests.length !== ordersExpected) fail(`kill point: the provider received ${orderRequests.length} ${ORDER_OPERATION[flow]} requests, not ${ordersExpected}`)

  const ledgerRows: { id: string; state: string; orderId: string | null }[] =
    flow === 'recharge' ? run.sales.map((s) => ({ id: s.orderId, state: s.state, orderId: s.orderId })) : run.coupons.map((c) => ({ id: c.attemptId, state: c.state, orderId: c.orderId }))
  const byId = new Map(ledgerRows.map((row) => [row.id, row]))

  // (1) Every acknowledged sale is there, in the state the counter was told.
  for (const ack of acks) {
    const row = byId.get(ack.id)
    if (!row) fail(`(1) acknowledged sale ${ack.id} is missing after the restart`)
    else if (isFinal(ack.state) && row.state !== ack.state) fail(`(1) acknowledged sale ${ack.id} was ${ack.state}, is now ${row.state}`)
  }

  // (2) No order was sent twice, and the restart sent none at all.
  if (flow === 'recharge') {
    for (const id of duplicates(orderRequests.map((r) => r.fields.order_id))) fail(`(2) order ${id} was sent to the provider more than once`)
  } else if (orderRequests.length > sellCalls) {
    fail(`(2) ${orderRequests.length} coupon_req requests for ${sellCalls} coupon sales`)
  }
  const resent = run.restartRequests.filter((r) => r.operation === ORDER_OPERATION[flow])
  if (resent.length > 0) fail(`(2) the restarted core sent ${resent.length} ${ORDER_OPERATION[flow]} request(s)`)

  // (3) Start-up resolved what it could ask about; what it cannot ask about stays in sight.
  const acked = new Set(acks.map((a) => a.id))
  const askedAtStart = new Set(run.restartRequests.filter((r) => r.operation === 'check_status').map((r) => r.fields.order_id))
  let resolvedByStatusCheck = 0
  let leftForPhone = 0
  // Killed after its outcome was written, with no power cut to take the line (none follows a thread's death): the books already have the answer.
  const outcomeKept = run.killPoint === 'after-outcome' && (run.victim === 'thread' || powerCutFor(run.repetition) === 'none')
  if (flow === 'recharge') {
    for (const request of orderRequests) {
      if (!byId.has(request.fields.order_id)) fail(`(3) the provider has order ${request.fields.order_id} but the ledger does not`)
    }
    for (const sale of run.sales) {
      const truth = run.providerTruth.get(sale.orderId)
      if (sale.state !== truth) fail(`(3) sale ${sale.orderId} is ${sale.state} after start-up; the provider says ${truth}`)
      if (acked.has(sale.orderId)) continue
      if (outcomeKept && isFinal(sale.state)) continue
      if (!askedAtStart.has(sale.orderId)) fail(`(3) unacknowledged sale ${sale.orderId} was not checked with check_status at start-up`)
      else if (isFinal(sale.state)) resolvedByStatusCheck++
    }
  } else {
    const named = run.coupons.filter((c) => c.orderId !== null)
    for (const coupon of named) if (!isFinal(coupon.state)) fail(`(3) coupon ${coupon.attemptId} has provider order ${coupon.orderId} but is still ${coupon.state}`)
    const unnamed = run.coupons.filter((c) => c.orderId === null)
    for (const coupon of unnamed) {
      if (isFinal(coupon.state)) fail(`(3) coupon ${coupon.attemptId} is ${coupon.state} though the provider never named its order`)
      if (!run.pending.some((item) => item.kind === 'coupon' && item.id === coupon.attemptId && !item.checkable)) {
        fail(`(3) unconfirmed coupon ${coupon.attemptId} is not in the pending queue as "settle by phone"`)
      }
    }
    leftForPhone = unnamed.length
    const unheard = orderRequests.length - named.length
    if (unheard > unnamed.length) fail(`(3) the provider made ${unheard} coupon order(s) the ledger shows no attempt for`)
    if (run.panBalancePaise !== run.providerBalancePaise) {
      fail(`(3) the PAN balance read at start-up is ${run.panBalancePaise} paise; the provider holds ${run.providerBalancePaise}`)
    }
  }

  // (4) Nothing is duplicated, nothing extra appeared: one row per sale whose intent was journaled.
  for (const id of duplicates(ledgerRows.map((row) => row.id))) fail(`(4) sale ${id} appears twice`)
  const journaledSales = run.killPoint === 'before-intent' ? 1 : 2
  if (ledgerRows.length !== journaledSales) fail(`(4) the ledger shows ${ledgerRows.length} ${flow} sales, not ${journaledSales}`)

  return { violations, counts: { acked: acks.length, ordersAtProvider: orderRequests.length, resolvedByStatusCheck, leftForPhone } }
}
