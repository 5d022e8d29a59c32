// Browser mode's HTTP bridge: serves the built renderer and carries the contract on 127.0.0.1.
// Calls need the per-launch token; a foreign Host (DNS rebinding) or Origin (another site) is refused.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { WEB_API_PREFIX, WEB_EVENTS_PATH, type CounterErrorBody, type CounterEvent } from '../contract'
import type { CounterApp } from '../counter/app'

export interface WebServerOptions {
  counter: Pick<CounterApp, 'dispatch' | 'onEvent'>
  rendererDir: string
  port?: number
  token?: string
}

export interface WebServer {
  origin: string
  /** The address to open: carries the token once; the page then keeps it in session storage. */
  url: string
  token: string
  close(): Promise<void>
}

const MAX_BODY_BYTES = 64 * 1024
const HEARTBEAT_MS = 15_000

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self' about: data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const securityHeaders = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: CounterErrorBody,
  ) {
    super(body.message)
  }
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token || randomBytes(24).toString('base64url')
  const expected = Buffer.from(`Bearer ${token}`)
  const streams = new Set<ServerResponse>()
  let allowedHosts: string[] = []
  let allowedOrigins: string[] = []

  const checkCaller = (req: IncomingMessage) => {
    if (!allowedHosts.includes(req.headers.host ?? '')) {
      throw new Refusal(403, { code: 'forbidden', message: 'Counter only answers on its own loopback address.' })
    }
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins.includes(origin)) {
      throw new Refusal(403, { code: 'forbidden', message: 'Requests from other sites are refused.' })
    }
  }
  const checkToken = (req: IncomingMessage) => {
    const given = Buffer.from(req.headers.authorization ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new Refusal(401, { code: 'forbidden', message: 'This page was not opened with the address Counter printed at launch.' })
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      const refusal = err instanceof Refusal ? err : new Refusal(500, { code: 'internal', message: 'Counter could not answer that request.' })
      if (!res.headersSent) sendJson(res, refusal.status, { ok: false, error: refusal.body })
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    checkCaller(req)
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path.startsWith(WEB_API_PREFIX)) {
      if (req.method !== 'POST') throw new Refusal(405, { code: 'forbidden', message: 'Use POST for Counter calls.' })
      checkToken(req)
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        throw new Refusal(415, { code: 'invalid_input', message: 'Send the input as application/json.' })
      }
      const input = await readJson(req)
      sendJson(res, 200, await options.counter.dispatch(decodeURIComponent(path.slice(WEB_API_PREFIX.length)), input))
    } else if (path === WEB_EVENTS_PATH) {
      checkToken(req)
      openEventStream(res)
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      serveStatic(path, res)
    } else {
      throw new Refusal(405, { code: 'forbidden', message: 'Not allowed.' })
    }
  }

  function openEventStream(res: ServerResponse) {
    res.writeHead(200, { ...securityHeaders, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.add(res)
    const stop = options.counter.onEvent((event: CounterEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`))
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
    res.on('close', () => {
      clearInterval(heartbeat)
      stop()
      streams.delete(res)
    })
  }

  function serveStatic(path: string, res: ServerResponse) {
    const root = normalize(options.rendererDir)
    let file = normalize(join(root, decodeURIComponent(path)))
    if (!file.startsWith(root + sep) && file !== root) throw new Refusal(404, { code: 'not_found', message: 'Not found.' })
    // The app routes in the hash, so every other path is the one page.
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html')
    if (!existsSync(file)) throw new Refusal(404, { code: 'not_found', message: 'The counter screens are not built: run `npm run build`.' })
    res.writeHead(200, { ...securityHeaders, 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  allowedOrigins = allowedHosts.map((host) => `http://${host}`)
  const origin = `http://127.0.0.1:${port}`

  return {
    origin,
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new Refusal(413, { code: 'invalid_input', message: 'The request is too large.' })
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new Refusal(400, { code: 'invalid_input', message: 'The request body is not valid JSON.' })
  }
}
