// Five financial years of one busy shop as the journal events the counter writes, day by day: recharges, coupon orders, balance reads, top-ups, resets and day closes.
import type { Circle, DaySummary, Operator, SaleState } from '../../electron/contract'
import type { LedgerEventData, LedgerEventType } from '../../electron/ledger/events'

export interface Draft<T extends LedgerEventType = LedgerEventType> {
  at: string
  type: T
  data: LedgerEventData[T]
}
export type AnyDraft = { [T in LedgerEventType]: Draft<T> }[LedgerEventType]

export interface ShopDay {
  businessDay: string
  /** Everything journaled for the day, morning catch-up first, in journal order; the close is kept apart. */
  events: AnyDraft[]
  close: Draft<'day.closed'>
  sales: number
  salesSoFar: number
}

export const FIRST_DAY = '2020-04-01'
/** The last day of the fifth financial year: the history ends before it. */
const LAST_DAY = '2025-03-31'
/** Every size's last day has exactly this many sales: the day whose close is measured. */
export const MEASURED_DAY_SALES = 500
/** The shop's trade: about 200k sales a year. */
const FIVE_YEARS_SALES = 1_000_000

const IST_OFFSET_MS = 330 * 60_000
const OPEN_IST_MINUTES = 9 * 60
const TRADING_MS = 12 * 3600_000
const HOLIDAYS = ['01-26', '08-15', '10-02']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MOBILE_PLANS_RUPEES = [19, 29, 49, 99, 155, 179, 199, 209, 239, 249, 265, 299, 349, 399, 479, 499, 599, 666, 719, 839, 999, 1799, 2999]
const MOBILE_PLAN_WEIGHTS = [3, 2, 3, 3, 6, 5, 12, 5, 10, 6, 4, 12, 6, 4, 3, 3, 2, 3, 3, 2, 1, 1, 1]
const DTH_RUPEES = [150, 200, 250, 300, 350, 400, 500, 600, 1000]
const OPERATOR_WEIGHTS: Record<string, number> = { RJP: 40, AT: 33, VI: 18, BSNL: 6, BSNLSTV: 2, MTNL: 1, TTV: 35, ATV: 30, DTV: 20, STV: 10 }
/** Numbers the shop has seen; the first REGULARS come back every few weeks, the rest now and then. */
const CUSTOMERS = 40_000
const REGULARS = 8_000
const REGULAR_SHARE = 0.7
const COUPON_RATE_PAISE = { 1: 107_00, 2: 72_00 } as const
const LOW_BALANCE_PAISE = 3_000_00
const OPENING_FLOAT_PAISE = 2_000_00
const NOTES_PAISE = [['n500', 500_00], ['n200', 200_00], ['n100', 100_00], ['n50', 50_00], ['n20', 20_00], ['n10', 10_00]] as const

/** mulberry32: the same history on every run and machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
const isBusinessDay = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() !== 0 && !HOLIDAYS.includes(day.slice(5))

export function businessDaysBetween(from: string, to: string): string[] {
  const days: string[] = []
  for (let day = from; day <= to; day = addDays(day, 1)) if (isBusinessDay(day)) days.push(day)
  return days
}

interface Customer {
  number: string
  operator: Operator
  circle: string
}

interface Agent {
  vleId: string
  name: string
  approved: boolean
}

interface Unresolved {
  orderId: string
  /** Sales made since: the pending queue's check comes a few minutes later. */
  age: number
  settlesAs: 'SUCCESS' | 'FAILED'
}

interface Tally {
  recharges: Map<string, DaySummary['recharges'][number]>
  coupons: Map<string, DaySummary['coupons'][number]>
  cashPaise: number
  upiPaise: number
  topups: DaySummary['topups']
}

/**
 * The shop's days in order. Each size in `checkpoints` ends a day whose sales are exactly
 * MEASURED_DAY_SALES, the day before's being shortened to fit; other days carry about 200k sales a year.
 */
export class ShopHistory {
  private readonly random = seeded(20200401)
  private readonly customers: Customer[]
  private readonly circles: string[]
  private readonly agents: Agent[] = []
  private unresolved: Unresolved[] = []
  private seq = 0
  private balancePaise = 25_000_00
  private salesSoFar = 0
  private readonly meanSalesPerDay: number

