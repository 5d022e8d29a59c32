// RechargeApi against the provider simulator over real HTTP: every outcome, how status checks settle them, connection reuse.
import net from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RechargeApi, type RechargeReply } from '../../electron/partners/recharge-api'
import { NOT_FOUND_SETTLES_AFTER_MS } from '../../electron/partners/outcome'
import { startSimulator, type FaultSwitch, type Simulator } from '../../electron/simulator/server'
import { english } from '../../electron/shared/words'
import { inEnglish } from '../helpers/english-replies'

// Short enough to keep the fault cases fast, long enough for a loaded machine to answer 127.0.0.1.
const FAULT_TIMEOUT_MS = 300
const NOT_KNOWN = /not known whether the sale went through/

let sim: Simulator
let api: RechargeApi
let orderSeq = 0
const replies: unknown[] = []

function nextOrderId(): string {
  orderSeq += 1
  return `T${Date.now()}${orderSeq}`
}

function openApi(overrides: Partial<ConstructorParameters<typeof RechargeApi>[0]> = {}): RechargeApi {
  return inEnglish(new RechargeApi({ baseUrl: sim.url, credentials: sim.credentials, timeoutMs: FAULT_TIMEOUT_MS, ...overrides }))
}

async function sell(orderId = nextOrderId(), via = api): Promise<RechargeReply> {
  const reply = await via.transaction({ number: '9876543210', amountPaise: 19950, operatorCode: 'RJP', orderId })
  replies.push(reply)
  return reply
}

/** `sentAgoMs`: by default the sale was sent just now, as when the staff ask right after a timeout. */
async function check(orderId: string, sentAgoMs = 0): Promise<RechargeReply> {
  const reply = await api.checkStatus(orderId, sentAgoMs)
  replies.push(reply)
  return reply
}

async function sellUnder(fault: FaultSwitch): Promise<{ orderId: string; reply: RechargeReply }> {
  sim.setFault({ times: 1, ...fault })
  const orderId = nextOrderId()
  return { orderId, reply: await sell(orderId) }
}

beforeEach(async () => {
  sim = await startSimulator()
  api = openApi()
})

afterEach(async () => {
  api.close()
  await sim.close()
  // Whatever each test received, no secret ever came back in it.
  const seen = JSON.stringify(replies)
  expect(seen).not.toContain(sim.credentials.token)
  expect(seen.toLowerCase()).not.toContain(sim.credentials.secretKey.toLowerCase())
  replies.length = 0
})

