// The PAN agent desk through the whole core over real HTTP: agents, coupons with their balance
// checks against the one balance expected (top-ups entered since the last reading counted), password
// resets, balance checkpoints, refusals and unconfirmed orders.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PanApi } from '../../electron/partners/pan-api'
import { paiseToDecimal } from '../../electron/shared/money'
import { aadhaar, agentInput, approvedAgent, realApiKey, startRealModeRig, statusEvents, valueOf, type RealModeRig } from './helpers'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]))
}

describe('agents', () => {
  it('creates an agent PENDING, refreshes it to APPROVED, and keeps only the masked Aadhaar', async () => {
    rig = await startRealModeRig()
    const agent = await approvedAgent(rig.counter)
    expect(agent).toMatchObject({ status: 'APPROVED', pan: 'ABCDE1234F', name: 'Ravi Kumar' })
    expect(agent.uidMasked).toBe(`XXXX XXXX ${agentInput('x').uid.slice(-4)}`)
    const sent = rig.provider.requests.find((r) => r.operation === 'add_vle')!
    expect(sent.fields.vle_uid).toBe(agentInput('x').uid)
    await rig.counter.close()
    const stored = filesUnder(rig.dataDir).map((f) => readFileSync(f, 'latin1')).join('\n')
    expect(stored).not.toContain(agentInput('x').uid)
    await rig.restart()
    expect(await rig.counter.call('pan.agents.list', {})).toMatchObject({ ok: true, value: { agents: [{ vleId: 'VLE1001', status: 'APPROVED' }] } })
  })

  it.each([
    [{ uid: '234567890123' }, 'uid'],
    [{ uid: '123456789012' }, 'uid'],
    [{ mobile: '5812345678' }, 'mobile'],
    [{ pin: '061001' }, 'pin'],
    [{ pan: 'ABCD1234F' }, 'pan'],
    [{ email: 'ravi@' }, 'email'],
    [{ stateCode: '99' }, 'stateCode'],
  ])('refuses %j next to the field and sends nothing', async (change, field) => {
    rig = await startRealModeRig()
    const result = await rig.counter.dispatch('pan.agents.create', { ...agentInput('VLE2'), ...change })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { [field]: expect.any(String) } } })
    expect(rig.provider.requests.filter((r) => r.operation === 'add_vle')).toHaveLength(0)
  })

  it('shows the provider refusing a duplicate agent id and keeps only the attempt', async () => {
    rig = await startRealModeRig()
    const direct = new PanApi({ baseUrl: rig.provider.url, apiKey: realApiKey })
    await direct.addVle({ vle_id: 'VLE77', vle_name: 'A', vle_mob: '9812345678', vle_email: 'a@b.in', vle_shop: 'S', vle_loc: 'L', vle_state: '1', vle_pin: '110001', vle_uid: aadhaar('23456789012'), vle_pan: 'ABCDE1234F' })
    direct.close()
    const result = await rig.counter.call('pan.agents.create', agentInput('VLE77'))
    expect(result).toMatchObject({ ok: true, value: { status: 'NOT_CREATED', message: expect.stringMatching(/already exists/i) } })
    // A corrected id goes through.
    expect(await rig.counter.call('pan.agents.create', agentInput('VLE78'))).toMatchObject({ ok: true, value: { status: 'PENDING' } })
  })
})

