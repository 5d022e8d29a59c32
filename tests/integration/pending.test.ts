// The pending queue through the whole core in real mode against the simulator: unresolved sales
// are asked about with status checks (never resent), kept with their last answer when the provider
// cannot say, settled by phone with a journaled note, and picked up again after a restart.
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterEvent } from '../../electron/contract'
import { businessDayOf } from '../../electron/counter/business-day'
import { ledgerDir } from '../../electron/counter/session'
import { Ledger } from '../../electron/ledger/ledger'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { agentInput, approvedAgent, eventually, journalOf, pendingItems, realCredentials, startRealModeRig, type RealModeRig, valueOf } from './helpers'

const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199.50' } as const

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const requestsOf = (r: RealModeRig, operation: string) => r.provider.requests.filter((req) => req.operation === operation)

async function unknownRecharge(r: RealModeRig): Promise<string> {
  r.provider.setFault({ kind: 'truncatedJson', times: 1 })
  const sold = await r.counter.call('recharge.sell', sale)
  if (!sold.ok || sold.value.state !== 'UNKNOWN') throw new Error(`expected an UNKNOWN sale, got ${JSON.stringify(sold)}`)
  return sold.value.orderId
}

const agent = agentInput()

/** A coupon order the provider charged but never named to us: only a phone call can settle it. */
async function unnamedCoupon(r: RealModeRig): Promise<string> {
  await approvedAgent(r.counter)
  r.provider.setFault({ kind: 'truncatedJson', operations: ['coupon_req'], times: 1 })
  const sold = await r.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1 })
  if (!sold.ok || sold.value.state !== 'UNKNOWN' || sold.value.orderId !== null) throw new Error(`expected an unnamed coupon order, got ${JSON.stringify(sold)}`)
  return sold.value.attemptId
}

