// What each provider answer means for a sale or any other partner call: the one place that turns an HTTP result into SUCCESS, FAILED or UNKNOWN.
//
// The spec shows only SUCCESS answers. Where it is silent, this table is our decision:
//
// | What came back                                                     | Outcome                                          |
// |--------------------------------------------------------------------|--------------------------------------------------|
// | no answer, nothing sent: the connection refused, no such address,  | FAILED; a status check: UNKNOWN, nothing settled |
// |   unreachable, connect timed out, TLS handshake failed, a pooled   |                                                  |
// |   socket found closed before this request was written (http.ts)    |                                                  |
// | no answer after the request may have gone out: timeout, reset, cut | UNKNOWN                                          |
// | HTTP 5xx, whatever the body                                        | UNKNOWN                                          |
// | HTTP 2xx, body not JSON or not a JSON object                       | UNKNOWN                                          |
// | JSON status "SUCCESS" (trimmed, any case)                          | SUCCESS                                          |
// | JSON status "FAILED" or "FAILURE"                                  | FAILED, read further below                       |
// | JSON status "PENDING", any other word, or none                     | UNKNOWN                                          |
// | other non-2xx (3xx, 4xx) with a JSON FAILED body                   | FAILED, read further below                       |
// | other non-2xx without one                                          | UNKNOWN                                          |
//
// A FAILED answer can be about the order ("Operator down") or about our request ("Invalid user or
// token", "Checksum mismatch"): a refusal of the request says nothing about an order it did not reach.
// What a FAILED (or a 4xx) means then depends on the call's role:
//
// | Role, and what the FAILED says                                  | Outcome |
// |-----------------------------------------------------------------|---------|
// | status check: a request refusal (REQUEST_REFUSALS), or any 4xx  | UNKNOWN: the sale stays pending, asked again |
// | status check: anything else                                     | as settleCheck() below decides |
// | sale request: a request refusal                                 | FAILED (it did not take the order, nothing charged), with why |
// | sale request: the order id already exists (DUPLICATE_ORDER)     | UNKNOWN: an order with this id is on the provider's books |
// | sale request: anything else                                     | FAILED with the provider's message |
// | any other call (lookup, agent creation, reset, balance)         | FAILED with the provider's message |
//
// A status check's SUCCESS or FAILED settles an order only when the answer is about that order
// (settleCheck): it names the order, or carries the provider's own reference for it. Anything else
// keeps the sale pending and asked again — a FAILED in words we have never seen may be a refusal of
// the request ("Partner account inactive"), and selling again on it could charge the customer twice.
// The one answer that settles without naming the order is "no such order", and only once the
// provider has had NOT_FOUND_SETTLES_AFTER_MS to book it: right after a timeout a provider still
// working on the order may not have recorded it yet.
//
// FAILED means the provider said so, or no byte of the request ever left the counter: nothing was charged,
// and it is safe to sell again with a new order. A status check that was never sent asked nothing, so it
// settles nothing. UNKNOWN is never a failure: the sale may have gone through, so only a status check settles it.
//
// Words: a reply's message is the provider's own when it gave one; every sentence of ours is said (say(), shared/
// shared/words, the partner.* keys) with the provider's words as a param, so a Hindi screen reads ours in Hindi.
import type { Outcome } from '../contract'
import { say, type Said } from '../shared/words'
import type { HttpResult } from './http'

/** What a call is for: it decides what a refusal of the request means (the table above). */
export type CallRole = 'sale' | 'check' | 'other'

export interface ProviderReply {
  outcome: Outcome
  /** The provider's status word, verbatim, when it gave one. */
  providerStatus: string | null
  /** The provider's own message as it sent it, or our words for the answer, said (shared/words) with its words as a param. */
  message: string
  httpStatus: number | null
  body: Record<string, unknown> | null
  /** The provider refused our request itself (REQUEST_REFUSALS, or a 4xx on a check): its body says nothing about the order. */
  requestRefused: boolean
}

/** How a reply words a verdict the provider gave without a message, and an answer that settles nothing: said, for the screen's language. */
export interface Wording {
  accepted: Said
  refused: Said
  /** Follows the reason in every UNKNOWN message: what is not known and what to do about it. */
  notKnown: Said
  /** What a status check asks about, as in "this says nothing about the sale". */
  subject: Said
}