  constructor(
    operators: Operator[],
    circles: Circle[],
    private readonly checkpoints: number[],
  ) {
    this.circles = circles.map((circle) => circle.code)
    // A week short of the fifth year's end, so a million sales stay inside five financial years.
    this.meanSalesPerDay = FIVE_YEARS_SALES / (businessDaysBetween(FIRST_DAY, LAST_DAY).length - 6)
    const mobile = operators.filter((o) => o.kind === 'mobile')
    const dth = operators.filter((o) => o.kind === 'dth')
    const weighted = (list: Operator[]) => this.weightedPick(list, list.map((o) => OPERATOR_WEIGHTS[o.code] ?? 1))
    this.customers = Array.from({ length: CUSTOMERS }, (_, i) => {
      const isDth = this.random() < 0.12
      const operator = isDth ? weighted(dth) : weighted(mobile)
      const number = isDth ? `${1 + Math.floor(this.random() * 3)}${this.digits(9)}` : `${6 + Math.floor(this.random() * 4)}${this.digits(9)}`
      return { number, operator, circle: this.random() < 0.85 ? 'DL' : this.circles[i % this.circles.length] }
    })
  }

  /** Mobile numbers of regulars: each has sales in every year of the history, a few dozen in all. */
  regularNumbers(count: number): string[] {
    return this.customers.slice(0, REGULARS).filter((customer) => customer.operator.kind === 'mobile').slice(0, count).map((customer) => customer.number)
  }

  *days(): Generator<ShopDay> {
    let checkpoint = 0
    for (let day = FIRST_DAY; checkpoint < this.checkpoints.length; day = addDays(day, 1)) {
      if (!isBusinessDay(day)) continue
      if (day > LAST_DAY) throw new Error(`The history ran past ${LAST_DAY}: lower the daily mean.`)
      const remaining = this.checkpoints[checkpoint] - this.salesSoFar
      const natural = this.naturalSales(day)
      const sales = remaining === MEASURED_DAY_SALES ? remaining : remaining < natural + 800 ? remaining - MEASURED_DAY_SALES : natural
      yield this.trade(day, sales)
      if (this.salesSoFar === this.checkpoints[checkpoint]) checkpoint++
    }
  }

  private naturalSales(day: string): number {
    const saturday = new Date(`${day}T00:00:00Z`).getUTCDay() === 6
    return Math.round(this.meanSalesPerDay * (saturday ? 1.25 : 0.95) * (0.8 + 0.4 * this.random()))
  }

  private trade(businessDay: string, sales: number): ShopDay {
    const events: AnyDraft[] = []
    const opening = Date.parse(`${businessDay}T00:00:00Z`) + (OPEN_IST_MINUTES * 60_000 - IST_OFFSET_MS)
    let clock = opening
    const at = (ms = 0) => new Date((clock += ms)).toISOString()
    const emit = (draft: AnyDraft) => {
      this.seq++
      events.push(draft)
    }
    const tally: Tally = { recharges: new Map(), coupons: new Map(), cashPaise: 0, upiPaise: 0, topups: [] }

    for (const left of this.unresolved) emit(this.settle(left, at(20_000)))
    this.unresolved = []
    if (this.agents.length === 0) for (let i = 0; i < 12; i++) this.addAgent(emit, at(60_000))
    else if (this.random() < 0.025) this.addAgent(emit, at(60_000))
    for (const agent of this.agents.filter((a) => !a.approved)) {
      agent.approved = true
      emit({ at: at(5_000), type: 'pan.agent.answer', data: { vleId: agent.vleId, source: 'vle_status', outcome: 'SUCCESS', vleStatus: 'APPROVED', message: 'VLE status is APPROVED' } })
    }
    const openingBalance = { balancePaise: this.balancePaise, at: at(30_000) }
    emit({ at: openingBalance.at, type: 'pan.balance.read', data: { balancePaise: this.balancePaise, source: 'balance', businessDay } })
    if (this.balancePaise < LOW_BALANCE_PAISE) this.topUp(emit, at, businessDay, tally)

    const coupons = 2 + Math.floor(this.random() * 5)
    const couponSlots = new Set(Array.from({ length: coupons }, () => Math.floor(this.random() * sales)))
    const gap = (TRADING_MS - (clock - opening)) / (sales + 1)
    for (let slot = 0; slot < sales; slot++) {
      clock += Math.floor(gap * (0.5 + this.random()))
      if (couponSlots.has(slot)) this.sellCoupon(emit, at, businessDay, tally)
      else this.sellRecharge(emit, at, businessDay, tally)
      if (slot === Math.floor(sales / 2)) emit({ at: at(1_000), type: 'pan.balance.read', data: { balancePaise: this.balancePaise, source: 'balance', businessDay } })
      for (const waiting of this.unresolved) waiting.age++
      const due = this.unresolved.filter((waiting) => waiting.age >= 10)
      for (const waiting of due) emit(this.settle(waiting, at(3_000)))
      this.unresolved = this.unresolved.filter((waiting) => waiting.age < 10)
    }
    if (this.random() < 0.08) this.resetPassword(emit, at, businessDay)

    this.salesSoFar += sales
    const close = this.closeDay(businessDay, at(15 * 60_000), openingBalance, tally)
    this.seq++
    return { businessDay, events, close, sales, salesSoFar: this.salesSoFar }
  }

