// The office view's reads: its settings from the environment, a read-only connection, and one day's figures across terminals.
import pg from 'pg'
import { formatDate, readDay } from '../shared/dates'
import { english } from '../shared/error-words'
import { officeConnection, unreachableWords, type OfficeAddress } from './shipper'

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

/**
 * How the view connects. Decision: every transaction is read-only in the server itself
 * (default_transaction_read_only), so even a mistake in this code cannot write to the office's books.
 */
export function readOnlyClientConfig(office: OfficeAddress): pg.ClientConfig {
  return {
    ...officeConnection(office),
    options: '-c default_transaction_read_only=on',
    connectionTimeoutMillis: 10_000,
    query_timeout: 20_000,
    application_name: 'counter office view',
  }
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
}
export interface RechargeRow { terminal: string; operator: string; sales: bigint; amountPaise: bigint; unresolved: bigint }
export interface CouponRow { terminal: string; couponType: number; sales: bigint; coupons: bigint; amountPaise: bigint; unresolved: bigint }
export interface MarginRow { terminal: string; kind: string; earnedPaise: bigint; marginUnknown: bigint }
export interface DueRow { terminal: string; shop: string | null; number: string; name: string | null; duePaise: bigint }
export interface BreakRow { shop: string | null; terminal: string; at: Date; type: string; seenPaise: bigint; expectedPaise: bigint; breakPaise: bigint }
export interface CloseRow { terminal: string; closedAt: Date; countedPaise: bigint; expectedCashPaise: bigint; cashDifferencePaise: bigint; closingPanBalancePaise: bigint | null; overrideNote: string | null }

export interface OfficeDay {
  day: string
  terminals: TerminalRow[]
  recharges: RechargeRow[]
  coupons: CouponRow[]
  margins: MarginRow[]
  dues: DueRow[]
  breaks: BreakRow[]
  closes: CloseRow[]
}

type Row = Record<string, unknown>
const big = (value: unknown): bigint => BigInt(value as string)
const bigOrNull = (value: unknown): bigint | null => (value === null ? null : big(value))
const textOrNull = (value: unknown): string | null => (value === null ? null : String(value))

/** The schema the view reads came with office migration 4; an office no counter has reached yet lacks it. */
class NotSetUp extends Error {}

/** Reads for the page: one pool of at most two connections, each page one consistent snapshot. */
export class OfficeReader {
  private readonly pool: pg.Pool

  constructor(private readonly office: OfficeAddress) {
    this.pool = new pg.Pool({ ...readOnlyClientConfig(office), max: 2, idleTimeoutMillis: 30_000 })
    // A connection lost while idle is noticed by the next page; this keeps it from ending the process meanwhile.
    this.pool.on('error', () => undefined)
  }

  /**
   * Everything the page shows for `day` (YYYY-MM-DD): sales by the business day the counters wrote on
   * them; breaks by the day their time falls on in `timeZone`; backlogs and dues as they stand now.
   */
  async day(day: string, timeZone: string): Promise<OfficeDay> {
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const schemaKnown = (await client.query<{ known: boolean }>("SELECT to_regclass('office_schema') IS NOT NULL AS known")).rows[0].known
      if (!schemaKnown || Number((await client.query('SELECT max(version) AS v FROM office_schema')).rows[0].v ?? 0) < 4) throw new NotSetUp()
      const rows = async (sql: string, params: unknown[] = []) => (await client.query<Row>(sql, params)).rows
      const result: OfficeDay = {
        day,
        terminals: (await rows('SELECT * FROM terminal_backlog ORDER BY shop, counter, terminal')).map((r) => ({
          terminal: String(r.terminal), shop: textOrNull(r.shop), counter: textOrNull(r.counter), lastContact: r.last_contact as Date | null,
          lastSeq: big(r.last_seq), journalEnd: bigOrNull(r.journal_end), backlog: bigOrNull(r.backlog),
        })),
        recharges: (await rows('SELECT * FROM recharge_sales_by_day WHERE business_day = $1 ORDER BY terminal, operator', [day])).map((r) => ({
          terminal: String(r.terminal), operator: String(r.operator), sales: big(r.sales), amountPaise: big(r.amount_paise), unresolved: big(r.unresolved),
        })),
        coupons: (await rows('SELECT * FROM coupon_sales_by_day WHERE business_day = $1 ORDER BY terminal, coupon_type', [day])).map((r) => ({
          terminal: String(r.terminal), couponType: Number(r.coupon_type), sales: big(r.sales), coupons: big(r.coupons), amountPaise: big(r.amount_paise), unresolved: big(r.unresolved),
        })),
        margins: (await rows('SELECT * FROM margins_by_day WHERE business_day = $1 ORDER BY terminal, kind', [day])).map((r) => ({
          terminal: String(r.terminal), kind: String(r.kind), earnedPaise: big(r.earned_paise), marginUnknown: big(r.margin_unknown),
        })),
        dues: (await rows('SELECT * FROM credit_dues WHERE due_paise <> 0 ORDER BY due_paise DESC, terminal, number')).map((r) => ({
          terminal: String(r.terminal), shop: textOrNull(r.shop), number: String(r.number), name: textOrNull(r.name), duePaise: big(r.due_paise),
        })),
        // Decision: only breaks no terminal's facts explain (the shop's chain); one another counter's sale explains is not news.
        breaks: (await rows('SELECT * FROM pan_balance_chain WHERE break_paise <> 0 AND (at AT TIME ZONE $2)::date = $1::date ORDER BY at', [day, timeZone])).map((r) => ({
          shop: textOrNull(r.shop), terminal: String(r.terminal), at: r.at as Date, type: String(r.type),
          seenPaise: big(r.seen_paise), expectedPaise: big(r.expected_paise), breakPaise: big(r.break_paise),
        })),
        closes: (await rows('SELECT * FROM day_closes WHERE business_day = $1 ORDER BY terminal', [day])).map((r) => ({
          terminal: String(r.terminal), closedAt: r.closed_at as Date, countedPaise: big(r.counted_paise), expectedCashPaise: big(r.expected_cash_paise),
          cashDifferencePaise: big(r.cash_difference_paise), closingPanBalancePaise: bigOrNull(r.closing_pan_balance_paise), overrideNote: textOrNull(r.override_note),
        })),
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

  /** Why a page could not be read, in plain words: never the driver's message, which could quote the settings. */
  problemWords(error: unknown): string {
    if (error instanceof NotSetUp) {
      return `The office database at ${this.office.host}:${this.office.port} has no Counter records yet: they are set up when a counter first ships its journal to it.`
    }
    return english(unreachableWords(error, this.office))
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}