export const SALE_WORDING: Wording = {
  accepted: say('partner.sale.accepted'),
  refused: say('partner.sale.refused'),
  notKnown: say('partner.sale.notKnown'),
  subject: say('partner.subject.sale'),
}

export interface RequestRefusal {
  /** What about the request the provider objects to. */
  about: string
  /** Keys, matched against the provider's message without regard to case; the first row that matches wins. */
  keys: readonly RegExp[]
  /** What the shop can do about it, said after the refusal. */
  advice: Said
}

const CHECK_SETTINGS = say('partner.advice.credentials')
const SUPPORT = say('partner.advice.support')

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
  { about: 'signature', keys: [/checksum/i, /signature/i, /\bhash/i], advice: say('partner.advice.secretKey') },
  { about: 'clock', keys: [/timestamp/i, /\btime\b/i], advice: say('partner.advice.clock') },
  { about: 'rate limit', keys: [/rate[\s_-]?limit/i, /too many requests/i, /throttl/i], advice: say('partner.advice.rateLimit') },
  { about: 'address', keys: [/\bip\b/i, /white[\s_-]?list/i, /allow[\s_-]?list/i], advice: say('partner.advice.address') },
  {
    about: 'fields',
    keys: [/\bmissing\b/i, /\bparam/i, /\brequired\b/i, /invalid (request|input|field|format|order[\s_-]?id)/i, /could not be read/i],
    advice: SUPPORT,
  },
  { about: 'service', keys: [/maintenance/i, /try (again )?later/i, /temporar(il)?y unavailable/i, /service unavailable/i], advice: say('partner.advice.service') },
]

/** A 4xx without a message we know: still about the request (the HTTP status says so), never the order. */
const HTTP_REFUSAL: RequestRefusal = { about: 'request', keys: [], advice: SUPPORT }

/** On a status check, these FAILED messages say the provider has no record of the order. */
export const NOT_FOUND: readonly RegExp[] = [/no such order/i, /not found/i, /no (record|order|transaction)s?\b/i, /does not exist/i, /unknown order/i]

/**
 * Decision: how long after a sale was sent the provider's "no such order" settles it FAILED. A sale
 * call gives up after 30 s; a provider that queues orders may book one later than it answers, and
 * the spec says nothing of how much later. Fifteen minutes is past any queue we would call working,
 * and short enough that a customer whose sale never arrived is not kept from a second one all day
 * (until then Pending shows the sale, and the owner can settle it by phone). Measured on the
 * counter's clock, from the sale's intent: a clock put forward meanwhile shortens the wait (the
 * journal's clock check catches a clock put back, not one put forward).
 */
export const NOT_FOUND_SETTLES_AFTER_MS = 15 * 60_000

/** What a status check asked about, and what its answer said of it. */
export interface CheckedOrder {
  /** The id we asked about. */
  expected: string
  /** The order id the answer names, if it names one. */
  answeredFor: string | null
  /** The provider's own reference in the answer (a recharge's fpay_id), if any: it has the order on its books. */
  providerRef: string | null
  /** The order's status word where an answer gives one apart from its own (a recharge's data.status), if any. */
  orderState: string | null
  /** How long ago the sale was sent, on the counter's clock. */
  sentAgoMs: number
  /** What follows an answer that settles nothing (the call's Wording.notKnown). */
  notKnown: Said
  /** What messages call the order: "order", "coupon order" (partner.noun.*). */
  noun: Said
}

/** Why an answer naming someone else's order (or agent, or reset) settles nothing. */
export function answeredAboutAnother(noun: Said, answeredFor: string, expected: string, notKnown: Said): Said {
  return say('partner.answeredAboutAnother', { noun, answeredFor, expected, notKnown })
}

