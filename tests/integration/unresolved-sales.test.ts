// A sale whose outcome is not known is never guessed, never sold twice: through the whole core over real
// HTTP, a refused status check leaves the sale pending until the right credentials settle it, and an
// answer the full disk refused is held, shown as "do not sell again" and journaled once there is room.
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterEvent, CouponSale, Sale } from '../../electron/contract'
import { MAY_HAVE_CHARGED as HELD_SAID } from '../../electron/counter/held-answers'
import { ledgerDir } from '../../electron/counter/session'
import { NOT_FOUND_SETTLES_AFTER_MS } from '../../electron/partners/outcome'
import { english } from '../../electron/shared/words'
import type { SimRequest } from '../../electron/simulator/server'
import { installFsShim, type FsShim } from '../faults/fs-shim'
import { agentInput, approvedAgent, eventually, journalOf, pendingItems, realApiKey, realCredentials, startRealModeRig, valueOf, type RealModeRig } from './helpers'

/** What a held sale says, as an English screen hears it (said in the core, shared/words). */
const MAY_HAVE_CHARGED = english(HELD_SAID)

const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199.50' } as const
const vleId = agentInput().vleId

let rig: RealModeRig | undefined
afterEach(async () => {
  disk.free()
  await rig?.close()
  rig = undefined
  disk.uninstall()
})

const requestsOf = (r: RealModeRig, operation: string) => r.provider.requests.filter((req) => req.operation === operation)

/**
 * The disk fills the moment the provider receives `operation`: the intent is on disk, the provider
 * books the order, and every journal write after that fails with ENOSPC until free() is called.
 * The ledger writes from its own threads: the fault harness's shim reaches them (tests/faults/fs-shim.ts).
 */
const disk = (() => {
  let fillOn: string | null = null
  let shim: FsShim | undefined
  return {
    /** The core with the shim in its ledger threads (they join it when started: hence the restart). */
    async rig(counterOptions: Parameters<typeof startRealModeRig>[1] = {}): Promise<RealModeRig> {
      const r = await startRealModeRig({ onRequest: (req) => disk.onRequest(req) }, counterOptions)
      shim = installFsShim(ledgerDir(r.dataDir, 'real'))
      await r.restart()
      return r
    },
    fillWhenProviderGets(operation: string) {
      fillOn = operation
    },
    onRequest(req: SimRequest) {
      if (req.operation === fillOn) shim?.arm({ cls: 'write', occurrence: 1 }, { kind: 'errno', code: 'ENOSPC' })
    },
    free() {
      fillOn = null
      shim?.disarm()
    },
    uninstall() {
      shim?.uninstall()
      shim = undefined
    },
  }
})()

const events = (r: RealModeRig) => {
  const seen: CounterEvent[] = []
  r.counter.onEvent((event) => seen.push(event))
  return seen
}

const refusedCheck = (reason: string, subject: string) =>
  `The provider refused the status check (${reason}): this says nothing about ${subject}, which stays pending. Check the credentials in Settings.`

