// The office view's HTML: one day across terminals, or a plain page saying why there is none. Server-rendered, no script.
import { couponTypeNames, type CouponType } from '../contract/pan'
import { formatDateTime, formatDay } from '../shared/dates'
import { formatBigPaise } from '../shared/money'
import type { ChainCheck, TamperRow } from './chain-check'
import { officeAlerts, type OfficeAlert } from './office-alerts'
import type { ForkRow, OfficeDay, TerminalRow } from './office-view'

/**
 * Decision: the page reloads itself every 30 s (a meta refresh, no script; a shipper's heartbeat is 30 s
 * too) only when asked (?refresh=on, a link on the page, and a link to stop): a page that reloads on its
 * own by default is one a person reading it slowly cannot keep still (WCAG 2.2.1; axe flags it as critical).
 */
export const REFRESH_SECONDS = 30

/** Where the page is: its token (carried in every link and its day form: the page has no script to keep it elsewhere), the day unless today, auto-refresh. */
export interface PageAddress {
  token: string
  /** Null for the office's today. */
  day: string | null
  refresh: boolean
}

export function pageUrl(address: PageAddress): string {
  const query = new URLSearchParams({ token: address.token })
  if (address.day !== null) query.set('day', address.day)
  if (address.refresh) query.set('refresh', 'on')
  return `/?${query.toString()}`
}

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

