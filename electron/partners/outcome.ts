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
// | JSON status "FAILED" or "FAILURE"                     | FAILED  |
// | JSON status "PENDING", any other word, or none        | UNKNOWN |
// | other non-2xx (3xx, 4xx) with a JSON FAILED body      | FAILED  |
// | other non-2xx without one                             | UNKNOWN |
//
// FAILED means the provider said so and nothing was charged: safe to sell again with a new order.
// UNKNOWN is never a failure: the sale may have gone through, so only a status check settles it.
import type { Outcome } from '../contract'
import type { HttpResult } from './http'

export interface ProviderReply {
  outcome: Outcome
  /** The provider's status word, verbatim, when it gave one. */
  providerStatus: string | null
  message: string
  httpStatus: number | null
  body: Record<string, unknown> | null
}

/** How a reply words a verdict the provider gave without a message, and an answer that settles nothing. */
export interface Wording {
  accepted: string
  refused: string
  /** Follows the reason in every UNKNOWN message: what is not known and what to do about it. */
  notKnown: string
}

export const SALE_WORDING: Wording = {
  accepted: 'The provider accepted the sale',
  refused: 'The provider refused the sale',
  notKnown: 'It is not known whether the sale went through: check its status before selling it again.',
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

export function classify(result: HttpResult, words: Wording = SALE_WORDING): ProviderReply {
  if (result.kind === 'no-answer') {
    return { outcome: 'UNKNOWN', providerStatus: null, message: `${sentence(result.detail)} ${words.notKnown}`, httpStatus: null, body: null }
  }
  const { httpStatus } = result
  const body = asObject(result.json)
  const providerStatus = textField(body, 'status')
  const providerMessage = textField(body, 'message')
  const verdict = verdictOf(providerStatus)
  const is2xx = httpStatus >= 200 && httpStatus < 300
  const trusted = body !== null && (is2xx || (httpStatus < 500 && verdict === 'FAILED'))
  const outcome: Outcome = trusted ? verdict : 'UNKNOWN'

  if (outcome !== 'UNKNOWN') {
    return { outcome, providerStatus, message: providerMessage ?? (outcome === 'SUCCESS' ? words.accepted : words.refused), httpStatus, body }
  }
  const reason = (is2xx && providerMessage?.trim()) || explainNoVerdict(httpStatus, body, providerStatus)
  return { outcome, providerStatus, message: `${sentence(reason)} ${words.notKnown}`, httpStatus, body }
}
