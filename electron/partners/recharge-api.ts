// Signed calls to the recharge API (transaction, check_status, fetch_operator) and what their answers mean.
import { createHmac } from 'node:crypto'
import type { Outcome } from '../contract'
import { say, type Said } from '../shared/words'
import { paiseToDecimal } from '../shared/money'
import { PartnerHttp, type HttpResult } from './http'
import { classify, SALE_WORDING, settleCheck, type CallRole, type ProviderReply } from './outcome'
import { SecretFilter } from './secret-filter'

export interface RechargeCredentials {
  userId: string
  token: string
  secretKey: string /* hex */
}

export const RECHARGE_PATHS = {
  transaction: '/partner/api/recharge/transaction',
  checkStatus: '/partner/api/recharge/check_status',
  fetchOperator: '/partner/api/plans/fetch_operator',
} as const

/** base64(HMAC-SHA512(key = the hex-decoded secret, the fields joined with "|")), as the spec gives it. */
export function signChecksum(secretKeyHex: string, fields: string[]): string {
  return createHmac('sha512', Buffer.from(secretKeyHex, 'hex')).update(fields.join('|'), 'utf8').digest('base64')
}

export function transactionChecksum(c: RechargeCredentials, timestamp: string, number: string, orderId: string): string {
  return signChecksum(c.secretKey, [c.userId, timestamp, number, orderId])
}

/**
 * The spec does not show check_status's checksum input. Our decision, kept here and nowhere else:
 * user_id|timestamp|order_id — the provider's other calls sign user_id|timestamp|<the call's fields>
 * (see field-notes.md). If the provider rejects it, this is the one line to change.
 */
export function statusChecksum(c: RechargeCredentials, timestamp: string, orderId: string): string {
  return signChecksum(c.secretKey, [c.userId, timestamp, orderId])
}

export interface RechargeReply extends ProviderReply {
  fpayId: string | null
  operatorRef: string | null
}

export interface OperatorReply {
  outcome: Outcome
  message: string
  operator: string | null
  circle: string | null
  /** null when no answer came (FAILED when nothing was sent, UNKNOWN otherwise). */
  httpStatus: number | null
}

/**
 * Whether the provider itself answered a lookup with a verdict: a lookup never sent is FAILED without an answer,
 * and one answered with no verdict (a 5xx, a cut body) is UNKNOWN. Only such a verdict is the provider's to quote.
 */
export const lookupAnswered = (reply: Pick<OperatorReply, 'outcome' | 'httpStatus'>): boolean => reply.outcome !== 'UNKNOWN' && reply.httpStatus !== null

/**
 * A lookup with no verdict, in words for the screen. Nothing answering (refused, no route, timed out) is the provider
 * out of reach, never "operator not found": the number was not looked up at all. Either way the staff choose the operator.
 */
export const unansweredLookup = (reply: Pick<OperatorReply, 'httpStatus'>): Said => (reply.httpStatus === null ? say('recharge.lookupUnreachable') : say('recharge.lookupNoAnswer'))

/** A field's text: a string, or a whole number a provider sent bare (one past 2^53 has lost digits, so none). */
function textOf(record: unknown, name: string): string | null {
  if (typeof record !== 'object' || record === null) return null
  const value = (record as Record<string, unknown>)[name]
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

const dataField = (body: Record<string, unknown> | null, name: string) => textOf(body?.data, name)

export class RechargeApi {
  private readonly http: PartnerHttp
  private readonly credentials: RechargeCredentials
  private readonly now: () => number
  private readonly secrets: SecretFilter

  constructor(opts: { baseUrl: string; credentials: RechargeCredentials; timeoutMs?: number; now?: () => number }) {
    this.http = new PartnerHttp({ baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs ?? 30_000 })
    this.credentials = opts.credentials
    this.now = opts.now ?? Date.now
    this.secrets = new SecretFilter({ texts: [opts.credentials.token], hexKeys: [opts.credentials.secretKey] })
  }

  async transaction(req: { number: string; amountPaise: number; operatorCode: string; orderId: string }): Promise<RechargeReply> {
    const { userId, token } = this.credentials
    const timestamp = String(this.now())
    const result = await this.http.postJson(RECHARGE_PATHS.transaction, {
      user_id: userId,
      token,
      number: req.number,
      amount: paiseToDecimal(req.amountPaise),
      operator_code: req.operatorCode,
      order_id: req.orderId,
      timestamp,
      checksum: transactionChecksum(this.credentials, timestamp, req.number, req.orderId),
    })
    return this.rechargeReply(this.reply(result, 'sale'))
  }

  /**
   * The spec does not show check_status's answer. We expect
   * {status: SUCCESS | FAILED | PENDING, message, data: {order_id, fpay_id, operator_id, number, amount}}
   * and read it with the same rules as a transaction's answer; a verdict settles the order only as
   * settleCheck() allows (it names the order, or carries its fpay_id). `sentAgoMs`: how long ago the
   * sale was sent, which decides what "no such order" means.
   */
  async checkStatus(orderId: string, sentAgoMs: number): Promise<RechargeReply> {
    const { userId, token } = this.credentials
    const timestamp = String(this.now())
    const result = await this.http.postJson(RECHARGE_PATHS.checkStatus, {
      user_id: userId,
      token,
      order_id: orderId,
      timestamp,
      checksum: statusChecksum(this.credentials, timestamp, orderId),
    })
    const reply = this.rechargeReply(this.reply(result, 'check'))
    // Where a provider names the order: beside fpay_id in data, or at the top as the PAN answers do.
    const answeredFor = dataField(reply.body, 'order_id') ?? textOf(reply.body, 'order_id')
    const orderState = dataField(reply.body, 'status')
    return settleCheck(reply, { expected: orderId, answeredFor, providerRef: reply.fpayId, orderState, sentAgoMs, notKnown: SALE_WORDING.notKnown, noun: say('partner.noun.order') })
  }

  async fetchOperator(mobile: string): Promise<OperatorReply> {
    const { userId, token } = this.credentials
    const reply = this.reply(await this.http.postJson(RECHARGE_PATHS.fetchOperator, { user_id: userId, token, mobile }), 'other')
    return {
      outcome: reply.outcome,
      // classify() words an UNKNOWN, or no answer at all, for a partner call; a lookup sells nothing, and journals
      // nothing, so its words are said (shared/words) for the screen's language. A FAILED lookup's
      // message is otherwise the provider's own.
      message: lookupAnswered(reply) ? reply.message : unansweredLookup(reply),
      operator: dataField(reply.body, 'operator'),
      circle: dataField(reply.body, 'circle'),
      httpStatus: reply.httpStatus,
    }
  }

  close(): void {
    this.http.close()
  }

  /** classify(), with any echo of our token or secret key blanked out of everything we hand back. */
  private reply(result: HttpResult, role: CallRole): ProviderReply {
    return this.secrets.reply(classify(result, role))
  }

  private rechargeReply(reply: ProviderReply): RechargeReply {
    return { ...reply, fpayId: dataField(reply.body, 'fpay_id'), operatorRef: dataField(reply.body, 'operator_id') }
  }
}
