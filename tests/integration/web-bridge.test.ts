// Browser mode's HTTP bridge over real HTTP: the token, Host and Origin gates, the envelope,
// static files without path escapes, and events pushed as a stream.
import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { startWebServer, type WebServer } from '../../electron/web/server'
import { privateKeychainService, resourcesDir, tempDir } from './helpers'

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
  counter = await startCounter({ dataDir: dataDir.path, resourcesDir, platform: 'web', secrets: keychainSecrets(privateKeychainService()), env: {} })
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
