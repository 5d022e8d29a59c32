// One keep-alive HTTP client per partner base URL: sends a request and returns the answer or why there was none.
import http from 'node:http'
import https from 'node:https'
import { say, type Said } from '../shared/words'

export type HttpResult =
  | { kind: 'answer'; httpStatus: number; contentType: string; text: string; json: unknown /* undefined when the body is not JSON */ }
  /** 'not-sent': no byte of the request can have reached the provider (watchProgress decides); after 'timeout' or 'network' one may have. */
  | { kind: 'no-answer'; reason: 'timeout' | 'network' | 'not-sent'; detail: Said /* plain words (shared/words), no secrets, no request body */ }

// The provider announces "Keep-Alive: timeout=5": an idle socket is dropped on our side a second
// earlier, so we never write a request onto a socket the server is closing at that moment.
const IDLE_SOCKET_MS = 4_000
// No partner answer is anywhere near this; a bigger body is a fault, not an answer to keep in memory.
const MAX_BODY_BYTES = 1_048_576

const NETWORK_WORDS: Record<string, Said> = {
  ECONNREFUSED: say('partner.netRefused'),
  ECONNRESET: say('partner.netCut'),
  EPIPE: say('partner.netCut'),
  ENOTFOUND: say('partner.netNotFound'),
  EAI_AGAIN: say('partner.netNoLookup'),
  ENETUNREACH: say('partner.netUnreachable'),
  EHOSTUNREACH: say('partner.netNoRoute'),
  ETIMEDOUT: say('partner.netTimedOut'),
  CERT_HAS_EXPIRED: say('partner.certExpired'),
  CERT_NOT_YET_VALID: say('partner.certNotYetValid'),
  DEPTH_ZERO_SELF_SIGNED_CERT: say('partner.certUntrusted'),
  SELF_SIGNED_CERT_IN_CHAIN: say('partner.certUntrusted'),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: say('partner.certUntrusted'),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: say('partner.certUntrusted'),
  ERR_TLS_CERT_ALTNAME_INVALID: say('partner.certOtherAddress'),
  EPROTO: say('partner.tlsFailed'),
}

function networkDetail(error: unknown): Said {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return say('partner.netFailed')
  return NETWORK_WORDS[code] ?? say('partner.netFailedCode', { code })
}

/**
 * How far this request got towards the provider. Only 'sent' means a byte of it may have reached the provider;
 * a failure at any other point left nothing there to act on.
 */
type Progress = 'no socket' | 'connecting' | 'unwritten' | 'sent'

/**
 * Decision: whether any byte of a request may have reached the provider, judged by what Node shows publicly, and
 * checked on Node 20 with real sockets (tests/integration/nothing-sent.test.ts):
 * - No socket yet: nothing can have gone.
 * - A fresh socket sends nothing before it connects. Node holds the request while connecting (an ECONNREFUSED,
 *   ENOTFOUND or connect timeout comes with `bytesWritten` already counting it, so that count says nothing here);
 *   over TLS, before 'secureConnect' — a certificate refused, a handshake answered with garbage — the request lies
 *   in the TLS layer unencrypted (seen: a TLS 1.2 server that finished its side of the handshake read no byte).
 *   So a fresh socket has sent once it emits 'connect' ('secureConnect' for https), and not before. One already
 *   connected when handed over (never seen: a new socket connects on a later turn of the event loop) counts as sent.
 * - A pooled (keep-alive) socket: the request is written the moment the socket is handed to it, so what counts is
 *   whether any of it was. `bytesWritten` counts every byte handed to the socket (given to the kernel, or buffered
 *   by Node until a write finishes); unchanged since the hand-over, none of this request was. That happens when the
 *   provider closed the idle connection and the pool, which lets go of a socket only on its 'close', hands it out
 *   after the counter read the provider's FIN: the write side has ended and nothing is written. Not
 *   `bytesWritten - writableLength`: `writableLength` still counts bytes the kernel already holds while a write is
 *   under way (seen: 8 MiB in the kernel, `bytesWritten - writableLength` 0), which would call a sent request unsent.
 * Anything else — a reset, a cut, a timeout after the request was written — may have reached the provider.
 */
function watchProgress(request: http.ClientRequest, secure: boolean): () => Progress {
  let progress: () => Progress = () => 'no socket'
  request.once('socket', (socket) => {
    if (request.reusedSocket) {
      const before = socket.bytesWritten
      progress = () => (socket.bytesWritten === before ? 'unwritten' : 'sent')
    } else if (socket.connecting) {
      let connected = false
      socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true))
      progress = () => (connected ? 'sent' : 'connecting')
    } else {
      progress = () => 'sent'
    }
  })
  return () => progress()
}

