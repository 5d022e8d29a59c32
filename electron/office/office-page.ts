// The office view's HTML: one day across terminals, or a plain page saying why there is none. Server-rendered, no script.
import { couponTypeNames, type CouponType } from '../contract/pan'
import { formatDateTime, formatDay } from '../shared/dates'
import { csvDocument, csvNumber, type CsvCell } from '../shared/csv'
import { bigPaiseDecimal, formatBigPaise } from '../shared/money'
import type { ChainCheck, TamperRow } from './chain-check'
import { officeAlerts, type OfficeAlert } from './office-alerts'
import type { DueRow, ForkRow, OfficeDay, TerminalRow } from './office-view'

/**
 * Decision: the page reloads itself every 30 s (a meta refresh, no script; a shipper's heartbeat is 30 s
 * too) only when asked (?refresh=on, a link on the page, and a link to stop): a page that reloads on its
 * own by default is one a person reading it slowly cannot keep still (WCAG 2.2.1; axe flags it as critical).
 */
export const REFRESH_SECONDS = 30

/** Where the page is: its token (carried in every link and its day form: the page has no script to keep it elsewhere), the days unless today, auto-refresh. */
export interface PageAddress {
  token: string
  /** Null for the office's today. */
  day: string | null
  /** The last day of a range from `day`; null for one day. */
  to: string | null
  refresh: boolean
}

export function pageUrl(address: PageAddress): string {
  const query = new URLSearchParams({ token: address.token })
  if (address.day !== null) query.set('day', address.day)
  if (address.to !== null) query.set('to', address.to)
  if (address.refresh) query.set('refresh', 'on')
  return `/?${query.toString()}`
}

/** One table of the page as a spreadsheet wants it: its address there. */
export const csvUrl = (address: PageAddress, table: string) => `${pageUrl(address)}&csv=${encodeURIComponent(table)}`

/** The tamper check's last run as the office server holds it (office-server.ts): none finished yet, its result, or why it could not run. */
export type TamperState = { kind: 'pending' } | { kind: 'done'; check: ChainCheck } | { kind: 'failed'; at: Date; words: string }

export interface PageContext {
  timeZone: string
  now: Date
  address: PageAddress
  /** Only the office server checks the chains; a page drawn without it has no tamper section. */
  tamper?: TamperState
}

/** The page's address with the tamper check run first. Decision: a GET like every other: it only reads, and the page has no script to send anything else. */
export const checkNowUrl = (address: PageAddress) => `${pageUrl(address)}&check=now`

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const STYLE = `body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1a1a1a;max-width:72rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.6rem}table{border-collapse:collapse;margin:.4rem 0}
th,td{border-bottom:1px solid #ccc;padding:.3rem .7rem;text-align:left}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:#a40000;font-weight:600}.ok{color:#1d6b1d}.none{color:#555}`

const link = (address: PageAddress, text: string) => `<a href="${escapeHtml(pageUrl(address))}">${escapeHtml(text)}</a>`

/** The alerts, at the top where they are seen first; a line saying there are none when there are none. */
function alertsSection(alerts: readonly OfficeAlert[]): string {
  if (alerts.length === 0) return '<h2>Needs attention</h2><p class="ok">Nothing needs attention.</p>'
  return `<h2 class="bad">Needs attention (${alerts.length})</h2><ul>${alerts.map((alert) => `<li class="bad" data-alert="${alert.kind}">${escapeHtml(alert.words)}</li>`).join('')}</ul>`
}

function page(title: string, body: string, address: PageAddress | null): string {
  const refresh = address?.refresh ? `<meta http-equiv="refresh" content="${REFRESH_SECONDS}; url=${escapeHtml(pageUrl(address))}">` : ''
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
}

/** "Refresh now" and the switch for refreshing on its own. */
function refreshLinks(address: PageAddress): string {
  const toggle = address.refresh
    ? `Refreshing every ${REFRESH_SECONDS} s: ${link({ ...address, refresh: false }, 'stop refreshing')}`
    : link({ ...address, refresh: true }, `Refresh every ${REFRESH_SECONDS} s`)
  return `<p>${link(address, 'Refresh now')} · ${toggle}</p>`
}

