// What each provider answer means for a sale or any other partner call: the one place that turns an HTTP result into SUCCESS, FAILED or UNKNOWN.
//
// The spec shows only SUCCESS answers. Where it is silent, this table is our decision:
//
// | What came back                                        | Outcome |
// |-------------------------------------------------------|---------|
// | no answer: timeout or network error                   | UNKNOWN |
// | HTTP 5xx, whatever the body                           | UNKNOWN |
// | HTTP 2xx, body not JSON or not a JSON object          | UNKNOWN |
// | JSON status "SUCCESS" (trimmed, any case)             | SUCCESS |
// | JSON status "FAILED" or "FAILURE"                     | FAILED, read further below |
// | JSON status "PENDING", any other word, or none        | UNKNOWN |
// | other non-2xx (3xx, 4xx) with a JSON FAILED body      | FAILED, read further below |
// | other non-2xx without one                             | UNKNOWN |
//
// A FAILED answer can be about the order ("Operator down") or about our request ("Invalid user or
// token", "Checksum mismatch"): a refusal of the request says nothing about an order it did not reach.
// What a FAILED (or a 4xx) means then depends on the call's role:
//
// | Role, and what the FAILED says                                  | Outcome |
// |-----------------------------------------------------------------|---------|
// | status check: a request refusal (REQUEST_REFUSALS), or any 4xx  | UNKNOWN: the sale stays pending, asked again |
// | status check: anything else, even a message never seen before   | FAILED: the provider speaks about the order |
// | sale request: a request refusal                                 | FAILED (it did not take the order, nothing charged), with why |
// | sale request: the order id already exists (DUPLICATE_ORDER)     | UNKNOWN: an order with this id is on the provider's books |
// | sale request: anything else                                     | FAILED with the provider's message |
// | any other call (lookup, agent creation, reset, balance)         | FAILED with the provider's message |
//
// An unseen FAILED message on a check settles the order FAILED on purpose: a provider that says
// FAILED about our order without naming the request as the problem has answered about the order,
// and keeping every such sale open for ever would stop the shop selling to that number.
//
// FAILED means the provider said so and nothing was charged: safe to sell again with a new order.
// UNKNOWN is never a failure: the sale may have gone through, so only a status check settles it.
import type { Outcome } from '../contract'
import type { HttpResult } from './http'

/** What a call is for: it decides what a refusal of the request means (the table above). */
export type CallRole = 'sale' | 'check' | 'other'

export interface ProviderReply {
  outcome: Outcome
  /** The provider's status word, verbatim, when it gave one. */
  providerStatus: string | null
  message: string
  httpStatus: number | null
  body: Record<string, unknown> | null
  /** The provider refused our request itself (REQUEST_REFUSALS, or a 4xx on a check): its body says nothing about the order. */
  requestRefused: boolean
}

/** How a reply words a verdict the provider gave without a message, and an answer that settles nothing. */
export interface Wording {
  accepted: string
  refused: string
  /** Follows the reason in every UNKNOWN message: what is not known and what to do about it. */
  notKnown: string
  /** What a status check asks about, as in "this says nothing about the sale". */
  subject: string
}

export const SALE_WORDING: Wording = {
  accepted: 'The provider accepted the sale',
  refused: 'The provider refused the sale',
  notKnown: 'It is not known whether the sale went through: check its status before selling it again.',
  subject: 'the sale',
}

export interface RequestRefusal {
  /** What about the request the provider objects to. */
  about: string
  /** Keys, matched against the provider's message without regard to case; the first row that matches wins. */
  keys: readonly RegExp[]
  /** What the shop can do about it, said after the refusal. */
  advice: string
}

const CHECK_SETTINGS = 'Check the credentials in Settings.'
const SUPPORT = 'If this keeps happening, tell whoever supports Counter.'

/**
 * Answers about the request rather than the order. Our decision, from the words providers of this
 * kind use; a message matching none of them is about the order.
 */
export const REQUEST_REFUSALS: readonly RequestRefusal[] = [
  {
    about: 'credentials',
    keys: [/auth/i, /credential/i, /token/i, /invalid user|unknown user|user not found|user[\s_-]?id/i, /api[\s_-]?key/i, /forbidden/i, /access denied/i, /not permitted/i],
    advice: CHECK_SETTINGS,
  },
  { about: 'signature', keys: [/checksum/i, /signature/i, /\bhash/i], advice: 'Check the secret key in Settings.' },
  { about: 'clock', keys: [/timestamp/i, /\btime\b/i], advice: "Check this computer's date and time." },
  { about: 'rate limit', keys: [/rate[\s_-]?limit/i, /too many requests/i, /throttl/i], advice: 'The provider limits how often it is asked: wait a little before the next try.' },
  { about: 'address', keys: [/\bip\b/i, /white[\s_-]?list/i, /allow[\s_-]?list/i], advice: "Ask the provider to allow this shop's internet address." },
  {
    about: 'fields',
    keys: [/\bmissing\b/i, /\bparam/i, /\brequired\b/i, /invalid (request|input|field|format|order[\s_-]?id)/i, /could not be read/i],
    advice: SUPPORT,
  },
  { about: 'service', keys: [/maintenance/i, /try (again )?later/i, /temporar(il)?y unavailable/i, /service unavailable/i], advice: 'The provider is busy or under maintenance: try again later.' },
]

