// PanApi against the provider simulator over real HTTP: the seven calls, every FAILED case, every fault on coupon_req, GET mode.
import http from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PAN_PATHS, PanApi, type PanApiOptions, type PanReply, type VleFields } from '../../electron/partners/pan-api'
import { NOT_FOUND_SETTLES_AFTER_MS } from '../../electron/partners/outcome'
import { startSimulator, type FaultSwitch, type Simulator, type SimulatorOptions } from '../../electron/simulator/server'
import { inEnglish } from '../helpers/english-replies'

// Short enough to keep the fault cases fast, long enough for a loaded machine to answer 127.0.0.1.
const FAULT_TIMEOUT_MS = 300
const COUPONS_NOT_KNOWN = /It is not known whether the coupons were bought: check the balance and the coupon history/
const START_BALANCE = 5_000_00
const P_RATE = 107_00
const E_RATE = 72_00

let sim: Simulator
let api: PanApi
let vleSeq = 0
const replies: PanReply[] = []

async function restart(options: SimulatorOptions = {}): Promise<void> {
  api?.close()
  await sim?.close()
  sim = await startSimulator(options)
  api = openApi()
}

function openApi(overrides: Partial<PanApiOptions> = {}): PanApi {
  return inEnglish(new PanApi({ baseUrl: sim.url, apiKey: sim.panApiKey, timeoutMs: FAULT_TIMEOUT_MS, ...overrides }))
}

/** Every reply passes through here, so afterEach can check no secret ever came back. */
async function seen<T extends PanReply>(reply: Promise<T>): Promise<T> {
  const value = await reply
  replies.push(value)
  return value
}

function vleFields(overrides: Partial<VleFields> = {}): VleFields {
  vleSeq += 1
  return {
    vle_id: `VLE${1000 + vleSeq}`,
    vle_name: 'Ravi Kumar',
    vle_mob: '9812345678',
    vle_email: 'ravi@example.in',
    vle_shop: 'Ravi Digital Seva',
    vle_loc: 'Sitapur',
    vle_state: '35',
    vle_pin: '261001',
    vle_uid: '234567890124',
    vle_pan: 'ABCDE1234F',
    ...overrides,
  }
}

/** An agent created and refreshed until the provider approves it (after 2 PENDING checks by default). */
async function approvedAgent(): Promise<VleFields> {
  const fields = vleFields()
  expect((await seen(api.addVle(fields))).outcome).toBe('SUCCESS')
  for (let check = 0; check < 3; check++) await seen(api.vleStatus(fields.vle_id))
  expect(sim.pan.agents().find((a) => a.vleId === fields.vle_id)?.status).toBe('APPROVED')
  return fields
}

async function balance(): Promise<number | null> {
  return (await seen(api.balance())).balancePaise
}

beforeEach(async () => {
  await restart()
})

afterEach(async () => {
  api.close()
  await sim.close()
  // Whatever each test received, the api_key never came back in it.
  expect(JSON.stringify(replies).toLowerCase()).not.toContain(sim.panApiKey.toLowerCase())
  replies.length = 0
})

