// Browser mode's HTTP bridge: serves the built renderer and carries the contract on 127.0.0.1.
// Calls need the per-launch token; a foreign Host (DNS rebinding) or Origin (another site) is refused.
// A client cannot hold it: headers, bodies and idle connections have time limits, and connections a cap
// that only token holders count: a call refused for its token or caller is answered and its connection closed.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import type { CounterErrorBody, CounterEvent } from '../contract'
import { WEB_API_PREFIX, WEB_EVENTS_PATH } from '../contract/transport'
import type { CounterApp } from '../counter/app'
import { checkLaunchToken, foreignCaller, listenOnLoopback, loopbackCallers, newLaunchToken, sameSecret } from '../shared/loopback-guard'
import { english, type Said, say, speak } from '../shared/words'

/** What the bridge carries calls and events to. */
export type WebCounter = Pick<CounterApp, 'dispatch' | 'onEvent' | 'screenLanguage'>

export interface WebServerOptions {
  /**
   * The core, or its start still under way (web/cli.ts): the page is served at once, and a call or the event stream
   * that comes before the core is ready waits for it, never refused for being early.
   */
  counter: WebCounter | Promise<WebCounter>
  rendererDir: string
  port?: number
  token?: string
  /** Tests shorten these; the defaults are WEB_LIMITS. */
  limits?: Partial<WebLimits>
}

export interface WebLimits {
  /** A client must send all its request headers within this. */
  headersMs: number
  /** ...and its whole request, body included, within this. */
  requestMs: number
  /** A body that sends nothing for this long is cut (a call's body is small and comes from this computer). */
  bodyIdleMs: number
  /** A kept-alive connection with no request for this long is closed. */
  keepAliveMs: number
  /** Connections open at once that have carried a call or the event stream with the token; one more such
   *  connection is answered 503 and closed. A tab uses at most six (the browser's per-host limit), one of
   *  them the event stream, so 64 is ten tabs and scripts besides. Decision: a connection takes a place only
   *  once it shows the token. Counted as they opened, 64 kept-alive clients with no token held every place
   *  and the real screen got 503. A connection without it holds none: a call it sends is refused and the
   *  connection closed, a page file needs no token, and one that sends nothing is cut by the header limit. */
  maxConnections: number
}

export const WEB_LIMITS: WebLimits = { headersMs: 10_000, requestMs: 30_000, bodyIdleMs: 10_000, keepAliveMs: 5_000, maxConnections: 64 }

export interface WebServer {
  origin: string
  /** The address to open: carries the token once; the page then keeps it in session storage. */
  url: string
  token: string
  /** The limits as the HTTP server holds them. */
  limits: WebLimits
  close(): Promise<void>
}

const MAX_BODY_BYTES = 64 * 1024
const HEARTBEAT_MS = 15_000

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
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
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

