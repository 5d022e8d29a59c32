// The PAN agent API's seven calls (agents, coupons, password resets, balance): form fields with api_key, and what each answer says.
import { say, type Said } from '../shared/words'
import { parseProviderRupees } from '../shared/money'
import { PartnerHttp, type HttpResult } from './http'
import { answeredAboutAnother, classify, settleCheck, type CallRole, type ProviderReply, type Wording } from './outcome'
import { SecretFilter } from './secret-filter'

export interface PanApiOptions {
  baseUrl: string
  apiKey: string
  /** POST form fields as the spec shows (default); GET query strings as field deployments use. */
  method?: 'POST' | 'GET'
  timeoutMs?: number
}

/**
 * classify()'s reading of the answer, secrets blanked. The provider did answer, whatever its status
 * word, when httpStatus is 2xx and providerStatus is not null; both null means no answer at all.
 */
export type PanReply = Omit<ProviderReply, 'body'>

export interface VleReply extends PanReply {
  vleId: string | null
  /** Upper-cased: PENDING, APPROVED, or whatever else the provider says. */
  vleStatus: string | null
}

export interface CouponReply extends PanReply {
  orderId: string | null
  /** DD-Mon-YYYY as the provider wrote it. */
  date: string | null
  vleId: string | null
  vleName: string | null
  type: 1 | 2 | null
  qty: number | null
  ratePaise: number | null
  amountPaise: number | null
  oldBalPaise: number | null
  newBalPaise: number | null
  /** Fields present but unreadable, e.g. ['old_bal'] (a blank string counts as absent). */
  unreadable: string[]
}

export interface ResetReply extends PanReply {
  orderId: string | null
  vleId: string | null
  vleName: string | null
  /** The reset order's own status word, upper-cased (PENDING, APPROVED; FAILED when refused); null without a readable answer. */
  resetStatus: string | null
}

export interface BalanceReply extends PanReply {
  balancePaise: number | null
}

export interface VleFields {
  vle_id: string
  vle_name: string
  vle_mob: string
  vle_email: string
  vle_shop: string
  vle_loc: string
  vle_state: string
  vle_pin: string
  vle_uid: string
  vle_pan: string
}

export const PAN_PATHS = {
  addVle: '/api/add_vle.php',
  vleStatus: '/api/vle_status.php',
  couponRequest: '/api/coupon_req.php',
  couponStatus: '/api/coupon_status.php',
  passwordReset: '/api/pass_reset.php',
  passwordResetStatus: '/api/pass_status.php',
  balance: '/api/balance.php',
} as const

type PanCall = keyof typeof PAN_PATHS

const WORDING: Record<PanCall, Wording> = {
  addVle: {
    accepted: say('partner.addVle.accepted'),
    refused: say('partner.addVle.refused'),
    notKnown: say('partner.addVle.notKnown'),
    subject: say('partner.subject.agent'),
  },
  vleStatus: {
    accepted: say('partner.vleStatus.accepted'),
    refused: say('partner.vleStatus.refused'),
    notKnown: say('partner.vleStatus.notKnown'),
    subject: say('partner.subject.approval'),
  },
  couponRequest: {
    accepted: say('partner.couponRequest.accepted'),
    refused: say('partner.couponRequest.refused'),
    notKnown: say('partner.couponRequest.notKnown'),
    subject: say('partner.subject.couponOrder'),
  },
  couponStatus: {
    accepted: say('partner.couponStatus.accepted'),
    refused: say('partner.couponStatus.refused'),
    notKnown: say('partner.couponStatus.notKnown'),
    subject: say('partner.subject.couponOrder'),
  },
  passwordReset: {
    accepted: say('partner.passwordReset.accepted'),
    refused: say('partner.passwordReset.refused'),
    notKnown: say('partner.passwordReset.notKnown'),
    subject: say('partner.subject.reset'),
  },
  passwordResetStatus: {
    accepted: say('partner.passwordResetStatus.accepted'),
    refused: say('partner.passwordResetStatus.refused'),
    notKnown: say('partner.passwordResetStatus.notKnown'),
    subject: say('partner.subject.reset'),
  },
  balance: {
    accepted: say('partner.balance.accepted'),
    refused: say('partner.balance.refused'),
    notKnown: say('partner.balance.notKnown'),
    subject: say('partner.subject.balance'),
  },
}