/** A status check's answer as it bears on the order asked about: see the table at the top of this file. */
export function settleCheck<Reply extends Pick<ProviderReply, 'outcome' | 'message' | 'providerStatus'>>(reply: Reply, order: CheckedOrder): Reply {
  if (reply.outcome === 'UNKNOWN') return reply
  const { expected, answeredFor } = order
  if (order.orderState !== null && verdictOf(order.orderState) !== reply.outcome) {
    const message = say('partner.statusDisagrees', { status: reply.providerStatus?.trim() ?? '', noun: order.noun, expected, state: order.orderState.trim(), notKnown: order.notKnown })
    return { ...reply, outcome: 'UNKNOWN', message }
  }
  if (answeredFor !== null && answeredFor !== expected) {
    return { ...reply, outcome: 'UNKNOWN', message: answeredAboutAnother(order.noun, answeredFor, expected, order.notKnown) }
  }
  if (answeredFor === expected || order.providerRef !== null) return reply
  const said = reply.message.trim() || reply.providerStatus || ''
  if (reply.outcome === 'FAILED' && NOT_FOUND.some((key) => key.test(said))) {
    const minutes = NOT_FOUND_SETTLES_AFTER_MS / 60_000
    if (order.sentAgoMs >= NOT_FOUND_SETTLES_AFTER_MS) {
      return { ...reply, message: say('partner.noRecordSettled', { noun: order.noun, expected, said, minutes }) }
    }
    return {
      ...reply,
      outcome: 'UNKNOWN',
      message: say('partner.noRecordYet', { noun: order.noun, expected, said, minutes }),
    }
  }
  return {
    ...reply,
    outcome: 'UNKNOWN',
    message: say('partner.notNamed', { status: reply.providerStatus ?? reply.outcome, noun: order.noun, expected, said }),
  }
}

/** On a sale request, these FAILED messages mean an order with our id is already on the provider's books. */
export const DUPLICATE_ORDER: readonly RegExp[] = [/duplicate/i, /already exists/i, /already (used|taken|processed|received)/i, /\bunique\b/i]

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

/** Why an answer gave no verdict, in words for the counter staff, when the provider gave none itself. */
function explainNoVerdict(httpStatus: number, body: Record<string, unknown> | null, status: string | null): Said {
  if (httpStatus >= 500) return say('partner.errorPage', { status: httpStatus })
  if (httpStatus < 200 || httpStatus >= 300) return say('partner.unexpectedAnswer', { status: httpStatus })
  if (body === null) return say('partner.answerUnreadable')
  if (status === null) return say('partner.answerNoStatus')
  return say('partner.saidStatus', { status })
}

export function classify(result: HttpResult, role: CallRole, words: Wording = SALE_WORDING): ProviderReply {
  if (result.kind === 'no-answer') {
    const unanswered = { providerStatus: null, httpStatus: null, body: null, requestRefused: false }
    if (result.reason === 'not-sent' && role === 'check') {
      return { ...unanswered, outcome: 'UNKNOWN', message: say('partner.checkNotSent', { detail: result.detail, subject: words.subject }) }
    }
    if (result.reason === 'not-sent') {
      return { ...unanswered, outcome: 'FAILED', message: say(role === 'sale' ? 'partner.nothingSentSell' : 'partner.nothingSentTry', { detail: result.detail }) }
    }
    return { ...unanswered, outcome: 'UNKNOWN', message: say('partner.notKnownAfter', { why: result.detail, notKnown: words.notKnown }) }
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
    const message = say('partner.checkRefused', { reason, subject: words.subject, advice })
    return { ...reply, outcome: 'UNKNOWN', message, requestRefused: true }
  }
  if (role === 'sale' && failed && DUPLICATE_ORDER.some((key) => key.test(providerMessage ?? ''))) {
    return { ...reply, outcome: 'UNKNOWN', message: say('partner.duplicateOrder', { reason, notKnown: words.notKnown }), requestRefused: false }
  }
  if (role === 'sale' && failed && refusal) {
    const message = say('partner.requestRefused', { refused: words.refused, reason, advice: refusal.advice })
    return { ...reply, outcome: 'FAILED', message, requestRefused: true }
  }
  if (outcome !== 'UNKNOWN') {
    return { ...reply, outcome, message: providerMessage ?? (outcome === 'SUCCESS' ? words.accepted : words.refused), requestRefused: false }
  }
  const quoted = is2xx && providerMessage?.trim()
  const message = quoted
    ? say('partner.providerNotKnown', { message: quoted, notKnown: words.notKnown })
    : say('partner.notKnownAfter', { why: explainNoVerdict(httpStatus, body, providerStatus), notKnown: words.notKnown })
  return { ...reply, outcome, message, requestRefused: false }
}
