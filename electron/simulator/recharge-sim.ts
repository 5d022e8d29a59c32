// The recharge provider as the simulator plays it: checks credentials, fields and checksums, keeps every order for check_status.
import { z } from 'zod'
import { tryParseRupees } from '../shared/money'
import { RECHARGE_PATHS, statusChecksum, transactionChecksum, type RechargeCredentials } from '../partners/recharge-api'
import type { FaultSwitch } from './faults'
import type { BookedRecharge } from './order-book'
import { DIGITS, failed, firstBrokenRule, LETTERS, pattern, randomText, sameSecret, type Answer, type Fields, type Rule } from './sim-rules'
import type { SimModule, SimRequest, SimRoute } from './sim-module'

type RechargeOperation = 'transaction' | 'check_status' | 'fetch_operator'

const OrderSchema = z.object({
  orderId: z.string(),
  number: z.string(),
  amount: z.string(),
  fpayId: z.string(),
  operatorRef: z.string(),
  state: z.enum(['SUCCESS', 'FAILED', 'PENDING']),
  message: z.string(),
  pendingChecksLeft: z.number().int().nonnegative(),
  /** What a PENDING order turns into once its checks are used up. */
  settlesAs: z.enum(['SUCCESS', 'FAILED']),
})
type Order = z.infer<typeof OrderSchema>

/** What the recharge provider keeps from one start to the next (SimulatorOptions.booksFile). */
export const RechargeBooksSchema = z.object({ orders: z.array(OrderSchema) })
export type RechargeBooks = z.infer<typeof RechargeBooksSchema>

const ORDER_ID_RULE: Rule = ['order_id', pattern(/^[A-Za-z0-9_-]{1,40}$/), 'Invalid order id']
// The provider's tolerance for clock difference is not shown; the simulator checks the form only.
const TIMESTAMP_RULE: Rule = ['timestamp', pattern(/^\d{13}$/), 'Invalid timestamp']
const TRANSACTION_RULES: Rule[] = [
  ['number', pattern(/^\d{1,20}$/), 'Invalid number'],
  ['amount', (v) => /^\d+(\.\d{1,2})?$/.test(v) && (tryParseRupees(v) ?? 0) > 0, 'Invalid amount'],
  ['operator_code', pattern(/^[A-Za-z0-9_-]{1,20}$/), 'Invalid operator code'],
  ORDER_ID_RULE,
  TIMESTAMP_RULE,
]
const STATUS_RULES: Rule[] = [ORDER_ID_RULE, TIMESTAMP_RULE]
const LOOKUP_RULES: Rule[] = [['mobile', pattern(/^\d{10}$/), 'Invalid mobile number']]

// Made up for training: real operator and circle come from the provider's number-series database.
const OPERATORS = ['Airtel', 'Jio', 'Vi', 'BSNL']
const CIRCLES = [
  'Delhi NCR', 'Mumbai', 'Karnataka', 'Tamil Nadu', 'Kolkata', 'Maharashtra & Goa', 'Gujarat',
  'Kerala', 'Andhra Pradesh & Telangana', 'UP East', 'UP West', 'Rajasthan', 'Punjab', 'West Bengal',
]

const SUCCESS_MESSAGE = 'Transaction Successful'
const PENDING_MESSAGE = 'Transaction Pending'
// About the order, not the request: "try later" would read as a refusal of the request (partners/outcome.ts).
const OPERATOR_DOWN = 'Operator down: recharge failed'

/** Like RCH300874073984JLPGI. */
const newFpayId = () => `RCH${randomText(DIGITS, 12)}${randomText(LETTERS, 5)}`
/** Like BR0005MIKE46. */
const newOperatorRef = () => `${randomText(LETTERS, 2)}${randomText(DIGITS, 4)}${randomText(LETTERS, 4)}${randomText(DIGITS, 2)}`

/** The operator's final word on an order: a SUCCESS comes with the operator's reference. */
function settle(order: Order, state: Order['settlesAs']): void {
  if (state === 'SUCCESS') Object.assign(order, { state, message: SUCCESS_MESSAGE, operatorRef: newOperatorRef() })
  else Object.assign(order, { state, message: OPERATOR_DOWN })
}