/** A 4xx without a message we know: still about the request (the HTTP status says so), never the order. */
const HTTP_REFUSAL: RequestRefusal = { about: 'request', keys: [], advice: SUPPORT }

/** On a sale request, these FAILED messages mean an order with our id is already on the provider's books. */
export const DUPLICATE_ORDER: readonly RegExp[] = [/duplicate/i, /already exists/i, /already (used|taken|processed|received)/i]

export function requestRefusalOf(message: string): RequestRefusal | null {
  return REQUEST_REFUSALS.find((row) => row.keys.some((key) => key.test(message))) ?? null
}

function asObject(json: unknown): Record<string, unknown> | null {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null
}

function textField(body: Record<string, unknown> | null, name: string): string | null {
  const value = body?.[name]
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

function verdictOf(status: string | null): Outcome {
  switch (status?.trim().toUpperCase()) {
    case 'SUCCESS':
      return 'SUCCESS'
    case 'FAILED':
    case 'FAILURE':
      return 'FAILED'
    default:
      return 'UNKNOWN'
  }
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** Why an answer gave no verdict, in words for the counter staff, when the provider gave none itself. */
function explainNoVerdict(httpStatus: number, body: Record<string, unknown> | null, status: string | null): string {
  if (httpStatus >= 500) return `The provider answered with an error page (HTTP ${httpStatus})`
  if (httpStatus < 200 || httpStatus >= 300) return `The provider gave an unexpected answer (HTTP ${httpStatus})`
  if (body === null) return "The provider's answer could not be read"
  if (status === null) return "The provider's answer did not say how the request went"
  return `The provider said "${status}"`
}

export function classify(result: HttpResult, role: CallRole, words: Wording = SALE_WORDING): ProviderReply {
  if (result.kind === 'no-answer') {
    return { outcome: 'UNKNOWN', providerStatus: null, message: `${sentence(result.detail)} ${words.notKnown}`, httpStatus: null, body: null, requestRefused: false }
  }
  const { httpStatus } = result
  const body = asObject(result.json)
  const providerStatus = textField(body, 'status')
  const providerMessage = textField(body, 'message')
  const verdict = verdictOf(providerStatus)
  const is2xx = httpStatus >= 200 && httpStatus < 300
  const is4xx = httpStatus >= 400 && httpStatus < 500
  const trusted = body !== null && (is2xx || (httpStatus < 500 && verdict === 'FAILED'))
  const outcome: Outcome = trusted ? verdict : 'UNKNOWN'
  const reply = { providerStatus, httpStatus, body }

  const refusal = providerMessage === null ? null : requestRefusalOf(providerMessage)
  const failed = outcome === 'FAILED'
  const reason = providerMessage?.trim() || `HTTP ${httpStatus}`
  if (role === 'check' && ((failed && refusal) || is4xx)) {
    const { advice } = refusal ?? HTTP_REFUSAL
    const message = `The provider refused the status check (${reason}): this says nothing about ${words.subject}, which stays pending. ${advice}`
    return { ...reply, outcome: 'UNKNOWN', message, requestRefused: true }
  }
  if (role === 'sale' && failed && DUPLICATE_ORDER.some((key) => key.test(providerMessage ?? ''))) {
    return { ...reply, outcome: 'UNKNOWN', message: `The provider says an order with this id already exists (${reason}). ${words.notKnown}`, requestRefused: false }
  }
  if (role === 'sale' && failed && refusal) {
    const message = `${words.refused} (${reason}): it did not take the order, so nothing was charged. ${refusal.advice}`
    return { ...reply, outcome: 'FAILED', message, requestRefused: true }
  }
  if (outcome !== 'UNKNOWN') {
    return { ...reply, outcome, message: providerMessage ?? (outcome === 'SUCCESS' ? words.accepted : words.refused), requestRefused: false }
  }
  const why = (is2xx && providerMessage?.trim()) || explainNoVerdict(httpStatus, body, providerStatus)
  return { ...reply, outcome, message: `${sentence(why)} ${words.notKnown}`, requestRefused: false }
}