describe('PanApi: agents', () => {
  it('add_vle sends every field with api_key as POST form fields; the agent starts PENDING', async () => {
    const fields = vleFields()
    const reply = await seen(api.addVle(fields))
    expect(reply).toEqual({
      outcome: 'SUCCESS',
      providerStatus: 'SUCCESS',
      message: 'VLE created successfully',
      httpStatus: 200,
      requestRefused: false,
      vleId: fields.vle_id,
      vleStatus: 'PENDING',
    })
    const sent = sim.requests[0]
    expect(sent).toMatchObject({ operation: 'add_vle', method: 'POST', path: '/api/add_vle.php' })
    expect(sent.fields).toEqual({ api_key: sim.panApiKey, ...fields })
  })

  it('vle_status answers PENDING for two checks, then APPROVED, saying so in the message', async () => {
    const fields = vleFields()
    await seen(api.addVle(fields))
    const checks = []
    for (let i = 0; i < 4; i++) checks.push(await seen(api.vleStatus(fields.vle_id)))
    expect(checks.map((c) => [c.outcome, c.vleStatus])).toEqual([
      ['SUCCESS', 'PENDING'],
      ['SUCCESS', 'PENDING'],
      ['SUCCESS', 'APPROVED'],
      ['SUCCESS', 'APPROVED'],
    ])
    expect(checks[2]).toMatchObject({ vleId: fields.vle_id, message: 'VLE status is APPROVED' })
    expect(sim.requests[1].fields).toEqual({ api_key: sim.panApiKey, vle_id: fields.vle_id })
  })

  it.each([
    [{ vle_mob: '98123' }, 'Invalid mobile number'],
    [{ vle_pin: '2610' }, 'Invalid pin code'],
    [{ vle_uid: '2345678901' }, 'Invalid Aadhaar number'],
    [{ vle_pan: 'abcde1234f' }, 'Invalid PAN number'],
    [{ vle_email: '' }, 'vle_email is required'],
  ])('FAILED on bad fields %o: %s, and nothing is created', async (overrides, reason) => {
    const fields = vleFields(overrides)
    expect(await seen(api.addVle(fields))).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED', message: reason, vleStatus: null })
    expect(sim.pan.agents()).toEqual([])
  })

  it('FAILED on a duplicate agent id; FAILED for an unknown agent', async () => {
    const fields = vleFields()
    await seen(api.addVle(fields))
    expect(await seen(api.addVle({ ...fields, vle_name: 'Someone Else' }))).toMatchObject({ outcome: 'FAILED', message: 'VLE ID already exists' })
    expect(sim.pan.agents()).toEqual([{ vleId: fields.vle_id, name: 'Ravi Kumar', status: 'PENDING' }])
    expect(await seen(api.vleStatus('NOBODY'))).toMatchObject({ outcome: 'FAILED', message: 'VLE not found', vleId: null, vleStatus: null })
  })
})

