// The office's roll-ups (office migration 9) after random batches from a few terminals, some sent twice and a forked one refused, equal a from-scratch recomputation from the entries.
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { JournalEntry } from '../../electron/ledger/events'
import { GENESIS_HASH, hashEntry } from '../../electron/ledger/segments'
import { ingestBatch, OfficeRefusal, registerTerminal } from '../../electron/office/ingest'
import { migrateOffice } from '../../electron/office/migrations'
import { readDues, ROLLED_READS, VIEW_READS, type DayReads } from '../../electron/office/office-view'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { officeOf } from './office-rig'

let db: TestPostgres
let client: pg.Client
beforeAll(async () => {
  db = await startTestPostgres()
  client = new pg.Client(officeOf(db))
  await client.connect()
  await migrateOffice(client)
}, 60_000)
afterAll(async () => {
  await client?.end()
  db?.remove()
})

const TERMINALS = ['shop/counter-1', 'shop/counter-2', 'shop/counter-3']
const DAYS = ['2025-03-13', '2025-03-14', '2025-03-15']
const NUMBERS = ['9811111111', '9822222222']
const STATES = ['SUCCESS', 'SUCCESS', 'FAILED', 'UNKNOWN', null] as const

/** One journal line before it is chained: its type, and what it says. */
type Line = { type: string; data: Record<string, unknown> }
/** The sales a terminal has begun so far, by kind. */
type Sales = { recharge: string[]; coupon: string[] }
/** Makes the `n`th line of a journal; a line about a sale picks its id among `sales` (or a stray one no intent began). */
type Make = (sales: Sales, n: number) => Line

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 })
const margin = maybe(fc.integer({ min: 0, max: 2_000 }).map((marginPaise) => ({ rate: { kind: 'fixed', paise: marginPaise }, marginPaise })))
const day = fc.constantFrom(...DAYS)
const paise = fc.integer({ min: 100, max: 50_000 })
/** A training sale now and then: the roll-ups leave it out, as the views do. */
const training = fc.integer({ min: 0, max: 4 }).map((n) => n === 0)

/** A line as a counter could write it; `pick` chooses an id among the terminal's sales so far (or a stray one). */
const lineArb: fc.Arbitrary<Make> = fc.oneof(
  fc.record({ day, operator: fc.constantFrom('Jio', 'Airtel', 'Vi'), amount: paise, training, credit: fc.option(fc.constantFrom(...NUMBERS)), margin, collected: maybe(paise), name: fc.constantFrom('Ramesh', 'Suresh') }).map(
    (r): Make => (sales, n) => {
      const orderId = `R${n}`
      sales.recharge.push(orderId)
      return {
        type: 'recharge.intent',
        data: {
          orderId, kind: 'mobile', number: '9876543210', operatorCode: 'X', operatorName: r.operator, circle: 'DL', amountPaise: r.amount, businessDay: r.day, training: r.training,
          ...(r.credit ? { paymentMode: 'credit', creditCustomer: { number: r.credit, name: r.name } } : {}), ...(r.margin ? { margin: r.margin } : {}), ...(r.collected ? { collectedPaise: r.collected } : {}),
        },
      }
    },
  ),
  fc.record({ pick: fc.nat(), outcome: fc.constantFrom(...STATES) }).map((r): Make => (sales) => ({ type: 'recharge.outcome', data: { orderId: sales.recharge[r.pick % (sales.recharge.length + 1)] ?? 'R-stray', source: 'transaction', ...(r.outcome ? { outcome: r.outcome } : {}) } })),
  fc.record({ day, type: fc.constantFrom(1, 2), qty: fc.integer({ min: 1, max: 3 }), rate: fc.constantFrom(7_200, 10_700), training, margin, collected: maybe(paise) }).map((r): Make => (sales, n) => {
    const attemptId = `C${n}`
    sales.coupon.push(attemptId)
    return {
      type: 'pan.coupon.intent',
      data: { attemptId, vleId: 'VLE1', type: r.type, qty: r.qty, expectedRatePaise: r.rate, businessDay: r.day, training: r.training, ...(r.margin ? { margin: r.margin } : {}), ...(r.collected ? { collectedPaise: r.collected } : {}) },
    }
  }),
  fc.record({ pick: fc.nat(), outcome: fc.constantFrom(...STATES), amount: maybe(paise), balance: maybe(fc.integer({ min: 0, max: 1_000_000 })) }).map((r): Make => (sales) => ({
    type: 'pan.coupon.outcome',
    data: {
      attemptId: sales.coupon[r.pick % (sales.coupon.length + 1)] ?? 'C-stray', orderId: 'ORD', source: 'coupon_req', ...(r.outcome ? { outcome: r.outcome } : {}), ...(r.amount ? { amountPaise: r.amount } : {}),
      ...(r.balance ? { oldBalPaise: r.balance, newBalPaise: r.balance - (r.amount ?? 0) } : {}),
    },
  })),
  fc.record({ coupon: fc.boolean(), pick: fc.nat(), outcome: fc.constantFrom('SUCCESS', 'FAILED'), charged: maybe(paise) }).map((r): Make => (sales) => {
    const ids = r.coupon ? sales.coupon : sales.recharge
    return { type: 'sale.settled', data: { kind: r.coupon ? 'coupon' : 'recharge', id: ids[r.pick % (ids.length + 1)] ?? 'stray', outcome: r.outcome, note: 'by phone', ...(r.coupon && r.charged ? { chargedPaise: r.charged } : {}) } }
  }),
  fc.record({ number: fc.constantFrom(...NUMBERS), amount: paise, day }).map((r): Make => () => ({ type: 'credit.payment', data: { receiptId: 'P', number: r.number, amountPaise: r.amount, mode: 'cash', note: '', businessDay: r.day } })),
  fc.record({ number: fc.constantFrom(...NUMBERS), name: fc.constantFrom('Ramesh K', 'Suresh P') }).map((r): Make => () => ({ type: 'customer.named', data: { number: r.number, name: r.name } })),
  fc.record({ day, counted: paise, expected: paise }).map((r): Make => () => ({
    type: 'day.closed',
    data: { businessDay: r.day, openingFloatPaise: 500_00, countedPaise: r.counted, expectedCashPaise: r.expected, closingPanBalancePaise: null, overrideNote: null, summary: {} },
  })),
)

