// Browser mode's HTTP bridge over real HTTP: the token, Host and Origin gates, the envelope,
// static files without path escapes, events pushed as a stream, clients that cannot hold it (time
// limits, a connection cap that only token holders count), and the launcher's refusals and stop.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { startWebServer, type WebLimits, type WebServer } from '../../electron/web/server'
import { privateKeychainService, resourcesDir, tempDir } from './helpers'
import { startSimulator } from '../../electron/simulator/server'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(web: WebServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const { port } = new URL(web.origin)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

const dataDir = tempDir()
const rendererDir = tempDir('counter-renderer-')
let counter: CounterApp
let web: WebServer
let auth: Record<string, string>

beforeAll(async () => {
  writeFileSync(`${rendererDir.path}/index.html`, '<!doctype html><title>Counter</title>')
  counter = await startCounter({ dataDir: dataDir.path, resourcesDir, platform: 'web', startTraining: () => startSimulator(), secrets: keychainSecrets(privateKeychainService()), env: {} })
  web = await startWebServer({ counter, rendererDir: rendererDir.path })
  auth = { Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/json' }
})

afterAll(async () => {
  await web.close()
  await counter.close()
  dataDir.remove()
  rendererDir.remove()
})

describe('browser bridge', () => {
  it('listens on loopback and prints an address carrying the token', () => {
    expect(web.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(web.url).toBe(`${web.origin}/?token=${encodeURIComponent(web.token)}`)
    expect(web.token.length).toBeGreaterThanOrEqual(32)
  })

  it('carries a contract call and answers with the envelope', async () => {
    const reply = await send(web, '/api/app.status', { method: 'POST', headers: auth, body: '{}' })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { mode: 'training', platform: 'web' } })
  })

  it('returns input errors in the envelope', async () => {
    const body = JSON.stringify({ kind: 'mobile', number: '123', operatorCode: 'AT', amount: '10' })
    const reply = await send(web, '/api/recharge.sell', { method: 'POST', headers: auth, body })
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { number: expect.any(String) } } })
  })

  const json = { 'Content-Type': 'application/json' }
  it.each([
    ['no token', () => json, 401],
    ['a wrong token', () => ({ ...json, Authorization: 'Bearer nope' }), 401],
    ['a foreign Origin', () => ({ ...auth, Origin: 'http://evil.example' }), 403],
    ['a foreign Host (DNS rebinding)', () => ({ ...auth, Host: 'evil.example' }), 403],
  ])('refuses a call with %s', async (_why, headers: () => Record<string, string>, status) => {
    const reply = await send(web, '/api/app.status', { method: 'POST', headers: headers(), body: '{}' })
    expect(reply.status).toBe(status)
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
  })

  it('accepts its own Origin, refuses GET on calls and non-JSON bodies', async () => {
    expect((await send(web, '/api/app.status', { method: 'POST', headers: { ...auth, Origin: web.origin }, body: '{}' })).status).toBe(200)
    expect((await send(web, '/api/app.status', { headers: auth })).status).toBe(405)
    expect((await send(web, '/api/app.status', { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' })).status).toBe(415)
    expect((await send(web, '/api/app.status', { method: 'POST', headers: auth, body: '{not json' })).status).toBe(400)
  })

  it("words its refusals in the screen's language: English, then Hindi once the shop shows Hindi", async () => {
    const refusalOf = async () => JSON.parse((await send(web, '/api/app.status', { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' })).body)
    expect(await refusalOf()).toEqual({ ok: false, error: { code: 'invalid_input', message: 'Send the input as application/json.' } })
    expect((await counter.call('settings.save', { screenLanguage: 'hi' })).ok).toBe(true)
    try {
      expect(await refusalOf()).toEqual({ ok: false, error: { code: 'invalid_input', message: 'इनपुट application/json में भेजें।' } })
    } finally {
      await counter.call('settings.save', { screenLanguage: 'en' })
    }
  })

  it('serves the page with a strict CSP and never a file outside the renderer folder', async () => {
    const page = await send(web, '/')
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    const escape = await send(web, '/%2e%2e/%2e%2e/%2e%2e/etc/passwd')
    expect(escape.body).not.toContain('root:')
  })

  it('pushes events to a token holder as a stream', async () => {
    const response = await fetch(`${web.origin}/events`, { headers: { Authorization: `Bearer ${web.token}` } })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reader = response.body!.getReader()
    const sold = await counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '10' })
    expect(sold.ok).toBe(true)
    let text = ''
    while (!text.includes('"sale.changed"')) text += new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    expect(text).toContain(sold.ok ? sold.value.orderId : 'never')
  })
})

/** A raw client: what it got back, and when the server closed the connection (ms after it opened). */
interface RawClient {
  socket: Socket
  received(): string
  closedAfter: Promise<number>
}

async function rawClient(origin: string): Promise<RawClient> {
  const socket = connect(Number(new URL(origin).port), '127.0.0.1')
  await once(socket, 'connect')
  const opened = Date.now()
  let text = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (text += chunk))
  socket.on('error', () => undefined)
  return { socket, received: () => text, closedAfter: once(socket, 'close').then(() => Date.now() - opened) }
}

describe('browser bridge: bad input and clients that would hold it', () => {
  it('answers a broken %-escape with 400 in the envelope, in a call and in a page address', async () => {
    for (const [path, method] of [['/api/%E0%A4%A', 'POST'], ['/%E0%A4%A', 'GET'], ['/assets/%ZZ.js', 'GET']]) {
      const reply = await send(web, path, { method, headers: auth, body: method === 'POST' ? '{}' : undefined })
      expect(reply.status, path).toBe(400)
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('malformed') } })
    }
    // The server is still answering.
    expect((await send(web, '/api/app.status', { method: 'POST', headers: auth, body: '{}' })).status).toBe(200)
  })

  it('holds the default limits: headers in 10 s, the whole request in 30 s, 64 connections', () => {
    expect(web.limits).toEqual({ headersMs: 10_000, requestMs: 30_000, bodyIdleMs: 10_000, keepAliveMs: 5_000, maxConnections: 64 })
  })

  const short: Partial<WebLimits> = { headersMs: 400, requestMs: 1_200, bodyIdleMs: 400 }
  async function withServer(limits: Partial<WebLimits>, use: (server: WebServer) => Promise<void>) {
    const server = await startWebServer({ counter, rendererDir: rendererDir.path, limits })
    try {
      await use(server)
    } finally {
      await server.close()
    }
  }
  const head = (server: WebServer, length: number) =>
    `POST /api/app.status HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\nAuthorization: Bearer ${server.token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

  it('cuts a client that never finishes its headers', async () => {
    await withServer(short, async (server) => {
      const client = await rawClient(server.origin)
      client.socket.write(`POST /api/app.status HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\n`)
      const after = await client.closedAfter
      expect(after).toBeGreaterThanOrEqual(350)
      expect(after).toBeLessThan(3_000) // the limit plus Node's check beat, on a busy machine
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/)
    })
  })

  it('cuts a body that stops arriving, with a 408 in the envelope', async () => {
    await withServer(short, async (server) => {
      const client = await rawClient(server.origin)
      client.socket.write(head(server, 100) + '{"a":')
      const after = await client.closedAfter
      expect(after).toBeGreaterThanOrEqual(350)
      expect(after).toBeLessThan(3_000) // the limit plus Node's check beat, on a busy machine
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/)
      expect(JSON.parse(client.received().split('\r\n\r\n')[1])).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    })
  })

  it('cuts a body that trickles in for longer than the whole request may take', async () => {
    await withServer(short, async (server) => {
      const client = await rawClient(server.origin)
      client.socket.write(head(server, 1_000))
      const trickle = setInterval(() => client.socket.write(' '), 100)
      try {
        const after = await client.closedAfter
        expect(after).toBeGreaterThanOrEqual(1_100)
        expect(after).toBeLessThan(4_000)
      } finally {
        clearInterval(trickle)
      }
    })
  })

  it('refuses token holders past the cap while the first ones still work, and takes new ones once they close', async () => {
    await withServer({ maxConnections: 3 }, async (server) => {
      const call = head(server, 2) + '{}'
      const answers = (client: RawClient, status: number) => client.received().split(`HTTP/1.1 ${status}`).length - 1
      const first = await Promise.all([rawClient(server.origin), rawClient(server.origin), rawClient(server.origin)])
      for (const client of first) client.socket.write(call)
      await expect.poll(() => first.map((client) => answers(client, 200)), { timeout: 5_000 }).toEqual([1, 1, 1])
      // A connection that has sent nothing holds no place: the next token holder is still over the cap.
      const idle = await rawClient(server.origin)
      const extra = await rawClient(server.origin)
      extra.socket.write(call)
      expect(await extra.closedAfter).toBeLessThan(1_000)
      expect(extra.received()).toMatch(/^HTTP\/1\.1 503/)
      expect(JSON.parse(extra.received().split('\r\n\r\n')[1])).toMatchObject({ ok: false, error: { message: expect.stringContaining('too many connections') } })
      first[0].socket.write(call)
      await expect.poll(() => answers(first[0], 200), { timeout: 5_000 }).toBe(2)
      first[1].socket.destroy()
      await first[1].closedAfter
      await expect.poll(async () => (await send(server, '/api/app.status', { method: 'POST', headers: { ...auth, Authorization: `Bearer ${server.token}` }, body: '{}' })).status, { timeout: 5_000 }).toBe(200)
      for (const client of [...first, idle]) client.socket.destroy()
    })
  })

  // Without a body: one left unread already closed the connection, so these are what a client could keep alive.
  it.each([
    ['a call with no token', 'POST /api/app.status', ''],
    ['a call with a wrong token', 'POST /api/app.status', 'Authorization: Bearer nope\r\n'],
    ['the event stream with no token', 'GET /events', ''],
  ])('closes a connection refused for %s, as soon as it is answered', async (_why, line, token) => {
    const client = await rawClient(web.origin)
    client.socket.write(`${line} HTTP/1.1\r\nHost: ${new URL(web.origin).host}\r\n${token}Content-Type: application/json\r\nContent-Length: 0\r\n\r\n`)
    // Well inside the kept-alive limit (5 s): the server hung up, the client did not time out.
    expect(await client.closedAfter).toBeLessThan(1_000)
    expect(client.received()).toMatch(/^HTTP\/1\.1 401/)
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i)
  })

  it('answers a token holder within 1 s while 64 kept-alive clients without the token hammer it', async () => {
    await withServer({}, async (server) => {
      const { port } = new URL(server.origin)
      let hammering = true
      const refusals = Array.from({ length: server.limits.maxConnections }, () => [] as { status: number; connection?: string }[])
      // Each client re-sends its refused request as fast as it is answered, on a kept-alive agent that reuses its
      // connection whenever the server lets it: half call with no token, half open the event stream with none.
      const clients = refusals.map(async (got, index) => {
        const [method, path] = index % 2 ? ['GET', '/events'] : ['POST', '/api/app.status']
        const agent = new Agent({ keepAlive: true, maxSockets: 1 })
        try {
          while (hammering) {
            got.push(
              await new Promise((resolve) => {
                const req = request({ host: '127.0.0.1', port, path, method, agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
                  res.resume()
                  res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }))
                })
                req.on('error', () => resolve({ status: 0 }))
                req.end()
              }),
            )
          }
        } finally {
          agent.destroy()
        }
      })
      try {
        await expect.poll(() => refusals.every((got) => got.length >= 2), { timeout: 10_000 }).toBe(true)
        for (let call = 0; call < 5; call++) {
          const started = performance.now()
          const reply = await send(server, '/api/app.status', { method: 'POST', headers: { ...auth, Authorization: `Bearer ${server.token}` }, body: '{}' })
          const tookMs = performance.now() - started
          expect({ status: reply.status, ok: JSON.parse(reply.body).ok }).toEqual({ status: 200, ok: true })
          expect(tookMs).toBeLessThan(1_000)
        }
      } finally {
        hammering = false
        await Promise.all(clients)
      }
      // Every hammering request was refused for its token, on a connection the server then closed.
      expect(new Set(refusals.flat().map(({ status, connection }) => `${status} ${connection}`))).toEqual(new Set(['401 close']))
    })
  })

  it('refuses a web token shorter than 24 characters', async () => {
    await expect(startWebServer({ counter, rendererDir: rendererDir.path, token: 'x'.repeat(23) })).rejects.toThrow('COUNTER_WEB_TOKEN is too short (23 characters)')
    const server = await startWebServer({ counter, rendererDir: rendererDir.path, token: 'x'.repeat(24) })
    await server.close()
  })
})

describe('browser bridge while the core starts', () => {
  it('serves the page at once; a call and the event stream that come before the core is ready wait for it, then are answered', async () => {
    let ready!: (core: CounterApp) => void
    const starting = new Promise<CounterApp>((resolve) => (ready = resolve))
    const early = await startWebServer({ counter: starting, rendererDir: rendererDir.path })
    try {
      const page = await send(early, '/')
      expect(page.status).toBe(200)
      expect(page.body).toContain('<title>Counter</title>')
      const headers = { Authorization: `Bearer ${early.token}`, 'Content-Type': 'application/json' }
      let answered = false
      const call = send(early, '/api/app.status', { method: 'POST', headers, body: '{}' }).then((reply) => {
        answered = true
        return reply
      })
      const events = await fetch(`${early.origin}/events`, { headers: { Authorization: `Bearer ${early.token}` } })
      expect(events.status).toBe(200)
      const reader = events.body!.getReader()
      await new Promise((resolve) => setTimeout(resolve, 300))
      // Not refused for coming early, nor answered by anything but the core.
      expect(answered).toBe(false)
      ready(counter)
      const reply = await call
      expect(reply.status).toBe(200)
      expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { mode: 'training', platform: 'web' } })
      // The stream opened early carries what the core says once ready.
      let received = ''
      const saved = send(early, '/api/settings.save', { method: 'POST', headers, body: JSON.stringify({ shopName: 'Early Stores' }) })
      while (!received.includes('status.changed')) received += new TextDecoder().decode((await reader.read()).value)
      expect(JSON.parse((await saved).body)).toMatchObject({ ok: true })
      await reader.cancel()
    } finally {
      await early.close()
    }
  })
})

describe('browser-mode launcher (electron/web/cli.ts)', () => {
  const CLI = resolve(__dirname, '../../electron/web/cli.ts')
  const FULL_DISK = resolve(__dirname, 'full-disk-at-stop.ts')
  const launch = (dataDir: string, env: Record<string, string>, preload: string[] = []) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('COUNTER_')))
    const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((file) => ['--import', file]), CLI], {
      env: { ...clean, COUNTER_DATA_DIR: dataDir, ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const exited = once(child, 'exit').then(([code]) => code as number)
    return { child, exited, stdout: () => stdout, stderr: () => stderr }
  }

  it('refuses a short COUNTER_WEB_TOKEN with one plain line, before opening anything', async () => {
    const dir = tempDir()
    try {
      const run = launch(dir.path, { COUNTER_WEB_TOKEN: 'letmein' })
      expect(await run.exited).toBe(1)
      expect(run.stderr().trim()).toBe(
        'Counter could not start: COUNTER_WEB_TOKEN is too short (7 characters): use at least 24, or leave it unset for a new random token at each launch.',
      )
      expect(run.stderr()).not.toContain('letmein')
      expect(readdirSync(dir.path)).toEqual([])
    } finally {
      dir.remove()
    }
  })

  it('answers the page before the books are open, prints its start-up timeline when asked, and stops cleanly when told to', async () => {
    const dir = tempDir()
    try {
      const run = launch(dir.path, { COUNTER_STARTUP_TIMELINE: '1' })
      await expect.poll(run.stdout, { timeout: 20_000 }).toContain('Counter is running in TRAINING')
      // The ledger thread's lines reach stderr through the main thread on their own channel: they may come a moment later.
      await expect.poll(run.stderr, { timeout: 5_000 }).toContain('ledger thread: books loaded')
      const steps = run.stderr().split('\n').filter((line) => line.startsWith('startup')).map((line) => line.match(/^startup +(\d+) ms {2}(.+)$/)!)
      const at = (step: string) => Number(steps.find((found) => found[2].startsWith(step))![1])
      expect(at('web: answering')).toBeLessThan(at('core: starting'))
      expect(at('ledger thread: books loaded')).toBeLessThanOrEqual(at('core: books open'))
      expect(at('core: books open')).toBeLessThanOrEqual(at('web: core ready'))
      // The address comes first, then the mode once the core is ready.
      expect(run.stdout().indexOf('?token=')).toBeLessThan(run.stdout().indexOf('Counter is running in TRAINING'))
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
      expect(existsSync(join(dir.path, 'training-ledger', 'counter.lock'))).toBe(false)
    } finally {
      dir.remove()
    }
  }, 60_000)

  it('a second launcher on a folder already open says so in one line and stops, its early address closed; the first sells on', async () => {
    const dir = tempDir()
    const first = launch(dir.path, {})
    try {
      await expect.poll(first.stdout, { timeout: 20_000 }).toContain('Counter is running in TRAINING')
      const second = launch(dir.path, {})
      await expect.poll(second.stdout, { timeout: 20_000 }).toContain('?token=')
      // Its bridge listened before its core found the folder taken.
      const early = new URL(second.stdout().match(/http:\/\/\S+/)![0])
      expect(await second.exited).toBe(1)
      expect(second.stderr().trim()).toBe(`Counter could not start: This ledger is already open in another Counter (process ${first.child.pid}). Close that window or browser-mode server first.`)
      expect(second.stdout()).not.toContain('Counter is running')
      await expect(fetch(`${early.origin}/`)).rejects.toThrow()
      const address = new URL(first.stdout().match(/http:\/\/\S+/)![0])
      const sale = await fetch(`${address.origin}/api/recharge.sell`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${address.searchParams.get('token')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '10' }),
      })
      expect(await sale.json()).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
    } finally {
      first.child.kill('SIGTERM')
      await first.exited
      dir.remove()
    }
  }, 60_000)

  it('stops on a full disk with one plain line, no stack trace, and no ledger.sqlite.tmp left', async () => {
    const dir = tempDir()
    try {
      const run = launch(dir.path, {}, [FULL_DISK])
      await expect.poll(run.stdout, { timeout: 20_000 }).toContain('?token=')
      const address = new URL(run.stdout().match(/http:\/\/\S+/)![0])
      const token = address.searchParams.get('token')!
      // A sale, so the ledger has something its snapshot at exit must write.
      const sale = await fetch(`${address.origin}/api/recharge.sell`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '10' }),
      })
      expect(await sale.json()).toMatchObject({ ok: true })
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(1)
      const lines = run.stderr().trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/saved copy could not be written at exit \(disk full\); every sale is in the journal/)
      const ledgerDir = join(dir.path, 'training-ledger')
      expect(readdirSync(ledgerDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
      expect(existsSync(join(ledgerDir, 'counter.lock'))).toBe(false)
    } finally {
      dir.remove()
    }
  }, 60_000)
})
