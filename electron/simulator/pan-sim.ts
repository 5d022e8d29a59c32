// The PAN agent provider as the simulator plays it: agents approved after a few checks, coupon orders against a balance, password resets.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { paiseToDecimal } from '../shared/money'
import { PAN_PATHS } from '../partners/pan-api'
import type { FaultSwitch } from './faults'
import type { BookedCoupon } from './order-book'
import { DIGITS, failed, firstBrokenRule, pattern, randomText, sameSecret, type Answer, type Fields, type Rule } from './sim-rules'
import type { SimModule, SimRequest, SimRoute } from './sim-module'

export type PanOperation = 'add_vle' | 'vle_status' | 'coupon_req' | 'coupon_status' | 'pass_reset' | 'pass_status' | 'balance'

export interface CouponRates {
  1: number
  2: number
}

export interface PanSimOptions {
  /** Default: a random training key in the spec's form, hyphen-separated hex groups. */
  apiKey?: string
  /** Default ₹5,000.00. */
  balancePaise?: number
  /** Default ₹107 (P-Coupon) and ₹72 (E-Coupon), the prices seen in the field. */
  ratesPaise?: CouponRates
  /** vle_status checks answering PENDING before APPROVED; default 2. */
  approveAfterChecks?: number
  /** pass_status checks answering PENDING before APPROVED; default 1. */
  resetApproveAfterChecks?: number
}

export interface SimAgent {
  vleId: string
  name: string
  status: 'PENDING' | 'APPROVED'
}

/** What a test (or training mode) can do to the PAN provider from outside its API. */
export interface PanControls {
  balancePaise(): number
  setBalance(paise: number): void
  /** Lowers the balance as if another terminal of the same account had spent it. */
  outsideDebit(paise: number): void
  setRates(rates: CouponRates): void
  agents(): SimAgent[]
}

const paise = z.number().int()
const checks = z.number().int().nonnegative()

const AgentSchema = z.object({ vleId: z.string(), name: z.string(), status: z.enum(['PENDING', 'APPROVED']), checksUntilApproved: checks })
type Agent = z.infer<typeof AgentSchema>

const CouponOrderSchema = z.object({
  orderId: z.string(),
  date: z.string(),
  vleId: z.string(),
  vleName: z.string(),
  type: z.union([z.literal(1), z.literal(2)]),
  qty: z.number().int().positive(),
  ratePaise: paise,
  amountPaise: paise,
  oldBalPaise: paise,
  newBalPaise: paise,
  /** An order coupon_req called PENDING: coupon_status answers PENDING this many more times, then SUCCESS. Null once delivered. */
  pendingChecksLeft: checks.nullable(),
})
type CouponOrder = z.infer<typeof CouponOrderSchema>

const ResetOrderSchema = z.object({ orderId: z.string(), vleId: z.string(), vleName: z.string(), status: z.enum(['PENDING', 'APPROVED']), checksUntilApproved: checks })
type ResetOrder = z.infer<typeof ResetOrderSchema>

/** What the PAN provider keeps from one start to the next (SimulatorOptions.booksFile): the wallet, agents and orders; not its price list. */
export const PanBooksSchema = z.object({
  balancePaise: paise,
  agents: z.array(AgentSchema),
  coupons: z.array(CouponOrderSchema),
  resets: z.array(ResetOrderSchema),
})
export type PanBooks = z.infer<typeof PanBooksSchema>

const OPERATIONS: Record<keyof typeof PAN_PATHS, PanOperation> = {
  addVle: 'add_vle',
  vleStatus: 'vle_status',
  couponRequest: 'coupon_req',
  couponStatus: 'coupon_status',
  passwordReset: 'pass_reset',
  passwordResetStatus: 'pass_status',
  balance: 'balance',
}

const VLE_FIELDS = ['vle_id', 'vle_name', 'vle_mob', 'vle_email', 'vle_shop', 'vle_loc', 'vle_state', 'vle_pin', 'vle_uid', 'vle_pan']
const ADD_VLE_RULES: Rule[] = [
  ...VLE_FIELDS.map((field): Rule => [field, (value) => value.trim() !== '', `${field} is required`]),
  ['vle_mob', pattern(/^\d{10}$/), 'Invalid mobile number'],
  ['vle_pin', pattern(/^\d{6}$/), 'Invalid pin code'],
  ['vle_uid', pattern(/^\d{12}$/), 'Invalid Aadhaar number'],
  ['vle_pan', pattern(/^[A-Z]{5}\d{4}[A-Z]$/), 'Invalid PAN number'],
]
const COUPON_RULES: Rule[] = [
  ['type', pattern(/^[12]$/), 'Invalid coupon type'],
  ['qty', pattern(/^[1-9]\d{0,5}$/), 'Invalid quantity'],
]

