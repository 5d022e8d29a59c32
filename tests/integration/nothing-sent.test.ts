// A network failure is judged by whether any byte of the request could have reached the provider: nothing sent is
// FAILED at once (safe to sell again), anything written and then cut or unanswered stays UNKNOWN. Real sockets only.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import diagnostics from 'node:diagnostics_channel'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import tls from 'node:tls'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PanApi } from '../../electron/partners/pan-api'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { english } from '../../electron/shared/words'
import { inEnglish } from '../helpers/english-replies'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import { approvedAgent, eventually, journalOf, pendingItems, privateLoopback, realModeEnv, startRealModeRig, tempDir, valueOf, type RealModeRig } from './helpers'

const SAFE_TO_SELL = /: nothing was sent, so it is safe to sell again\.$/
const NOT_KNOWN = /not known whether the sale went through/
const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199.50' } as const

let sim: Simulator
let orderSeq = 0
const closers: (() => unknown)[] = []

beforeEach(async () => {
  sim = await startSimulator()
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  await sim.close()
})

const nextOrderId = () => `NS${Date.now()}${++orderSeq}`

function rechargeApi(baseUrl: string, timeoutMs = 5_000): RechargeApi {
  const api = inEnglish(new RechargeApi({ baseUrl, credentials: sim.credentials, timeoutMs }))
  closers.push(() => api.close())
  return api
}

const sell = (api: RechargeApi) => api.transaction({ number: '9876543210', amountPaise: 19950, operatorCode: 'RJP', orderId: nextOrderId() })

const listening = (server: net.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)))

/** An address where nothing listens: a port bound on a loopback address of this test's own, then let go. */
async function refusedAddress(): Promise<URL> {
  const host = privateLoopback()
  const server = net.createServer()
  const port = await new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)))
  await new Promise((resolve) => server.close(resolve))
  return new URL(`http://${host}:${port}`)
}

/**
 * A port that is refused until opened, then passes every connection through to the simulator, until shut again:
 * the same provider address unreachable and reachable, as a shop's line goes down and comes back.
 */
async function gate(to: () => Simulator) {
  const address = await refusedAddress()
  let server: net.Server | null = null
  const sockets = new Set<net.Socket>()
  const gateway = {
    url: address.origin,
    async open() {
      server = net.createServer((inbound) => {
        const outbound = net.connect(Number(new URL(to().url).port), '127.0.0.1')
        for (const socket of [inbound, outbound]) {
          sockets.add(socket)
          socket.on('error', () => undefined).on('close', () => sockets.delete(socket))
        }
        inbound.pipe(outbound).pipe(inbound)
      })
      await new Promise<void>((resolve) => server!.listen(Number(address.port), address.hostname, resolve))
    },
    async shut() {
      const closed = new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
      for (const socket of sockets) socket.destroy()
      await closed
      server = null
      // The counter's idle keep-alive socket sees its end before anything else is asked of it.
      await new Promise((resolve) => setTimeout(resolve, 100))
    },
  }
  closers.push(() => gateway.shut())
  return gateway
}

interface RawRequest {
  connection: number
  head: string
  body: string
}

/**
 * A raw TCP "provider" that reads whole HTTP requests and does with each what `act` says; it keeps every byte it
 * was sent, per connection, so a test can tell whether a request reached it at all.
 */
async function rawProvider(act: (socket: net.Socket, request: RawRequest, index: number) => void, options: { allowHalfOpen?: boolean } = {}) {
  const requests: RawRequest[] = []
  const bytes = new Map<number, number>()
  const sockets = new Set<net.Socket>()
  let connections = 0
  const server = net.createServer({ allowHalfOpen: options.allowHalfOpen ?? false }, (socket) => {
    const connection = ++connections
    sockets.add(socket)
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket))
    let pending = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      bytes.set(connection, (bytes.get(connection) ?? 0) + chunk.length)
      pending = Buffer.concat([pending, chunk])
      for (;;) {
        const end = pending.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = pending.subarray(0, end).toString('latin1')
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
        if (pending.length < end + 4 + length) return
        const request = { connection, head, body: pending.subarray(end + 4, end + 4 + length).toString('utf8') }
        pending = pending.subarray(end + 4 + length)
        requests.push(request)
        act(socket, request, requests.length - 1)
      }
    })
  })
  const port = await listening(server)
  const provider = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    bytes,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
  closers.push(provider.close)
  return provider
}

