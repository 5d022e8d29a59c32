// The office view's reads: its settings from the environment, a read-only connection, and one day's figures across terminals.
import pg, { type ClientBase } from 'pg'
import { formatDate, readDay } from '../shared/dates'
import { english } from '../shared/words'
import { linkShopBalance, LINK_WINDOW_MS } from '../shared/shop-balance'
import { checkChains, type ChainCheck } from './chain-check'
import { OFFICE_ROLES } from './migrations'
import { readOnlyClientConfig } from './read-only'
import { ROLLUPS_MIGRATION } from './rollups'
import { unreachableWords, type OfficeAddress } from './shipper'
import { lastShopFactAt, shopBalanceFacts } from './shop-facts'

/** The environment `npm run office` reads; the password only from here, never from an argument, a file or the page. */
export const OFFICE_VIEW_ENV = {
  host: 'COUNTER_OFFICE_DB_HOST',
  port: 'COUNTER_OFFICE_DB_PORT',
  database: 'COUNTER_OFFICE_DB_NAME',
  user: 'COUNTER_OFFICE_DB_USER',
  password: 'COUNTER_OFFICE_DB_PASSWORD',
  tls: 'COUNTER_OFFICE_DB_TLS',
} as const

/** Decision: the loopback needs no TLS (nothing crosses a wire); any other host gets it unless COUNTER_OFFICE_DB_TLS=off says not. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1'])

/** The office database's address from `env`; a setting that cannot be used is refused in plain words before anything connects. */
export function officeFromEnvironment(env: NodeJS.ProcessEnv): OfficeAddress {
  const host = env[OFFICE_VIEW_ENV.host] || '127.0.0.1'
  const portText = env[OFFICE_VIEW_ENV.port] || '5432'
  const port = Number(portText)
  if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65535) throw new Error(`${OFFICE_VIEW_ENV.port} must be a port number from 1 to 65535.`)
  const tlsText = (env[OFFICE_VIEW_ENV.tls] || (LOCAL_HOSTS.has(host) ? 'off' : 'on')).toLowerCase()
  if (tlsText !== 'on' && tlsText !== 'off') throw new Error(`${OFFICE_VIEW_ENV.tls} must be on or off.`)
  const user = env[OFFICE_VIEW_ENV.user]
  if (!user) throw new Error(`Set ${OFFICE_VIEW_ENV.user} (and ${OFFICE_VIEW_ENV.password}) to the office database's login.`)
  return { host, port, database: env[OFFICE_VIEW_ENV.database] || 'counter_office', user, password: env[OFFICE_VIEW_ENV.password] ?? '', tls: tlsText === 'on' }
}

/** The office's business day now: the calendar day in its time zone (COUNTER_OFFICE_TIME_ZONE, Asia/Kolkata by default). */
export function officeToday(now: Date, timeZone: string): string {
  return readDay(formatDate(now, { timeZone }))!
}

export interface TerminalRow {
  terminal: string
  shop: string | null
  counter: string | null
  lastContact: Date | null
  lastSeq: bigint
  /** The journal's end as the terminal last reported it; null when it never did. */
  journalEnd: bigint | null
  backlog: bigint | null
  /** How far its clock is ahead of the office's (behind when negative), as its lines' arrival bounds it; null with no lines. */
  clockOffsetMs: number | null
}
export interface RechargeRow { terminal: string; operator: string; sales: bigint; amountPaise: bigint; unresolved: bigint }
export interface CouponRow { terminal: string; couponType: number; sales: bigint; coupons: bigint; amountPaise: bigint; unresolved: bigint }
export interface MarginRow { terminal: string; kind: string; earnedPaise: bigint; marginUnknown: bigint }
export interface DueRow { terminal: string; shop: string | null; number: string; name: string | null; duePaise: bigint }
/** `type`: the fact in plain words; `ref`: the coupon attempt whose answer it is, null for a balance read. */
export interface BreakRow { shop: string | null; terminal: string; at: Date; type: string; seenPaise: bigint; expectedPaise: bigint; breakPaise: bigint; ref: string | null }
/**
 * Two journals claiming one terminal id (office migration 7): `terminal` holds the office's (its names, the entries
 * it has received), the claimant is the one refused; they part at `partSeq`. Hashes are as stored; the claimant's is
 * null when its journal ends before the parting. `resolvedAs`: the terminal the claimant was registered anew as.
 */
