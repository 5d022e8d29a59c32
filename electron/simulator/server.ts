// The provider simulator's HTTP side: one server on 127.0.0.1 that parses requests, routes them to the partner
// modules (recharge, PAN), answers with the provider's headers, applies the fault switch and keeps its books.
import http from 'node:http'
import type { Socket } from 'node:net'
import { randomBytes, randomInt } from 'node:crypto'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'
import type { RechargeCredentials } from '../partners/recharge-api'
import { BooksFile } from './books-file'
import { apachePage, DEFAULT_SLOW_MS, FaultBoard, refusalOf, truncateText, type FaultSwitch } from './faults'
import type { OrderBook } from './order-book'
import { PanBooksSchema, PanSim, type PanControls, type PanSimOptions } from './pan-sim'
import { practiceFault } from './practice'
import { RechargeBooksSchema, RechargeSim } from './recharge-sim'
import type { SimModule, SimRequest, SimRoute } from './sim-module'

export type { FaultKind, FaultSwitch } from './faults'
export type { PanControls, PanOperation, PanSimOptions } from './pan-sim'
export type { SimRequest } from './sim-module'

export interface SimulatorOptions {
  port?: number
  /** The loopback address it listens on (127.0.0.1 unless given): a test that stops it and starts it again on one port gives its own. */
  host?: string
  recharge?: RechargeCredentials
  pan?: PanSimOptions
  /** Awaited after parsing, before processing: lets a test hold or observe a request. */
  onRequest?: (req: SimRequest) => void | Promise<void>
  /** Training's practice inputs (electron/shared/practice.ts) play their faults; one set by setFault comes first. */
  practice?: boolean
  /**
   * Where the provider keeps its books (orders, agents, the PAN wallet) from one start to the next, saved as each
   * request is processed; read back at the start, when they overrule `pan.balancePaise`. Without it every start is a new provider.
   */
  booksFile?: string
  /**
   * Keep every request in `requests` (true unless given), for a test to read. Training runs inside the counter all day
   * and no one reads its log: kept, it grew by each request's fields for as long as the counter ran.
   */
  logRequests?: boolean
}

export interface Simulator {
  url: string
  credentials: RechargeCredentials
  panApiKey: string
  pan: PanControls
  setFault(fault: FaultSwitch | null): void
  /** The provider issues new credentials (a rotated token, a new api_key): requests with the old ones are refused from now on. */
  rotateCredentials(change: { recharge?: Partial<RechargeCredentials>; panApiKey?: string }): void
  /** Every request so far, in order (none when started with logRequests: false). */
  requests: SimRequest[]
  /** What the provider has booked, read-only. */
  orderBook(): OrderBook
  /** Money the shop sent to its PAN wallet: the balance rises by it, and the books on disk with it. */
  receiveTopUp(paise: number): void
  close(): Promise<void>
}

// The spec's Limits: the provider keeps a connection 5 s idle and serves at most 100 requests on it.
const KEEP_ALIVE_MS = 5_000
const MAX_REQUESTS_PER_CONNECTION = 100
const MAX_BODY_BYTES = 1_048_576

/** The headers the provider sends on every answer (PHP's session defaults behind Apache). */
const PROVIDER_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'Cache-Control': 'no-store, no-cache, must-revalidate',
  Pragma: 'no-cache',
  Expires: 'Thu, 19 Nov 1981 08:52:00 GMT',
  'Transfer-Encoding': 'chunked',
} as const

/** The file in training's folder where the provider training practises on keeps its books. */
export const TRAINING_BOOKS_FILE = 'simulator.json'

const SavedBooksSchema = z.object({ version: z.literal(1), recharge: RechargeBooksSchema, pan: PanBooksSchema })

function trainingCredentials(): RechargeCredentials {
  return {
    userId: `FISPL${randomInt(100_000, 1_000_000)}`,
    token: randomBytes(16).toString('hex'),
    secretKey: randomBytes(32).toString('hex'),
  }
}

/** A PHP script sees every JSON value as text; nested values stay JSON text. */
function jsonFields(text: string): Record<string, string> | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed)) {
    if (value !== null) fields[name] = typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
  return fields
}

/**
 * The text fields of a multipart/form-data body, as PHP puts them in $_POST (file parts go to
 * $_FILES there, so they are left out); null when the body does not follow its boundary.
 */
function multipartFields(contentType: string, body: string): Record<string, string> | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!boundary) return null
  const sections = body.split(`--${boundary[1] ?? boundary[2]}`)
  // sections[0] is the preamble; the body ends with the close delimiter, "--boundary--".
  if (sections.length < 2 || !sections[sections.length - 1].startsWith('--')) return null
  const fields: Record<string, string> = {}
  for (const section of sections.slice(1, -1)) {
    const part = /^\r\n([\s\S]*?)\r\n\r\n([\s\S]*)\r\n$/.exec(section)
    const disposition = (part && /^content-disposition:(.*)$/im.exec(part[1])?.[1]) ?? ''
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1]
    if (!part || name === undefined) return null
    if (!/;\s*filename\*?=/i.test(disposition)) fields[name] = part[2]
  }
  return fields
}

function bodyFields(contentType: string, body: string): Record<string, string> | null {
  const type = contentType.toLowerCase()
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body))
  if (type.includes('multipart/form-data')) return multipartFields(contentType, body)
  return jsonFields(body)
}