const SUCCESS_BODY = JSON.stringify({ status: 'SUCCESS', message: 'Transaction Successful', data: { operator: 'Jio', circle: 'Delhi' } })
const keepAliveAnswer = (body = SUCCESS_BODY) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${body}`

/** Every client socket this process opens from now on (a pooled socket handed out again is not a new one). */
function watchClientSockets() {
  const sockets: net.Socket[] = []
  const onSocket = (message: unknown) => sockets.push((message as { socket: net.Socket }).socket)
  diagnostics.subscribe('net.client.socket', onSocket)
  closers.push(() => diagnostics.unsubscribe('net.client.socket', onSocket))
  return {
    sockets,
    /** The first of them, once the counter has opened it. */
    first: () => new Promise<net.Socket>((resolve) => {
      const poll = () => (sockets.length > 0 ? resolve(sockets[0]) : setImmediate(poll))
      poll()
    }),
  }
}

/** Until the provider has read `count` whole requests: what a client hears back can come before the server reads. */
async function providerRead(provider: { requests: RawRequest[] }, count: number): Promise<RawRequest[]> {
  return eventually(async () => provider.requests.length >= count && provider.requests, `${count} requests at the provider`, 2_000)
}

describe('nothing sent: FAILED at once', () => {
  it('a refused connection: the sale is FAILED, saying nothing was sent; the provider never heard of it', async () => {
    const reply = await sell(rechargeApi((await refusedAddress()).origin))
    expect(reply).toMatchObject({ outcome: 'FAILED', httpStatus: null, providerStatus: null, requestRefused: false })
    expect(reply.message).toBe('The provider refused the connection: nothing was sent, so it is safe to sell again.')
  })

  it('an address that cannot be found is FAILED, and fast', async () => {
    const started = Date.now()
    const reply = await sell(rechargeApi('http://counter-no-such-host.invalid:80'))
    expect(reply.outcome).toBe('FAILED')
    expect(reply.message).toMatch(/^The provider's address could not be (found|looked up)/)
    expect(reply.message).toMatch(SAFE_TO_SELL)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  describe('TLS', () => {
    let certDir: { path: string; remove(): void }
    beforeEach(() => {
      certDir = tempDir('counter-tls-')
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=127.0.0.1'], {
        cwd: certDir.path,
        stdio: 'ignore',
      })
      closers.push(() => certDir.remove())
    })

    it.each(['TLSv1.2', 'TLSv1.3'] as const)('a certificate the counter does not trust (%s): FAILED, and no byte of the request reached the server', async (version) => {
      const received: string[] = []
      const server = tls.createServer({ key: readFileSync(join(certDir.path, 'key.pem')), cert: readFileSync(join(certDir.path, 'cert.pem')), minVersion: version, maxVersion: version }, (socket) => {
        socket.on('data', (chunk: Buffer) => received.push(chunk.toString('latin1'))).on('error', () => undefined)
      })
      server.on('tlsClientError', () => undefined)
      const port = await listening(server)
      closers.push(() => new Promise((resolve) => server.close(resolve)))
      const reply = await sell(rechargeApi(`https://127.0.0.1:${port}`))
      expect(reply.outcome).toBe('FAILED')
      expect(reply.message).toBe("The provider's security certificate is not trusted: nothing was sent, so it is safe to sell again.")
      expect(received).toEqual([])
    })

    it('https to a plain-HTTP port (the handshake answered with garbage): FAILED, and the provider got no request', async () => {
      const reply = await sell(rechargeApi(sim.url.replace(/^http:/, 'https:')))
      expect(reply.outcome).toBe('FAILED')
      expect(reply.message).toMatch(/^A secure connection to the provider could not be set up/)
      expect(reply.message).toMatch(SAFE_TO_SELL)
      expect(sim.requests).toEqual([])
    })

    it('a TLS handshake that never finishes: FAILED when the deadline passes (only a hello was sent, never the request)', async () => {
      const silent = await rawProvider(() => undefined)
      const reply = await sell(rechargeApi(silent.url.replace(/^http:/, 'https:'), 300))
      expect(reply.outcome).toBe('FAILED')
      expect(reply.message).toBe('No connection to the provider could be made within 300 milliseconds: nothing was sent, so it is safe to sell again.')
      expect(silent.requests).toEqual([])
    })
  })

  it.runIf(process.platform === 'linux')('a connect that times out before connecting (the provider\'s queue is full): FAILED', async () => {
    // A listener whose process never accepts (its event loop is blocked), its backlog of 1 filled: Linux drops further SYNs.
    const child: ChildProcess = spawn(process.execPath, ['-e', `
      const s = require('node:net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () =>
        process.stdout.write(s.address().port + '\\n', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)))`], { stdio: ['ignore', 'pipe', 'inherit'] })
    closers.push(() => child.kill('SIGKILL'))
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (text: Buffer) => resolve(Number(String(text).trim()))))
    for (;;) {
      const filler = net.connect(port, '127.0.0.1').on('error', () => undefined)
      closers.push(() => filler.destroy())
      const connected = await new Promise<boolean>((resolve) => {
        filler.once('connect', () => resolve(true))
        setTimeout(() => resolve(false), 200)
      })
      if (!connected) break
    }
    const reply = await sell(rechargeApi(`http://127.0.0.1:${port}`, 300))
    expect(reply.outcome).toBe('FAILED')
    expect(reply.message).toBe('No connection to the provider could be made within 300 milliseconds: nothing was sent, so it is safe to sell again.')
  })

  it('a pooled keep-alive socket the provider closed, found dead before this request was written to it: FAILED', async () => {
    // The provider answers the lookup and closes the connection (FIN). The counter reads the FIN; a sale asked for
    // right then is handed the pooled socket (the pool drops it only on 'close'), whose write side has already ended.
    const provider = await rawProvider((socket) => socket.end(keepAliveAnswer()), { allowHalfOpen: true })
    const api = rechargeApi(provider.url)
    const watch = watchClientSockets()
    const lookedUp = api.fetchOperator('9876543210')
    const socket = await watch.first()
    const sold = new Promise<Awaited<ReturnType<typeof sell>>>((resolve) => socket.once('end', () => process.nextTick(() => resolve(sell(api)))))
    expect((await lookedUp).outcome).toBe('SUCCESS')
    const reply = await sold
    // The sale was handed the pooled socket: it opened none of its own.
    expect(watch.sockets).toEqual([socket])
    expect(reply.outcome).toBe('FAILED')
    expect(reply.message).toBe('The provider had closed the connection before the request went out: nothing was sent, so it is safe to sell again.')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(provider.requests).toHaveLength(1)
    expect([...provider.bytes.keys()]).toEqual([1])
  })
})

