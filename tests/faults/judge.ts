// What must hold after every fault run, checked against the provider's own record and the journal on disk:
// nothing acknowledged is lost, nothing is charged twice, nothing open is out of sight, the books reconcile,
// and a wrong clock neither books onto a closed or earlier day unconfirmed nor archives the current year.
import fs from 'node:fs'
import path from 'node:path'
import type { HistoryRow } from '../../electron/contract'
import type { CounterApp } from '../../electron/counter/app'
import { parseRupees } from '../../electron/shared/money'
import { DAY_BOUND_EVENTS } from '../../electron/ledger/events'
import type { OrderBook } from '../../electron/simulator/order-book'
import { COUPONS, OPENING_PAN_BALANCE_PAISE, RECHARGES, type CashierState } from './shop-day'

/** The families a violation belongs to: the first word of its text. */
export const PROMISES = ['lost', 'twice', 'pending', 'books', 'clock', 'internal'] as const

export interface JudgeInput {
  state: CashierState
  counter: CounterApp
  book: OrderBook
  providerBalancePaise: number
  dataDir: string
}

const isOpen = (state: string) => state === 'SENDING' || state === 'UNKNOWN'

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1)
  return counts
}

async function allRows(counter: CounterApp): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = []
  for (let offset = 0; ; offset += 500) {
    const page = await counter.call('history.search', { offset, limit: 500 })
    if (!page.ok) throw new Error(`history could not be read: ${page.error.message}`)
    rows.push(...page.value.rows)
    if (page.value.rows.length < 500) return rows
  }
}

/** History holds both kinds of sale of every year, archived ones too: a sale moved to an archive is not lost. */
async function acknowledged(input: JudgeInput, rows: HistoryRow[], fail: (text: string) => void): Promise<void> {
  const { ledger } = input.counter.session()
  const sales = new Map(rows.map((row) => [row.id, row.state]))
  const topups = await ledger.read('topups')
  for (const intent of Object.values(input.state.intents)) {
    for (const ack of intent.attempts) {
      if (ack.id === null || ack.state === null) continue
      const now =
        intent.kind === 'recharge' || intent.kind === 'coupon' ? sales.get(ack.id)
        : intent.kind === 'topup' ? (topups.some((t) => t.topupId === ack.id) ? 'SUCCESS' : undefined)
        : (await ledger.read('dayClosure', ack.id)) ? 'SUCCESS' : undefined
      if (now === undefined) fail(`lost: acknowledged ${intent.kind} ${ack.id} (${intent.key}) is not in the books`)
      else if (!isOpen(ack.state) && now !== ack.state) fail(`lost: acknowledged ${intent.kind} ${ack.id} (${intent.key}) was ${ack.state}, is now ${now}`)
    }
  }
}

function chargedOnce(book: OrderBook, fail: (text: string) => void): void {
  const keyOfNumber = new Map<string, string>(Object.entries(RECHARGES).map(([key, sale]) => [sale.number, key]))
  for (const [number, n] of countBy(book.recharges.filter((o) => o.state !== 'FAILED'), (o) => o.number)) {
    if (n > 1) fail(`twice: the provider booked ${n} recharges of ${number} (sale ${keyOfNumber.get(number) ?? '?'})`)
  }
  const keyOfCoupon = new Map<string, string>(Object.entries(COUPONS).map(([key, c]) => [`${c.type}x${c.qty}`, key]))
  for (const [what, n] of countBy(book.coupons, (o) => `${o.type}x${o.qty}`)) {
    if (n > 1) fail(`twice: the provider made ${n} coupon orders of type ${what} (sale ${keyOfCoupon.get(what) ?? '?'})`)
  }
}