describe('PanApi: coupons', () => {
  it('coupon_req buys coupons: the answer carries the order, the balance drops by rate x qty', async () => {
    const agent = await approvedAgent()
    const reply = await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 3 }))
    expect(reply).toMatchObject({
      outcome: 'SUCCESS',
      providerStatus: 'SUCCESS',
      // The provider's message is empty (the spec allows it): the reply says it plainly.
      message: 'The coupons were bought',
      vleId: agent.vle_id,
      vleName: agent.vle_name,
      type: 1,
      qty: 3,
      ratePaise: P_RATE,
      amountPaise: 3 * P_RATE,
      oldBalPaise: START_BALANCE,
      newBalPaise: START_BALANCE - 3 * P_RATE,
      unreadable: [],
    })
    expect(reply.orderId).toMatch(/^UTI\d{10}$/)
    expect(reply.date).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4}$/)
    expect(sim.requests.at(-1)?.fields).toEqual({ api_key: sim.panApiKey, vle_id: agent.vle_id, type: '1', qty: '3' })
    expect(await balance()).toBe(START_BALANCE - 3 * P_RATE)
  })

  it('coupon_status finds the order, PENDING as the spec shows, with its type given as a number', async () => {
    const agent = await approvedAgent()
    const bought = await seen(api.couponRequest({ vleId: agent.vle_id, type: 2, qty: 4 }))
    const status = await seen(api.couponStatus(bought.orderId!, 0))
    const { outcome, providerStatus, message, ...order } = status
    expect(outcome).toBe('UNKNOWN')
    expect(providerStatus).toBe('PENDING')
    expect(message).toBe('The provider gives the status PENDING.')
    expect(status.httpStatus).toBe(200)
    const { outcome: _o, providerStatus: _p, message: _m, ...requested } = bought
    expect(order).toEqual(requested)
    expect(order).toMatchObject({ type: 2, qty: 4, ratePaise: E_RATE, amountPaise: 4 * E_RATE })
  })

  it('FAILED for an unknown agent, an unapproved agent, a bad type or quantity, an unknown order', async () => {
    const agent = await approvedAgent()
    const pending = vleFields()
    await seen(api.addVle(pending))
    expect(await seen(api.couponRequest({ vleId: 'NOBODY', type: 1, qty: 1 }))).toMatchObject({ outcome: 'FAILED', message: 'VLE not found', orderId: null })
    expect(await seen(api.couponRequest({ vleId: pending.vle_id, type: 1, qty: 1 }))).toMatchObject({ outcome: 'FAILED', message: 'VLE not approved' })
    expect(await seen(api.couponRequest({ vleId: agent.vle_id, type: 3 as 1, qty: 1 }))).toMatchObject({ outcome: 'FAILED', message: 'Invalid coupon type' })
    expect(await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 0 }))).toMatchObject({ outcome: 'FAILED', message: 'Invalid quantity' })
    expect(await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 1.5 }))).toMatchObject({ outcome: 'FAILED', message: 'Invalid quantity' })
    expect(await seen(api.couponStatus('UTI0000000000', NOT_FOUND_SETTLES_AFTER_MS))).toMatchObject({ outcome: 'FAILED', message: expect.stringContaining('(Order not found)'), orderId: null })
    expect(await balance()).toBe(START_BALANCE)
  })

  it('FAILED for insufficient balance, leaving the balance as it was', async () => {
    const agent = await approvedAgent()
    sim.pan.setBalance(3 * P_RATE - 1)
    const reply = await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 3 }))
    expect(reply).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED', message: 'Insufficient balance', orderId: null, amountPaise: null })
    expect(await balance()).toBe(3 * P_RATE - 1)
    expect((await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 2 }))).newBalPaise).toBe(P_RATE - 1)
  })

  it('an outside debit shows in the next balance read and in the next old_bal', async () => {
    const agent = await approvedAgent()
    const first = await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 1 }))
    sim.pan.outsideDebit(250_00)
    expect(sim.pan.balancePaise()).toBe(START_BALANCE - P_RATE - 250_00)
    expect(await balance()).toBe(START_BALANCE - P_RATE - 250_00)
    const second = await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 1 }))
    expect(second.oldBalPaise).toBe(first.newBalPaise! - 250_00)
  })

  it('charges the rates the provider is set to', async () => {
    await restart({ pan: { ratesPaise: { 1: 110_00, 2: 75_50 }, balancePaise: 1_000_00 } })
    const agent = await approvedAgent()
    expect(await seen(api.couponRequest({ vleId: agent.vle_id, type: 2, qty: 2 }))).toMatchObject({ ratePaise: 75_50, amountPaise: 151_00, oldBalPaise: 1_000_00 })
    sim.pan.setRates({ 1: 120_00, 2: 80_00 })
    expect(await seen(api.couponRequest({ vleId: agent.vle_id, type: 1, qty: 1 }))).toMatchObject({ ratePaise: 120_00, newBalPaise: 1_000_00 - 151_00 - 120_00 })
  })
})

