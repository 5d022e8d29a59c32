// The fault harness's wire: an HTTP relay on 127.0.0.1 between the core and the simulator that refuses connections
// (nothing leaves the counter), loses a request before the provider sees it, cuts the answer after the provider
// booked it, or refuses a status check itself.
import http from 'node:http'
import { PAN_PATHS } from '../../electron/partners/pan-api'
import { RECHARGE_PATHS } from '../../electron/partners/recharge-api'

export const RELAY_FAULTS = ['refuse-connection', 'drop-request', 'cut-after-booking', 'hang-after-booking', 'half-answer-after-booking', 'refuse-check-credentials', 'refuse-check-checksum'] as const
export type RelayFault = (typeof RELAY_FAULTS)[number]

/** The operation each path carries, named as the simulator names it. */
const OPERATIONS: Record<string, string> = {
  [RECHARGE_PATHS.transaction]: 'transaction',
  [RECHARGE_PATHS.checkStatus]: 'check_status',
  [RECHARGE_PATHS.fetchOperator]: 'fetch_operator',
  [PAN_PATHS.addVle]: 'add_vle',
  [PAN_PATHS.vleStatus]: 'vle_status',
  [PAN_PATHS.couponRequest]: 'coupon_req',
  [PAN_PATHS.couponStatus]: 'coupon_status',
  [PAN_PATHS.passwordReset]: 'pass_reset',
  [PAN_PATHS.passwordResetStatus]: 'pass_status',
  [PAN_PATHS.balance]: 'balance',
}

export const STATUS_CHECKS = ['check_status', 'coupon_status'] as const

/** What the provider says when the check itself is refused: about the request, never about the order. */
const REFUSALS: Record<'refuse-check-credentials' | 'refuse-check-checksum', Record<string, readonly string[]>> = {
  'refuse-check-credentials': { check_status: ['Invalid user or token'], coupon_status: ['Invalid API key'] },
  'refuse-check-checksum': { check_status: ['Checksum mismatch', 'Invalid timestamp'] },
}

export interface RelayArming {
  fault: RelayFault
  /** The operations it hits; an answer-cutting fault hits the first of them only, a refusal every one until disarmed. */
  operations: readonly string[]
  seed: number
}

export interface Relay {
  url: string
  arm(arming: RelayArming): void
  /** Resolves once the relay takes connections again (a 'refuse-connection' stops it listening). */
  disarm(): Promise<void>
  /** How many requests the armed faults hit since the relay started (a 'refuse-connection': how many steps it refused). */
  fired(): number
  close(): Promise<void>
}

export function isRefusal(fault: RelayFault): fault is keyof typeof REFUSALS {
  return fault in REFUSALS
}

export async function startRelay(providerUrl: string): Promise<Relay> {
  const provider = new URL(providerUrl)
  let armed: RelayArming | null = null
  let fired = 0

  const forward = (req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const out = http.request(
        { host: provider.hostname, port: provider.port, method: req.method, path: req.url, headers: { ...req.headers, host: provider.host } },
        (answer) => {
          const chunks: Buffer[] = []
          answer.on('data', (chunk: Buffer) => chunks.push(chunk))
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }))
          answer.on('error', reject)
        },
      )
      out.on('error', reject)
      out.end(body)
    })

  const answerWith = (res: http.ServerResponse, status: number, headers: http.IncomingHttpHeaders, body: Buffer | string) => {
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(name)))
    res.writeHead(status, kept as http.OutgoingHttpHeaders)
    res.end(body)
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk)
    const operation = OPERATIONS[new URL(req.url ?? '/', 'http://relay').pathname] ?? 'unknown'
    const fault = armed && armed.operations.includes(operation) ? armed : null
    if (fault) {
      fired += 1
      if (!isRefusal(fault.fault)) armed = null
    }
    if (fault?.fault === 'drop-request') return void req.socket.destroy()
    if (fault && isRefusal(fault.fault)) {
      const messages = REFUSALS[fault.fault][operation] ?? ['Invalid request']
      const refusal = JSON.stringify({ status: 'FAILED', message: messages[fault.seed % messages.length] })
      return answerWith(res, 200, { 'content-type': 'text/html; charset=UTF-8' }, refusal)
    }
    const answer = await forward(req, Buffer.concat(chunks))
    // From here on the provider has processed (booked) the request; only its answer is lost.
    if (fault?.fault === 'cut-after-booking') return void req.socket.destroy()
    if (fault?.fault === 'hang-after-booking') return // held until the client gives up, or the relay closes
    if (fault?.fault === 'half-answer-after-booking') return answerWith(res, answer.status, answer.headers, answer.body.subarray(0, Math.max(1, answer.body.length >> 1)))
    answerWith(res, answer.status, answer.headers, answer.body)
  }

  /** The listening server; none while connections are refused. */
  let server: http.Server | null = null
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      const listening = http.createServer((req, res) => {
        handle(req, res).catch(() => req.socket.destroy())
      })
      server = listening
      listening.listen(port, '127.0.0.1', () => resolve((listening.address() as { port: number }).port))
    })
  const stop = async () => {
    const stopping = server
    server = null
    if (!stopping) return
    const closed = new Promise<void>((resolve) => stopping.close(() => resolve()))
    // Kept-alive connections too: the counter's next request must find nothing to connect to.
    stopping.closeAllConnections()
    await closed
  }
  const port = await listen(0)
  return {
    url: `http://127.0.0.1:${port}`,
    arm(arming) {
      armed = arming
      if (arming.fault !== 'refuse-connection') return
      void stop()
      // A refused connection never reaches the relay, so it cannot be counted: it fires when armed over a step with provider operations.
      if (arming.operations.length > 0) fired += 1
    },
    async disarm() {
      armed = null
      if (!server) await listen(port)
    },
    fired: () => fired,
    close: stop,
  }
}