describe('a refused status check settles nothing', () => {
  it('recharge: UNKNOWN, restart with a rotated token: still pending; the right token back: SUCCESS, sent once', async () => {
    rig = await startRealModeRig()
    rig.provider.setFault({ kind: 'pendingThenSuccess', times: 1 })
    const sold = await rig.counter.call('recharge.sell', sale)
    if (!sold.ok || sold.value.state !== 'UNKNOWN') throw new Error(`expected an UNKNOWN sale, got ${JSON.stringify(sold)}`)
    const { orderId } = sold.value

    rig.provider.rotateCredentials({ recharge: { token: 'rotated-token-5e1d0c' } })
    await rig.restart()
    const [item] = await eventually(async () => {
      const items = await pendingItems(rig!)
      return items[0]?.checks === 1 && items
    }, 'the start-up check to be recorded')
    const answer = refusedCheck('Invalid credentials', 'the sale')
    expect(item).toMatchObject({ id: orderId, state: 'UNKNOWN', checkable: true, lastAnswer: answer })
    expect(journalOf(rig).filter((line) => line.type === 'pending.checked').map((line) => line.data)).toEqual([
      { kind: 'recharge', id: orderId, answer, nextCheckAt: item.nextCheckAt, by: 'owner' },
    ])
    expect(journalOf(rig).some((line) => line.type === 'recharge.outcome' && line.data.outcome === 'FAILED')).toBe(false)
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'UNKNOWN' }] } })
    // A manual check says the same, and changes nothing either.
    expect(await rig.counter.call('recharge.checkStatus', { orderId })).toMatchObject({ ok: true, value: { orderId, state: 'UNKNOWN', message: answer } })

    rig.provider.rotateCredentials({ recharge: { token: realCredentials.token } })
    await rig.restart()
    await eventually(async () => (await pendingItems(rig!)).length === 0, 'the check with the right token to settle the sale')
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'SUCCESS' }] } })
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
    expect(rig.provider.orderBook().recharges).toMatchObject([{ orderId, state: 'SUCCESS' }])
  })

  it('coupon: UNKNOWN, restart with a rotated api_key: still pending; the right key back: SUCCESS, ordered once', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'pendingThenSuccess', operations: ['coupon_req'], times: 1 })
    const sold = await rig.counter.call('pan.coupons.sell', { vleId, type: 1, qty: 1 })
    if (!sold.ok || sold.value.state !== 'UNKNOWN' || !sold.value.orderId) throw new Error(`expected a named UNKNOWN coupon order, got ${JSON.stringify(sold)}`)
    const { attemptId } = sold.value

    rig.provider.rotateCredentials({ panApiKey: '99999999-8888-7777-6666-555555555555' })
    await rig.restart()
    const [item] = await eventually(async () => {
      const items = await pendingItems(rig!)
      return items[0]?.checks === 1 && items
    }, 'the start-up check to be recorded')
    const answer = refusedCheck('Invalid API key', 'the coupon order')
    expect(item).toMatchObject({ kind: 'coupon', id: attemptId, state: 'UNKNOWN', checkable: true, lastAnswer: answer })
    expect(journalOf(rig).filter((line) => line.type === 'pending.checked').map((line) => line.data.answer)).toEqual([answer])
    expect(await rig.counter.call('pan.coupons.list', {})).toMatchObject({ ok: true, value: { sales: [{ attemptId, state: 'UNKNOWN' }] } })

    rig.provider.rotateCredentials({ panApiKey: realApiKey })
    await rig.restart()
    await eventually(async () => (await pendingItems(rig!)).length === 0, 'the check with the right key to settle the order')
    expect(await rig.counter.call('pan.coupons.list', {})).toMatchObject({ ok: true, value: { sales: [{ attemptId, state: 'SUCCESS' }] } })
    expect(requestsOf(rig, 'coupon_req')).toHaveLength(1)
    expect(rig.provider.orderBook().coupons).toHaveLength(1)
  })
})

/** The provider takes each transaction in but books it only when `release()` is called: until then a status check finds no such order. */
function slowToBook() {
  let release!: () => void
  const booked = new Promise<void>((resolve) => (release = resolve))
  let received = false
  return {
    onRequest: async (req: SimRequest) => {
      if (req.operation !== 'transaction') return
      received = true
      await booked
    },
    received: () => received,
    release: () => release(),
  }
}