/**
 * A page that says what is wrong, in words for the owner (no stack trace, no setting's value but the
 * address); with the page's address (the caller had the token) it offers to try again.
 */
export function problemPage(title: string, message: string, address: PageAddress | null = null): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="bad">${escapeHtml(message)}</p>${address ? refreshLinks(address) : ''}`, address)
}

/** A table's cell: text, or a figure shown as text and written to CSV as its plain number (697.00, not ₹697.00). */
type Cell = string | { text: string; number: string }
const textOf = (value: Cell) => (typeof value === 'string' ? value : value.text)
const money = (paise: bigint): Cell => ({ text: formatBigPaise(paise), number: bigPaiseDecimal(paise) })
const count = (n: bigint): Cell => ({ text: String(n), number: String(n) })

const cell = (value: Cell, numeric = false) => `<td${numeric ? ' class="n"' : ''}>${escapeHtml(textOf(value))}</td>`
function table(names: string[], rows: Cell[][], empty: string, numericFrom = 1): string {
  if (rows.length === 0) return `<p class="none">${escapeHtml(empty)}</p>`
  const body = rows.map((row) => `<tr>${row.map((text, index) => cell(text, index >= numericFrom)).join('')}</tr>`).join('')
  const head = names.map((name, index) => `<th${index >= numericFrom ? ' class="n"' : ''}>${escapeHtml(name)}</th>`).join('')
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`
}

/** How long ago, for a person: "just now", "1 min ago", "3 h 5 min ago", "2 days 4 h ago". */
function ago(then: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 60_000))
  if (minutes === 0) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ${minutes % 60} min ago`
  const days = Math.floor(hours / 24)
  return `${days} ${days === 1 ? 'day' : 'days'} ${hours % 24} h ago`
}

/** A terminal's backlog in plain words; the office can only count what the terminal told it. */
export function backlogWords(terminal: TerminalRow): string {
  if (terminal.lastContact === null) return 'never heard from'
  if (terminal.backlog === null) return 'backlog unknown (its Counter has not reported its journal’s end)'
  if (terminal.backlog === 0n) return 'up to date'
  return `behind ${terminal.backlog} ${terminal.backlog === 1n ? 'entry' : 'entries'}`
}

/** Decision: within 5 s a clock reads "in step": the office can only bound it to about its shipping delay (a 1 s poll), and the shop's balance chain allows a quarter of an hour. */
export const IN_STEP_MS = 5_000

/** A terminal's clock against the office's, in plain words: "in step", "clock 1 min 30 s slow", "clock 2 h 5 min fast". */
export function clockWords(terminal: TerminalRow): string {
  if (terminal.clockOffsetMs === null) return 'unknown (no entries yet)'
  if (Math.abs(terminal.clockOffsetMs) <= IN_STEP_MS) return 'in step'
  const seconds = Math.round(Math.abs(terminal.clockOffsetMs) / 1000)
  const [h, min, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
  const size = h > 0 ? `${h} h ${min} min` : min > 0 ? `${min} min ${s} s` : `${s} s`
  return `clock ${size} ${terminal.clockOffsetMs < 0 ? 'slow' : 'fast'}`
}

/** A terminal two journals claim, in plain words: the office cannot say it is up to date while the other waits. */
function forkWords(fork: ForkRow): string {
  return `forked: another counter claims this id; they part at entry #${fork.partSeq} (see Forks)`
}