  private sellRecharge(emit: (draft: AnyDraft) => void, at: (ms?: number) => string, businessDay: string, tally: Tally): void {
    const customer = this.customers[Math.floor((this.random() < REGULAR_SHARE ? REGULARS : CUSTOMERS) * this.random())]
    const { operator } = customer
    const amountPaise = 100 * (operator.kind === 'dth' ? DTH_RUPEES[Math.floor(this.random() * DTH_RUPEES.length)] : this.weightedPick(MOBILE_PLANS_RUPEES, MOBILE_PLAN_WEIGHTS))
    const collectedPaise = amountPaise + (this.random() < 0.15 ? 10_00 : 0)
    const paymentMode = this.random() < 0.35 ? 'upi' : 'cash'
    const intentAt = at()
    const orderId = this.id('CN', intentAt)
    emit({
      at: intentAt,
      type: 'recharge.intent',
      data: { orderId, kind: operator.kind, number: customer.number, operatorCode: operator.code, operatorName: operator.name, circle: customer.circle, amountPaise, businessDay, training: false, collectedPaise, paymentMode },
    })
    const roll = this.random()
    const outcome = roll < 0.03 ? 'FAILED' : roll < 0.036 ? 'UNKNOWN' : 'SUCCESS'
    const fpayId = `RCH${this.digits(12)}${this.letters(5)}`
    emit({
      at: at(2_000 + Math.floor(this.random() * 6_000)),
      type: 'recharge.outcome',
      data: {
        orderId,
        source: 'transaction',
        outcome,
        providerStatus: outcome === 'UNKNOWN' ? 'PENDING' : outcome,
        message: outcome === 'SUCCESS' ? 'Transaction Successful' : outcome === 'FAILED' ? 'Operator down, try later' : 'Transaction Pending',
        fpayId,
        operatorRef: outcome === 'SUCCESS' ? this.operatorRef() : null,
      },
    })
    const settlesAs = this.random() < 0.8 ? 'SUCCESS' : 'FAILED'
    if (outcome === 'UNKNOWN') this.unresolved.push({ orderId, age: 0, settlesAs })
    const state: SaleState = outcome === 'UNKNOWN' ? settlesAs : outcome
    const key = `${operator.code}|${state}`
    const row = tally.recharges.get(key) ?? { operatorCode: operator.code, operatorName: operator.name, state, count: 0, amountPaise: 0 }
    tally.recharges.set(key, { ...row, count: row.count + 1, amountPaise: row.amountPaise + amountPaise })
    if (state !== 'FAILED') tally[paymentMode === 'cash' ? 'cashPaise' : 'upiPaise'] += collectedPaise
  }

  private settle(waiting: Unresolved, at: string): Draft<'recharge.outcome'> {
    const success = waiting.settlesAs === 'SUCCESS'
    return {
      at,
      type: 'recharge.outcome',
      data: {
        orderId: waiting.orderId,
        source: 'check_status',
        outcome: waiting.settlesAs,
        providerStatus: waiting.settlesAs,
        message: success ? 'Transaction Successful' : 'Transaction Failed',
        fpayId: null,
        operatorRef: success ? this.operatorRef() : null,
      },
    }
  }