export interface ForkRow {
  terminal: string
  shop: string | null
  counter: string | null
  lastSeq: bigint
  partSeq: bigint
  officeHash: string
  claimantHash: string | null
  claimantShop: string | null
  claimantCounter: string | null
  claimantJournalEnd: bigint | null
  firstSeen: Date
  lastSeen: Date
  resolvedAs: string | null
  resolvedAt: Date | null
}
export interface CloseRow { terminal: string; businessDay: string; closedAt: Date; countedPaise: bigint; expectedCashPaise: bigint; cashDifferencePaise: bigint; closingPanBalancePaise: bigint | null; overrideNote: string | null }

/** What the page shows: the days from `day` to `to` (one day when they are the same), and what stands now. */
export interface OfficeDay {
  day: string
  to: string
  terminals: TerminalRow[]
  recharges: RechargeRow[]
  coupons: CouponRow[]
  margins: MarginRow[]
  dues: DueRow[]
  breaks: BreakRow[]
  closes: CloseRow[]
  /** Every fork recorded, open ones first; empty before migration 7. */
  forks: ForkRow[]
}

type Row = Record<string, unknown>
const big = (value: unknown): bigint => BigInt(value as string)
const bigOrNull = (value: unknown): bigint | null => (value === null ? null : big(value))
const textOrNull = (value: unknown): string | null => (value === null ? null : String(value))

/**
 * Each terminal's clock against the office's, in ms ahead (negative: behind). Decision: a line's received_at
 * (the office's clock on its arrival) less its at (the terminal's clock on writing it) is the terminal's lag plus
 * the line's shipping delay; a delay only ever adds, so the smallest over its last 2,000 lines (about a week's
 * sales) is the best bound there is: off by the quickest delivery, about the shipper's 1 s poll while it is in
 * touch. Its latest lines only, so a clock set right reads right once it has shipped a while. (The provider's
 * answers carry a date without a time, so they cannot time a clock.)
 */
const CLOCK_OFFSETS_SQL = `
  SELECT t.terminal, round(extract(epoch FROM max(r.at - r.received_at)) * 1000) AS ahead_ms
  FROM terminals t
  CROSS JOIN LATERAL (SELECT e.at, e.received_at FROM entries e WHERE e.terminal = t.terminal ORDER BY e.seq DESC LIMIT 2000) r
  GROUP BY t.terminal`

const FACT_WORDS = { coupon: 'coupon answer', balance: 'balance read', topup: 'top-up', charge: 'coupon settled by phone' } as const

/**
 * Every shop's PAN balance breaks no terminal explains whose time falls from `day` to `to` in `timeZone`.
 * Decision (issue #31): linked by the provider's own numbers (shared/shop-balance.ts), no longer read from the
 * pan_balance_chain view of migration 3, which orders the facts by each PC's clock: concurrent sales gave it
 * cancelling ± false breaks, and a counter 90 s slow made every other coupon one. The view stays (a shipped
 * migration is never edited); the page no longer reads it. The facts are the day's widened by LINK_WINDOW_MS on
 * both sides (a fact of the day may follow one its clock puts across midnight), and reach back to the shop's
 * last fact before that, so the day's first fact is checked against the balance the shop last knew: a debit
 * overnight is a break on the day it is first seen.
 */