export class RechargeSim implements SimModule {
  readonly routes: Record<string, SimRoute & { operation: RechargeOperation }> = {
    [RECHARGE_PATHS.transaction]: { operation: 'transaction', methods: ['POST'] },
    [RECHARGE_PATHS.checkStatus]: { operation: 'check_status', methods: ['POST'] },
    [RECHARGE_PATHS.fetchOperator]: { operation: 'fetch_operator', methods: ['POST'] },
  }
  private readonly orders = new Map<string, Order>()

  /** Replaced whole when the provider rotates them (Simulator.rotateCredentials). */
  constructor(public credentials: RechargeCredentials) {}

  /** Every order received, copied: a reader cannot change the provider's books. */
  bookedOrders(): BookedRecharge[] {
    return [...this.orders.values()].map(({ orderId, number, amount, state }) => ({ orderId, number, amount, state }))
  }

  books(): RechargeBooks {
    return { orders: [...this.orders.values()] }
  }

  restore(books: RechargeBooks): void {
    for (const order of books.orders) this.orders.set(order.orderId, order)
  }

  answer(req: SimRequest, fault: FaultSwitch | null): Answer {
    const { fields } = req
    if (!(fields.user_id === this.credentials.userId && sameSecret(fields.token, this.credentials.token))) {
      return failed('Invalid credentials')
    }
    switch (req.operation as RechargeOperation) {
      case 'transaction':
        return this.transaction(fields, fault)
      case 'check_status':
        return this.checkStatus(fields)
      case 'fetch_operator':
        return this.fetchOperator(fields)
    }
  }

  private transaction(fields: Fields, fault: FaultSwitch | null): Answer {
    const broken = firstBrokenRule(fields, TRANSACTION_RULES)
    if (broken) return failed(broken)
    const expected = transactionChecksum(this.credentials, fields.timestamp, fields.number, fields.order_id)
    if (!sameSecret(fields.checksum, expected)) return failed('Checksum mismatch')
    if (this.orders.has(fields.order_id)) return failed('Duplicate order id')

    const pending = fault?.kind === 'pendingThenSuccess' || fault?.kind === 'pendingThenFailed'
    const order: Order = {
      orderId: fields.order_id,
      number: fields.number,
      amount: fields.amount,
      fpayId: newFpayId(),
      operatorRef: '',
      state: 'PENDING',
      message: PENDING_MESSAGE,
      pendingChecksLeft: pending ? (fault.checksUntilFinal ?? 0) : 0,
      settlesAs: fault?.kind === 'failed' || fault?.kind === 'pendingThenFailed' ? 'FAILED' : 'SUCCESS',
    }
    if (!pending) settle(order, order.settlesAs)
    this.orders.set(order.orderId, order)

    if (order.state === 'FAILED') return failed(order.message)
    return { status: order.state, message: order.message, data: { fpay_id: order.fpayId, operator_id: order.operatorRef } }
  }

  private checkStatus(fields: Fields): Answer {
    const broken = firstBrokenRule(fields, STATUS_RULES)
    if (broken) return failed(broken)
    if (!sameSecret(fields.checksum, statusChecksum(this.credentials, fields.timestamp, fields.order_id))) {
      return failed('Checksum mismatch')
    }
    const order = this.orders.get(fields.order_id)
    if (!order) return failed('No such order')
    if (order.state === 'PENDING') {
      if (order.pendingChecksLeft > 0) order.pendingChecksLeft -= 1
      else settle(order, order.settlesAs)
    }
    return {
      status: order.state,
      message: order.message,
      data: { order_id: order.orderId, fpay_id: order.fpayId, operator_id: order.operatorRef, number: order.number, amount: order.amount },
    }
  }

  /** Deterministic by number series, so a training lookup always gives the same answer. */
  private fetchOperator(fields: Fields): Answer {
    const broken = firstBrokenRule(fields, LOOKUP_RULES)
    if (broken) return failed(broken)
    const operator = OPERATORS[Number(fields.mobile.slice(0, 3)) % OPERATORS.length]
    const circle = CIRCLES[Number(fields.mobile.slice(0, 4)) % CIRCLES.length]
    return { status: 'SUCCESS', message: 'Operator found', data: { operator, circle } }
  }
}