describe('RechargeApi.transaction', () => {
  it('SUCCESS with the provider ids, sending the spec fields as strings', async () => {
    const orderId = nextOrderId()
    const reply = await sell(orderId)
    expect(reply).toMatchObject({ outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: 'Transaction Successful', httpStatus: 200 })
    expect(reply.fpayId).toMatch(/^RCH\d{12}[A-Z]{5}$/)
    expect(reply.operatorRef).toMatch(/^[A-Z]{2}\d{4}[A-Z]{4}\d{2}$/)

    const sent = sim.requests[0]
    expect(sent.path).toBe('/partner/api/recharge/transaction')
    expect(sent.method).toBe('POST')
    expect(Object.keys(sent.fields).sort()).toEqual(['amount', 'checksum', 'number', 'operator_code', 'order_id', 'timestamp', 'token', 'user_id'])
    expect(sent.fields).toMatchObject({ amount: '199.50', number: '9876543210', operator_code: 'RJP', order_id: orderId })
    expect(sent.fields.timestamp).toMatch(/^\d{13}$/)
  })

  it('sends whole rupees without decimals and the injected clock as the timestamp', async () => {
    const fixedClock = openApi({ now: () => 1718000000123 })
    try {
      const reply = await fixedClock.transaction({ number: '9876543210', amountPaise: 19900, operatorCode: 'RJP', orderId: nextOrderId() })
      expect(reply.outcome).toBe('SUCCESS')
      expect(sim.requests[0].fields).toMatchObject({ amount: '199', timestamp: '1718000000123' })
    } finally {
      fixedClock.close()
    }
  })

  it('FAILED when the provider says the operator is down; the order stays FAILED', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'failed' })
    expect(reply).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED', message: 'Operator down: recharge failed', fpayId: null, requestRefused: false })
    expect(await check(orderId)).toMatchObject({ outcome: 'FAILED', message: 'Operator down: recharge failed', requestRefused: false })
  })

  it('UNKNOWN on a repeated order id (an order with that id is on the books), leaving the first sale as it was', async () => {
    const orderId = nextOrderId()
    expect((await sell(orderId)).outcome).toBe('SUCCESS')
    const again = await sell(orderId)
    expect(again).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'FAILED' })
    expect(again.message).toMatch(/^The provider says an order with this id already exists \(Duplicate order id\)\. /)
    expect(again.message).toMatch(NOT_KNOWN)
    expect((await check(orderId)).outcome).toBe('SUCCESS')
  })

  it('FAILED with a wrong secret key (checksum mismatch) or a wrong token, saying the request was refused and nothing charged', async () => {
    const wrongKey = openApi({ credentials: { ...sim.credentials, secretKey: 'ab'.repeat(32) } })
    const wrongToken = openApi({ credentials: { ...sim.credentials, token: 'not-the-token' } })
    try {
      expect(await sell(nextOrderId(), wrongKey)).toMatchObject({
        outcome: 'FAILED',
        requestRefused: true,
        message: 'The provider refused the sale (Checksum mismatch): it did not take the order, so nothing was charged. Check the secret key in Settings.',
      })
      expect(await sell(nextOrderId(), wrongToken)).toMatchObject({
        outcome: 'FAILED',
        requestRefused: true,
        message: 'The provider refused the sale (Invalid credentials): it did not take the order, so nothing was charged. Check the credentials in Settings.',
      })
      expect(sim.orderBook().recharges).toEqual([])
    } finally {
      wrongKey.close()
      wrongToken.close()
    }
  })

  it('UNKNOWN when the answer is too slow; the status check then finds the sale went through', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'slow', delayMs: FAULT_TIMEOUT_MS + 500 })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: null })
    expect(reply.message).toMatch(/did not answer within 300 milliseconds/)
    expect(reply.message).toMatch(NOT_KNOWN)
    expect(await check(orderId)).toMatchObject({ outcome: 'SUCCESS', providerStatus: 'SUCCESS' })
  })

  it('answers correctly when slow but within the timeout', async () => {
    const patient = openApi({ timeoutMs: 2_000 })
    try {
      sim.setFault({ kind: 'slow', delayMs: 100, times: 1 })
      expect((await sell(nextOrderId(), patient)).outcome).toBe('SUCCESS')
    } finally {
      patient.close()
    }
  })

  it('UNKNOWN when no answer comes; the status check reveals SUCCESS (the answer was lost)', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'noAnswer' })
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(NOT_KNOWN)
    const settled = await check(orderId)
    expect(settled).toMatchObject({ outcome: 'SUCCESS' })
    expect(settled.fpayId).toMatch(/^RCH/)
  })

  it('UNKNOWN on an HTTP 500 error page; "no such order" keeps it pending until the provider has had time to book it, then settles it FAILED', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'http500' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 500, body: null })
    expect(reply.message).toMatch(/error page \(HTTP 500\)/)
    const early = await check(orderId, NOT_FOUND_SETTLES_AFTER_MS - 1)
    expect(early).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'FAILED', requestRefused: false })
    expect(early.message).toBe(
      `The provider has no record of order ${orderId} yet (No such order). A provider can take a while to book an order: it is asked again, and counts as failed if there is still no record 15 minutes after it was sent.`,
    )
    const late = await check(orderId, NOT_FOUND_SETTLES_AFTER_MS)
    expect(late).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED' })
    expect(late.message).toBe(`The provider has no record of order ${orderId} (No such order), 15 minutes or more after it was sent: it never reached the provider, and nothing was charged.`)
  })

  it('UNKNOWN on a cut-off JSON answer; the status check reveals SUCCESS', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'truncatedJson' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 200, body: null })
    expect(reply.message).toMatch(/could not be read/)
    expect((await check(orderId)).outcome).toBe('SUCCESS')
  })

  it('PENDING stays UNKNOWN through the pending checks, then the check says SUCCESS', async () => {
    const { orderId, reply } = await sellUnder({ kind: 'pendingThenSuccess', checksUntilFinal: 2 })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'PENDING', operatorRef: null })
    expect(reply.fpayId).toMatch(/^RCH/)
    expect(await check(orderId)).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'PENDING' })
    expect(await check(orderId)).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'PENDING' })
    const settled = await check(orderId)
    expect(settled).toMatchObject({ outcome: 'SUCCESS', fpayId: reply.fpayId })
    expect(settled.operatorRef).toMatch(/^[A-Z]{2}\d{4}/)
  })
})