export async function shopBreaks(client: ClientBase, shops: readonly string[], day: string, to: string, timeZone: string): Promise<BreakRow[]> {
  const bounds = await client.query<{ day_start: Date; day_end: Date }>(
    'SELECT $1::date::timestamp AT TIME ZONE $3 AS day_start, ($2::date + 1)::timestamp AT TIME ZONE $3 AS day_end',
    [day, to, timeZone],
  )
  const { day_start: start, day_end: end } = bounds.rows[0]
  const breaks: BreakRow[] = []
  for (const shop of shops) {
    const widened = new Date(start.getTime() - LINK_WINDOW_MS)
    const last = await lastShopFactAt(client, shop, widened)
    const from = last === null ? widened : new Date(last.getTime() - LINK_WINDOW_MS)
    for (const { fact, expectedPaise, breakPaise } of linkShopBalance(await shopBalanceFacts(client, shop, from, new Date(end.getTime() + LINK_WINDOW_MS)))) {
      const at = new Date(fact.at)
      if (breakPaise === 0 || expectedPaise === null || fact.seenPaise === null || at < start || at >= end) continue
      const type = fact.kind === 'balance' && fact.ref !== null ? 'balance in a coupon answer' : FACT_WORDS[fact.kind]
      breaks.push({ shop, terminal: fact.terminal, at, type, seenPaise: BigInt(fact.seenPaise), expectedPaise: BigInt(expectedPaise), breakPaise: BigInt(breakPaise), ref: fact.ref })
    }
  }
  return breaks.sort((a, b) => a.at.getTime() - b.at.getTime() || a.terminal.localeCompare(b.terminal))
}

/** The page's reads of a range of business days ($1 to $2), each sale counted once in its final state. */
export interface DayReads { recharges: string; coupons: string; margins: string; closes: string }

/** Before office migration 9: the views, which recompute every sale from all history on each read. */
export const VIEW_READS: DayReads = {
  recharges: 'SELECT terminal, operator, sum(sales) AS sales, sum(amount_paise) AS amount_paise, sum(unresolved) AS unresolved FROM recharge_sales_by_day WHERE business_day BETWEEN $1 AND $2 GROUP BY terminal, operator ORDER BY terminal, operator',
  coupons: 'SELECT terminal, coupon_type, sum(sales) AS sales, sum(coupons) AS coupons, sum(amount_paise) AS amount_paise, sum(unresolved) AS unresolved FROM coupon_sales_by_day WHERE business_day BETWEEN $1 AND $2 GROUP BY terminal, coupon_type ORDER BY terminal, coupon_type',
  margins: 'SELECT terminal, kind, sum(earned_paise) AS earned_paise, sum(margin_unknown) AS margin_unknown FROM margins_by_day WHERE business_day BETWEEN $1 AND $2 GROUP BY terminal, kind ORDER BY terminal, kind',
  closes: "SELECT *, to_char(business_day, 'YYYY-MM-DD') AS day FROM day_closes WHERE business_day BETWEEN $1 AND $2 ORDER BY business_day, terminal",
}

/**
 * From office migration 9 (rollups.ts): the roll-ups kept as entries arrive, read by their business-day key, so a
 * read costs the days asked times the terminals, whatever the history. Decision: a group whose sales_n is 0 (its
 * last sale moved to another group) is not a row, as the views would not have one.
 */
export const ROLLED_READS: DayReads = {
  recharges: `SELECT terminal, NULLIF(operator, '') AS operator, sum(sales) AS sales, sum(amount_paise) AS amount_paise, sum(unresolved) AS unresolved
    FROM office_recharge_days WHERE business_day BETWEEN $1 AND $2 GROUP BY terminal, operator HAVING sum(sales_n) > 0 ORDER BY terminal, NULLIF(operator, '')`,
  coupons: `SELECT terminal, coupon_type, sum(sales) AS sales, sum(coupons) AS coupons, sum(amount_paise) AS amount_paise, sum(unresolved) AS unresolved
    FROM office_coupon_days WHERE business_day BETWEEN $1 AND $2 GROUP BY terminal, coupon_type HAVING sum(sales_n) > 0 ORDER BY terminal, coupon_type`,
  margins: `SELECT terminal, kind, sum(earned_paise) AS earned_paise, sum(margin_unknown) AS margin_unknown FROM (
      SELECT terminal, 'recharge' AS kind, earned_paise, margin_unknown, sales_n FROM office_recharge_days WHERE business_day BETWEEN $1 AND $2
      UNION ALL
      SELECT terminal, 'coupon', earned_paise, margin_unknown, sales_n FROM office_coupon_days WHERE business_day BETWEEN $1 AND $2
    ) d GROUP BY terminal, kind HAVING sum(sales_n) > 0 ORDER BY terminal, kind`,
  closes: `SELECT *, counted_paise - expected_cash_paise AS cash_difference_paise, to_char(business_day, 'YYYY-MM-DD') AS day
    FROM office_day_closes WHERE business_day BETWEEN $1 AND $2 ORDER BY business_day, terminal, seq`,
}