describe('a provider slow to book the order, or asked while the sale is on its way', () => {
  it('"no such order" right after a timeout keeps the sale pending and the number closed; once booked, the check says SUCCESS: one order', async () => {
    const provider = slowToBook()
    rig = await startRealModeRig({ onRequest: provider.onRequest }, { providerTimeoutMs: 400 })
    const sold = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(sold.state).toBe('UNKNOWN')

    const asked = valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId }))
    expect(asked).toMatchObject({ state: 'UNKNOWN', message: expect.stringContaining(`The provider has no record of order ${sold.orderId} yet (No such order).`) })
    expect(journalOf(rig).some((line) => line.type === 'recharge.outcome' && line.data.outcome === 'FAILED')).toBe(false)
    expect(await rig.counter.call('recharge.sell', sale)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { number: expect.stringContaining(sold.orderId) } } })

    provider.release()
    await eventually(async () => rig!.provider.orderBook().recharges.length === 1, 'the provider to book the order')
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId })).state).toBe('SUCCESS')
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
    expect(rig.provider.orderBook().recharges).toMatchObject([{ orderId: sold.orderId, state: 'SUCCESS' }])
  })

  it('a FAILED the counter has never seen worded, naming no order, settles nothing; the sale sells once', async () => {
    rig = await startRealModeRig({}, { providerTimeoutMs: 400 })
    rig.provider.setFault({ kind: 'noAnswer', times: 1 })
    const sold = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(sold.state).toBe('UNKNOWN')
    rig.provider.setFault({ kind: 'refuse', operations: ['check_status'], times: 1, refusal: { message: 'Partner account inactive' } })
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId }))).toMatchObject({
      state: 'UNKNOWN',
      message: `The provider answered FAILED without naming order ${sold.orderId} (Partner account inactive), so this does not settle it: it stays pending and is asked again. If the provider keeps answering so, settle it by phone.`,
    })
    expect(await rig.counter.call('recharge.sell', sale)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId })).state).toBe('SUCCESS')
    expect(rig.provider.orderBook().recharges).toHaveLength(1)
  })

  it('"no such order" settles a sale FAILED once the provider has had a quarter of an hour to book it', async () => {
    let nowMs = Date.now()
    rig = await startRealModeRig({}, { providerTimeoutMs: 400, now: () => new Date(nowMs) })
    rig.provider.setFault({ kind: 'http500', times: 1 })
    const lost = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(lost.state).toBe('UNKNOWN')
    nowMs += NOT_FOUND_SETTLES_AFTER_MS - 1_000
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: lost.orderId })).state).toBe('UNKNOWN')
    nowMs += 1_000
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: lost.orderId }))).toMatchObject({
      state: 'FAILED',
      message: `The provider has no record of order ${lost.orderId} (No such order), 15 minutes or more after it was sent: it never reached the provider, and nothing was charged.`,
    })
    expect(await rig.counter.call('recharge.sell', sale)).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
    expect(rig.provider.orderBook().recharges).toHaveLength(1)
  })

  it('a status check asked while the sale is being sent is refused, and the sale\'s own answer settles it', async () => {
    const provider = slowToBook()
    rig = await startRealModeRig({ onRequest: provider.onRequest }, { providerTimeoutMs: 5_000 })
    const selling = rig.counter.call('recharge.sell', sale)
    await eventually(async () => provider.received(), 'the provider to receive the sale')
    const [{ sale: sending }] = await rig.counter.session().ledger.read('unresolved')
    if ('attemptId' in sending) throw new Error('expected the recharge')
    expect(sending.state).toBe('SENDING')
    expect(await rig.counter.call('recharge.checkStatus', { orderId: sending.orderId })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: `Sale ${sending.orderId} is being sent right now: wait for the provider's answer.`, fields: { orderId: 'Being sent right now' } },
    })
    expect(requestsOf(rig, 'check_status')).toHaveLength(0)
    provider.release()
    expect(valueOf(await selling)).toMatchObject({ orderId: sending.orderId, state: 'SUCCESS' })
  })
})

describe('one unresolved sale per number or agent', () => {
  it('refuses a second recharge for a number whose sale is UNKNOWN, naming it and pointing to Pending; another number sells', async () => {
    rig = await startRealModeRig()
    rig.provider.setFault({ kind: 'noAnswer', times: 1 })
    const sold = await rig.counter.call('recharge.sell', sale)
    if (!sold.ok || sold.value.state !== 'UNKNOWN') throw new Error(`expected an UNKNOWN sale, got ${JSON.stringify(sold)}`)
    const before = await rig.counter.session().ledger.read('lastSeq')

    const again = await rig.counter.call('recharge.sell', sale)
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: `Order ${sold.value.orderId} for 9876543210 has no final answer. Its result is not known yet: the provider may have charged it. Open Pending to check its status or settle it by phone first.`,
        fields: { number: `Order ${sold.value.orderId} for 9876543210 is still pending` },
      },
    })
    expect(await rig.counter.session().ledger.read('lastSeq')).toBe(before)
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
    expect(await rig.counter.call('recharge.sell', { ...sale, number: '9812345678' })).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })

    // Settled, the number sells again.
    expect(await rig.counter.call('recharge.checkStatus', { orderId: sold.value.orderId })).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
    expect(await rig.counter.call('recharge.sell', sale)).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
  })

  it('refuses a second coupon order for an agent whose order is UNKNOWN', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'truncatedJson', operations: ['coupon_req'], times: 1 })
    const sold = await rig.counter.call('pan.coupons.sell', { vleId, type: 1, qty: 1 })
    if (!sold.ok || sold.value.state !== 'UNKNOWN') throw new Error(`expected an UNKNOWN coupon order, got ${JSON.stringify(sold)}`)
    const again = await rig.counter.call('pan.coupons.sell', { vleId, type: 2, qty: 1 })
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(`Order ${sold.value.attemptId} for agent ${vleId} has no final answer.`), fields: { vleId: expect.any(String) } } })
    expect(requestsOf(rig, 'coupon_req')).toHaveLength(1)
  })
})