/** The forks recorded: each one's two claimants and where they part, and how it was resolved. */
function forksTable(forks: readonly ForkRow[], at: (instant: Date) => string, nameOf: (terminal: string) => string): string {
  const label = (shop: string | null, counter: string | null) => [shop, counter].filter(Boolean).join(' · ') || 'unnamed'
  const short = (hash: string) => hash.slice(0, 12)
  return table(
    ['Terminal id', 'Held by the office', 'Refused claimant', 'They part at', 'Office’s entry there', 'Claimant’s entry there', 'First seen', 'Now'],
    forks.map((f) => {
      const waiting = f.claimantJournalEnd === null ? null : f.claimantJournalEnd - (f.partSeq - 1n)
      return [
        f.terminal,
        `${label(f.shop, f.counter)}: entries 1–${f.lastSeq}`,
        `${label(f.claimantShop, f.claimantCounter)}: journal to #${f.claimantJournalEnd ?? '?'}${waiting === null ? '' : `, ${waiting} ${waiting === 1n ? 'entry' : 'entries'} not in the office under this id`}`,
        `entry #${f.partSeq} (1–${f.partSeq - 1n} alike)`,
        short(f.officeHash),
        f.claimantHash === null ? 'none yet (its journal ends before)' : short(f.claimantHash),
        at(f.firstSeen),
        f.resolvedAs === null
          ? `open: its owner can register it as a new terminal (Settings, Head office); last refused ${at(f.lastSeen)}`
          : `registered anew as ${nameOf(f.resolvedAs)}${f.resolvedAt ? ` (${at(f.resolvedAt)})` : ''}`,
      ]
    }),
    'None: no two counters claim one terminal id.',
    8,
  )
}

/** A tamper check's finding in plain words: which line, and what became of it. */
function tamperWords(row: TamperRow): [string, string] {
  switch (row.kind) {
    case 'edited':
      return [`#${row.seq}`, 'changed at the office: it no longer matches what the counter hashed']
    case 'missing':
      return [row.seq === row.through ? `#${row.seq}` : `#${row.seq}–#${row.through}`, 'deleted at the office: received from the counter, no longer held']
    case 'unlinked':
      return [`#${row.seq}`, `does not follow #${row.seq - 1n} as the counter wrote them: one of the two was changed at the office (its hash made again)`]
    case 'end':
      return [`#${row.seq}`, 'is not the line the office received as this terminal’s last: changed at the office (its hash made again)']
  }
}

/** The tamper check: every line changed or deleted at the office, by terminal and line; else that none is, and how much was checked. */
function tamperSection(state: TamperState, address: PageAddress, at: (instant: Date) => string, nameOf: (terminal: string) => string): string {
  const again = `<p><a href="${escapeHtml(checkNowUrl(address))}">Check now</a></p>`
  if (state.kind === 'pending') return `<h2>Tamper check</h2><p class="none">The first check of the office’s lines is running: refresh in a moment.</p>${again}`
  if (state.kind === 'failed') return `<h2>Tamper check</h2><p class="bad">The tamper check could not run (${escapeHtml(at(state.at))}): ${escapeHtml(state.words)}</p>${again}`
  const { check } = state
  const checked = `Checked ${escapeHtml(at(check.checkedAt))}: ${check.entries} ${check.entries === 1n ? 'line' : 'lines'} of ${check.terminals} ${check.terminals === 1 ? 'terminal' : 'terminals'}, each hashed again and linked to the one before.`
  const textless = check.textless > 0n
    ? ` ${check.textless} ${check.textless === 1n ? 'line was' : 'lines were'} received before the office kept each line’s text (office migration 8): checked for deletions only, an edit to one cannot be seen.`
    : ''
  if (check.problemCount === 0) return `<h2>Tamper check</h2><p class="ok">No tampering: every line the office holds is as its counter sent it. <span class="none">${checked}${escapeHtml(textless)}</span></p>${again}`
  const rows = check.problems.map((row) => [nameOf(row.terminal), ...tamperWords(row)])
  const more = check.problemCount - check.problems.length
  return [
    `<h2 class="bad">Tampering: lines changed or deleted at the office</h2>`,
    `<p class="bad">${check.problemCount} ${check.problemCount === 1 ? 'finding' : 'findings'}: the office’s books no longer match what the counters sent, and its figures below include the changes. Each counter’s own journal still holds its lines as written.</p>`,
    table(['Terminal', 'Line', 'What'], rows, '', 3),
    more > 0 ? `<p class="bad">And ${more} more.</p>` : '',
    `<p class="none">${checked}${escapeHtml(textless)}</p>`,
    again,
  ].join('')
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n)
const couponName = (type: number) => couponTypeNames[type as CouponType] ?? `type ${type}`