const cell = (text: string, numeric = false) => `<td${numeric ? ' class="n"' : ''}>${escapeHtml(text)}</td>`
function table(names: string[], rows: string[][], empty: string, numericFrom = 1): string {
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

export function officeDayPage(view: OfficeDay, context: PageContext): string {
  const { timeZone, now, address, tamper } = context
  const at = (instant: Date) => formatDateTime(instant, { timeZone, clock: '24h' })
  const labels = view.terminals.map((t) => [t.shop, t.counter].filter(Boolean).join(' · ') || t.terminal)
  // Decision: two terminals of one name (a counter registered anew after a fork keeps its names) are told apart by id.
  const names = new Map(view.terminals.map((t, i) => [t.terminal, labels.indexOf(labels[i]) === labels.lastIndexOf(labels[i]) ? labels[i] : `${labels[i]} (${t.terminal})`]))
  const openForks = new Map(view.forks.filter((f) => f.resolvedAs === null).map((f) => [f.terminal, f]))
  const nameOf = (terminal: string) => names.get(terminal) ?? terminal

  const terminals = table(
    ['Terminal', 'Last contact', 'Entries received', 'Entries at the counter (as it last said)', 'Backlog', 'Clock'],
    view.terminals.map((t) => [
      nameOf(t.terminal),
      t.lastContact === null ? 'never' : `${at(t.lastContact)} (${ago(t.lastContact, now)})`,
      String(t.lastSeq),
      t.journalEnd === null ? '—' : String(t.journalEnd),
      openForks.has(t.terminal) ? forkWords(openForks.get(t.terminal)!) : backlogWords(t),
      clockWords(t),
    ]),
    'No terminal has reached this office yet.',
    2,
  )

  const byTerminal = view.terminals
    .map((t) => {
      const recharges = view.recharges.filter((r) => r.terminal === t.terminal)
      const coupons = view.coupons.filter((c) => c.terminal === t.terminal)
      const earned = view.margins.filter((m) => m.terminal === t.terminal)
      const unknown = sum(earned.map((m) => m.marginUnknown))
      return [
        nameOf(t.terminal),
        String(sum(recharges.map((r) => r.sales))),
        formatBigPaise(sum(recharges.map((r) => r.amountPaise))),
        String(sum(coupons.map((c) => c.coupons))),
        formatBigPaise(sum(coupons.map((c) => c.amountPaise))),
        formatBigPaise(sum(earned.map((m) => m.earnedPaise))) + (unknown > 0n ? ` (+${unknown} without a recorded margin)` : ''),
        String(sum([...recharges, ...coupons].map((s) => s.unresolved))),
      ]
    })
    .filter((row) => row.slice(1).some((text) => !/^(0|₹0\.00)$/.test(text)))

  const alerts = officeAlerts(view, { now, timeZone, nameOf })
  const closedTerminals = new Set(view.closes.map((c) => c.terminal))
  const notClosed = view.terminals.filter((t) => !closedTerminals.has(t.terminal)).map((t) => nameOf(t.terminal))

  const body = [
    `<h1>Counter head office — ${escapeHtml(formatDay(view.day))}${address.day === null ? ' (today)' : ''}</h1>`,
    `<p class="none">Read-only. Shown ${escapeHtml(at(now))} (${escapeHtml(timeZone)}). Sales count once the provider said SUCCESS.</p>`,
    refreshLinks(address),
    `<form method="get" action="/"><input type="hidden" name="token" value="${escapeHtml(address.token)}"><label>Another day <input type="date" name="day" value="${view.day}"></label> <button>Show</button></form>`,
    alertsSection(alerts),
    tamper ? tamperSection(tamper, address, at, nameOf) : '',
    `<h2>Terminals</h2>${terminals}`,
    view.forks.length > 0 ? `<h2>Forks: two counters claiming one terminal</h2>${forksTable(view.forks, at, nameOf)}` : '',
    `<h2>Sales by terminal</h2>${table(['Terminal', 'Recharges', 'Recharge amount', 'Coupons', 'Coupon amount', 'Earned', 'Unresolved'], byTerminal, 'No sales on this day.')}`,
    `<h2>Recharges by operator</h2>${table(['Terminal', 'Operator', 'Sales', 'Amount', 'Unresolved'], view.recharges.map((r) => [nameOf(r.terminal), r.operator, String(r.sales), formatBigPaise(r.amountPaise), String(r.unresolved)]), 'No recharges on this day.', 2)}`,
    `<h2>PAN coupons by type</h2>${table(['Terminal', 'Coupon type', 'Sales', 'Coupons', 'Amount', 'Unresolved'], view.coupons.map((c) => [nameOf(c.terminal), couponName(c.couponType), String(c.sales), String(c.coupons), formatBigPaise(c.amountPaise), String(c.unresolved)]), 'No PAN coupons on this day.', 2)}`,
    `<h2>PAN balance breaks no terminal explains</h2>${table(['Terminal', 'When', 'Fact', 'Seen', 'Expected', 'Break'], view.breaks.map((b) => [nameOf(b.terminal), at(b.at), b.type, formatBigPaise(b.seenPaise), formatBigPaise(b.expectedPaise), formatBigPaise(b.breakPaise)]), 'None: every balance movement on this day is explained by a sale or top-up at some terminal.', 3)}`,
    `<h2>Day closes</h2>${table(['Terminal', 'Closed at', 'Counted', 'Expected cash', 'Difference', 'PAN balance at close'], view.closes.map((c) => [nameOf(c.terminal), at(c.closedAt), formatBigPaise(c.countedPaise), formatBigPaise(c.expectedCashPaise), formatBigPaise(c.cashDifferencePaise), c.closingPanBalancePaise === null ? '—' : formatBigPaise(c.closingPanBalancePaise)]), 'No terminal has closed this day.', 2)}`,
    notClosed.length > 0 ? `<p class="none">Not closed: ${escapeHtml(notClosed.join(', '))}.</p>` : '',
    `<h2>Credit dues (now)</h2>${table(['Terminal', 'Customer', 'Number', 'Due'], view.dues.map((d) => [nameOf(d.terminal), d.name ?? '—', d.number, formatBigPaise(d.duePaise)]), 'No customer owes anything.', 3)}`,
  ].join('\n')
  // The count in the title: a tab in the background says there is something to see.
  return page(`${alerts.length > 0 ? `(${alerts.length}) ` : ''}Counter office — ${formatDay(view.day)}`, body, address)
}