describe('pending queue', () => {
  it('lists a sale left UNKNOWN, then settles it by check_status without sending it again', async () => {
    rig = await startRealModeRig()
    const orderId = await unknownRecharge(rig)
    expect(await pendingItems(rig)).toMatchObject([{ kind: 'recharge', id: orderId, label: '9876543210', amountPaise: 19950, state: 'UNKNOWN', checkable: true }])

    await rig.restart()
    const events: CounterEvent[] = []
    rig.counter.onEvent((event) => events.push(event))
    await eventually(async () => (await pendingItems(rig!)).length === 0, 'the queue to settle the sale')

    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'SUCCESS' }] } })
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
    expect(requestsOf(rig, 'check_status').map((req) => req.fields.order_id)).toEqual([orderId])
    await eventually(async () => events.some((e) => e.name === 'pending.changed'), 'the pending.changed event')
    expect(events.filter((e) => e.name === 'pending.changed').at(-1)).toEqual({ name: 'pending.changed', payload: { items: [] } })
  })

  it('keeps a sale pending when check_status fails, with the answer in plain words and a later next check', async () => {
    rig = await startRealModeRig()
    const orderId = await unknownRecharge(rig)
    rig.provider.setFault({ kind: 'http500', operations: ['check_status'], times: 1 })
    await rig.restart()

    const [item] = await eventually(async () => {
      const items = await pendingItems(rig!)
      return items[0]?.checks === 1 && items
    }, 'the first check to be recorded')
    expect(item).toMatchObject({ id: orderId, state: 'UNKNOWN', checkable: true, lastAnswer: expect.stringMatching(/error page \(HTTP 500\)/) })
    const waited = Date.parse(item.nextCheckAt!) - Date.parse(item.lastCheckedAt!)
    // The default schedule's second step: 30 s after the first check.
    expect(waited).toBeGreaterThanOrEqual(29_000)
    expect(waited).toBeLessThanOrEqual(31_000)
    expect(journalOf(rig).filter((line) => line.type === 'pending.checked').map((line) => line.data)).toEqual([
      { kind: 'recharge', id: orderId, answer: item.lastAnswer, nextCheckAt: item.nextCheckAt, by: 'owner' },
    ])
    expect(requestsOf(rig, 'check_status')).toHaveLength(1)
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
  })

  it('shows a coupon order the provider never named as not checkable, and never asks about it', async () => {
    rig = await startRealModeRig()
    const attemptId = await unnamedCoupon(rig)
    expect(await pendingItems(rig)).toMatchObject([
      { kind: 'coupon', id: attemptId, label: 'Ravi Kumar (VLE1001)', state: 'UNKNOWN', checkable: false, nextCheckAt: null, checks: 0 },
    ])
    // A younger recharge: the queue goes oldest first, so once it is settled the coupon's turn has passed.
    const orderId = await unknownRecharge(rig)
    await rig.restart()
    const [left] = await eventually(async () => {
      const items = await pendingItems(rig!)
      return items.length === 1 && items
    }, 'the queue to settle the recharge')
    expect(left).toMatchObject({ id: attemptId, checkable: false, checks: 0 })
    expect(requestsOf(rig, 'check_status').map((req) => req.fields.order_id)).toEqual([orderId])
    expect(requestsOf(rig, 'coupon_status')).toHaveLength(0)
    expect(requestsOf(rig, 'coupon_req')).toHaveLength(1)
  })

  it('settles by phone only with a note, journals it, shows the note on the sale and drops it from the list', async () => {
    rig = await startRealModeRig()
    const attemptId = await unnamedCoupon(rig)
    const events: CounterEvent[] = []
    rig.counter.onEvent((event) => events.push(event))

    const short = await rig.counter.dispatch('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'SUCCESS', note: 'ok' })
    expect(short).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { note: expect.any(String) } } })

    const note = 'Confirmed by Meena at the provider helpdesk, 11:40'
    const settled = await rig.counter.call('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'SUCCESS', note })
    expect(settled).toEqual({ ok: true, value: { items: [] } })
    // Settled SUCCESS, the order carries the charge expected of it (₹107 x 1) into the balance chain.
    expect(journalOf(rig).filter((line) => line.type === 'sale.settled').map((line) => line.data)).toEqual([
      { kind: 'coupon', id: attemptId, outcome: 'SUCCESS', note, chargedPaise: 107_00, by: 'owner' },
    ])
    expect(await rig.counter.call('pan.coupons.list', {})).toMatchObject({ ok: true, value: { sales: [{ attemptId, state: 'SUCCESS', settledNote: note }] } })
    expect(events).toContainEqual({ name: 'pending.changed', payload: { items: [] } })
    expect(events).toContainEqual({ name: 'coupon.changed', payload: expect.objectContaining({ attemptId, settledNote: note }) })

    const again = await rig.counter.call('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'FAILED', note })
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    await rig.restart()
    expect(await pendingItems(rig)).toEqual([])
  })

  it('a coupon settled SUCCESS by phone takes the charge the owner confirms off the balance: the next reading and the day close show no break', async () => {
    rig = await startRealModeRig()
    const note = 'Confirmed by Meena at the provider helpdesk, 11:40'
    const attemptId = await unnamedCoupon(rig)
    const [item] = await pendingItems(rig)
    expect(item).toMatchObject({ kind: 'coupon', id: attemptId, chargePaise: 107_00 })

    const before = journalOf(rig).length
    const onFailed = await rig.counter.dispatch('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'FAILED', note, charged: '107' })
    expect(onFailed).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { charged: expect.any(String) } } })
    const unreadable = await rig.counter.dispatch('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'SUCCESS', note, charged: '1O7' })
    expect(unreadable).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { charged: expect.any(String) } } })
    expect(journalOf(rig)).toHaveLength(before)

    // The provider took ₹107 when the order came; the owner confirms it on the phone.
    expect(rig.provider.pan.balancePaise()).toBe(5_000_00 - 107_00)
    valueOf(await rig.counter.call('pending.settle', { kind: 'coupon', id: attemptId, outcome: 'SUCCESS', note, charged: '107' }))
    expect(valueOf(await rig.counter.call('pan.balance.refresh', {})).balancePaise).toBe(5_000_00 - 107_00)
    const summary = valueOf(await rig.counter.call('day.summary', {}))
    expect(summary.breaks).toEqual([])
    expect(summary.closingPanBalance.balancePaise).toBe(5_000_00 - 107_00)
    expect(valueOf(await rig.counter.call('pan.coupons.list', {})).sales).toMatchObject([{ attemptId, state: 'SUCCESS', amountPaise: 107_00 }])

    // A charge the owner got wrong is a break of exactly the difference, at the next reading.
    rig.provider.setFault({ kind: 'truncatedJson', operations: ['coupon_req'], times: 1 })
    const second = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1 })).attemptId
    valueOf(await rig.counter.call('pending.settle', { kind: 'coupon', id: second, outcome: 'SUCCESS', note, charged: '100' }))
    valueOf(await rig.counter.call('pan.balance.refresh', {}))
    expect(valueOf(await rig.counter.call('day.summary', {})).breaks).toMatchObject([{ kind: 'balance', differencePaise: -7_00 }])
  })

  it('refuses a charge on a recharge settled by phone, and journals nothing', async () => {
    rig = await startRealModeRig()
    const orderId = await unknownRecharge(rig)
    const before = journalOf(rig).length
    const refused = await rig.counter.dispatch('pending.settle', { kind: 'recharge', id: orderId, outcome: 'SUCCESS', note: 'Operator says it arrived, 12:05', charged: '199.50' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { charged: expect.any(String) } } })
    expect(journalOf(rig)).toHaveLength(before)
    expect((await pendingItems(rig)).map((item) => [item.id, item.chargePaise])).toEqual([[orderId, null]])
  })

  it('settles a recharge by phone as FAILED', async () => {
    rig = await startRealModeRig()
    const orderId = await unknownRecharge(rig)
    const note = 'Provider support (ticket 4471) says it never reached the operator'
    expect(await rig.counter.call('pending.settle', { kind: 'recharge', id: orderId, outcome: 'FAILED', note })).toEqual({ ok: true, value: { items: [] } })
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'FAILED', settledNote: note }] } })
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
  })

  it('refuses to settle a sale that has its answer already', async () => {
    rig = await startRealModeRig()
    const sold = await rig.counter.call('recharge.sell', sale)
    expect(sold).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
    if (!sold.ok) return
    const refused = await rig.counter.call('pending.settle', { kind: 'recharge', id: sold.value.orderId, outcome: 'FAILED', note: 'Operator says it failed, 12:05' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ state: 'SUCCESS', settledNote: null }] } })
  })

  it('never asks about, nor lets anyone settle, a sale whose own request is still on its way', async () => {
    // The simulator holds these operations' requests until released: a provider slow to answer.
    const holding = new Set<string>()
    const release = new Map<string, () => void>()
    rig = await startRealModeRig(
      { onRequest: (req) => (holding.has(req.operation) ? new Promise<void>((resolve) => release.set(req.operation, resolve)) : undefined) },
      { providerTimeoutMs: 10_000 },
    )
    try {
      const older = await unknownRecharge(rig)
      holding.add('balance').add('transaction')
      // The queue starts once the start-up balance read is answered: held until a sale is on its way.
      await rig.restart()
      const selling = rig.counter.call('recharge.sell', { ...sale, number: '9812345678' })
      await eventually(async () => release.has('transaction') && release.has('balance'), 'the sale to reach the provider')
      release.get('balance')!()
      await eventually(async () => requestsOf(rig!, 'check_status').length === 1 && (await pendingItems(rig!)).every((item) => item.id !== older), 'the older sale to be settled')
      const [onItsWay] = await pendingItems(rig)
      expect(onItsWay).toMatchObject({ kind: 'recharge', label: '9812345678', state: 'SENDING', checks: 0 })
      const refused = await rig.counter.call('pending.settle', { kind: 'recharge', id: onItsWay.id, outcome: 'FAILED', note: 'Customer says it did not arrive' })
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/being sent right now/) } })

      release.get('transaction')!()
      expect(await selling).toMatchObject({ ok: true, value: { orderId: onItsWay.id, state: 'SUCCESS', settledNote: null } })
      expect(requestsOf(rig, 'check_status').map((req) => req.fields.order_id)).toEqual([older])
    } finally {
      holding.clear()
      for (const resolve of release.values()) resolve()
    }
  })

  it('after a crash between intent and outcome, resolves the sale by check_status at start-up', async () => {
    rig = await startRealModeRig()
    await rig.counter.close()
    // The crash: the order reached the provider, but its outcome never reached the journal.
    const orderId = 'FR2405010000019ZZZ'
    const direct = new RechargeApi({ baseUrl: rig.provider.url, credentials: realCredentials })
    expect((await direct.transaction({ number: '9123456780', amountPaise: 4900, operatorCode: 'AT', orderId })).outcome).toBe('SUCCESS')
    direct.close()
    const ledger = await Ledger.open({ dir: ledgerDir(rig.dataDir, 'real') })
    ledger.append('recharge.intent', {
      orderId,
      kind: 'mobile',
      number: '9123456780',
      operatorCode: 'AT',
      operatorName: 'Airtel',
      circle: null,
      amountPaise: 4900,
      businessDay: businessDayOf(new Date(), 'Asia/Kolkata'),
      training: false,
    })
    await ledger.close()

    await rig.restart()
    await eventually(async () => requestsOf(rig!, 'check_status').length === 1 && (await pendingItems(rig!)).length === 0, 'the start-up check')
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'SUCCESS', settledNote: null }] } })
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
  })
})