/** Refuses a COUNTER_WEB_TOKEN too short to keep other local programs out (the message never shows the token). */
export function checkWebToken(token: string | undefined): void {
  checkLaunchToken(token, 'COUNTER_WEB_TOKEN')
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    /** Its message said, spoken in the screen language when it is sent. */
    readonly body: CounterErrorBody,
    /** Closes the connection once answered: its client is not ours (no token, a foreign caller) or has no place. */
    readonly hangUp = false,
  ) {
    super(english(body.message))
  }
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  checkWebToken(options.token)
  const token = options.token ?? newLaunchToken()
  const limits = { ...WEB_LIMITS, ...options.limits }
  const ready = Promise.resolve(options.counter)
  // A start that fails is the launcher's to report (web/cli.ts exits); the calls waiting on it are never answered.
  ready.catch(() => undefined)
  const streams = new Set<ServerResponse>()
  let allowed = loopbackCallers(-1)

  const checkCaller = (req: IncomingMessage) => {
    const foreign = foreignCaller(req, allowed)
    if (foreign === 'host') throw new Refusal(403, { code: 'forbidden', message: say('web.loopbackOnly') }, true)
    if (foreign === 'origin') throw new Refusal(403, { code: 'forbidden', message: say('web.otherSite') }, true)
  }

  /** Connections that have shown the token: the only ones counted toward the cap. */
  const admitted = new WeakSet<Socket>()
  let connections = 0
  /** Refuses a call without the token; gives its connection a place under the cap the first time it shows it. */
  const admitTokenHolder = (req: IncomingMessage) => {
    if (!sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
      throw new Refusal(401, { code: 'forbidden', message: say('web.notLaunched') }, true)
    }
    const socket = req.socket
    if (admitted.has(socket)) return
    if (connections >= limits.maxConnections) {
      throw new Refusal(503, { code: 'forbidden', message: say('web.tooManyConnections') }, true)
    }
    admitted.add(socket)
    connections++
    socket.once('close', () => connections--)
  }
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      // Node checks those limits on this beat; its default (30 s) would hold a client up to 30 s past them.
      connectionsCheckingInterval: Math.min(1_000, limits.headersMs / 4),
    },
    (req, res) => {
      void handle(req, res).catch(async (err) => {
        const refusal = err instanceof Refusal ? err : new Refusal(500, { code: 'internal', message: say('web.internal') })
        if (res.headersSent) return res.destroy()
        // The rest of an unread body would be taken for the next request: close instead. With this header Node
        // destroys the socket as soon as the answer is written, whatever the client would keep open.
        if (!req.complete || refusal.hangUp) res.setHeader('Connection', 'close')
        // Spoken in the shop's screen language, which the core knows once it is ready (a refusal before that waits for it).
        const language = await ready.then((counter) => counter.screenLanguage(), () => 'en' as const)
        sendJson(res, refusal.status, { ok: false, error: { ...refusal.body, message: speak(refusal.body.message, language) } })
      })
    },
  )
  server.keepAliveTimeout = limits.keepAliveMs

  async function handle(req: IncomingMessage, res: ServerResponse) {
    checkCaller(req)
    const path = pathOf(req)
    if (path.startsWith(WEB_API_PREFIX)) {
      if (req.method !== 'POST') throw new Refusal(405, { code: 'forbidden', message: say('web.usePost') })
      admitTokenHolder(req)
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        throw new Refusal(415, { code: 'invalid_input', message: say('web.json') })
      }
      const input = await readJson(req, limits.bodyIdleMs)
      const counter = await ready
      sendJson(res, 200, await counter.dispatch(path.slice(WEB_API_PREFIX.length), input))
    } else if (path === WEB_EVENTS_PATH) {
      admitTokenHolder(req)
      openEventStream(res)
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      serveStatic(path, res)
    } else {
      throw new Refusal(405, { code: 'forbidden', message: say('web.notAllowed') })
    }
  }

  /** Open at once; what the core says comes down it once the core is ready (a stream opened early misses nothing said after). */
  function openEventStream(res: ServerResponse) {
    res.writeHead(200, { ...securityHeaders, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.add(res)
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
    let stop = () => {}
    let closed = false
    res.on('close', () => {
      closed = true
      clearInterval(heartbeat)
      stop()
      streams.delete(res)
    })
    ready.then(
      (counter) => {
        if (!closed) stop = counter.onEvent((event: CounterEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`))
      },
      () => undefined,
    )
  }

  function serveStatic(path: string, res: ServerResponse) {
    const root = normalize(options.rendererDir)
    let file = normalize(join(root, path))
    if (!file.startsWith(root + sep) && file !== root) throw new Refusal(404, { code: 'not_found', message: say('web.notFound') })
    // The app routes in the hash, so every other path is the one page.
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html')
    if (!existsSync(file)) throw new Refusal(404, { code: 'not_found', message: say('web.notBuilt') })
    // Read whole and sent in one write (the page's files are a few hundred KB): served within one turn of the event
    // loop, so the page goes out between the steps of the core's loading at start (web/cli.ts), not after them.
    const body = readFileSync(file)
    res.writeHead(200, { ...securityHeaders, 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length })
    res.end(body)
  }

  const { allowed: callers, ...address } = await listenOnLoopback(server, options.port ?? 0, token)
  allowed = callers

  return {
    ...address,
    token,
    limits: {
      headersMs: server.headersTimeout,
      requestMs: server.requestTimeout,
      bodyIdleMs: limits.bodyIdleMs,
      keepAliveMs: server.keepAliveTimeout,
      maxConnections: limits.maxConnections,
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  res.writeHead(status, { ...securityHeaders, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

/** The request's path, %-escapes decoded; a malformed address is the client's mistake, not ours. */
function pathOf(req: IncomingMessage): string {
  try {
    return decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
  } catch {
    throw new Refusal(400, { code: 'invalid_input', message: say('web.badEscape') })
  }
}

/** The body as JSON; one that stalls for `idleMs` or grows past MAX_BODY_BYTES is refused. */
function readJson(req: IncomingMessage, idleMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(idle)
      req.removeListener('data', onData)
      outcome()
    }
    const refuse = (status: number, message: Said) => settle(() => reject(new Refusal(status, { code: 'invalid_input', message })))
    const idle = setTimeout(() => refuse(408, say('web.stoppedArriving')), idleMs)
    const onData = (chunk: Buffer) => {
      idle.refresh()
      size += chunk.length
      if (size > MAX_BODY_BYTES) return refuse(413, say('web.tooLarge'))
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.on('close', () => refuse(400, say('web.cutOff')))
    req.on('end', () =>
      settle(() => {
        const text = Buffer.concat(chunks).toString('utf8')
        if (!text) return resolve({})
        try {
          resolve(JSON.parse(text))
        } catch {
          reject(new Refusal(400, { code: 'invalid_input', message: say('web.notJson') }))
        }
      }),
    )
  })
}