describe('PanApi: coupon_req under every fault (UNKNOWN is never FAILED; the balance tells)', () => {
  async function buyUnder(fault: FaultSwitch, via = api) {
    const agent = await approvedAgent()
    sim.setFault({ times: 1, operations: ['coupon_req'], ...fault })
    const reply = await seen(via.couponRequest({ vleId: agent.vle_id, type: 1, qty: 2 }))
    return { reply, balanceAfter: await balance() }
  }

  it('slow past the timeout: UNKNOWN, and the balance shows it was charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'slow', delayMs: FAULT_TIMEOUT_MS + 500 })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: null, httpStatus: null, orderId: null })
    expect(reply.message).toMatch(/^The provider did not answer within 300 milliseconds\. /)
    expect(reply.message).toMatch(COUPONS_NOT_KNOWN)
    expect(balanceAfter).toBe(START_BALANCE - 2 * P_RATE)
  })

  it('slow within the timeout: SUCCESS', async () => {
    const patient = openApi({ timeoutMs: 2_000 })
    try {
      const { reply, balanceAfter } = await buyUnder({ kind: 'slow', delayMs: 100 }, patient)
      expect(reply.outcome).toBe('SUCCESS')
      expect(balanceAfter).toBe(reply.newBalPaise)
    } finally {
      patient.close()
    }
  })

  it('no answer: UNKNOWN, and the balance shows it was charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'noAnswer' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: null })
    expect(reply.message).toMatch(COUPONS_NOT_KNOWN)
    expect(balanceAfter).toBe(START_BALANCE - 2 * P_RATE)
  })

  it('HTTP 500 error page: UNKNOWN, and the balance shows nothing was charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'http500' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 500, providerStatus: null, orderId: null, unreadable: [] })
    expect(reply.message).toMatch(/^The provider answered with an error page \(HTTP 500\)\. /)
    expect(balanceAfter).toBe(START_BALANCE)
  })

  it('cut-off JSON: UNKNOWN, and the balance shows it was charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'truncatedJson' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 200, providerStatus: null, orderId: null })
    expect(reply.message).toMatch(/^The provider's answer could not be read\. /)
    expect(reply.message).toMatch(COUPONS_NOT_KNOWN)
    expect(balanceAfter).toBe(START_BALANCE - 2 * P_RATE)
  })

  it('a PENDING answer: UNKNOWN with the order details, charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'pendingThenSuccess' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'PENDING', httpStatus: 200, qty: 2, amountPaise: 2 * P_RATE })
    expect(reply.message).toMatch(COUPONS_NOT_KNOWN)
    expect(balanceAfter).toBe(reply.newBalPaise)
  })

  it('the provider refusing (failed): FAILED, nothing charged', async () => {
    const { reply, balanceAfter } = await buyUnder({ kind: 'failed' })
    expect(reply).toMatchObject({
      outcome: 'FAILED',
      requestRefused: true,
      message:
        'The provider refused the coupon order (Service temporarily unavailable, try later): it did not take the order, so nothing was charged. The provider is busy or under maintenance: try again later.',
    })
    expect(balanceAfter).toBe(START_BALANCE)
  })

  it('an order left PENDING is delivered: coupon_status says PENDING, then SUCCESS', async () => {
    const { reply } = await buyUnder({ kind: 'pendingThenSuccess', checksUntilFinal: 1 })
    expect(await seen(api.couponStatus(reply.orderId!, 0))).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'PENDING', orderId: reply.orderId })
    expect(await seen(api.couponStatus(reply.orderId!, 0))).toMatchObject({ outcome: 'SUCCESS', providerStatus: 'SUCCESS', orderId: reply.orderId, qty: 2 })
  })

  it.each([
    ['a rotated api_key', null, 'Invalid API key', 'Check the credentials in Settings.'],
    ['an IP refusal', { message: 'IP not whitelisted' }, 'IP not whitelisted', "Ask the provider to allow this shop's internet address."],
    ['maintenance (HTTP 503 is no answer, so HTTP 403)', { message: 'Under maintenance', httpStatus: 403 }, 'Under maintenance', 'The provider is busy or under maintenance: try again later.'],
  ] as const)('coupon_status refused for %s is UNKNOWN; with the request right again it settles the order', async (_what, refusal, reason, advice) => {
    const { reply } = await buyUnder({ kind: 'pendingThenSuccess' })
    const rightKey = sim.panApiKey
    if (refusal) sim.setFault({ kind: 'refuse', operations: ['coupon_status'], times: 1, refusal })
    else sim.rotateCredentials({ panApiKey: '11111111-2222-3333-4444-555555555555' })
    const refused = await seen(api.couponStatus(reply.orderId!, 0))
    expect(refused).toMatchObject({
      outcome: 'UNKNOWN',
      requestRefused: true,
      orderId: null,
      message: `The provider refused the status check (${reason}): this says nothing about the coupon order, which stays pending. ${advice}`,
    })
    sim.rotateCredentials({ panApiKey: rightKey })
    expect(await seen(api.couponStatus(reply.orderId!, 0))).toMatchObject({ outcome: 'SUCCESS', orderId: reply.orderId })
  })

  it('coupon_status FAILED in words never seen, naming no order, settles nothing; the order\'s own answer does', async () => {
    const { reply } = await buyUnder({ kind: 'pendingThenSuccess' })
    sim.setFault({ kind: 'refuse', operations: ['coupon_status'], times: 1, refusal: { message: 'Partner account inactive' } })
    expect(await seen(api.couponStatus(reply.orderId!, NOT_FOUND_SETTLES_AFTER_MS))).toMatchObject({
      outcome: 'UNKNOWN',
      requestRefused: false,
      message: `The provider answered FAILED without naming coupon order ${reply.orderId} (Partner account inactive), so this does not settle it: it stays pending and is asked again. If the provider keeps answering so, settle it by phone.`,
    })
    expect(await seen(api.couponStatus(reply.orderId!, 0))).toMatchObject({ outcome: 'SUCCESS', orderId: reply.orderId })
  })
})