describe('RechargeApi.checkStatus', () => {
  it('signs user_id|timestamp|order_id and gets the order back', async () => {
    const orderId = nextOrderId()
    const sold = await sell(orderId)
    const reply = await check(orderId)
    expect(reply).toMatchObject({ outcome: 'SUCCESS', fpayId: sold.fpayId, operatorRef: sold.operatorRef })
    expect(reply.body).toMatchObject({ data: { order_id: orderId, number: '9876543210', amount: '199.50' } })
    expect(Object.keys(sim.requests[1].fields).sort()).toEqual(['checksum', 'order_id', 'timestamp', 'token', 'user_id'])
  })

  it('a status check that cannot be answered stays UNKNOWN', async () => {
    const orderId = nextOrderId()
    await sell(orderId)
    sim.setFault({ kind: 'http500', operations: ['check_status'], times: 1 })
    expect((await check(orderId)).outcome).toBe('UNKNOWN')
    expect((await check(orderId)).outcome).toBe('SUCCESS')
  })

  const refusedCheck = (reason: string, advice: string) =>
    `The provider refused the status check (${reason}): this says nothing about the sale, which stays pending. ${advice}`

  it.each([
    ['a rotated token', { rotate: true }, refusedCheck('Invalid credentials', 'Check the credentials in Settings.')],
    ['a wrong secret key', { secretKey: 'ab'.repeat(32) }, refusedCheck('Checksum mismatch', 'Check the secret key in Settings.')],
    ['a timestamp refusal', { refusal: { message: 'Invalid timestamp' } }, refusedCheck('Invalid timestamp', "Check this computer's date and time.")],
    ['"Invalid user or token"', { refusal: { message: 'Invalid user or token' } }, refusedCheck('Invalid user or token', 'Check the credentials in Settings.')],
    ['a rate limit (HTTP 429)', { refusal: { message: 'Too many requests', httpStatus: 429 } }, refusedCheck('Too many requests', 'The provider limits how often it is asked: wait a little before the next try.')],
    ['HTTP 403 saying SUCCESS', { refusal: { status: 'SUCCESS', message: 'Forbidden', httpStatus: 403 } }, refusedCheck('Forbidden', 'Check the credentials in Settings.')],
  ] as const)('a check refused for %s is UNKNOWN, not FAILED; the next check with the request right settles the order', async (_what, how, message) => {
    const { orderId } = await sellUnder({ kind: 'pendingThenSuccess', checksUntilFinal: 0 })
    const right = sim.credentials
    const wrongKey = 'secretKey' in how ? openApi({ credentials: { ...right, secretKey: how.secretKey } }) : api
    if ('rotate' in how) sim.rotateCredentials({ recharge: { token: 'rotated-token-7f3e9a' } })
    if ('refusal' in how) sim.setFault({ kind: 'refuse', operations: ['check_status'], times: 1, refusal: how.refusal })
    try {
      const refused = await wrongKey.checkStatus(orderId, 0)
      replies.push(refused)
      expect(refused).toMatchObject({ outcome: 'UNKNOWN', requestRefused: true, message })
    } finally {
      if (wrongKey !== api) wrongKey.close()
    }
    expect(sim.orderBook().recharges).toMatchObject([{ orderId, state: 'PENDING' }])
    if ('rotate' in how) sim.rotateCredentials({ recharge: { token: right.token } })
    expect(await check(orderId)).toMatchObject({ outcome: 'SUCCESS', requestRefused: false })
  })

  it('a FAILED in words never seen before settles the order only when the answer names it', async () => {
    const { orderId } = await sellUnder({ kind: 'pendingThenSuccess' })
    sim.setFault({ kind: 'refuse', operations: ['check_status'], times: 1, refusal: { message: 'Recharge reversed by operator' } })
    expect(await check(orderId)).toMatchObject({
      outcome: 'UNKNOWN',
      providerStatus: 'FAILED',
      requestRefused: false,
      message: `The provider answered FAILED without naming order ${orderId} (Recharge reversed by operator), so this does not settle it: it stays pending and is asked again. If the provider keeps answering so, settle it by phone.`,
    })
    // The provider's own failure of the order, which its answer names: settled.
    const failed = await sellUnder({ kind: 'failed' })
    expect(failed.reply.outcome).toBe('FAILED')
    expect(await check(failed.orderId)).toMatchObject({ outcome: 'FAILED', requestRefused: false, message: 'Operator down: recharge failed' })
  })

  it('a SUCCESS that names no order and carries no reference of the provider\'s settles nothing', async () => {
    const { orderId } = await sellUnder({ kind: 'pendingThenSuccess' })
    sim.setFault({ kind: 'refuse', operations: ['check_status'], times: 1, refusal: { status: 'SUCCESS', message: 'Done' } })
    expect(await check(orderId)).toMatchObject({ outcome: 'UNKNOWN', message: expect.stringContaining(`without naming order ${orderId} (Done)`) })
  })
})

