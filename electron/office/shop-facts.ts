// The shop's PAN balance facts as the office holds them, every counter's, for the shop's one balance chain (shared/shop-balance.ts).
import type { ClientBase } from 'pg'
import { postgresClient } from './pg-client'
import type { ShopBalanceFact } from '../shared/shop-balance'
import { readOnlyClientConfig } from './read-only'
import { BALANCE_FACT_TYPES } from './rollups'
import type { OfficeAddress } from './shipper'

/**
 * Decision: the same facts the counter's own books take (ledger/books-reads.ts balanceFactsBetween): a balance
 * read; a coupon's latest answer that gives balances (a SUCCESS with its old balance and amount is a coupon, any
 * other only a reading of its new balance); a SUCCESS coupon no answer gave balances for, by the charge it carries
 * (what the provider answered, else what the owner confirmed settling it by phone) at its intent; a top-up.
 */
const factsSql = (charges: string, saleId: string) => `
  WITH shop_terminals AS (SELECT terminal FROM terminals WHERE shop = $1),
  answers AS (
    SELECT DISTINCT ON (e.terminal, e.data->>'attemptId') e.terminal, e.seq, e.at, e.data
    FROM entries e JOIN shop_terminals t ON t.terminal = e.terminal
    WHERE e.type = 'pan.coupon.outcome' AND e.data->>'newBalPaise' IS NOT NULL AND e.at BETWEEN $2 AND $3
    ORDER BY e.terminal, e.data->>'attemptId', e.seq DESC
  )
  SELECT e.terminal, e.seq, e.at, 'balance' AS kind, (e.data->>'balancePaise')::bigint AS seen, (e.data->>'balancePaise')::bigint AS after, 0::bigint AS move, NULL AS ref
  FROM entries e JOIN shop_terminals t ON t.terminal = e.terminal
  WHERE e.type = 'pan.balance.read' AND e.at BETWEEN $2 AND $3
  UNION ALL
  SELECT terminal, seq, at,
         CASE WHEN data->>'outcome' = 'SUCCESS' AND data->>'oldBalPaise' IS NOT NULL AND data->>'amountPaise' IS NOT NULL THEN 'coupon' ELSE 'balance' END,
         CASE WHEN data->>'outcome' = 'SUCCESS' AND data->>'oldBalPaise' IS NOT NULL AND data->>'amountPaise' IS NOT NULL
              THEN (data->>'oldBalPaise')::bigint ELSE (data->>'newBalPaise')::bigint END,
         (data->>'newBalPaise')::bigint, 0, data->>'attemptId'
  FROM answers
  UNION ALL
  ${charges}
    AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.terminal = s.terminal AND a.data->>'attemptId' = ${saleId})
  UNION ALL
  SELECT e.terminal, e.seq, e.at, 'topup', NULL, NULL, (e.data->>'amountPaise')::bigint, e.data->>'topupId'
  FROM entries e JOIN shop_terminals t ON t.terminal = e.terminal
  WHERE e.type = 'pan.topup' AND e.at BETWEEN $2 AND $3`

/** Before office migration 9: the coupons charged from the coupon_sales view, which works out every coupon sale of all history. */
const FACTS_FROM_VIEWS = factsSql(`SELECT s.terminal, i.seq, i.at, 'charge', NULL, NULL, -s.amount_paise, s.attempt_id
  FROM coupon_sales s JOIN shop_terminals t ON t.terminal = s.terminal
  JOIN entries i ON i.terminal = s.terminal AND i.type = 'pan.coupon.intent' AND i.data->>'attemptId' = s.attempt_id
  WHERE s.state = 'SUCCESS' AND NOT s.training AND i.at BETWEEN $2 AND $3`, 's.attempt_id')

/** From office migration 9: each coupon sale as the roll-ups hold it, found by its intent's time (rollups.ts); every other fact by the entries_balance_facts index. */
const FACTS_FROM_ROLLUPS = factsSql(`SELECT s.terminal, s.intent_seq, s.intent_at, 'charge', NULL, NULL, -s.amount_paise, s.sale_id
  FROM office_sale_figures s JOIN shop_terminals t ON t.terminal = s.terminal
  WHERE s.kind = 'coupon' AND s.state = 'SUCCESS' AND NOT s.training AND s.intent_at BETWEEN $2 AND $3 AND s.intent_seq IS NOT NULL`, 's.sale_id')