describe('sent, then cut or unanswered: UNKNOWN', () => {
  it('the provider reads the whole request, then cuts the connection', async () => {
    const provider = await rawProvider((socket) => socket.destroy())
    const reply = await sell(rechargeApi(provider.url))
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', httpStatus: null })
    expect(reply.message).toMatch(/^The connection to the provider was cut\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
    expect(provider.requests).toHaveLength(1)
  })

  it('the provider reads the whole request and never answers: a timeout', async () => {
    const provider = await rawProvider(() => undefined)
    const reply = await sell(rechargeApi(provider.url, 300))
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(/^The provider did not answer within 300 milliseconds\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
    expect(provider.requests).toHaveLength(1)
  })

  it('a reused keep-alive socket: the sale written on it, then the connection cut', async () => {
    const provider = await rawProvider((socket, _request, index) => (index === 0 ? socket.write(keepAliveAnswer()) : socket.destroy()))
    const api = rechargeApi(provider.url)
    expect((await api.fetchOperator('9876543210')).outcome).toBe('SUCCESS')
    const reply = await sell(api)
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(NOT_KNOWN)
    expect(provider.requests.map((request) => request.connection)).toEqual([1, 1])
  })

  it('a pooled socket the provider closed, the sale written on it before the counter saw the close: UNKNOWN (the provider got it)', async () => {
    const provider = await rawProvider((socket, _request, index) => (index === 0 ? socket.end(keepAliveAnswer()) : socket.destroy()), { allowHalfOpen: true })
    const api = rechargeApi(provider.url)
    const watch = watchClientSockets()
    const lookedUp = api.fetchOperator('9876543210')
    const socket = await watch.first()
    // Asked in the same tick the FIN is read: the socket is still writable, and the request goes out on it.
    const sold = new Promise<Awaited<ReturnType<typeof sell>>>((resolve) => socket.once('end', () => resolve(sell(api))))
    expect((await lookedUp).outcome).toBe('SUCCESS')
    const reply = await sold
    expect(watch.sockets).toEqual([socket])
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(NOT_KNOWN)
    expect((await providerRead(provider, 2)).map((request) => request.connection)).toEqual([1, 1])
  })
})

describe('status checks and other calls with nothing sent', () => {
  it('a recharge status check that sent nothing settles nothing; a lookup is FAILED', async () => {
    const api = rechargeApi((await refusedAddress()).origin)
    const check = await api.checkStatus(nextOrderId(), 60 * 60_000)
    expect(check).toMatchObject({ outcome: 'UNKNOWN', httpStatus: null, requestRefused: false })
    expect(check.message).toBe('The provider refused the connection: the status check was not sent, so it says nothing about the sale, which stays pending.')
    const lookup = await api.fetchOperator('9876543210')
    expect(lookup).toMatchObject({ outcome: 'FAILED', httpStatus: null, operator: null })
    expect(english(lookup.message)).toBe('The provider cannot be reached: choose the operator yourself.')
  })

  it('PAN: a coupon order is FAILED; its status check settles nothing; the balance read is FAILED', async () => {
    const pan = inEnglish(new PanApi({ baseUrl: (await refusedAddress()).origin, apiKey: sim.panApiKey, timeoutMs: 5_000 }))
    closers.push(() => pan.close())
    const order = await pan.couponRequest({ vleId: 'VLE1001', type: 1, qty: 2 })
    expect(order).toMatchObject({ outcome: 'FAILED', httpStatus: null, orderId: null })
    expect(order.message).toBe('The provider refused the connection: nothing was sent, so it is safe to sell again.')
    const check = await pan.couponStatus('PAN123', 60 * 60_000)
    expect(check).toMatchObject({ outcome: 'UNKNOWN', httpStatus: null })
    expect(check.message).toBe('The provider refused the connection: the status check was not sent, so it says nothing about the coupon order, which stays pending.')
    const balance = await pan.balance()
    expect(balance).toMatchObject({ outcome: 'FAILED', balancePaise: null })
    expect(balance.message).toBe('The provider refused the connection: nothing was sent, so it is safe to try again.')
  })

  it('PAN: creating an agent or asking a reset is FAILED; their status checks settle nothing', async () => {
    const pan = inEnglish(new PanApi({ baseUrl: (await refusedAddress()).origin, apiKey: sim.panApiKey, timeoutMs: 5_000, method: 'GET' }))
    closers.push(() => pan.close())
    const fields = { vle_id: 'VLE1001', vle_name: 'Ravi Kumar', vle_mob: '9812345678', vle_email: 'ravi@example.in', vle_shop: 'Ravi Digital Seva', vle_loc: 'Sitapur', vle_state: '35', vle_pin: '261001', vle_uid: '234567890124', vle_pan: 'ABCDE1234F' }
    expect(await pan.addVle(fields)).toMatchObject({ outcome: 'FAILED', vleStatus: null, message: expect.stringMatching(/: nothing was sent, so it is safe to try again\.$/) })
    expect(await pan.passwordReset('VLE1001')).toMatchObject({ outcome: 'FAILED', resetStatus: null })
    expect(await pan.vleStatus('VLE1001')).toMatchObject({ outcome: 'UNKNOWN', message: expect.stringContaining("the status check was not sent, so it says nothing about the agent's approval") })
    expect(await pan.passwordResetStatus('RST1')).toMatchObject({ outcome: 'UNKNOWN', resetStatus: null, message: expect.stringContaining('says nothing about the reset') })
  })
})

describe('through the core', () => {
  let rig: RealModeRig | undefined
  afterEach(async () => {
    await rig?.close()
    rig = undefined
  })

  it('a recharge the provider never got is journaled FAILED with why, the number is free, and sold again at once', async () => {
    const line = await gate(() => rig!.provider)
    rig = await startRealModeRig({}, { env: realModeEnv(line.url) })
    const failed = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(failed.state).toBe('FAILED')
    expect(failed.message).toBe('The provider refused the connection: nothing was sent, so it is safe to sell again.')
    expect(await pendingItems(rig)).toEqual([])
    expect(journalOf(rig).filter((entry) => entry.type === 'recharge.outcome')).toMatchObject([
      { data: { orderId: failed.orderId, source: 'transaction', outcome: 'FAILED', message: failed.message } },
    ])

    await line.open()
    const again = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(again).toMatchObject({ state: 'SUCCESS', number: sale.number })
    expect(rig.provider.requests.filter((request) => request.operation === 'transaction').map((request) => request.fields.order_id)).toEqual([again.orderId])
  })

  it('a pending recharge whose status check cannot be sent stays pending, and the next check that goes through settles it', async () => {
    const line = await gate(() => rig!.provider)
    await line.open()
    rig = await startRealModeRig({}, { env: realModeEnv(line.url) })
    rig.provider.setFault({ kind: 'pendingThenSuccess', times: 1, checksUntilFinal: 0 })
    const sold = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(sold.state).toBe('UNKNOWN')

    await line.shut()
    const unasked = valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId }))
    expect(unasked.state).toBe('UNKNOWN')
    expect(unasked.message).toMatch(/the status check was not sent, so it says nothing about the sale, which stays pending/)
    expect((await pendingItems(rig)).map((item) => item.id)).toEqual([sold.orderId])
    const refused = await rig.counter.call('recharge.sell', sale)
    expect(refused.ok).toBe(false)

    await line.open()
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId })).state).toBe('SUCCESS')
    expect(rig.provider.requests.filter((request) => request.operation === 'transaction')).toHaveLength(1)
  })

  it('a coupon order the provider never got is FAILED, leaves the agent free, and is sold again at once', async () => {
    const line = await gate(() => rig!.provider)
    await line.open()
    rig = await startRealModeRig({}, { env: realModeEnv(line.url) })
    const agent = await approvedAgent(rig.counter)

    await line.shut()
    const failed = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1 }))
    expect(failed.state).toBe('FAILED')
    expect(failed.message).toBe('The provider refused the connection: nothing was sent, so it is safe to sell again.')
    expect(await pendingItems(rig)).toEqual([])

    await line.open()
    const again = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1 }))
    expect(again.state).toBe('SUCCESS')
    expect(rig.provider.requests.filter((request) => request.operation === 'coupon_req')).toHaveLength(1)
  })
})