async function reconciled(input: JudgeInput, rows: HistoryRow[], fail: (text: string) => void): Promise<void> {
  const { counter, book } = input
  const { ledger } = counter.session()
  const recharges = new Map(rows.filter((r) => r.kind === 'recharge').map((r) => [r.id, r]))
  const booked = new Map(book.recharges.map((o) => [o.orderId, o]))
  for (const order of book.recharges) {
    const row = recharges.get(order.orderId)
    if (!row) fail(`books: the provider has recharge ${order.orderId} (${order.number}, ${order.state}) that the books do not`)
    else if (order.state !== 'FAILED' && row.state === 'FAILED') fail(`books: recharge ${order.orderId} is FAILED in the books; the provider booked it (${order.state})`)
    else if (order.state === 'FAILED' && row.state === 'SUCCESS') fail(`books: recharge ${order.orderId} is SUCCESS in the books; the provider failed it`)
    else if (row.state === 'SUCCESS' && row.amountPaise !== parseRupees(order.amount)) fail(`books: recharge ${order.orderId} is ${row.amountPaise} paise in the books, ${order.amount} at the provider`)
  }
  for (const row of recharges.values()) {
    if (row.state === 'SUCCESS' && !booked.has(row.id)) fail(`books: recharge ${row.id} is SUCCESS in the books; the provider has no such order`)
  }

  // A history row's reference is the provider's order id; open coupons are never archived, so the active books have their type and quantity.
  const coupons = rows.filter((r) => r.kind === 'coupon').map((r) => ({ attemptId: r.id, orderId: r.reference, state: r.state, amountPaise: r.amountPaise }))
  const open = await Promise.all(rows.filter((r) => r.kind === 'coupon' && isOpen(r.state) && r.reference === null).map(async (r) => (await ledger.read('couponSale', r.id))!))
  const byOrder = new Map(coupons.filter((c) => c.orderId !== null).map((c) => [c.orderId!, c]))
  const providerCoupons = new Set(book.coupons.map((o) => o.orderId))
  let heldByOpenCoupons = 0
  for (const order of book.coupons) {
    const sale = byOrder.get(order.orderId)
    const openForIt = open.some((c) => c.type === order.type && c.qty === order.qty)
    if (sale?.state === 'SUCCESS' && sale.amountPaise !== order.amountPaise) fail(`books: coupon ${sale.attemptId} is ${sale.amountPaise} paise in the books, ${order.amountPaise} at the provider`)
    else if (sale && sale.state !== 'SUCCESS' && !isOpen(sale.state)) fail(`books: coupon ${sale.attemptId} is ${sale.state} in the books; the provider made order ${order.orderId}`)
    else if (!sale && openForIt) heldByOpenCoupons += order.amountPaise
    else if (!sale) fail(`books: the provider's coupon order ${order.orderId} (type ${order.type} x ${order.qty}) is not in the books`)
  }
  for (const sale of coupons) {
    if (sale.state === 'SUCCESS' && !providerCoupons.has(sale.orderId ?? '')) fail(`books: coupon ${sale.attemptId} is SUCCESS in the books; the provider has no order ${sale.orderId}`)
  }

  const known = (await ledger.read('lastKnownPanBalance'))?.balancePaise ?? null
  if (known !== input.providerBalancePaise) fail(`books: the last PAN balance in the books is ${known} paise; the provider holds ${input.providerBalancePaise}`)
  const topups = (await ledger.read('topups')).reduce((sum, t) => sum + t.amountPaise, 0)
  const spent = coupons.filter((c) => c.state === 'SUCCESS').reduce((sum, c) => sum + (c.amountPaise ?? 0), 0)
  const explained = OPENING_PAN_BALANCE_PAISE + topups - spent - heldByOpenCoupons
  if (explained !== input.providerBalancePaise) {
    fail(`books: opening ${OPENING_PAN_BALANCE_PAISE} + top-ups ${topups} - coupons ${spent} - open coupons ${heldByOpenCoupons} = ${explained} paise; the provider holds ${input.providerBalancePaise}`)
  }
  if (ledger.readOnly) fail(`books: the ledger is read-only after the run: ${ledger.readOnly}`)
}

async function inSight(input: JudgeInput, fail: (text: string) => void): Promise<void> {
  const { ledger } = input.counter.session()
  const pending = await input.counter.call('pending.list', {})
  const listed = new Set(pending.ok ? pending.value.items.map((i) => i.id) : [])
  for (const { kind, sale } of await ledger.read('unresolved')) {
    const id = 'attemptId' in sale ? sale.attemptId : sale.orderId
    if (!listed.has(id)) fail(`pending: ${kind} ${id} is ${sale.state} but not in Pending`)
  }
}

/** The journal as written, line by line in order (lines that do not parse are left to the ledger's own checks). */
function journalEntries(ledgerDir: string): { seq: number; type: string; data: { businessDay?: string } }[] {
  const dir = path.join(ledgerDir, 'journal')
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .sort()
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line)]
      } catch {
        return []
      }
    })
}

function clockKept(input: JudgeInput, fail: (text: string) => void): void {
  const ledgerDir = path.join(input.dataDir, 'ledger')
  const closed = new Set<string>()
  let latest: { day: string; seq: number } | null = null
  for (const entry of journalEntries(ledgerDir)) {
    if (!(DAY_BOUND_EVENTS as readonly string[]).includes(entry.type) || !entry.data.businessDay) continue
    const day = entry.data.businessDay
    if (entry.type === 'day.closed') {
      closed.add(day)
      continue
    }
    if (closed.has(day)) fail(`clock: ${entry.type} #${entry.seq} was booked on ${day}, a day already closed`)
    const confirmedSince = latest !== null && input.state.confirmations.some((seq) => seq >= latest!.seq && seq < entry.seq)
    if (latest && day < latest.day && !confirmedSince) fail(`clock: ${entry.type} #${entry.seq} was booked on ${day} after entries of ${latest.day}, the clock unconfirmed`)
    if (!latest || day >= latest.day) latest = { day, seq: entry.seq }
  }
  const [year, month] = input.state.businessDay.split('-').map(Number)
  const fyStart = month >= 4 ? year : year - 1
  const current = `FY${fyStart}-${String((fyStart + 1) % 100).padStart(2, '0')}.sqlite`
  if (fs.existsSync(path.join(ledgerDir, 'archive', current))) fail(`clock: the current financial year was archived (${current}) by a start with a wrong clock`)
}

export async function judge(input: JudgeInput): Promise<string[]> {
  const violations: string[] = []
  const fail = (text: string) => violations.push(text)
  const rows = await allRows(input.counter)
  await acknowledged(input, rows, fail)
  chargedOnce(input.book, fail)
  await inSight(input, fail)
  await reconciled(input, rows, fail)
  clockKept(input, fail)
  for (const answer of input.state.internal) fail(`internal: a screen answered 'internal': ${answer}`)
  return violations
}