const paiseOrNull = (value: unknown): number | null => (value === null ? null : Number(value))

/** Every balance fact of `shop`'s counters whose time (each by its own clock) falls from `from` to `to`. */
export async function shopBalanceFacts(client: ClientBase, shop: string, from: Date, to: Date): Promise<ShopBalanceFact[]> {
  const rolled = (await client.query<{ rolled: boolean }>("SELECT to_regclass('office_sales') IS NOT NULL AS rolled")).rows[0].rolled
  const { rows } = await client.query<Record<string, unknown>>(rolled ? FACTS_FROM_ROLLUPS : FACTS_FROM_VIEWS, [shop, from, to])
  return rows.map((row) => ({
    terminal: String(row.terminal),
    seq: Number(row.seq),
    at: (row.at as Date).toISOString(),
    kind: row.kind as ShopBalanceFact['kind'],
    seenPaise: paiseOrNull(row.seen),
    afterPaise: paiseOrNull(row.after),
    movePaise: Number(row.move),
    ref: row.ref === null ? null : String(row.ref),
  }))
}

/** The other counters of a shop as the office knows them: their names, and the entries each has not yet shipped. */
export interface Sibling {
  terminal: string
  counter: string | null
  /** Entries its journal holds that the office has not (null: it never said its journal's end). */
  backlog: number | null
}

export interface ShopAtOffice {
  /** This counter's shop at the office; null when the office does not know this counter (yet). */
  shop: string | null
  siblings: Sibling[]
  /** The facts of every counter of the shop, this one's included, from `from` to `to`. */
  facts: ShopBalanceFact[]
}

/** One short read-only visit to the office for a counter's day close: its shop, the other counters, and the shop's facts. */
export async function readShopAtOffice(office: OfficeAddress, terminalId: string, from: Date, to: Date, timeoutMs: number): Promise<ShopAtOffice> {
  const client = await postgresClient({ ...readOnlyClientConfig(office), connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs })
  // An error on an idle client would otherwise end the process; the query that meets it says it instead.
  client.on('error', () => undefined)
  await client.connect()
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const known = (await client.query<{ known: boolean }>("SELECT to_regclass('terminal_backlog') IS NOT NULL AS known")).rows[0].known
    const shop = known ? ((await client.query<{ shop: string | null }>('SELECT shop FROM terminals WHERE terminal = $1', [terminalId])).rows[0]?.shop ?? null) : null
    if (shop === null) return { shop: null, siblings: [], facts: [] }
    const siblings = (await client.query<Record<string, unknown>>('SELECT terminal, counter, backlog FROM terminal_backlog WHERE shop = $1 AND terminal <> $2 ORDER BY counter, terminal', [shop, terminalId])).rows.map(
      (row): Sibling => ({ terminal: String(row.terminal), counter: row.counter === null ? null : String(row.counter), backlog: row.backlog === null ? null : Number(row.backlog) }),
    )
    const facts = await shopBalanceFacts(client, shop, from, to)
    await client.query('COMMIT')
    return { shop, siblings, facts }
  } finally {
    await client.end().catch(() => undefined)
  }
}

/**
 * The time (by its counter's clock) of the shop's last balance fact before `before`, or null when it has none: where
 * a day's chain must reach back to for its first fact to be checked against the balance the shop last knew.
 * Any coupon line counts (a training one too): it can only reach back further, never less far.
 */
export async function lastShopFactAt(client: ClientBase, shop: string, before: Date): Promise<Date | null> {
  const { rows } = await client.query<{ at: Date | null }>(
    // Each terminal's last of each kind, by the entries_balance_facts index (office migration 9): one step back from before, not its whole history.
    `SELECT max(last.at) AS at FROM terminals t
     CROSS JOIN LATERAL (${BALANCE_FACT_TYPES.map((type) => `(SELECT e.at FROM entries e WHERE e.type = '${type}' AND e.terminal = t.terminal AND e.at < $2 ORDER BY e.at DESC LIMIT 1)`).join(' UNION ALL ')}) last
     WHERE t.shop = $1`,
    [shop, before],
  )
  return rows[0].at
}