describe('PanApi: password resets and balance', () => {
  it('pass_reset answers PENDING with an order; pass_status is PENDING once, then APPROVED', async () => {
    const agent = await approvedAgent()
    const requested = await seen(api.passwordReset(agent.vle_id))
    expect(requested).toMatchObject({
      outcome: 'UNKNOWN',
      providerStatus: 'PENDING',
      resetStatus: 'PENDING',
      message: 'Password reset request received',
      vleId: agent.vle_id,
      vleName: null,
    })
    expect(requested.orderId).toMatch(/^PR\d{10}$/)
    const first = await seen(api.passwordResetStatus(requested.orderId!))
    expect(first).toMatchObject({ resetStatus: 'PENDING', orderId: requested.orderId, vleName: agent.vle_name })
    const second = await seen(api.passwordResetStatus(requested.orderId!))
    expect(second).toMatchObject({ resetStatus: 'APPROVED', providerStatus: 'APPROVED', message: 'Password reset completed', vleId: agent.vle_id })
  })

  it('pass_reset for an unknown agent and pass_status for an unknown order are FAILED', async () => {
    expect(await seen(api.passwordReset('NOBODY'))).toMatchObject({ outcome: 'FAILED', message: 'VLE not found', resetStatus: 'FAILED', orderId: null })
    expect(await seen(api.passwordResetStatus('PR0000000000'))).toMatchObject({ outcome: 'FAILED', message: 'Order not found' })
  })

  it('a reset request with no answer is UNKNOWN in words about the reset, without a reset status', async () => {
    const agent = await approvedAgent()
    sim.setFault({ kind: 'http500', operations: ['pass_reset'], times: 1 })
    const reply = await seen(api.passwordReset(agent.vle_id))
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', resetStatus: null, orderId: null })
    expect(reply.message).toMatch(/It is not known whether the reset was requested/)
  })

  it('balance reads the provider balance exactly, in paise', async () => {
    sim.pan.setBalance(12_345_67)
    expect(await seen(api.balance())).toEqual({ outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: 'The balance was read', httpStatus: 200, requestRefused: false, balancePaise: 12_345_67 })
    sim.setFault({ kind: 'noAnswer', operations: ['balance'], times: 1 })
    const lost = await seen(api.balance())
    expect(lost).toMatchObject({ outcome: 'UNKNOWN', balancePaise: null })
    expect(lost.message).toMatch(/The balance could not be read just now\.$/)
  })
})