describe('coupons', () => {
  it('quotes, sells 3 P-coupons, checks the answer and records the balance drop', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    const quote = await rig.counter.call('pan.coupons.quote', { vleId: 'VLE1001', type: 1, qty: 3 })
    expect(quote).toMatchObject({ ok: true, value: { ratePaise: 10700, rateSource: 'default', amountPaise: 32100, enough: true, balance: { balancePaise: 500000 } } })
    const sold = await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 3 })
    expect(sold).toMatchObject({
      ok: true,
      value: { state: 'SUCCESS', qty: 3, ratePaise: 10700, amountPaise: 32100, oldBalPaise: 500000, newBalPaise: 467900, problems: [], vleName: 'Ravi Kumar' },
    })
    if (!sold.ok) return
    expect(sold.value.orderId).toBeTruthy()
    expect(sold.value.date).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4}$/)
    expect(await rig.counter.call('app.status', {})).toMatchObject({ ok: true, value: { panBalance: { balancePaise: 467900 } } })
    expect(await rig.counter.call('pan.coupons.quote', { vleId: 'VLE1001', type: 1, qty: 1 })).toMatchObject({ ok: true, value: { rateSource: 'last_charged' } })

    const receipt = await rig.counter.call('receipt.html', { orderId: sold.value.attemptId })
    expect(receipt.ok).toBe(true)
    if (receipt.ok) for (const text of [sold.value.orderId!, '₹321.00', '₹5,000.00', '₹4,679.00', 'P-Coupon']) expect(receipt.value.html).toContain(text)

    const status = await rig.counter.call('pan.coupons.checkStatus', { attemptId: sold.value.attemptId })
    // coupon_status answers PENDING (the spec's example): a settled sale stays settled.
    expect(status).toMatchObject({ ok: true, value: { state: 'SUCCESS', type: 1, problems: [] } })
  })

  it('flags an outside debit in the balance chain on the next sale', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 2, qty: 1 })
    rig.provider.pan.outsideDebit(150_00)
    const next = await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 2, qty: 1 })
    expect(next.ok && next.value.problems.join(' ')).toMatch(/moved outside Counter.*-₹150\.00/)
  })

  it('an order answered FAILED after the provider took the money is FAILED with the taking named, and the day close shows it as a break', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'misanswer', operations: ['coupon_req'], times: 1, fields: { status: 'FAILED', message: 'Failed' } })
    const sold = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 3 }))
    expect(sold).toMatchObject({ state: 'FAILED', oldBalPaise: 500000, newBalPaise: 467900 })
    expect(sold.problems).toEqual(['The provider says the order failed, yet its balance went from ₹5,000.00 to ₹4,679.00: ₹321.00 taken for coupons it did not give.'])
    expect(rig.provider.pan.balancePaise()).toBe(467900)
    const summary = valueOf(await rig.counter.call('day.summary', {}))
    expect(summary.breaks).toMatchObject([{ kind: 'balance', expectedPaise: 500000, actualPaise: 467900, differencePaise: -32100, since: { couponSales: 0 } }])
  })

  it('an answer naming a quantity past any sum Number holds is journaled with the problem named, never an internal error', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'misanswer', operations: ['coupon_req'], times: 1, fields: { qty: '999999999999999' } })
    const sold = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 3 }))
    expect(sold).toMatchObject({ state: 'SUCCESS', amountPaise: 32100, newBalPaise: 467900 })
    expect(sold.orderId).toBeTruthy()
    expect(sold.problems[0]).toBe('The provider charged for 999999999999999 coupons; Counter asked for 3.')
    expect(await rig.counter.call('pan.coupons.list', {})).toMatchObject({ ok: true, value: { sales: [{ attemptId: sold.attemptId, state: 'SUCCESS' }] } })
  })

  it('shows the provider refusing for insufficient balance, and the balance stays as it was', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.pan.setBalance(100_00)
    const refused = await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 2 })
    expect(refused).toMatchObject({ ok: true, value: { state: 'FAILED', message: expect.stringMatching(/insufficient balance/i) } })
    expect(rig.provider.pan.balancePaise()).toBe(100_00)
    expect(await rig.counter.call('app.status', {})).toMatchObject({ ok: true, value: { panBalance: { balancePaise: 100_00 } } })
    // Now the shortfall is known: refused before the provider is asked.
    const before = rig.provider.requests.filter((r) => r.operation === 'coupon_req').length
    const local = await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 2 })
    expect(local).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { qty: expect.any(String) } } })
    expect(rig.provider.requests.filter((r) => r.operation === 'coupon_req')).toHaveLength(before)
  })

  it('keeps an unanswered coupon order unconfirmed, never resends it, and the balance read shows the charge', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'truncatedJson', operations: ['coupon_req'], times: 1 })
    const sold = await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 1 })
    expect(sold).toMatchObject({ ok: true, value: { state: 'UNKNOWN', orderId: null } })
    if (!sold.ok) return
    expect(await rig.counter.call('pan.coupons.checkStatus', { attemptId: sold.value.attemptId })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(rig.provider.requests.filter((r) => r.operation === 'coupon_req')).toHaveLength(1)
    expect(await rig.counter.call('app.status', {})).toMatchObject({ ok: true, value: { panBalance: { balancePaise: 500000 - 10700 } } })
  })

  it('refuses more than the maximum quantity and a non-whole quantity', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    expect(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 51 })).toMatchObject({ ok: false, error: { fields: { qty: 'At most 50' } } })
    expect(await rig.counter.dispatch('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 1.5 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await rig.counter.dispatch('pan.coupons.sell', { vleId: 'VLE1001', type: 3, qty: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await rig.counter.call('pan.coupons.sell', { vleId: 'NOBODY', type: 1, qty: 1 })).toMatchObject({ ok: false, error: { fields: { vleId: expect.any(String) } } })
  })
})