/** One of the page's tables, which the page draws and a CSV download writes (the one CSV writer). */
export interface OfficeTable {
  id: string
  title: string
  names: string[]
  rows: Cell[][]
  empty: string
  numericFrom: number
}

/** The figures of a set of terminals over the page's days: one row of "Sales by terminal". */
interface SalesFigures {
  recharges: bigint
  rechargePaise: bigint
  coupons: bigint
  couponPaise: bigint
  earnedPaise: bigint
  marginUnknown: bigint
  unresolved: bigint
}

function salesOf(view: OfficeDay, terminals: ReadonlySet<string>): SalesFigures {
  const recharges = view.recharges.filter((r) => terminals.has(r.terminal))
  const coupons = view.coupons.filter((c) => terminals.has(c.terminal))
  const earned = view.margins.filter((m) => terminals.has(m.terminal))
  return {
    recharges: sum(recharges.map((r) => r.sales)),
    rechargePaise: sum(recharges.map((r) => r.amountPaise)),
    coupons: sum(coupons.map((c) => c.coupons)),
    couponPaise: sum(coupons.map((c) => c.amountPaise)),
    earnedPaise: sum(earned.map((m) => m.earnedPaise)),
    marginUnknown: sum(earned.map((m) => m.marginUnknown)),
    unresolved: sum([...recharges, ...coupons].map((c) => c.unresolved)),
  }
}

const salesRow = (label: string, f: SalesFigures): Cell[] => [
  label,
  count(f.recharges),
  money(f.rechargePaise),
  count(f.coupons),
  money(f.couponPaise),
  { text: formatBigPaise(f.earnedPaise) + (f.marginUnknown > 0n ? ` (+${f.marginUnknown} without a recorded margin)` : ''), number: bigPaiseDecimal(f.earnedPaise) },
  count(f.unresolved),
]
const soldNothing = (f: SalesFigures) => f.recharges === 0n && f.coupons === 0n && f.earnedPaise === 0n && f.unresolved === 0n && f.marginUnknown === 0n

/**
 * Decision (issue #28): a customer who owes at two counters of a shop owes the shop: one row per shop and number, the
 * counters named. Two shops' customers with one number stay two rows: each shop keeps its own book of credit.
 */
function duesByCustomer(dues: readonly DueRow[], nameOf: (terminal: string) => string): Cell[][] {
  const merged = new Map<string, { name: string | null; number: string; duePaise: bigint; at: string[] }>()
  for (const due of dues) {
    const key = `${due.shop ?? ''}\u0000${due.number}`
    const held = merged.get(key) ?? { name: null, number: due.number, duePaise: 0n, at: [] }
    held.name ??= due.name
    held.duePaise += due.duePaise
    held.at.push(nameOf(due.terminal))
    merged.set(key, held)
  }
  return [...merged.values()].filter((due) => due.duePaise !== 0n).sort((a, b) => (b.duePaise > a.duePaise ? 1 : b.duePaise < a.duePaise ? -1 : a.number.localeCompare(b.number))).map((due) => [due.name ?? '—', due.number, due.at.join(', '), money(due.duePaise)])
}