function describeDuration(ms: number): Said {
  if (ms < 1000) return say('partner.milliseconds', { ms })
  return say('partner.seconds', { seconds: Math.round(ms / 100) / 10 })
}

function parseJson(text: string): unknown {
  try {
    // PHP sometimes emits a byte-order mark before the body.
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return undefined
  }
}

export class PartnerHttp {
  private readonly base: URL
  private readonly transport: typeof http | typeof https
  private readonly agent: http.Agent
  private readonly timeoutMs: number

  constructor(opts: { baseUrl: string; timeoutMs: number }) {
    this.base = new URL(opts.baseUrl)
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:') {
      throw new Error(`A partner address must start with http:// or https:// (got ${this.base.protocol})`)
    }
    this.transport = this.base.protocol === 'https:' ? https : http
    this.agent = new this.transport.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS })
    this.timeoutMs = opts.timeoutMs
  }

  postJson(path: string, body: Record<string, string>): Promise<HttpResult> {
    return this.send('POST', this.urlFor(path), 'application/json', JSON.stringify(body))
  }

  postForm(path: string, fields: Record<string, string>): Promise<HttpResult> {
    return this.send('POST', this.urlFor(path), 'application/x-www-form-urlencoded', new URLSearchParams(fields).toString())
  }

  getQuery(path: string, fields: Record<string, string>): Promise<HttpResult> {
    const url = this.urlFor(path)
    for (const [name, value] of Object.entries(fields)) url.searchParams.append(name, value)
    return this.send('GET', url, null, null)
  }

  close(): void {
    this.agent.destroy()
  }

  /** The base URL may carry a path prefix of its own: "/partner/..." is appended to it. */
  private urlFor(path: string): URL {
    const url = new URL(this.base)
    url.pathname = url.pathname.replace(/\/+$/, '') + path
    url.search = ''
    return url
  }

  private send(method: string, url: URL, contentType: string | null, payload: string | null): Promise<HttpResult> {
    return new Promise<HttpResult>((resolve) => {
      let settled = false
      const settle = (result: HttpResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(result)
      }
      const giveUp = (result: HttpResult & { kind: 'no-answer' }) => {
        settle(result)
        request.destroy()
      }

      const headers: http.OutgoingHttpHeaders = { Accept: 'application/json' }
      const bytes = payload === null ? null : Buffer.from(payload, 'utf8')
      if (bytes && contentType) {
        headers['Content-Type'] = `${contentType}; charset=UTF-8`
        headers['Content-Length'] = bytes.length
      }

      const request = this.transport.request(url, { method, headers, agent: this.agent }, (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > MAX_BODY_BYTES) giveUp({ kind: 'no-answer', reason: 'network', detail: say('partner.answerTooLarge') })
          else chunks.push(chunk)
        })
        const cut = { kind: 'no-answer', reason: 'network', detail: say('partner.answerCut') } as const
        response.on('error', () => giveUp(cut))
        response.on('close', () => {
          if (!response.complete) giveUp(cut)
        })
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          settle({
            kind: 'answer',
            httpStatus: response.statusCode ?? 0,
            contentType: response.headers['content-type'] ?? '',
            text,
            json: parseJson(text),
          })
        })
      })
      const progress = watchProgress(request, this.base.protocol === 'https:')
      const within = describeDuration(this.timeoutMs)
      // The whole request, from connecting to the last byte of the answer, shares one deadline.
      const timer = setTimeout(() => {
        const reached = progress()
        if (reached === 'sent') giveUp({ kind: 'no-answer', reason: 'timeout', detail: say('partner.noAnswerWithin', { within }) })
        else if (reached === 'unwritten') giveUp({ kind: 'no-answer', reason: 'not-sent', detail: say('partner.notSentWithin', { within }) })
        else giveUp({ kind: 'no-answer', reason: 'not-sent', detail: say('partner.noConnectionWithin', { within }) })
      }, this.timeoutMs)
      request.on('error', (error) => {
        const reached = progress()
        if (reached === 'sent') giveUp({ kind: 'no-answer', reason: 'network', detail: networkDetail(error) })
        else if (reached === 'unwritten') giveUp({ kind: 'no-answer', reason: 'not-sent', detail: say('partner.closedBeforeSent') })
        else giveUp({ kind: 'no-answer', reason: 'not-sent', detail: networkDetail(error) })
      })
      request.end(bytes ?? undefined)
    })
  }
}