describe('the disk fills after the provider booked the order', () => {
  it('recharge: UNKNOWN "do not sell again", no second order, and the outcome lands once there is room', async () => {
    rig = await disk.rig({ heldRetryMs: 100 })
    const seen = events(rig)
    disk.fillWhenProviderGets('transaction')
    const sold = await rig.counter.call('recharge.sell', sale)
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', message: MAY_HAVE_CHARGED, number: sale.number } })
    if (!sold.ok) return
    const { orderId } = sold.value
    expect(seen.filter((e) => e.name === 'sale.changed').at(-1)).toMatchObject({ payload: { orderId, state: 'UNKNOWN', message: MAY_HAVE_CHARGED } })
    expect(await pendingItems(rig)).toMatchObject([{ id: orderId, state: 'UNKNOWN', lastAnswer: MAY_HAVE_CHARGED }])

    const again = await rig.counter.call('recharge.sell', sale)
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(`Order ${orderId} for 9876543210 has no final answer. ${MAY_HAVE_CHARGED}`) } })
    expect(rig.provider.orderBook().recharges).toMatchObject([{ orderId, number: sale.number }])
    expect(journalOf(rig).filter((line) => line.type === 'recharge.outcome')).toEqual([])

    disk.free()
    await eventually(async () => journalOf(rig!).some((line) => line.type === 'recharge.outcome' && line.data.orderId === orderId), 'the held outcome to be journaled')
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'SUCCESS' }] } })
    // The screens are told once the answer is read back from the books, a moment after it is journaled.
    await eventually(async () => (seen.filter((e) => e.name === 'sale.changed').at(-1)?.payload as Sale | undefined)?.state === 'SUCCESS', 'the sale.changed event')
    expect(seen.filter((e) => e.name === 'sale.changed').at(-1)).toMatchObject({ payload: { orderId } })
    expect(await pendingItems(rig)).toEqual([])
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
    expect(requestsOf(rig, 'check_status')).toHaveLength(0)
  })

  it('every screen reads a held sale as UNKNOWN "do not sell again" (today, history, receipt), and SUCCESS once journaled', async () => {
    rig = await disk.rig({ heldRetryMs: 3_600_000 })
    disk.fillWhenProviderGets('transaction')
    const sold = await rig.counter.call('recharge.sell', sale)
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', message: MAY_HAVE_CHARGED } })
    if (!sold.ok) return
    const { orderId } = sold.value
    const everyScreen = async () => ({
      today: await rig!.counter.call('sales.today', {}),
      history: await rig!.counter.call('history.search', { text: orderId }),
      receipt: await rig!.counter.call('receipt.html', { orderId }),
    })

    const held = await everyScreen()
    expect(held.today).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'UNKNOWN', message: MAY_HAVE_CHARGED }] } })
    expect(held.history).toMatchObject({ ok: true, value: { total: 1, rows: [{ kind: 'recharge', id: orderId, state: 'UNKNOWN' }] } })
    expect(held.receipt).toMatchObject({ ok: true, value: { html: expect.stringContaining('Status: PENDING') } })
    // The books themselves still hold the intent alone: the screens say what the shop must do, not what is on disk.
    expect(await rig.counter.session().ledger.read('getSale', orderId)).toMatchObject({ state: 'SENDING' })

    disk.free()
    expect(await rig.counter.call('pan.balance.refresh', {})).toMatchObject({ ok: true })
    const settled = await everyScreen()
    expect(settled.today).toMatchObject({ ok: true, value: { sales: [{ orderId, state: 'SUCCESS' }] } })
    expect(settled.history).toMatchObject({ ok: true, value: { total: 1, rows: [{ id: orderId, state: 'SUCCESS' }] } })
    expect(settled.receipt).toMatchObject({ ok: true, value: { html: expect.stringContaining('Status: SUCCESSFUL') } })
  })

  it('recharge: the held outcome is journaled before the next write, without waiting for the timer', async () => {
    rig = await disk.rig({ heldRetryMs: 3_600_000 })
    disk.fillWhenProviderGets('transaction')
    const sold = await rig.counter.call('recharge.sell', sale)
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', message: MAY_HAVE_CHARGED } })
    if (!sold.ok) return
    disk.free()
    expect(await rig.counter.call('pan.balance.refresh', {})).toMatchObject({ ok: true })
    const types = journalOf(rig).map((line) => line.type)
    expect(types.slice(-2)).toEqual(['recharge.outcome', 'pan.balance.read'])
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId: sold.value.orderId, state: 'SUCCESS' }] } })
  })

  it('recharge: should the process stop before there is room, the start-up check settles the sale from its intent', async () => {
    rig = await disk.rig({ heldRetryMs: 3_600_000 })
    disk.fillWhenProviderGets('transaction')
    const sold = await rig.counter.call('recharge.sell', sale)
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', message: MAY_HAVE_CHARGED } })
    if (!sold.ok) return
    // Stopped with the disk still full: the held answer is lost with the process; the intent is on disk as SENDING.
    await rig.restart(() => disk.free())
    await eventually(async () => (await pendingItems(rig!)).length === 0, 'the start-up check to settle the sale')
    expect(await rig.counter.call('sales.today', {})).toMatchObject({ ok: true, value: { sales: [{ orderId: sold.value.orderId, state: 'SUCCESS' }] } })
    expect(requestsOf(rig, 'check_status').map((req) => req.fields.order_id)).toEqual([sold.value.orderId])
    expect(requestsOf(rig, 'transaction')).toHaveLength(1)
  })

  it('coupon: UNKNOWN "do not sell again", no second order, and the outcome lands once there is room', async () => {
    rig = await disk.rig({ heldRetryMs: 100 })
    await approvedAgent(rig.counter)
    const seen = events(rig)
    disk.fillWhenProviderGets('coupon_req')
    const sold = await rig.counter.call('pan.coupons.sell', { vleId, type: 1, qty: 2 })
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', message: MAY_HAVE_CHARGED, vleId, qty: 2 } })
    if (!sold.ok) return
    const { attemptId } = sold.value
    expect(seen.filter((e) => e.name === 'coupon.changed').at(-1)).toMatchObject({ payload: { attemptId, state: 'UNKNOWN', message: MAY_HAVE_CHARGED } })

    const again = await rig.counter.call('pan.coupons.sell', { vleId, type: 1, qty: 2 })
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(`Order ${attemptId} for agent ${vleId} has no final answer. ${MAY_HAVE_CHARGED}`) } })
    expect(rig.provider.orderBook().coupons).toHaveLength(1)

    disk.free()
    await eventually(async () => journalOf(rig!).some((line) => line.type === 'pan.coupon.outcome' && line.data.attemptId === attemptId), 'the held outcome to be journaled')
    expect(await rig.counter.call('pan.coupons.list', {})).toMatchObject({ ok: true, value: { sales: [{ attemptId, state: 'SUCCESS', orderId: rig.provider.orderBook().coupons[0].orderId }] } })
    await eventually(async () => (seen.filter((e) => e.name === 'coupon.changed').at(-1)?.payload as CouponSale | undefined)?.state === 'SUCCESS', 'the coupon.changed event')
    expect(seen.filter((e) => e.name === 'coupon.changed').at(-1)).toMatchObject({ payload: { attemptId } })
    expect(requestsOf(rig, 'coupon_req')).toHaveLength(1)
  })

  it('the intent itself cannot be written: refused, and it says nothing was sent to the provider', async () => {
    rig = await disk.rig()
    disk.fillWhenProviderGets('balance')
    await rig.counter.call('pan.balance.refresh', {})
    const refused = await rig.counter.call('recharge.sell', sale)
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'ledger_unavailable', message: 'The ledger could not be written (disk full or folder read-only). Nothing was sent to the provider.' },
    })
    expect(requestsOf(rig, 'transaction')).toHaveLength(0)
  })
})