/** What each credit customer owes at each terminal now, the largest first; `rolled`: from the roll-ups (office migration 9), else the view. */
export async function readDues(client: ClientBase, rolled: boolean): Promise<DueRow[]> {
  const sql = rolled
    ? `SELECT d.terminal, t.shop, d.number, d.name, d.sold_paise - d.paid_paise AS due_paise FROM office_dues d JOIN terminals t ON t.terminal = d.terminal
       WHERE d.lines > 0 AND d.sold_paise <> d.paid_paise ORDER BY due_paise DESC, d.terminal, d.number`
    : 'SELECT * FROM credit_dues WHERE due_paise <> 0 ORDER BY due_paise DESC, terminal, number'
  return (await client.query<Row>(sql)).rows.map((r) => ({ terminal: String(r.terminal), shop: textOrNull(r.shop), number: String(r.number), name: textOrNull(r.name), duePaise: big(r.due_paise) }))
}

/** The schema the view reads came with office migration 4; an office no counter has reached yet lacks it. */
class NotSetUp extends Error {}
/** The text the tamper check hashes is kept from office migration 8 on; an office not upgraded since lacks it. */
class BeforeTamperCheck extends Error {}

/** The last office migration applied; 0 before the first. */
async function schemaVersion(client: ClientBase): Promise<number> {
  const known = (await client.query<{ known: boolean }>("SELECT to_regclass('office_schema') IS NOT NULL AS known")).rows[0].known
  return known ? Number((await client.query<{ v: number | null }>('SELECT max(version) AS v FROM office_schema')).rows[0].v ?? 0) : 0
}

/**
 * Decision: the tamper check may take minutes, not a page's 20 s: it reads every line the office holds (a million
 * bench-like lines: 26–43 s here, on two cores shared with other work; 200,000 in 2.5 s at best), and it runs on a
 * schedule, never while a person waits unless they asked for it.
 */
const CHECK_TIMEOUT_MS = 10 * 60_000

/** Reads for the page: one pool of at most two connections, each page one consistent snapshot. */
export class OfficeReader {
  private readonly pool: pg.Pool

  constructor(private readonly office: OfficeAddress) {
    this.pool = new pg.Pool({ ...readOnlyClientConfig(office), max: 2, idleTimeoutMillis: 30_000 })
    // A connection lost while idle is noticed by the next page; this keeps it from ending the process meanwhile.
    this.pool.on('error', () => undefined)
  }

