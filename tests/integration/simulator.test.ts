// The provider simulator over real HTTP: the provider's headers and connection limits, request parsing, validation, faults, shutdown.
import http from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PartnerHttp, type HttpResult } from '../../electron/partners/http'
import { RECHARGE_PATHS, RechargeApi, transactionChecksum } from '../../electron/partners/recharge-api'
import { startSimulator, type SimRequest, type Simulator } from '../../electron/simulator/server'
import { inEnglish } from '../helpers/english-replies'

interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

let sim: Simulator
let client: PartnerHttp

/** A plain node:http request, to see the answer exactly as it comes off the wire. */
function rawPost(path: string, body: string, agent: http.Agent | false = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${sim.url}${path}`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

function lookupBody(mobile = '9876543210'): Record<string, string> {
  return { user_id: sim.credentials.userId, token: sim.credentials.token, mobile }
}

function transactionBody(overrides: Record<string, string> = {}): Record<string, string> {
  const fields = { number: '9876543210', amount: '199.50', operator_code: 'RJP', order_id: `S${Date.now()}`, timestamp: String(Date.now()), ...overrides }
  return {
    user_id: sim.credentials.userId,
    token: sim.credentials.token,
    ...fields,
    checksum: transactionChecksum(sim.credentials, fields.timestamp, fields.number, fields.order_id),
  }
}

function jsonOf(result: HttpResult): unknown {
  if (result.kind !== 'answer') throw new Error(`expected an answer, got ${result.reason}: ${result.detail}`)
  return result.json
}

beforeEach(async () => {
  sim = await startSimulator()
  client = new PartnerHttp({ baseUrl: sim.url, timeoutMs: 2_000 })
})

afterEach(async () => {
  client.close()
  await sim.close()
})

describe('simulator: the provider as seen on the wire', () => {
  it('listens on 127.0.0.1 with random training credentials', () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sim.credentials.userId).toMatch(/^FISPL\d{6}$/)
    expect(sim.credentials.token).toMatch(/^[0-9a-f]{32}$/)
    expect(sim.credentials.secretKey).toMatch(/^[0-9a-f]{64}$/)
  })

  it("sends the spec's response headers, chunked, with JSON labelled text/html", async () => {
    const agent = new http.Agent({ keepAlive: true })
    const answer = await rawPost(RECHARGE_PATHS.fetchOperator, JSON.stringify(lookupBody()), agent).finally(() => agent.destroy())
    expect(answer.status).toBe(200)
    expect(answer.headers).toMatchObject({
      'content-type': 'text/html; charset=UTF-8',
      'cache-control': 'no-store, no-cache, must-revalidate',
      pragma: 'no-cache',
      expires: 'Thu, 19 Nov 1981 08:52:00 GMT',
      'keep-alive': 'timeout=5, max=100',
      connection: 'Keep-Alive',
      'transfer-encoding': 'chunked',
    })
    expect(answer.headers['content-length']).toBeUndefined()
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'SUCCESS', message: 'Operator found' })
  })

  it('serves Apache error pages with the same headers for unknown paths, wrong methods and fault 500s', async () => {
    const missing = await rawPost('/partner/api/nothing', '{}')
    expect(missing.status).toBe(404)
    expect(missing.body).toContain('<title>404 Not Found</title>')
    expect(missing.headers['content-type']).toBe('text/html; charset=UTF-8')
    // This client asked for "Connection: close", and gets it.
    expect(missing.headers.connection).toBe('close')

    const wrongMethod = await client.getQuery(RECHARGE_PATHS.transaction, { a: 'b' })
    expect(wrongMethod).toMatchObject({ kind: 'answer', httpStatus: 405, json: undefined })

    sim.setFault({ kind: 'http500', operations: ['fetch_operator'], times: 1 })
    const crashed = await rawPost(RECHARGE_PATHS.fetchOperator, JSON.stringify(lookupBody()))
    expect(crashed.status).toBe(500)
    expect(crashed.body).toContain('<h1>Internal Server Error</h1>')
    expect(crashed.headers.expires).toBe('Thu, 19 Nov 1981 08:52:00 GMT')
  })

  it('serves at most 100 requests on one connection, then closes it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const answers: RawAnswer[] = []
      for (let i = 0; i < 101; i++) answers.push(await rawPost(RECHARGE_PATHS.fetchOperator, JSON.stringify(lookupBody()), agent))
      expect(answers[98].headers.connection).toBe('Keep-Alive')
      expect(answers[99].headers.connection).toBe('close')
      expect(answers[99].headers['keep-alive']).toBeUndefined()
      const connections = sim.requests.map((r) => r.connection)
      expect(new Set(connections.slice(0, 100)).size).toBe(1)
      expect(connections[100]).not.toBe(connections[0])
    } finally {
      agent.destroy()
    }
  })
})

describe('simulator: requests', () => {
  it('reads JSON, form and query fields into the request log, in order', async () => {
    await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody())
    const form = await client.postForm(RECHARGE_PATHS.fetchOperator, lookupBody('7012345678'))
    await client.getQuery('/api/balance.php', { api_key: 'k-1' })
    expect(jsonOf(form)).toMatchObject({ status: 'SUCCESS' })
    expect(sim.requests.map((r) => [r.operation, r.method, r.path])).toEqual([
      ['fetch_operator', 'POST', RECHARGE_PATHS.fetchOperator],
      ['fetch_operator', 'POST', RECHARGE_PATHS.fetchOperator],
      ['balance', 'GET', '/api/balance.php'],
    ])
    expect(sim.requests[1].fields).toEqual(lookupBody('7012345678'))
    expect(sim.requests[2].fields).toEqual({ api_key: 'k-1' })
  })

  it('answers FAILED to a body that is not JSON', async () => {
    const answer = await rawPost(RECHARGE_PATHS.transaction, '{"user_id": ')
    expect(JSON.parse(answer.body)).toEqual({ status: 'FAILED', message: 'Request body could not be read' })
  })

  it('awaits onRequest before processing: a held sale is not yet known to check_status', async () => {
    await sim.close()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held: SimRequest[] = []
    sim = await startSimulator({
      onRequest: async (req) => {
        if (req.operation !== 'transaction') return
        held.push(req)
        await gate
      },
    })
    const api = inEnglish(new RechargeApi({ baseUrl: sim.url, credentials: sim.credentials, timeoutMs: 2_000 }))
    try {
      const sale = api.transaction({ number: '9876543210', amountPaise: 1000, operatorCode: 'RJP', orderId: 'HELD-1' })
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      // Not booked yet: the provider's "no such order" right after sending must not settle the sale.
      expect(await api.checkStatus('HELD-1', 0)).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'FAILED', message: expect.stringContaining('(No such order)') })
      release()
      expect((await sale).outcome).toBe('SUCCESS')
      expect((await api.checkStatus('HELD-1', 0)).outcome).toBe('SUCCESS')
    } finally {
      api.close()
    }
  })
})

describe('simulator: recharge rules', () => {
  it.each([
    [{ amount: '0' }, 'Invalid amount'],
    [{ amount: '-5' }, 'Invalid amount'],
    [{ amount: '199.505' }, 'Invalid amount'],
    [{ number: '98765abc' }, 'Invalid number'],
    [{ timestamp: '1718000000' }, 'Invalid timestamp'],
    [{ operator_code: '' }, 'Invalid operator code'],
    [{ order_id: 'has space' }, 'Invalid order id'],
  ])('refuses a transaction with %o: %s', async (overrides, reason) => {
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.transaction, transactionBody(overrides)))).toEqual({ status: 'FAILED', message: reason })
  })

  it('refuses a checksum over other fields, and a wrong user id', async () => {
    const tampered = { ...transactionBody(), number: '9000000000' }
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.transaction, tampered))).toEqual({ status: 'FAILED', message: 'Checksum mismatch' })
    const stranger = { ...transactionBody(), user_id: 'FISPL000000' }
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.transaction, stranger))).toEqual({ status: 'FAILED', message: 'Invalid credentials' })
  })

  it('looks up operators deterministically and refuses a malformed mobile number', async () => {
    const one = jsonOf(await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody('9876543210')))
    const other = jsonOf(await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody('7012345678')))
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody('9876543210')))).toEqual(one)
    expect(other).not.toEqual(one)
    expect(one).toMatchObject({ status: 'SUCCESS', data: { operator: expect.stringMatching(/^(Airtel|Jio|Vi|BSNL)$/), circle: expect.any(String) } })
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody('98765')))).toEqual({ status: 'FAILED', message: 'Invalid mobile number' })
  })
})

describe('simulator: faults and shutdown', () => {
  it('a fault hits only its operations, only as many times as asked', async () => {
    sim.setFault({ kind: 'failed', times: 2 })
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.fetchOperator, lookupBody()))).toMatchObject({ status: 'SUCCESS' })
    const hit = [transactionBody({ order_id: 'F1' }), transactionBody({ order_id: 'F2' }), transactionBody({ order_id: 'F3' })]
    const answers = []
    for (const body of hit) answers.push(jsonOf(await client.postJson(RECHARGE_PATHS.transaction, body)))
    expect(answers.map((a) => (a as { status: string }).status)).toEqual(['FAILED', 'FAILED', 'SUCCESS'])
  })

  it('setFault(null) clears a fault set until cleared', async () => {
    sim.setFault({ kind: 'truncatedJson' })
    const cut = await client.postJson(RECHARGE_PATHS.transaction, transactionBody({ order_id: 'C1' }))
    expect(cut).toMatchObject({ kind: 'answer', httpStatus: 200, json: undefined })
    expect((cut as { text: string }).text).toMatch(/^\{"status":"SUCC/)
    sim.setFault(null)
    expect(jsonOf(await client.postJson(RECHARGE_PATHS.transaction, transactionBody({ order_id: 'C2' })))).toMatchObject({ status: 'SUCCESS' })
  })

  it('close() ends promptly while a request is held by noAnswer, cutting that connection', async () => {
    sim.setFault({ kind: 'noAnswer' })
    const pending = client.postJson(RECHARGE_PATHS.transaction, transactionBody())
    while (sim.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const started = Date.now()
    await sim.close()
    expect(Date.now() - started).toBeLessThan(500)
    expect(await pending).toMatchObject({ kind: 'no-answer', reason: 'network' })
  })

  it('close() ends promptly while a slow answer is waiting', async () => {
    sim.setFault({ kind: 'slow', delayMs: 10_000 })
    const pending = client.postJson(RECHARGE_PATHS.transaction, transactionBody())
    while (sim.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const started = Date.now()
    await sim.close()
    expect(Date.now() - started).toBeLessThan(500)
    expect(await pending).toMatchObject({ kind: 'no-answer', reason: 'network' })
  })
})