/** Query fields, overlaid by body fields (like PHP's $_REQUEST); null when the body cannot be read. */
function requestFields(url: URL, contentType: string, body: string): Record<string, string> | null {
  const fields = Object.fromEntries(url.searchParams)
  if (body === '') return fields
  const fromBody = bodyFields(contentType, body)
  return fromBody === null ? null : { ...fields, ...fromBody }
}

/** The request body as text; null when it is larger than any real partner call. */
async function readBody(req: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= MAX_BODY_BYTES) chunks.push(chunk)
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const credentials = opts.recharge ?? trainingCredentials()
  const pan = new PanSim(opts.pan)
  const recharge = new RechargeSim(credentials)
  const booksFile = opts.booksFile === undefined ? null : new BooksFile(opts.booksFile, SavedBooksSchema)
  const saved = booksFile?.read()
  if (saved) {
    recharge.restore(saved.recharge)
    pan.restore(saved.pan)
  }
  const modules: SimModule[] = [recharge, pan]
  const routes = new Map<string, { route: SimRoute; module: SimModule }>()
  for (const module of modules) {
    for (const [path, route] of Object.entries(module.routes)) routes.set(path, { route, module })
  }
  const faults = new FaultBoard()
  const requests: SimRequest[] = []
  const connections = new WeakMap<Socket, { id: number; served: number }>()
  let connectionCount = 0
  const closing = new AbortController()

  function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: string): void {
    const connection = connections.get(req.socket)
    const last = (connection?.served ?? 0) >= MAX_REQUESTS_PER_CONNECTION || /close/i.test(req.headers.connection ?? '')
    res.writeHead(status, {
      ...PROVIDER_HEADERS,
      ...(last ? { Connection: 'close' } : { 'Keep-Alive': `timeout=${KEEP_ALIVE_MS / 1000}, max=${MAX_REQUESTS_PER_CONNECTION}`, Connection: 'Keep-Alive' }),
    })
    res.end(body)
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const connection = connections.get(req.socket)
    if (connection) connection.served += 1
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const method = req.method ?? 'GET'
    const target = routes.get(url.pathname)
    const body = await readBody(req)
    const fields = body === null ? null : requestFields(url, req.headers['content-type'] ?? '', body)
    const simRequest: SimRequest = {
      operation: target?.route.operation ?? 'unknown',
      method,
      path: url.pathname,
      fields: fields ?? {},
      connection: connection?.id ?? 0,
    }
    if (opts.logRequests ?? true) requests.push(simRequest)
    await opts.onRequest?.(simRequest)

    if (!target) return send(req, res, 404, apachePage(404))
    if (!target.route.methods.includes(method)) return send(req, res, 405, apachePage(405))
    if (body === null) return send(req, res, 413, apachePage(413))
    if (fields === null) return send(req, res, 200, JSON.stringify({ status: 'FAILED', message: 'Request body could not be read' }))

    const fault = faults.take(target.route.operation) ?? (opts.practice ? practiceFault(simRequest) : null)
    // The script never ran: nothing was processed.
    if (fault?.kind === 'http500') return send(req, res, 500, apachePage(500))
    if (fault?.kind === 'refuse') {
      const refusal = refusalOf(fault)
      return send(req, res, refusal.httpStatus, refusal.body)
    }
    const answer = JSON.stringify({ ...target.module.answer(simRequest, fault), ...(fault?.kind === 'misanswer' && fault.fields) })
    // On disk before any answer leaves, as a provider's database commits before its script replies: a restart finds
    // every order it answered about. Books that cannot be saved fail the request as a crashing script would (HTTP 500).
    saveBooks()
    // Processed, but the answer is lost: the socket stays open until the client gives up.
    if (fault?.kind === 'noAnswer') return
    if (fault?.kind === 'slow') await sleep(fault.delayMs ?? DEFAULT_SLOW_MS, undefined, { signal: closing.signal })
    send(req, res, 200, fault?.kind === 'truncatedJson' ? truncateText(answer) : answer)
  }

  function saveBooks(): void {
    booksFile?.save({ version: 1, recharge: recharge.books(), pan: pan.books() })
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (closing.signal.aborted) return
      if (res.headersSent) res.destroy()
      else send(req, res, 500, apachePage(500))
    })
  })
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.on('connection', (socket: Socket) => {
    connectionCount += 1
    connections.set(socket, { id: connectionCount, served: 0 })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as { port: number }

  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    get credentials() {
      return recharge.credentials
    },
    get panApiKey() {
      return pan.apiKey
    },
    pan,
    setFault: (fault) => faults.set(fault),
    rotateCredentials({ recharge: rechargeChange, panApiKey }) {
      if (rechargeChange) recharge.credentials = { ...recharge.credentials, ...rechargeChange }
      if (panApiKey !== undefined) pan.apiKey = panApiKey
    },
    requests,
    orderBook: () => ({ recharges: recharge.bookedOrders(), coupons: pan.bookedCoupons() }),
    receiveTopUp(paise) {
      pan.setBalance(pan.balancePaise() + paise)
      saveBooks()
    },
    close: async () => {
      closing.abort()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Held 'noAnswer' requests and idle keep-alive sockets would otherwise keep close() waiting.
      server.closeAllConnections()
      await closed
    },
  }
}

/** The provider training practises on, as the launchers start it: practice inputs on, its books kept in the training folder. */
export function startTrainingSimulator(trainingDir: string): Promise<Simulator> {
  return startSimulator({ practice: true, booksFile: join(trainingDir, TRAINING_BOOKS_FILE), logRequests: false })
}