describe('PanApi: api_key, GET mode, the wire', () => {
  it('a wrong api_key: a request that makes something is FAILED (nothing charged), a status check UNKNOWN (it settles nothing)', async () => {
    const agent = await approvedAgent()
    const wrongKey = openApi({ apiKey: '00000000-0000-0000-0000-000000000000' })
    try {
      const made = await Promise.all([seen(wrongKey.addVle(vleFields())), seen(wrongKey.passwordReset(agent.vle_id)), seen(wrongKey.balance())])
      for (const answer of made) expect(answer).toMatchObject({ outcome: 'FAILED', message: 'Invalid API key' })
      expect(await seen(wrongKey.couponRequest({ vleId: agent.vle_id, type: 1, qty: 1 }))).toMatchObject({
        outcome: 'FAILED',
        requestRefused: true,
        message: 'The provider refused the coupon order (Invalid API key): it did not take the order, so nothing was charged. Check the credentials in Settings.',
      })
      const checks = await Promise.all([
        seen(wrongKey.vleStatus(agent.vle_id)),
        seen(wrongKey.couponStatus('UTI0000000000', 0)),
        seen(wrongKey.passwordResetStatus('PR0000000000')),
      ])
      expect(checks).toMatchObject([
        { outcome: 'UNKNOWN', requestRefused: true, vleStatus: null },
        { outcome: 'UNKNOWN', requestRefused: true, orderId: null },
        { outcome: 'UNKNOWN', requestRefused: true, resetStatus: null },
      ])
      expect(checks.map((check) => check.message)).toEqual(
        ["the agent's approval", 'the coupon order', 'the reset'].map(
          (subject) => `The provider refused the status check (Invalid API key): this says nothing about ${subject}, which stays pending. Check the credentials in Settings.`,
        ),
      )
    } finally {
      wrongKey.close()
    }
    expect(sim.pan.balancePaise()).toBe(START_BALANCE)
    expect(sim.pan.agents()).toHaveLength(1)
  })

  it('GET mode sends the same fields as a query string, and works end to end', async () => {
    api.close()
    api = openApi({ method: 'GET' })
    const agent = await approvedAgent()
    const bought = await seen(api.couponRequest({ vleId: agent.vle_id, type: 2, qty: 1 }))
    expect(bought).toMatchObject({ outcome: 'SUCCESS', amountPaise: E_RATE })
    expect((await seen(api.couponStatus(bought.orderId!, 0))).providerStatus).toBe('PENDING')
    expect(await balance()).toBe(START_BALANCE - E_RATE)
    expect(sim.requests.length).toBeGreaterThanOrEqual(7)
    expect(new Set(sim.requests.map((r) => r.method))).toEqual(new Set(['GET']))
    expect(sim.requests.find((r) => r.operation === 'coupon_req')?.fields).toEqual({ api_key: sim.panApiKey, vle_id: agent.vle_id, type: '2', qty: '1' })
  })

  it("PAN answers carry the spec's headers", async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${sim.url}${PAN_PATHS.balance}?api_key=${sim.panApiKey}`, { agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve(res))
      }).on('error', reject)
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.headers).toMatchObject({
      'content-type': 'text/html; charset=UTF-8',
      'cache-control': 'no-store, no-cache, must-revalidate',
      pragma: 'no-cache',
      expires: 'Thu, 19 Nov 1981 08:52:00 GMT',
      'transfer-encoding': 'chunked',
    })
  })

  it('hides the api_key if the provider ever echoes it back', async () => {
    // An echo is simulated by an api_key that is a word of the provider's own message.
    await restart({ pan: { apiKey: 'successfully' } })
    const reply = await seen(api.addVle(vleFields()))
    expect(reply).toMatchObject({ outcome: 'SUCCESS', message: 'VLE created [hidden]' })
  })

  it('a status answer about another order does not settle this one', async () => {
    const agent = await approvedAgent()
    const wrongOrder = http.createServer((_req, res) => {
      res.end(JSON.stringify({ status: 'SUCCESS', order_id: 'UTI9999999999', vle_id: agent.vle_id, qty: '1', type: 1 }))
    })
    await new Promise<void>((resolve) => wrongOrder.listen(0, '127.0.0.1', resolve))
    const confused = openApi({ baseUrl: `http://127.0.0.1:${(wrongOrder.address() as { port: number }).port}` })
    try {
      const reply = await seen(confused.couponStatus('UTI1111111111', 0))
      expect(reply).toMatchObject({ outcome: 'UNKNOWN', orderId: null, qty: null, type: null })
      expect(reply.message).toMatch(/^The provider answered about order UTI9999999999 instead of UTI1111111111\. /)
    } finally {
      confused.close()
      await new Promise((resolve) => wrongOrder.close(resolve))
    }
  })
})