describe('one expected balance: the last reading, plus the top-ups entered after it, less the coupons charged since', () => {
  /** The owner's bank transfer reaches the provider wallet, and the owner enters it as a top-up. */
  const topUp = async (r: RealModeRig, paise: number, reference: string) => {
    r.provider.pan.setBalance(r.provider.pan.balancePaise() + paise)
    valueOf(await r.counter.call('topups.add', { amount: paiseToDecimal(paise), reference }))
  }
  const sell = async (r: RealModeRig, type: 1 | 2, qty: number) => valueOf(await r.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type, qty }))

  it('a top-up entered after the last reading lets the next coupon through: no refusal, no alarm, no break at the day close', async () => {
    rig = await startRealModeRig({ pan: { balancePaise: 50_00 } })
    await approvedAgent(rig.counter)
    const statuses = statusEvents(rig.counter)
    await topUp(rig, 3_000_00, 'UTR 7781 2290')
    expect(statuses.at(-1)?.panBalance).toMatchObject({ balancePaise: 3_050_00 })
    expect(valueOf(await rig.counter.call('pan.coupons.quote', { vleId: 'VLE1001', type: 1, qty: 1 }))).toMatchObject({
      amountPaise: 107_00,
      enough: true,
      balance: { balancePaise: 3_050_00 },
    })
    expect(await sell(rig, 1, 1)).toMatchObject({ state: 'SUCCESS', oldBalPaise: 3_050_00, newBalPaise: 2_943_00, problems: [] })
    expect(valueOf(await rig.counter.call('day.summary', {})).breaks).toEqual([])
  })

  it('an outside debit after a top-up is named at its true size and sign, and the day close shows that one break', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    await topUp(rig, 5_000_00, 'UTR 4410 0071')
    rig.provider.pan.outsideDebit(50_00)
    const sold = await sell(rig, 1, 1)
    expect(sold).toMatchObject({ state: 'SUCCESS', oldBalPaise: 9_950_00 })
    expect(sold.problems).toEqual([expect.stringMatching(/^The balance moved outside Counter: Counter expected ₹10,000\.00 .*old balance ₹9,950\.00 \(difference -₹50\.00\)\.$/)])
    expect(valueOf(await rig.counter.call('day.summary', {})).breaks).toEqual([
      {
        at: expect.any(String),
        kind: 'coupon',
        ref: sold.attemptId,
        expectedPaise: 10_000_00,
        actualPaise: 9_950_00,
        differencePaise: -50_00,
        since: { at: expect.any(String), couponSales: 0, couponPaise: 0, topupPaise: 5_000_00 },
      },
    ])
  })

  it('top-ups, recharges and coupons interleaved, a top-up already in a later reading counted once: no alarm, no refusal, no break', async () => {
    rig = await startRealModeRig({ pan: { balancePaise: 100_00 } })
    await approvedAgent(rig.counter)
    const recharge = async (number: string, amount: string) =>
      expect(valueOf(await rig!.counter.call('recharge.sell', { kind: 'mobile', number, operatorCode: 'AT', amount, paymentMode: 'cash' })).state).toBe('SUCCESS')
    await recharge('9812345601', '199')
    await topUp(rig, 1_000_00, 'UTR 1')
    const coupons = [await sell(rig, 2, 1)]
    await recharge('9812345602', '249')
    await topUp(rig, 500_00, 'UTR 2')
    await topUp(rig, 250_50, 'UTR 3')
    await recharge('9812345603', '99')
    expect(valueOf(await rig.counter.call('pan.coupons.quote', { vleId: 'VLE1001', type: 1, qty: 12 }))).toMatchObject({
      enough: true,
      balance: { balancePaise: 100_00 + 1_000_00 - 72_00 + 500_00 + 250_50 },
    })
    coupons.push(await sell(rig, 1, 12))
    // Entered, then read: the reading already holds it.
    await topUp(rig, 2_000_00, 'UTR 4')
    valueOf(await rig.counter.call('pan.balance.refresh', {}))
    await recharge('9812345604', '10')
    coupons.push(await sell(rig, 1, 2), await sell(rig, 2, 3))
    expect(coupons.map((c) => [c.state, c.problems])).toEqual(coupons.map(() => ['SUCCESS', []]))
    const summary = valueOf(await rig.counter.call('day.summary', {}))
    expect(summary.breaks).toEqual([])
    expect(summary.closingPanBalance.balancePaise).toBe(rig.provider.pan.balancePaise())
  })
})

describe('password resets and balance', () => {
  it('requests a reset (PENDING) and checks it to APPROVED; the agent lists it', async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    const requested = await rig.counter.call('pan.resets.request', { vleId: 'VLE1001' })
    expect(requested).toMatchObject({ ok: true, value: { status: 'PENDING' } })
    if (!requested.ok) return
    let status = ''
    for (let i = 0; i < 3 && status !== 'APPROVED'; i++) {
      const checked = await rig.counter.call('pan.resets.check', { attemptId: requested.value.attemptId })
      status = checked.ok ? checked.value.status : 'error'
    }
    expect(status).toBe('APPROVED')
    expect(await rig.counter.call('pan.resets.list', { vleId: 'VLE1001' })).toMatchObject({ ok: true, value: { resets: [{ status: 'APPROVED' }] } })
  })

  it('records each balance read as a checkpoint shown in the status bar', async () => {
    rig = await startRealModeRig()
    rig.provider.pan.setBalance(1234_50)
    const read = await rig.counter.call('pan.balance.refresh', {})
    expect(read).toMatchObject({ ok: true, value: { balancePaise: 1234_50 } })
    if (read.ok) expect(read.value.readAt).not.toBeNull()
    expect(await rig.counter.call('app.status', {})).toMatchObject({ ok: true, value: { panBalance: { balancePaise: 1234_50 } } })
  })
})