/** Which calls ask about something already made (a refusal of such a check settles nothing), and which make a sale. */
const ROLES: Record<PanCall, CallRole> = {
  addVle: 'other',
  vleStatus: 'check',
  couponRequest: 'sale',
  couponStatus: 'check',
  passwordReset: 'other',
  passwordResetStatus: 'check',
  balance: 'other',
}

/**
 * On these calls `status` is the order's own state (coupon_status answers PENDING for an order its
 * coupon_req called SUCCESS; resets go PENDING then APPROVED): a readable answer with such a word
 * is news about the order, so its message is the provider's, not "not known". The outcome stays
 * classify()'s UNKNOWN; the core reads the state from providerStatus or resetStatus.
 */
const STATUS_IS_ORDER_STATE: ReadonlySet<PanCall> = new Set(['couponStatus', 'passwordReset', 'passwordResetStatus'])

const PROVIDER_DATE = /^\d{2}-[A-Z][a-z]{2}-\d{4}$/

/**
 * The fields of one answer, read leniently: absent (or blank) is null; present but unreadable is
 * null too and its name goes to `unreadable`. Never throws: odd answers are for the core to judge.
 */
class AnswerFields {
  readonly unreadable: string[] = []

  /** body: null unless a 2xx JSON answer came (an error page's JSON says nothing about the order). */
  constructor(private readonly body: Record<string, unknown> | null) {}

  text(name: string): string | null {
    return this.read(name, (value) => {
      if (typeof value === 'string') return value.trim()
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : null
    })
  }

  /** A status word: case carries no meaning, so it is upper-cased for comparison. */
  word(name: string): string | null {
    return this.text(name)?.toUpperCase() ?? null
  }

  /**
   * Rupees to paise, from the decimal string the spec sends. Decision: a JSON number is unreadable,
   * even a whole one. It reaches us already a float — JSON.parse has rounded "2.9999999999999999"
   * to 3 before any code of ours sees it — so no number can be taken as exactly what was written.
   */
  paise(name: string): number | null {
    return this.read(name, (value) => {
      if (typeof value !== 'string') return null
      try {
        return parseProviderRupees(value)
      } catch {
        return null
      }
    })
  }

  /** A count: "3" or 3. */
  count(name: string): number | null {
    return this.read(name, (value) => {
      const count = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value
      return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : null
    })
  }

  /** coupon_req gives the type as "1"/"2", coupon_status as 1/2. */
  couponType(name: string): 1 | 2 | null {
    return this.read(name, (value) => {
      const type = typeof value === 'string' ? value.trim() : String(value)
      return type === '1' ? 1 : type === '2' ? 2 : null
    })
  }

  date(name: string): string | null {
    return this.read(name, (value) => (typeof value === 'string' && PROVIDER_DATE.test(value.trim()) ? value.trim() : null))
  }

  private read<T>(name: string, parse: (value: unknown) => T | null): T | null {
    const value = this.body?.[name]
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null
    const parsed = parse(value)
    if (parsed === null && !this.unreadable.includes(name)) this.unreadable.push(name)
    return parsed
  }
}

/** A status check whose answer names another agent or order must not settle this one. */
interface Subject {
  field: string
  expected: string
  noun: Said
}

function couponDetails(answer: AnswerFields) {
  return {
    orderId: answer.text('order_id'),
    date: answer.date('date'),
    vleId: answer.text('vle_id'),
    vleName: answer.text('vle_name'),
    type: answer.couponType('type'),
    qty: answer.count('qty'),
    ratePaise: answer.paise('rate'),
    amountPaise: answer.paise('amount'),
    oldBalPaise: answer.paise('old_bal'),
    newBalPaise: answer.paise('new_bal'),
    unreadable: answer.unreadable,
  }
}

function vleDetails(answer: AnswerFields) {
  return { vleId: answer.text('vle_id'), vleStatus: answer.word('vle_status') }
}