/** The page's figures: its alerts, the tables it draws and exports, and how it names terminals. */
export function officeTables(view: OfficeDay, context: Pick<PageContext, 'timeZone' | 'now'>) {
  const { timeZone, now } = context
  const at = (instant: Date) => formatDateTime(instant, { timeZone, clock: '24h' })
  const labels = view.terminals.map((t) => [t.shop, t.counter].filter(Boolean).join(' · ') || t.terminal)
  // Decision: two terminals of one name (a counter registered anew after a fork keeps its names) are told apart by id.
  const names = new Map(view.terminals.map((t, i) => [t.terminal, labels.indexOf(labels[i]) === labels.lastIndexOf(labels[i]) ? labels[i] : `${labels[i]} (${t.terminal})`]))
  const openForks = new Map(view.forks.filter((f) => f.resolvedAs === null).map((f) => [f.terminal, f]))
  const nameOf = (terminal: string) => names.get(terminal) ?? terminal

  const shops = [...new Set(view.terminals.map((t) => t.shop ?? ''))]
  const terminalsOf = (shop: string) => new Set(view.terminals.filter((t) => (t.shop ?? '') === shop).map((t) => t.terminal))
  const salesRows: Cell[][] = []
  for (const shop of shops) {
    const own = view.terminals.filter((t) => (t.shop ?? '') === shop)
    const rows = own.map((t) => ({ t, figures: salesOf(view, new Set([t.terminal])) })).filter(({ figures }) => !soldNothing(figures))
    salesRows.push(...rows.map(({ t, figures }) => salesRow(nameOf(t.terminal), figures)))
    if (rows.length > 1) salesRows.push(salesRow(`${shop || 'No shop name'}: all counters`, salesOf(view, terminalsOf(shop))))
  }
  if (shops.length > 1 && salesRows.length > 0) salesRows.push(salesRow('All shops', salesOf(view, new Set(view.terminals.map((t) => t.terminal)))))

  const tables: OfficeTable[] = [
    {
      id: 'terminals',
      title: 'Terminals',
      names: ['Terminal', 'Last contact', 'Entries received', 'Entries at the counter (as it last said)', 'Backlog', 'Clock'],
      rows: view.terminals.map((t) => [
        nameOf(t.terminal),
        t.lastContact === null ? 'never' : `${at(t.lastContact)} (${ago(t.lastContact, now)})`,
        count(t.lastSeq),
        t.journalEnd === null ? '—' : count(t.journalEnd),
        openForks.has(t.terminal) ? forkWords(openForks.get(t.terminal)!) : backlogWords(t),
        clockWords(t),
      ]),
      empty: 'No terminal has reached this office yet.',
      numericFrom: 2,
    },
    {
      id: 'sales',
      title: 'Sales by terminal',
      names: ['Terminal', 'Recharges', 'Recharge amount', 'Coupons', 'Coupon amount', 'Earned', 'Unresolved'],
      rows: salesRows,
      empty: view.day === view.to ? 'No sales on this day.' : 'No sales on these days.',
      numericFrom: 1,
    },
    {
      id: 'recharges',
      title: 'Recharges by operator',
      names: ['Terminal', 'Operator', 'Sales', 'Amount', 'Unresolved'],
      rows: view.recharges.map((r) => [nameOf(r.terminal), r.operator, count(r.sales), money(r.amountPaise), count(r.unresolved)]),
      empty: view.day === view.to ? 'No recharges on this day.' : 'No recharges on these days.',
      numericFrom: 2,
    },
    {
      id: 'coupons',
      title: 'PAN coupons by type',
      names: ['Terminal', 'Coupon type', 'Sales', 'Coupons', 'Amount', 'Unresolved'],
      rows: view.coupons.map((c) => [nameOf(c.terminal), couponName(c.couponType), count(c.sales), count(c.coupons), money(c.amountPaise), count(c.unresolved)]),
      empty: view.day === view.to ? 'No PAN coupons on this day.' : 'No PAN coupons on these days.',
      numericFrom: 2,
    },
    {
      id: 'breaks',
      title: 'PAN balance breaks no terminal explains',
      names: ['Terminal', 'When', 'Fact', 'Seen', 'Expected', 'Break'],
      rows: view.breaks.map((b) => [nameOf(b.terminal), at(b.at), b.type, money(b.seenPaise), money(b.expectedPaise), money(b.breakPaise)]),
      empty: 'None: every balance movement on these days is explained by a sale or top-up at some terminal.',
      numericFrom: 3,
    },
    {
      id: 'closes',
      title: 'Day closes',
      names: ['Terminal', 'Day', 'Closed at', 'Counted', 'Expected cash', 'Difference', 'PAN balance at close'],
      rows: view.closes.map((c) => [nameOf(c.terminal), formatDay(c.businessDay), at(c.closedAt), money(c.countedPaise), money(c.expectedCashPaise), money(c.cashDifferencePaise), c.closingPanBalancePaise === null ? '—' : money(c.closingPanBalancePaise)]),
      empty: view.day === view.to ? 'No terminal has closed this day.' : 'No terminal has closed any of these days.',
      numericFrom: 3,
    },
    {
      id: 'dues',
      title: 'Credit dues (now)',
      names: ['Customer', 'Number', 'Owed at', 'Due'],
      rows: duesByCustomer(view.dues, nameOf),
      empty: 'No customer owes anything.',
      numericFrom: 3,
    },
  ]
  return { tables, alerts: officeAlerts(view, { now, timeZone, nameOf }), nameOf, at }
}