  /**
   * Everything the page shows for `day` to `to` (YYYY-MM-DD; one day by default): sales summed over the business
   * days the counters wrote on them; breaks by the day their time falls on in `timeZone`; backlogs and dues as they
   * stand now.
   */
  async day(day: string, timeZone: string, to = day): Promise<OfficeDay> {
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const version = await schemaVersion(client)
      if (version < 4) throw new NotSetUp()
      const rolled = version >= ROLLUPS_MIGRATION.version
      const reads = rolled ? ROLLED_READS : VIEW_READS
      const rows = async (sql: string, params: unknown[] = []) => (await client.query<Row>(sql, params)).rows
      const clocks = new Map((await rows(CLOCK_OFFSETS_SQL)).map((r) => [String(r.terminal), Number(r.ahead_ms)]))
      const shops = (await rows('SELECT DISTINCT shop FROM terminals WHERE shop IS NOT NULL ORDER BY shop')).map((r) => String(r.shop))
      const result: OfficeDay = {
        day,
        to,
        terminals: (await rows('SELECT * FROM terminal_backlog ORDER BY shop, counter, terminal')).map((r) => ({
          terminal: String(r.terminal), shop: textOrNull(r.shop), counter: textOrNull(r.counter), lastContact: r.last_contact as Date | null,
          lastSeq: big(r.last_seq), journalEnd: bigOrNull(r.journal_end), backlog: bigOrNull(r.backlog), clockOffsetMs: clocks.get(String(r.terminal)) ?? null,
        })),
        recharges: (await rows(reads.recharges, [day, to])).map((r) => ({
          terminal: String(r.terminal), operator: String(r.operator), sales: big(r.sales), amountPaise: big(r.amount_paise), unresolved: big(r.unresolved),
        })),
        coupons: (await rows(reads.coupons, [day, to])).map((r) => ({
          terminal: String(r.terminal), couponType: Number(r.coupon_type), sales: big(r.sales), coupons: big(r.coupons), amountPaise: big(r.amount_paise), unresolved: big(r.unresolved),
        })),
        margins: (await rows(reads.margins, [day, to])).map((r) => ({
          terminal: String(r.terminal), kind: String(r.kind), earnedPaise: big(r.earned_paise), marginUnknown: big(r.margin_unknown),
        })),
        dues: await readDues(client, rolled),
        // Decision: only breaks no terminal's facts explain (the shop's chain); one another counter's sale explains is not news.
        breaks: await shopBreaks(client, shops, day, to, timeZone),
        closes: (await rows(reads.closes, [day, to])).map((r) => ({
          terminal: String(r.terminal), businessDay: String(r.day), closedAt: r.closed_at as Date, countedPaise: big(r.counted_paise), expectedCashPaise: big(r.expected_cash_paise),
          cashDifferencePaise: big(r.cash_difference_paise), closingPanBalancePaise: bigOrNull(r.closing_pan_balance_paise), overrideNote: textOrNull(r.override_note),
        })),
        forks: (await rows("SELECT to_regclass('terminal_forks') IS NOT NULL AS known"))[0].known
          ? (await rows('SELECT f.*, t.shop, t.counter, t.last_seq FROM terminal_forks f JOIN terminals t ON t.terminal = f.terminal ORDER BY f.resolved_as IS NOT NULL, f.first_seen')).map((r) => ({
              terminal: String(r.terminal), shop: textOrNull(r.shop), counter: textOrNull(r.counter), lastSeq: big(r.last_seq), partSeq: big(r.part_seq),
              officeHash: String(r.office_hash), claimantHash: textOrNull(r.claimant_hash), claimantShop: textOrNull(r.claimant_shop), claimantCounter: textOrNull(r.claimant_counter),
              claimantJournalEnd: bigOrNull(r.claimant_journal_end), firstSeen: r.first_seen as Date, lastSeen: r.last_seen as Date,
              resolvedAs: textOrNull(r.resolved_as), resolvedAt: r.resolved_at as Date | null,
            }))
          : [],
      }
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    } finally {
      client.release()
    }
  }

  /** The tamper check (chain-check.ts), on a connection of its own: read-only as the page's, with CHECK_TIMEOUT_MS to finish. */
  async checkChains(): Promise<ChainCheck> {
    const client = new pg.Client({ ...readOnlyClientConfig(this.office), query_timeout: CHECK_TIMEOUT_MS })
    client.on('error', () => undefined)
    try {
      await client.connect()
      if ((await schemaVersion(client)) < 8) throw new BeforeTamperCheck()
      return await checkChains(client)
    } finally {
      await client.end().catch(() => undefined)
    }
  }

  /** Why a page or a check could not be read, in plain words: never the driver's message, which could quote the settings. */
  problemWords(error: unknown): string {
    const where = `${this.office.host}:${this.office.port}`
    if (error instanceof NotSetUp) {
      return `The office database at ${where} has no Counter records yet: they are set up when a counter first ships its journal to it.`
    }
    if (error instanceof BeforeTamperCheck) {
      return `The office database at ${where} is older than the tamper check: its owner upgrades it with npm run office -- roles (README, Head office).`
    }
    if ((error as { code?: string } | null)?.code === '42501') {
      return `The office database at ${where} does not let ${this.office.user} read all the page shows: its owner grants it with npm run office -- roles, to a login in the role ${OFFICE_ROLES.reader}.`
    }
    return english(unreachableWords(error, this.office))
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}