  private sellCoupon(emit: (draft: AnyDraft) => void, at: (ms?: number) => string, businessDay: string, tally: Tally): void {
    const approved = this.agents.filter((agent) => agent.approved)
    const agent = approved[Math.floor(this.random() * approved.length)]
    const type = this.random() < 0.8 ? 1 : 2
    const qty = this.weightedPick([1, 2, 3, 5, 10], [50, 20, 10, 10, 10])
    const ratePaise = COUPON_RATE_PAISE[type]
    const amountPaise = ratePaise * qty
    const paymentMode = this.random() < 0.5 ? 'upi' : 'cash'
    const intentAt = at()
    const attemptId = this.id('CP', intentAt)
    emit({
      at: intentAt,
      type: 'pan.coupon.intent',
      data: { attemptId, vleId: agent.vleId, vleName: agent.name, type, qty, expectedRatePaise: ratePaise, businessDay, training: false, collectedPaise: amountPaise, paymentMode },
    })
    const answeredAt = at(1_500)
    const ist = new Date(Date.parse(answeredAt) + IST_OFFSET_MS)
    const date = `${String(ist.getUTCDate()).padStart(2, '0')}-${MONTHS[ist.getUTCMonth()]}-${ist.getUTCFullYear()}`
    const oldBalPaise = this.balancePaise
    this.balancePaise -= amountPaise
    emit({
      at: answeredAt,
      type: 'pan.coupon.outcome',
      data: {
        attemptId, source: 'coupon_req', outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: '', orderId: `PC${this.digits(10)}`, date,
        vleName: agent.name, ratePaise, amountPaise, oldBalPaise, newBalPaise: this.balancePaise, problems: [],
      },
    })
    const key = `${type}`
    const row = tally.coupons.get(key) ?? { type, state: 'SUCCESS' as const, orders: 0, qty: 0, amountPaise: 0 }
    tally.coupons.set(key, { ...row, orders: row.orders + 1, qty: row.qty + qty, amountPaise: row.amountPaise + amountPaise })
    tally[paymentMode === 'cash' ? 'cashPaise' : 'upiPaise'] += amountPaise
  }

  private topUp(emit: (draft: AnyDraft) => void, at: (ms?: number) => string, businessDay: string, tally: Tally): void {
    const amountPaise = (10 + Math.floor(this.random() * 16)) * 1000_00
    const topupAt = at(120_000)
    const topup = { topupId: this.id('PW', topupAt), amountPaise, reference: `UTR${this.digits(12)}`, note: 'Wallet top-up by bank transfer', businessDay }
    emit({ at: topupAt, type: 'pan.topup', data: topup })
    tally.topups.push({ ...topup, at: topupAt })
    this.balancePaise += amountPaise
    emit({ at: at(600_000), type: 'pan.balance.read', data: { balancePaise: this.balancePaise, source: 'balance', businessDay } })
  }

  private addAgent(emit: (draft: AnyDraft) => void, at: string): void {
    const n = this.agents.length + 1
    const agent = { vleId: `VLE${String(10_000 + n)}`, name: `Agent ${n} ${this.letters(6)}`, approved: false }
    this.agents.push(agent)
    emit({
      at,
      type: 'pan.agent.submitted',
      data: {
        vleId: agent.vleId, name: agent.name, mobile: `9${this.digits(9)}`, email: `agent${n}@example.in`, shop: `${agent.name} CSC`,
        location: 'New Delhi', stateCode: '07', pin: `1100${String(n % 100).padStart(2, '0')}`, uidMasked: `XXXXXXXX${this.digits(4)}`, pan: `${this.letters(5)}${this.digits(4)}${this.letters(1)}`,
      },
    })
    emit({ at, type: 'pan.agent.answer', data: { vleId: agent.vleId, source: 'add_vle', outcome: 'SUCCESS', vleStatus: 'PENDING', message: 'VLE created successfully' } })
  }