/** Each terminal's journal, chained as the ledger chains it. */
function journals(plans: Make[][]): JournalEntry[][] {
  return plans.map((plan) => {
    const sales: Sales = { recharge: [], coupon: [] }
    return chain(plan.map((make, n) => make(sales, n)), 1, GENESIS_HASH)
  })
}

function chain(lines: Line[], firstSeq: number, prev: string): JournalEntry[] {
  const entries: JournalEntry[] = []
  for (const [i, line] of lines.entries()) {
    const body = { seq: firstSeq + i, at: new Date(Date.parse('2025-03-14T04:30:00Z') + (firstSeq + i) * 60_000).toISOString(), type: line.type, data: line.data }
    const before = entries.at(-1)?.hash ?? prev
    entries.push({ ...body, prev: before, hash: hashEntry(before, body as unknown as JournalEntry) } as unknown as JournalEntry)
  }
  return entries
}

/** Every roll-up table, as rows in a fixed order. */
async function rollups(): Promise<unknown[]> {
  const tables = ['office_sales', 'office_recharge_days', 'office_coupon_days', 'office_dues', 'office_day_closes']
  const rows: unknown[] = []
  for (const table of tables) rows.push((await client.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3`)).rows)
  return rows
}

/** What the page reads for `from` to `to`, each way. */
async function pageReads(reads: DayReads, from: string, to: string): Promise<unknown> {
  const read = async (sql: string) => (await client.query(sql, [from, to])).rows
  return { recharges: await read(reads.recharges), coupons: await read(reads.coupons), margins: await read(reads.margins), closes: (await read(reads.closes))
      .map(({ terminal, day, closed_at, counted_paise, expected_cash_paise, cash_difference_paise, closing_pan_balance_paise }) => JSON.stringify({ terminal, day, closed_at, counted_paise, expected_cash_paise, cash_difference_paise, closing_pan_balance_paise }))
      // Two closes of one day at one terminal have no order between them in the view's.
      .sort() }
}

/** The roll-ups' page reads equal the views' (a from-scratch recomputation over all entries), day by day and over the range. */
async function expectRecomputed(): Promise<void> {
  for (const [from, to] of [...DAYS.map((d) => [d, d]), [DAYS[0], DAYS.at(-1)!]]) {
    expect(await pageReads(ROLLED_READS, from, to)).toEqual(await pageReads(VIEW_READS, from, to))
  }
  expect(await readDues(client, true)).toEqual(await readDues(client, false))
  // Each sale once, in its final state, as the views recompute it (the chain's coupons charged read these).
  const viewSales = `SELECT terminal, order_id AS id, business_day, state, amount_paise, training FROM recharge_sales
    UNION ALL SELECT terminal, attempt_id, business_day, state, amount_paise, training FROM coupon_sales ORDER BY 1, 2`
  const rolledSales = 'SELECT terminal, sale_id AS id, business_day, state, amount_paise, training FROM office_sale_figures WHERE intent_seq IS NOT NULL ORDER BY 1, 2'
  expect((await client.query(rolledSales)).rows).toEqual((await client.query(viewSales)).rows)
}

/** An office with no line, terminal, fork, roll-up or archive. */
const emptyOffice = () =>
  client.query(
    'TRUNCATE entries, terminals, terminal_forks, office_sales, office_recharge_days, office_coupon_days, office_dues, office_day_closes, office_archives, office_archived_sales, office_archived_dues, office_archived_day_closes',
  )

/** A batch is a slice of one terminal's journal: its next lines, or some it sent already (sent twice). */
const stepArb = fc.record({ terminal: fc.nat(TERMINALS.length - 1), size: fc.integer({ min: 1, max: 12 }), resend: fc.nat(5) })

test('roll-ups equal a recomputation from the entries after random batches, a batch sent twice and a forked batch refused', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(lineArb, { minLength: 5, maxLength: 40 }), { minLength: 2, maxLength: 3 }), fc.array(stepArb, { minLength: 6, maxLength: 30 }), fc.nat(), async (plans, steps, forkAt) => {
      await emptyOffice()
      const lines = journals(plans)
      for (const [i] of lines.entries()) await registerTerminal(client, { terminalId: TERMINALS[i], shop: 'Shop', counter: `Counter ${i + 1}` })
      const sent = lines.map(() => 0)
      for (const step of steps) {
        const i = step.terminal % lines.length
        // resend 0: a slice it sent already, ending at what the office holds (a batch sent twice); else its next lines.
        const from = step.resend === 0 ? Math.max(0, sent[i] - step.size) : sent[i]
        const batch = lines[i].slice(from, from + step.size)
        if (batch.length === 0) continue
        await ingestBatch(client, TERMINALS[i], batch)
        sent[i] = Math.max(sent[i], from + batch.length)
      }
      // The rest of every journal, each batch sent twice.
      for (const [i, journal] of lines.entries()) {
        for (let from = sent[i]; from < journal.length; from += 10) {
          await ingestBatch(client, TERMINALS[i], journal.slice(from, from + 10))
          await ingestBatch(client, TERMINALS[i], journal.slice(from, from + 10))
        }
      }
      await expectRecomputed()

      // A fork: another journal under the first terminal's id, differing at one line it holds; refused, nothing changes.
      const before = await rollups()
      const held = lines[0]
      const part = forkAt % held.length
      const theirs = chain([...held.slice(part).map((e, n): Line => ({ type: e.type, data: { ...(e.data as unknown as Record<string, unknown>), ...(n === 0 ? { forked: true } : {}) } })), { type: 'recharge.intent', data: { orderId: 'FORK', operatorName: 'Jio', amountPaise: 100, businessDay: DAYS[0], training: false } }], part + 1, held[part].prev)
      await expect(ingestBatch(client, TERMINALS[0], theirs)).rejects.toBeInstanceOf(OfficeRefusal)
      expect(await rollups()).toEqual(before)

      // The backfill (the migration's, and a changed line's) makes the same roll-ups from scratch.
      await client.query('SELECT office_rollup_rebuild(ARRAY (SELECT terminal FROM terminals))')
      expect(await rollups()).toEqual(before)
    }),
    { numRuns: 12 },
  )
}, 60_000)

test('a line changed or deleted at the office is in the roll-ups at once, as the views show it', async () => {
  // Lines of its own, whatever the property's last run left (it may hold no recharge): a recharge and a coupon order, each answered.
  await emptyOffice()
  const answered: Make[] = [
    (sales, n) => {
      sales.recharge.push(`R${n}`)
      return { type: 'recharge.intent', data: { orderId: `R${n}`, kind: 'mobile', number: '9876543210', operatorCode: 'X', operatorName: 'Jio', circle: 'DL', amountPaise: 19_900, businessDay: DAYS[0], training: false } }
    },
    (sales) => ({ type: 'recharge.outcome', data: { orderId: sales.recharge[0], source: 'transaction', outcome: 'SUCCESS' } }),
    (sales, n) => {
      sales.coupon.push(`C${n}`)
      return { type: 'pan.coupon.intent', data: { attemptId: `C${n}`, vleId: 'VLE1', type: 1, qty: 2, expectedRatePaise: 10_700, businessDay: DAYS[1], training: false } }
    },
    (sales) => ({ type: 'pan.coupon.outcome', data: { attemptId: sales.coupon[0], orderId: 'ORD', source: 'coupon_req', outcome: 'SUCCESS', amountPaise: 21_400 } }),
  ]
  await registerTerminal(client, { terminalId: TERMINALS[0], shop: 'Shop', counter: 'Counter 1' })
  await ingestBatch(client, TERMINALS[0], journals([answered])[0])
  await expectRecomputed()
  const intent = (await client.query<{ terminal: string; seq: string }>("SELECT terminal, seq FROM entries WHERE type = 'recharge.intent' ORDER BY terminal, seq LIMIT 1")).rows[0]
  await client.query(`UPDATE entries SET data = jsonb_set(data, '{amountPaise}', '99900') WHERE terminal = $1 AND seq = $2`, [intent.terminal, intent.seq])
  await expectRecomputed()
  await client.query("DELETE FROM entries WHERE terminal = $1 AND type IN ('recharge.outcome', 'pan.coupon.outcome')", [intent.terminal])
  await expectRecomputed()
})