describe('RechargeApi.fetchOperator', () => {
  it('finds the operator and circle, the same for the same number', async () => {
    const first = await api.fetchOperator('9876543210')
    const again = await api.fetchOperator('9876543210')
    replies.push(first, again)
    expect(first.outcome).toBe('SUCCESS')
    expect(['Airtel', 'Jio', 'Vi', 'BSNL']).toContain(first.operator)
    expect(first.circle).toEqual(expect.any(String))
    expect(again).toEqual(first)
    expect(Object.keys(sim.requests[0].fields).sort()).toEqual(['mobile', 'token', 'user_id'])
  })

  it('FAILED with a wrong token; UNKNOWN (choose by hand) when the provider cannot answer', async () => {
    const wrongToken = openApi({ credentials: { ...sim.credentials, token: 'not-the-token' } })
    try {
      const refused = await wrongToken.fetchOperator('9876543210')
      replies.push(refused)
      expect(refused).toEqual({ outcome: 'FAILED', message: 'Invalid credentials', operator: null, circle: null, httpStatus: 200 })
    } finally {
      wrongToken.close()
    }
    sim.setFault({ kind: 'http500', operations: ['fetch_operator'] })
    const unanswered = await api.fetchOperator('9876543210')
    replies.push(unanswered)
    expect(unanswered).toMatchObject({ outcome: 'UNKNOWN', operator: null })
    expect(english(unanswered.message)).toMatch(/choose it from the list/)
  })
})

describe('connections and secrets', () => {
  it('reuses one keep-alive connection for consecutive calls', async () => {
    for (let i = 0; i < 3; i++) await sell()
    await api.fetchOperator('9876543210')
    await check(sim.requests[0].fields.order_id)
    expect(sim.requests).toHaveLength(5)
    expect(new Set(sim.requests.map((r) => r.connection))).toEqual(new Set([sim.requests[0].connection]))
  })

  it('a timed-out connection is dropped, and the next call opens a fresh one', async () => {
    await sellUnder({ kind: 'noAnswer' })
    expect((await sell()).outcome).toBe('SUCCESS')
    expect(sim.requests[1].connection).not.toBe(sim.requests[0].connection)
  })

  it('hides the token and key if the provider ever echoes them back', async () => {
    // A provider echoing our token is simulated by a token that is a word of its success message.
    await sim.close()
    sim = await startSimulator({ recharge: { userId: 'FISPL604796', token: 'Successful', secretKey: 'c0ffee'.repeat(8) } })
    api.close()
    api = openApi()
    const reply = await sell()
    expect(reply.outcome).toBe('SUCCESS')
    expect(reply.message).toBe('Transaction [hidden]')
    expect(reply.body).toMatchObject({ message: 'Transaction [hidden]' })
  })

  it('nothing listening is FAILED in plain words: nothing was sent (tests/integration/nothing-sent.test.ts has the rest)', async () => {
    const gone = await startSimulator()
    await gone.close()
    const unreachable = openApi({ baseUrl: gone.url })
    try {
      const reply = await sell(nextOrderId(), unreachable)
      expect(reply).toMatchObject({ outcome: 'FAILED', httpStatus: null })
      expect(reply.message).toBe('The provider refused the connection: nothing was sent, so it is safe to sell again.')
    } finally {
      unreachable.close()
    }
  })

  it('a connection cut in the middle of the answer is UNKNOWN', async () => {
    const cutter = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{"status"\r\n')
        setTimeout(() => socket.destroy(), 20)
      })
    })
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve))
    const cutApi = openApi({ baseUrl: `http://127.0.0.1:${(cutter.address() as net.AddressInfo).port}`, timeoutMs: 5_000 })
    try {
      const reply = await sell(nextOrderId(), cutApi)
      expect(reply.outcome).toBe('UNKNOWN')
      expect(reply.message).toMatch(/^The connection to the provider was cut before its answer was complete\. /)
    } finally {
      cutApi.close()
      await new Promise((resolve) => cutter.close(resolve))
    }
  })
})