  private resetPassword(emit: (draft: AnyDraft) => void, at: (ms?: number) => string, businessDay: string): void {
    const agent = this.agents[Math.floor(this.random() * this.agents.length)]
    const intentAt = at(60_000)
    const attemptId = this.id('RS', intentAt)
    emit({ at: intentAt, type: 'pan.reset.intent', data: { attemptId, vleId: agent.vleId, businessDay } })
    emit({
      at: at(2_000),
      type: 'pan.reset.answer',
      data: { attemptId, source: 'pass_reset', outcome: 'SUCCESS', orderId: `PR${this.digits(8)}`, resetStatus: 'PENDING', vleName: agent.name, message: 'Password reset request received' },
    })
  }

  /** The close as day-close writes it: the drawer counted to the paisa, and the summary shown at the time. */
  private closeDay(businessDay: string, closedAt: string, opening: { balancePaise: number; at: string }, tally: Tally): Draft<'day.closed'> {
    const expectedCashPaise = OPENING_FLOAT_PAISE + tally.cashPaise
    let left = expectedCashPaise
    const notes = Object.fromEntries(NOTES_PAISE.map(([note, paise]) => {
      const count = Math.floor(left / paise)
      left -= count * paise
      return [note, count]
    })) as Record<(typeof NOTES_PAISE)[number][0], number>
    const coins = (left / 100).toFixed(2)
    const overrideNote = this.unresolved.length > 0 ? 'Provider shows these as pending; checking again tomorrow morning.' : null
    const summary: DaySummary = {
      businessDay, closed: true, closedAt,
      openingPanBalance: opening, closingPanBalance: { balancePaise: this.balancePaise, at: closedAt },
      recharges: [...tally.recharges.values()], coupons: [...tally.coupons.values()], topups: tally.topups, pending: [], breaks: [],
      cash: {
        openingFloatPaise: OPENING_FLOAT_PAISE, collectedCashPaise: tally.cashPaise, collectedUpiPaise: tally.upiPaise,
        expectedPaise: expectedCashPaise, countedPaise: expectedCashPaise, differencePaise: 0, counted: { ...notes, coins }, blind: false,
      },
      overrideNote,
      // The bench's sales carry no margin (as before rates existed): its closes show none.
      earnings: null,
      credit: { salesCount: 0, salesPaise: 0, paidCashPaise: 0, paidUpiPaise: 0, outstandingPaise: 0, staffPayments: [] },
      // Written without roles, as before them: every sale the owner's, read so by the ledger.
      byRole: [],
      // One counter, no head office: its breaks are its own.
      shop: { judged: 'counter', reason: null, counters: [], maybeOthers: [] },
      // No reset file was ever dropped in the bench's shop.
      pinResets: [],
      // Nor any cash put in or taken out apart from sales, or a count saved before the close.
      drawerMoves: { moves: [], inPaise: 0, outPaise: 0 },
      drawerCount: null,
    }
    return {
      at: closedAt,
      type: 'day.closed',
      data: {
        businessDay, openingFloatPaise: OPENING_FLOAT_PAISE, counted: { ...notes, coinsPaise: left }, countedPaise: expectedCashPaise, expectedCashPaise,
        closingPanBalancePaise: this.balancePaise, openingPanBalancePaise: opening.balancePaise, overrideNote, summary,
      },
    }
  }

  /** Our ids as order-ids.ts makes them: prefix, date, the entry's journal sequence, a short tail. */
  private id(prefix: string, at: string): string {
    return `${prefix}${at.slice(2, 10).replace(/-/g, '')}${String(this.seq + 1).padStart(6, '0')}${this.letters(3)}`
  }

  private weightedPick<T>(items: readonly T[], weights: readonly number[]): T {
    let roll = this.random() * weights.reduce((sum, weight) => sum + weight, 0)
    for (let i = 0; i < items.length; i++) if ((roll -= weights[i]) < 0) return items[i]
    return items[items.length - 1]
  }

  private digits(n: number): string {
    let text = ''
    for (let i = 0; i < n; i++) text += Math.floor(this.random() * 10)
    return text
  }

  private letters(n: number): string {
    let text = ''
    for (let i = 0; i < n; i++) text += String.fromCharCode(65 + Math.floor(this.random() * 26))
    return text
  }

  private operatorRef(): string {
    return `${this.letters(2)}${this.digits(4)}${this.letters(4)}${this.digits(2)}`
  }
}
