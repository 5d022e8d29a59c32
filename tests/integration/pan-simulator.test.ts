// The simulated PAN provider on the wire: its answers as written, POST (urlencoded, multipart) and GET, its controls and options.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PartnerHttp, type HttpResult } from '../../electron/partners/http'
import { PAN_PATHS } from '../../electron/partners/pan-api'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../electron/simulator/server'

let sim: Simulator
let client: PartnerHttp

const VLE = {
  vle_id: 'VLE2001',
  vle_name: 'Sita Devi',
  vle_mob: '9812345678',
  vle_email: 'sita@example.in',
  vle_shop: 'Sita Seva Kendra',
  vle_loc: 'Gaya',
  vle_state: '5',
  vle_pin: '823001',
  vle_uid: '234567890124',
  vle_pan: 'ABCDE1234F',
}

async function restart(options: SimulatorOptions): Promise<void> {
  client.close()
  await sim.close()
  sim = await startSimulator(options)
  client = new PartnerHttp({ baseUrl: sim.url, timeoutMs: 2_000 })
}

function jsonOf(result: HttpResult): Record<string, unknown> {
  if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.reason}: ${result.detail}`)
  return result.json as Record<string, unknown>
}

/** A POST of form fields with api_key, answered as JSON. */
async function post(path: string, fields: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return jsonOf(await client.postForm(path, { api_key: sim.panApiKey, ...fields }))
}

async function approvedAgent(): Promise<void> {
  expect(await post(PAN_PATHS.addVle, VLE)).toMatchObject({ status: 'SUCCESS' })
  for (let check = 0; check < 3; check++) await post(PAN_PATHS.vleStatus, { vle_id: VLE.vle_id })
}

beforeEach(async () => {
  sim = await startSimulator()
  client = new PartnerHttp({ baseUrl: sim.url, timeoutMs: 2_000 })
})

afterEach(async () => {
  client.close()
  await sim.close()
})

describe('PAN simulator: answers as the provider writes them', () => {
  it('has a random training api_key of hyphen-separated hex groups, ₹5,000.00 and no agents', async () => {
    expect(sim.panApiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    const other = await startSimulator()
    await other.close()
    expect(other.panApiKey).not.toBe(sim.panApiKey)
    expect(await post(PAN_PATHS.balance)).toEqual({ status: 'SUCCESS', balance: '5000.00' })
    expect(sim.pan.agents()).toEqual([])
  })

  it('add_vle and vle_status answers', async () => {
    expect(await post(PAN_PATHS.addVle, VLE)).toEqual({ status: 'SUCCESS', message: 'VLE created successfully', vle_id: VLE.vle_id, vle_status: 'PENDING' })
    expect(await post(PAN_PATHS.vleStatus, { vle_id: VLE.vle_id })).toEqual({
      status: 'SUCCESS',
      message: 'VLE status is PENDING',
      vle_id: VLE.vle_id,
      vle_status: 'PENDING',
    })
  })

  it('coupon_req gives type as a string and amounts with two decimals; coupon_status the same order, PENDING, type a number', async () => {
    await approvedAgent()
    const bought = await post(PAN_PATHS.couponRequest, { vle_id: VLE.vle_id, type: '1', qty: '3' })
    expect(bought).toEqual({
      order_id: expect.stringMatching(/^UTI\d{10}$/),
      date: expect.stringMatching(/^\d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-20\d{2}$/),
      status: 'SUCCESS',
      message: '',
      vle_id: VLE.vle_id,
      vle_name: VLE.vle_name,
      type: '1',
      qty: '3',
      rate: '107.00',
      amount: '321.00',
      old_bal: '5000.00',
      new_bal: '4679.00',
    })
    const status = await post(PAN_PATHS.couponStatus, { order_id: bought.order_id as string })
    expect(status).toEqual({ ...bought, status: 'PENDING', type: 1 })
    expect(await post(PAN_PATHS.balance)).toEqual({ status: 'SUCCESS', balance: '4679.00' })
  })

  it('dates orders in India: DD-Mon-YYYY of the Asia/Kolkata day', async () => {
    await approvedAgent()
    const before = new Date()
    const { date } = await post(PAN_PATHS.couponRequest, { vle_id: VLE.vle_id, type: '2', qty: '1' })
    const after = new Date()
    const indianDay = (at: Date) => {
      const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', day: '2-digit', month: 'short', year: 'numeric' }).formatToParts(at)
      const part = (type: string) => parts.find((p) => p.type === type)?.value
      return `${part('day')}-${part('month')}-${part('year')}`
    }
    expect([indianDay(before), indianDay(after)]).toContain(date)
  })

  it('pass_reset and pass_status answers', async () => {
    await approvedAgent()
    const reset = await post(PAN_PATHS.passwordReset, { vle_id: VLE.vle_id })
    expect(reset).toEqual({ status: 'PENDING', order_id: expect.stringMatching(/^PR\d{10}$/), vle_id: VLE.vle_id, message: 'Password reset request received' })
    const check = () => post(PAN_PATHS.passwordResetStatus, { order_id: reset.order_id as string })
    expect(await check()).toEqual({ status: 'PENDING', order_id: reset.order_id, vle_id: VLE.vle_id, vle_name: VLE.vle_name, message: 'Password reset in progress' })
    expect(await check()).toMatchObject({ status: 'APPROVED', message: 'Password reset completed', vle_name: VLE.vle_name })
    expect(await check()).toMatchObject({ status: 'APPROVED' })
  })

  it.each([
    [PAN_PATHS.addVle, { ...VLE, api_key: '' }],
    [PAN_PATHS.balance, { api_key: 'ABC' }],
    [PAN_PATHS.couponStatus, { order_id: 'UTI1' }],
  ])('%s without the right api_key: FAILED "Invalid API key"', async (path, fields) => {
    expect(jsonOf(await client.postForm(path, fields))).toEqual({ status: 'FAILED', message: 'Invalid API key' })
  })

  it('refuses a missing field, naming it, and an agent id that exists', async () => {
    const { vle_shop: _left, ...withoutShop } = VLE
    expect(await post(PAN_PATHS.addVle, withoutShop)).toEqual({ status: 'FAILED', message: 'vle_shop is required' })
    await post(PAN_PATHS.addVle, VLE)
    expect(await post(PAN_PATHS.addVle, VLE)).toEqual({ status: 'FAILED', message: 'VLE ID already exists' })
  })
})

describe('PAN simulator: how requests may arrive (like PHP $_REQUEST)', () => {
  it('GET query strings and POST urlencoded fields alike', async () => {
    const viaGet = jsonOf(await client.getQuery(PAN_PATHS.addVle, { api_key: sim.panApiKey, ...VLE }))
    expect(viaGet).toMatchObject({ status: 'SUCCESS', vle_id: VLE.vle_id })
    expect(jsonOf(await client.getQuery(PAN_PATHS.vleStatus, { api_key: sim.panApiKey, vle_id: VLE.vle_id }))).toMatchObject({ vle_status: 'PENDING' })
    expect(sim.requests.map((r) => [r.operation, r.method])).toEqual([
      ['add_vle', 'GET'],
      ['vle_status', 'GET'],
    ])
  })

  it('multipart/form-data from fetch + FormData', async () => {
    const form = new FormData()
    form.append('api_key', sim.panApiKey)
    for (const [name, value] of Object.entries(VLE)) form.append(name, value)
    const response = await fetch(`${sim.url}${PAN_PATHS.addVle}`, { method: 'POST', body: form })
    expect(await response.json()).toMatchObject({ status: 'SUCCESS', message: 'VLE created successfully' })
    expect(sim.requests[0].fields).toEqual({ api_key: sim.panApiKey, ...VLE })
    expect(sim.pan.agents()).toEqual([{ vleId: VLE.vle_id, name: VLE.vle_name, status: 'PENDING' }])
  })

  it('a hand-built multipart body: quoted boundary, a file part left out, body fields over query fields', async () => {
    const boundary = 'x-PAN-7f3a'
    const part = (disposition: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${value}\r\n`
    const body = [
      'preamble to ignore\r\n',
      part('name="api_key"', sim.panApiKey),
      part('name="note"; filename="note.txt"\r\nContent-Type: text/plain', 'a file, not a field'),
      part('name="vle_id"', VLE.vle_id),
      `--${boundary}--\r\n`,
    ].join('')
    await post(PAN_PATHS.addVle, VLE)
    const response = await fetch(`${sim.url}${PAN_PATHS.vleStatus}?vle_id=OVERRIDDEN&extra=1`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary="${boundary}"` },
      body,
    })
    expect(await response.json()).toMatchObject({ status: 'SUCCESS', vle_id: VLE.vle_id })
    expect(sim.requests[1].fields).toEqual({ api_key: sim.panApiKey, vle_id: VLE.vle_id, extra: '1' })
  })

  it('a multipart body that breaks its boundary is refused unread', async () => {
    const response = await fetch(`${sim.url}${PAN_PATHS.balance}`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=abc' },
      body: `--abc\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${sim.panApiKey}\r\n`,
    })
    expect(await response.json()).toEqual({ status: 'FAILED', message: 'Request body could not be read' })
  })

  it('other methods get the Apache 405 page', async () => {
    const response = await fetch(`${sim.url}${PAN_PATHS.balance}`, { method: 'PUT', body: `api_key=${sim.panApiKey}` })
    expect(response.status).toBe(405)
    expect(await response.text()).toContain('<title>405 Method Not Allowed</title>')
  })
})

describe('PAN simulator: options, controls and faults', () => {
  it('approves agents and resets after the configured number of checks', async () => {
    await restart({ pan: { approveAfterChecks: 0, resetApproveAfterChecks: 0 } })
    await post(PAN_PATHS.addVle, VLE)
    expect(await post(PAN_PATHS.vleStatus, { vle_id: VLE.vle_id })).toMatchObject({ vle_status: 'APPROVED', message: 'VLE status is APPROVED' })
    const reset = await post(PAN_PATHS.passwordReset, { vle_id: VLE.vle_id })
    expect(await post(PAN_PATHS.passwordResetStatus, { order_id: reset.order_id as string })).toMatchObject({ status: 'APPROVED' })
  })

  it('takes a given api_key, balance and rates', async () => {
    await restart({ pan: { apiKey: 'a1b2c3d4-0000-1111-2222-333344445555', balancePaise: 250_50, ratesPaise: { 1: 100_00, 2: 50_25 } } })
    expect(sim.panApiKey).toBe('a1b2c3d4-0000-1111-2222-333344445555')
    await approvedAgent()
    expect(await post(PAN_PATHS.couponRequest, { vle_id: VLE.vle_id, type: '2', qty: '2' })).toMatchObject({ rate: '50.25', amount: '100.50', old_bal: '250.50', new_bal: '150.00' })
  })

  it('setBalance, outsideDebit and setRates take whole paise only', () => {
    sim.pan.setBalance(1_000_00)
    sim.pan.outsideDebit(1_00)
    expect(sim.pan.balancePaise()).toBe(999_00)
    expect(() => sim.pan.setBalance(10.5)).toThrow(RangeError)
    expect(() => sim.pan.outsideDebit(Number.NaN)).toThrow(RangeError)
    expect(() => sim.pan.setRates({ 1: 107.5, 2: 72_00 })).toThrow(RangeError)
    expect(sim.pan.balancePaise()).toBe(999_00)
  })

  it('a fault hits only the PAN operations it names; a cut-off add_vle still creates the agent', async () => {
    sim.setFault({ kind: 'truncatedJson', operations: ['add_vle'], times: 1 })
    expect(await post(PAN_PATHS.balance)).toMatchObject({ status: 'SUCCESS' })
    const cut = await client.postForm(PAN_PATHS.addVle, { api_key: sim.panApiKey, ...VLE })
    expect(cut).toMatchObject({ kind: 'answer', httpStatus: 200, json: undefined })
    expect(sim.pan.agents()).toHaveLength(1)
    expect(await post(PAN_PATHS.addVle, VLE)).toEqual({ status: 'FAILED', message: 'VLE ID already exists' })
  })

  it('"failed" refuses without processing; http500 never reaches the script', async () => {
    sim.setFault({ kind: 'failed', operations: ['add_vle'], times: 1 })
    expect(await post(PAN_PATHS.addVle, VLE)).toEqual({ status: 'FAILED', message: 'Service temporarily unavailable, try later' })
    sim.setFault({ kind: 'http500', operations: ['add_vle'], times: 1 })
    expect(await client.postForm(PAN_PATHS.addVle, { api_key: sim.panApiKey, ...VLE })).toMatchObject({ kind: 'answer', httpStatus: 500 })
    expect(sim.pan.agents()).toEqual([])
    expect(await post(PAN_PATHS.addVle, VLE)).toMatchObject({ status: 'SUCCESS' })
  })
})