const SERVICE_DOWN = 'Service temporarily unavailable, try later'
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
// India keeps one offset all year (UTC+05:30), so no time-zone database is needed for the date.
const IST_OFFSET_MS = 330 * 60_000

/** Today as the provider writes it: DD-Mon-YYYY, in India. */
function providerDate(now = new Date()): string {
  const ist = new Date(now.getTime() + IST_OFFSET_MS)
  return `${String(ist.getUTCDate()).padStart(2, '0')}-${MONTHS[ist.getUTCMonth()]}-${ist.getUTCFullYear()}`
}

/** Amounts as the provider writes them: always two decimals, "107.00". */
function rupeeText(paise: number): string {
  const text = paiseToDecimal(paise)
  return text.includes('.') ? text : `${text}.00`
}

/** Like 6f1c2a9e-03b4-4d5e-9a7b-c0ffee123456. */
function trainingApiKey(): string {
  const hex = randomBytes(16).toString('hex')
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-')
}

function wholePaise(paise: number): number {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not a whole number of paise: ${paise}`)
  return paise
}

export class PanSim implements SimModule, PanControls {
  readonly routes: Record<string, SimRoute & { operation: PanOperation }>
  /** Replaced when the provider issues a new key (Simulator.rotateCredentials). */
  apiKey: string
  private balance: number
  private rates: CouponRates
  private readonly approveAfterChecks: number
  private readonly resetApproveAfterChecks: number
  private readonly vles = new Map<string, Agent>()
  private readonly coupons = new Map<string, CouponOrder>()
  private readonly resets = new Map<string, ResetOrder>()

  constructor(opts: PanSimOptions = {}) {
    // Like PHP's $_REQUEST, every script reads query and form fields alike.
    this.routes = Object.fromEntries(
      Object.entries(PAN_PATHS).map(([call, path]) => [path, { operation: OPERATIONS[call as keyof typeof PAN_PATHS], methods: ['GET', 'POST'] }]),
    )
    this.apiKey = opts.apiKey ?? trainingApiKey()
    this.balance = wholePaise(opts.balancePaise ?? 5_000_00)
    this.rates = { ...(opts.ratesPaise ?? { 1: 107_00, 2: 72_00 }) }
    this.approveAfterChecks = opts.approveAfterChecks ?? 2
    this.resetApproveAfterChecks = opts.resetApproveAfterChecks ?? 1
  }

  balancePaise(): number {
    return this.balance
  }

  setBalance(paise: number): void {
    this.balance = wholePaise(paise)
  }

  outsideDebit(paise: number): void {
    this.balance -= wholePaise(paise)
  }

  setRates(rates: CouponRates): void {
    this.rates = { 1: wholePaise(rates[1]), 2: wholePaise(rates[2]) }
  }

  agents(): SimAgent[] {
    return [...this.vles.values()].map(({ vleId, name, status }) => ({ vleId, name, status }))
  }

  /** Every coupon order made, copied: a reader cannot change the provider's books. */
  bookedCoupons(): BookedCoupon[] {
    return [...this.coupons.values()].map(({ orderId, vleId, type, qty, amountPaise }) => ({ orderId, vleId, type, qty, amountPaise }))
  }

  books(): PanBooks {
    return { balancePaise: this.balance, agents: [...this.vles.values()], coupons: [...this.coupons.values()], resets: [...this.resets.values()] }
  }

  restore(books: PanBooks): void {
    this.balance = books.balancePaise
    for (const agent of books.agents) this.vles.set(agent.vleId, agent)
    for (const order of books.coupons) this.coupons.set(order.orderId, order)
    for (const reset of books.resets) this.resets.set(reset.orderId, reset)
  }

  /**
   * 'failed' refuses any PAN call unprocessed; 'pendingThenSuccess' makes coupon_req answer PENDING (the order is
   * still made, and delivered after checksUntilFinal coupon_status checks); 'outsideDebit' lowers the balance first.
   */
  answer(req: SimRequest, fault: FaultSwitch | null): Answer {
    const { fields } = req
    if (!sameSecret(fields.api_key, this.apiKey)) return failed('Invalid API key')
    if (fault?.kind === 'failed') return failed(SERVICE_DOWN)
    if (fault?.kind === 'outsideDebit') this.outsideDebit(fault.debitPaise as number)
    switch (req.operation as PanOperation) {
      case 'add_vle':
        return this.addVle(fields)
      case 'vle_status':
        return this.vleStatus(fields)
      case 'coupon_req':
        return this.couponRequest(fields, fault?.kind === 'pendingThenSuccess' ? (fault.checksUntilFinal ?? 0) : null)
      case 'coupon_status':
        return this.couponStatus(fields)
      case 'pass_reset':
        return this.passwordReset(fields)
      case 'pass_status':
        return this.passwordResetStatus(fields)
      case 'balance':
        return { status: 'SUCCESS', balance: rupeeText(this.balance) }
    }
  }

  private addVle(fields: Fields): Answer {
    const broken = firstBrokenRule(fields, ADD_VLE_RULES)
    if (broken) return failed(broken)
    if (this.vles.has(fields.vle_id)) return failed('VLE ID already exists')
    this.vles.set(fields.vle_id, { vleId: fields.vle_id, name: fields.vle_name, status: 'PENDING', checksUntilApproved: this.approveAfterChecks })
    return { status: 'SUCCESS', message: 'VLE created successfully', vle_id: fields.vle_id, vle_status: 'PENDING' }
  }

  private vleStatus(fields: Fields): Answer {
    const agent = this.vles.get(fields.vle_id ?? '')
    if (!agent) return failed('VLE not found')
    if (agent.status === 'PENDING') {
      if (agent.checksUntilApproved > 0) agent.checksUntilApproved -= 1
      else agent.status = 'APPROVED'
    }
    return { status: 'SUCCESS', message: `VLE status is ${agent.status}`, vle_id: agent.vleId, vle_status: agent.status }
  }

  /** pendingChecks: null for an order delivered at once, else the coupon_status checks it stays PENDING before SUCCESS. */
  private couponRequest(fields: Fields, pendingChecks: number | null): Answer {
    const agent = this.vles.get(fields.vle_id ?? '')
    if (!agent) return failed('VLE not found')
    if (agent.status !== 'APPROVED') return failed('VLE not approved')
    const broken = firstBrokenRule(fields, COUPON_RULES)
    if (broken) return failed(broken)
    const type = Number(fields.type) as 1 | 2
    const qty = Number(fields.qty)
    const amountPaise = this.rates[type] * qty
    if (amountPaise > this.balance) return failed('Insufficient balance')

    const order: CouponOrder = {
      orderId: this.newId('UTI', this.coupons),
      date: providerDate(),
      vleId: agent.vleId,
      vleName: agent.name,
      type,
      qty,
      ratePaise: this.rates[type],
      amountPaise,
      oldBalPaise: this.balance,
      newBalPaise: this.balance - amountPaise,
      pendingChecksLeft: pendingChecks,
    }
    this.balance = order.newBalPaise
    this.coupons.set(order.orderId, order)
    return { ...couponAnswer(order, pendingChecks === null ? 'SUCCESS' : 'PENDING'), type: String(type) }
  }

  /**
   * As the spec shows, a delivered order answers PENDING here, with its type as a number. An order
   * coupon_req left PENDING answers PENDING until it is delivered, then SUCCESS.
   */
  private couponStatus(fields: Fields): Answer {
    const order = this.coupons.get(fields.order_id ?? '')
    if (!order) return failed('Order not found')
    if (order.pendingChecksLeft === null) return { ...couponAnswer(order, 'PENDING'), type: order.type }
    if (order.pendingChecksLeft > 0) {
      order.pendingChecksLeft -= 1
      return { ...couponAnswer(order, 'PENDING'), type: order.type }
    }
    return { ...couponAnswer(order, 'SUCCESS'), type: order.type }
  }

  private passwordReset(fields: Fields): Answer {
    const agent = this.vles.get(fields.vle_id ?? '')
    if (!agent) return failed('VLE not found')
    const reset: ResetOrder = {
      orderId: this.newId('PR', this.resets),
      vleId: agent.vleId,
      vleName: agent.name,
      status: 'PENDING',
      checksUntilApproved: this.resetApproveAfterChecks,
    }
    this.resets.set(reset.orderId, reset)
    return { status: 'PENDING', order_id: reset.orderId, vle_id: reset.vleId, message: 'Password reset request received' }
  }

  private passwordResetStatus(fields: Fields): Answer {
    const reset = this.resets.get(fields.order_id ?? '')
    if (!reset) return failed('Order not found')
    if (reset.status === 'PENDING') {
      if (reset.checksUntilApproved > 0) reset.checksUntilApproved -= 1
      else reset.status = 'APPROVED'
    }
    const message = reset.status === 'APPROVED' ? 'Password reset completed' : 'Password reset in progress'
    return { status: reset.status, order_id: reset.orderId, vle_id: reset.vleId, vle_name: reset.vleName, message }
  }

  private newId(prefix: string, taken: Map<string, unknown>): string {
    let id: string
    do id = `${prefix}${randomText(DIGITS, 10)}`
    while (taken.has(id))
    return id
  }
}

/** Every field of an order as the provider writes it, except `type`, whose form differs by call. */
function couponAnswer(order: CouponOrder, status: string): Answer {
  return {
    order_id: order.orderId,
    date: order.date,
    status,
    message: '',
    vle_id: order.vleId,
    vle_name: order.vleName,
    qty: String(order.qty),
    rate: rupeeText(order.ratePaise),
    amount: rupeeText(order.amountPaise),
    old_bal: rupeeText(order.oldBalPaise),
    new_bal: rupeeText(order.newBalPaise),
  }
}