/** One table as a CSV file (the one CSV writer): its headings, then its rows, figures as plain numbers; null for a table the page has not. */
export function officeCsv(view: OfficeDay, context: Pick<PageContext, 'timeZone' | 'now'>, id: string): { filename: string; content: string } | null {
  const found = officeTables(view, context).tables.find((candidate) => candidate.id === id)
  if (!found) return null
  const rows: CsvCell[][] = [found.names, ...found.rows.map((row) => row.map((value) => (typeof value === 'string' ? value : csvNumber(value.number))))]
  const days = view.day === view.to ? view.day : `${view.day}_${view.to}`
  return { filename: `counter-office-${found.id}-${days}.csv`, content: csvDocument(rows) }
}

export function officeDayPage(view: OfficeDay, context: PageContext): string {
  const { timeZone, now, address, tamper } = context
  const { tables, alerts, nameOf, at } = officeTables(view, context)
  const drawn = (id: string) => {
    const spec = tables.find((candidate) => candidate.id === id)!
    return `<h2>${escapeHtml(spec.title)}</h2>${table(spec.names, spec.rows, spec.empty, spec.numericFrom)}<p class="none"><a href="${escapeHtml(csvUrl(address, id))}">Download “${escapeHtml(spec.title)}” as CSV</a></p>`
  }
  const closedTerminals = new Set(view.closes.filter((c) => c.businessDay === view.to).map((c) => c.terminal))
  const notClosed = view.terminals.filter((t) => !closedTerminals.has(t.terminal)).map((t) => nameOf(t.terminal))
  const days = view.day === view.to ? formatDay(view.day) : `${formatDay(view.day)} to ${formatDay(view.to)}`

  const body = [
    `<h1>Counter head office — ${escapeHtml(days)}${address.day === null && address.to === null ? ' (today)' : ''}</h1>`,
    `<p class="none">Read-only. Shown ${escapeHtml(at(now))} (${escapeHtml(timeZone)}). Sales count once the provider said SUCCESS.</p>`,
    refreshLinks(address),
    `<form method="get" action="/"><input type="hidden" name="token" value="${escapeHtml(address.token)}"><label>From <input type="date" name="day" value="${view.day}"></label> <label>to <input type="date" name="to" value="${view.to}"></label> <button>Show</button></form>`,
    alertsSection(alerts),
    tamper ? tamperSection(tamper, address, at, nameOf) : '',
    drawn('terminals'),
    view.forks.length > 0 ? `<h2>Forks: two counters claiming one terminal</h2>${forksTable(view.forks, at, nameOf)}` : '',
    drawn('sales'),
    drawn('recharges'),
    drawn('coupons'),
    drawn('breaks'),
    drawn('closes'),
    notClosed.length > 0 ? `<p class="none">Not closed${view.day === view.to ? '' : ` on ${escapeHtml(formatDay(view.to))}`}: ${escapeHtml(notClosed.join(', '))}.</p>` : '',
    drawn('dues'),
  ].join('\n')
  // The count in the title: a tab in the background says there is something to see.
  return page(`${alerts.length > 0 ? `(${alerts.length}) ` : ''}Counter office — ${days}`, body, address)
}