function resetDetails(answer: AnswerFields) {
  return { orderId: answer.text('order_id'), vleId: answer.text('vle_id'), vleName: answer.text('vle_name'), resetStatus: answer.word('status') }
}

export class PanApi {
  private readonly http: PartnerHttp
  private readonly apiKey: string
  private readonly method: 'POST' | 'GET'
  private readonly secrets: SecretFilter

  constructor(opts: PanApiOptions) {
    this.http = new PartnerHttp({ baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs ?? 30_000 })
    this.apiKey = opts.apiKey
    this.method = opts.method ?? 'POST'
    this.secrets = new SecretFilter({ texts: [opts.apiKey] })
  }

  addVle(fields: VleFields): Promise<VleReply> {
    return this.call('addVle', { ...fields }, vleDetails)
  }

  vleStatus(vleId: string): Promise<VleReply> {
    return this.call('vleStatus', { vle_id: vleId }, vleDetails, { field: 'vle_id', expected: vleId, noun: say('partner.noun.agent') })
  }

  couponRequest(req: { vleId: string; type: 1 | 2; qty: number }): Promise<CouponReply> {
    return this.call('couponRequest', { vle_id: req.vleId, type: String(req.type), qty: String(req.qty) }, couponDetails)
  }

  /** `sentAgoMs`: how long ago the coupon request was sent; settleCheck() decides what the answer settles. */
  async couponStatus(orderId: string, sentAgoMs: number): Promise<CouponReply> {
    const reply = await this.call('couponStatus', { order_id: orderId }, couponDetails, { field: 'order_id', expected: orderId, noun: say('partner.noun.order') })
    const order = { expected: orderId, answeredFor: reply.orderId, providerRef: null, orderState: null, sentAgoMs, notKnown: WORDING.couponStatus.notKnown, noun: say('partner.noun.couponOrder') }
    return settleCheck(reply, order)
  }

  passwordReset(vleId: string): Promise<ResetReply> {
    return this.call('passwordReset', { vle_id: vleId }, resetDetails)
  }

  passwordResetStatus(orderId: string): Promise<ResetReply> {
    return this.call('passwordResetStatus', { order_id: orderId }, resetDetails, { field: 'order_id', expected: orderId, noun: say('partner.noun.reset') })
  }

  balance(): Promise<BalanceReply> {
    return this.call('balance', {}, (answer) => ({ balancePaise: answer.paise('balance') }))
  }

  close(): void {
    this.http.close()
  }

  private async call<Details extends object>(
    call: PanCall,
    fields: Record<string, string>,
    details: (answer: AnswerFields) => Details,
    subject?: Subject,
  ): Promise<PanReply & Details> {
    const { body, ...reply } = this.secrets.reply(classify(await this.send(call, fields), ROLES[call], WORDING[call]))
    // A refused request's body is about the request: its "status" FAILED is no reset's or order's state.
    const answered = !reply.requestRefused && body !== null && reply.httpStatus !== null && reply.httpStatus >= 200 && reply.httpStatus < 300
    const answer = new AnswerFields(answered ? body : null)
    const answeredFor = subject ? answer.text(subject.field) : null
    if (subject && answeredFor !== null && answeredFor !== subject.expected) {
      const message = answeredAboutAnother(subject.noun, answeredFor, subject.expected, WORDING[call].notKnown)
      return { ...reply, outcome: 'UNKNOWN', message, ...details(new AnswerFields(null)) }
    }
    const orderNews = answered && reply.outcome === 'UNKNOWN' && reply.providerStatus !== null && STATUS_IS_ORDER_STATE.has(call)
    const message = orderNews ? (answer.text('message') ?? say('partner.givesStatus', { status: reply.providerStatus?.trim() ?? '' })) : reply.message
    return { ...reply, message, ...details(answer) }
  }

  private send(call: PanCall, fields: Record<string, string>): Promise<HttpResult> {
    const withKey = { api_key: this.apiKey, ...fields }
    return this.method === 'GET' ? this.http.getQuery(PAN_PATHS[call], withKey) : this.http.postForm(PAN_PATHS[call], withKey)
  }
}
