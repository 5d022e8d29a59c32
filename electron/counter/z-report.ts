// The Z report of a business day, drawn from its DaySummary: an 80 mm receipt in the receipts'
// look, an A4 page of tables (for PDF) and one CSV document; pure functions of summary and shop.
import { banknotes, couponTypeNames, type BalanceBreak, type DaySummary, type DrawerMoves, type Earnings, type SaleState, type StaffPayment } from '../contract'
import { csvDocument, csvNumber, type CsvCell } from '../shared/csv'
import { formatDay, formatExportTime } from '../shared/dates'
import { formatPaise, paiseToDecimal, parseRupees } from '../shared/money'
import { formatCount } from '../shared/numbers'
import { receiptPageCss } from '../shared/paper'
import { type Language, paperWords, type PaperWords, speak } from '../shared/words'
import { fontFacesFor, PAPER_DEVANAGARI_FAMILY } from './paper-fonts'
import { escapeHtml, paperTime, type ReceiptShop } from './receipts'

export interface ZReportOptions {
  shop: ReceiptShop
  /** The summary comes from the training ledger: every format says so. */
  training: boolean
  /** The Devanagari font's @font-face rule (paper-fonts.ts), for the HTML forms that carry Devanagari. */
  fontFace?: string
}

/** Every word of every form is in the shop's receipt language (shared/words/en/paper.ts). */
const stateLabel = (words: PaperWords['z'], state: SaleState) => words.state[state]

const endings = { csv: '.csv', a4: '.html', receipt: '-receipt.html', pdf: '.pdf' }

/** Training reports are named apart, so one never overwrites the real report of the same day. */
/** Files keep the stored day ("2026-11-22"): named so, they sort by date in any folder. */
export function zReportFilename(businessDay: string, format: keyof typeof endings, training: boolean): string {
  return `z-report-${training ? 'TRAINING-' : ''}${businessDay}${endings[format]}`
}

// ---------- the tables A4 and CSV share ----------

type Cell = { text: string } | { count: number } | { paise: number | null; signed?: boolean } | { time: string | null }
interface Table {
  title: string
  head: string[]
  rows: Cell[][]
}

const text = (value: string | null): Cell => ({ text: value ?? '' })
const count = (value: number): Cell => ({ count: value })
const money = (paise: number | null, signed = false): Cell => ({ paise, signed })
const time = (at: string | null): Cell => ({ time: at })

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0)

function statusText(summary: DaySummary, w: PaperWords['z']): string {
  return summary.closed ? w.closed : w.open
}

/** The earnings rows, recharges by operator, then coupons by type, then the day's total. */
function earningLines(earnings: Earnings, w: PaperWords['z']): { label: string; count: number; figures: Earnings['total']; total?: true }[] {
  return [
    ...earnings.recharges.map((r) => ({ label: r.operatorName, count: r.count, figures: r })),
    ...earnings.coupons.map((c) => ({ label: w.typeWithCoupons(couponTypeNames[c.type], c.qty), count: c.orders, figures: c })),
    { label: w.total, count: sum(earnings.recharges, (r) => r.count) + sum(earnings.coupons, (c) => c.orders), figures: earnings.total, total: true },
  ]
}

/** A day closed before Counter kept margins says so in one row, its figures unknown rather than ₹0. */
function earningsTable(summary: DaySummary, w: PaperWords['z']): Table {
  const head = [w.operatorOrCoupon, w.successfulSales, w.turnover, w.margin, w.unrated, w.serviceCharges, w.totalEarned]
  const title = w.earnings
  if (!summary.earnings) return { title, head, rows: [[text(w.earningsNotKept), text(''), money(null), money(null), text(''), money(null), money(null)]] }
  return {
    title,
    head,
    rows: earningLines(summary.earnings, w).map(({ label, count: sales, figures: f }) => [
      text(label), count(sales), money(f.turnoverPaise), money(f.marginPaise), count(f.unrated), money(f.serviceChargePaise, true), money(f.earnedPaise, true),
    ]),
  }
}

/** A day closed before Counter listed staff's payments says so in one row, rather than showing none. */
function staffPaymentsTable(payments: StaffPayment[] | null, words: PaperWords): Table {
  const w = words.z
  const head = [w.time, w.receiptId, w.customerNumber, w.customerName, w.amount, w.paidBy, w.forOwner]
  const title = w.staffPayments
  if (!payments) return { title, head, rows: [[time(null), text(w.notListedAtClose), text(''), text(''), money(null), text(''), text('')]] }
  return {
    title,
    head,
    rows: payments.map((p) => [time(p.at), text(p.receiptId), text(p.number), text(p.name), money(p.amountPaise), text(words.receipt.payment.mode[p.mode]), text(p.mode === 'upi' ? w.checkBank : '')]),
  }
}

/** Cash in and out apart from sales (issue #29); a day closed before Counter kept them says so in one row. */
function cashMovesTable(moves: DrawerMoves | null, words: PaperWords): Table {
  const w = words.z
  const head = [w.time, w.inOrOut, w.type, w.reason, w.recordedBy, w.amount]
  if (!moves) return { title: w.cashMoves, head, rows: [[time(null), text(w.notListedAtClose), text(''), text(''), text(''), money(null)]] }
  return {
    title: w.cashMoves,
    head,
    rows: [
      ...moves.moves.map((m) => [time(m.at), text(m.direction === 'in' ? w.cashIn : w.cashOut), text(w.moveKind[m.kind]), text(m.reason), text(w.role[m.by]), money(m.direction === 'in' ? m.amountPaise : -m.amountPaise, true)]),
      [time(null), text(w.cashIn), text(''), text(''), text(''), money(moves.inPaise)],
      [time(null), text(w.cashOut), text(''), text(''), text(''), money(moves.outPaise)],
    ],
  }
}

function tables(summary: DaySummary, language: Language): Table[] {
  const words = paperWords(language)
  const w = words.z
  const { cash, credit } = summary
  const recharged = summary.recharges.filter((r) => r.state === 'SUCCESS')
  const couponsSold = summary.coupons.filter((c) => c.state === 'SUCCESS')
  const counted = cash.counted
  const breakHead = [w.time, w.seenIn, w.ref, w.expected, w.providerSaid, w.difference, w.since, w.couponSalesSince, w.couponAmountSince, w.topupsSince]
  const breakRow = (b: BalanceBreak): Cell[] => [
    time(b.at),
    text(b.kind === 'coupon' ? w.couponAnswer : w.balanceCheck),
    text(b.ref),
    money(b.expectedPaise),
    money(b.actualPaise),
    money(b.differencePaise, true),
    time(b.since.at),
    count(b.since.couponSales),
    money(b.since.couponPaise),
    money(b.since.topupPaise),
  ]
  return [
    {
      title: w.summary,
      head: [w.item, w.value, w.time],
      rows: [
        [text(w.businessDay), text(formatDay(summary.businessDay)), time(null)],
        [text(w.status), text(statusText(summary, w)), time(summary.closedAt)],
        [text(w.openingPan), money(summary.openingPanBalance.balancePaise), time(summary.openingPanBalance.at)],
        [text(w.closingPan), money(summary.closingPanBalance.balancePaise), time(summary.closingPanBalance.at)],
        ...(summary.overrideNote ? [[text(w.ownerNoteAtClose), text(summary.overrideNote), time(null)]] : []),
      ],
    },
    {
      title: w.recharges,
      head: [w.operator, w.operatorCode, w.status, w.count, w.amount],
      rows: [
        ...summary.recharges.map((r) => [text(r.operatorName), text(r.operatorCode), text(stateLabel(w, r.state)), count(r.count), money(r.amountPaise)]),
        [text(w.totalSuccessful), text(''), text(''), count(sum(recharged, (r) => r.count)), money(sum(recharged, (r) => r.amountPaise))],
      ],
    },
    {
      title: w.coupons,
      head: [w.type, w.status, w.orders, w.couponsColumn, w.amount],
      rows: [
        ...summary.coupons.map((c) => [text(words.receipt.typeName(couponTypeNames[c.type], c.type)), text(stateLabel(w, c.state)), count(c.orders), count(c.qty), money(c.amountPaise)]),
        [text(w.totalSuccessful), text(''), count(sum(couponsSold, (c) => c.orders)), count(sum(couponsSold, (c) => c.qty)), money(sum(couponsSold, (c) => c.amountPaise))],
      ],
    },
    earningsTable(summary, w),
    {
      title: w.byRole,
      head: [w.soldBy, w.count, w.amount],
      rows: summary.byRole.map((r) => [text(w.role[r.role]), count(r.count), money(r.amountPaise)]),
    },
    {
      title: w.pinResets,
      head: [w.time, w.pinResetFile],
      rows: summary.pinResets ? summary.pinResets.map((r) => [time(r.at), text(r.file)]) : [[time(null), text(w.notListedAtClose)]],
    },
    {
      title: w.topups,
      head: [w.time, w.topupId, w.reference, w.note, w.amount],
      rows: [
        ...summary.topups.map((t) => [time(t.at), text(t.topupId), text(t.reference), text(t.note), money(t.amountPaise)]),
        [time(null), text(w.total), text(''), text(''), money(sum(summary.topups, (t) => t.amountPaise))],
      ],
    },
    {
      title: w.pending,
      head: [w.soldAt, w.kindColumn, w.id, w.numberOrAgent, w.status, w.amount, w.checks, w.lastAnswer],
      rows: summary.pending.map((p) => [time(p.createdAt), text(w.kind[p.kind]), text(p.id), text(p.label), text(stateLabel(w, p.state)), money(p.amountPaise), count(p.checks), text(speak(p.lastAnswer, language))]),
    },
    { title: w.breaks, head: breakHead, rows: summary.breaks.map(breakRow) },
    {
      title: w.otherCounters,
      head: [w.counter, w.couponSales, w.amount, w.topupsColumn],
      rows: summary.shop.counters.map((c) => [text(c.counter), count(c.couponSales), money(c.couponPaise), money(c.topupPaise)]),
    },
    {
      title: summary.shop.reason ? `${w.maybeOthers}: ${speak(summary.shop.reason, language)}` : w.maybeOthers,
      head: breakHead,
      rows: summary.shop.maybeOthers.map(breakRow),
    },
    {
      title: w.drawer,
      head: [w.item, w.count, w.amount],
      rows: [
        [text(w.openingFloat), text(''), money(cash.openingFloatPaise)],
        [text(w.cashCollected), text(''), money(cash.collectedCashPaise)],
        [text(w.duesPaidCash), text(''), money(credit.paidCashPaise)],
        ...(summary.drawerMoves ? [[text(w.cashIn), text(''), money(summary.drawerMoves.inPaise)], [text(w.cashOut), text(''), money(0 - summary.drawerMoves.outPaise, true)]] : []),
        [text(w.expectedInDrawer), text(cash.blind ? w.blindHidden : ''), money(cash.expectedPaise)],
        ...(counted ? banknotes.map((n) => [text(w.notes(n.rupees)), count(counted[n.key]), money(counted[n.key] * n.paise)]) : []),
        ...(counted ? [[text(w.coins), text(''), money(parseRupees(counted.coins || '0'))]] : []),
        [text(w.counted), text(''), money(cash.countedPaise)],
        [text(w.countedDifference), text(cash.blind ? w.blindHidden : ''), money(cash.differencePaise, true)],
        [text(w.upiNotInDrawer), text(''), money(cash.collectedUpiPaise)],
        [text(w.duesPaidUpiNotInDrawer), text(''), money(credit.paidUpiPaise)],
      ],
    },
    {
      title: w.credit,
      head: [w.item, w.count, w.amount],
      rows: [
        [text(w.creditSales), count(credit.salesCount), money(credit.salesPaise)],
        [text(w.duesPaidCash), text(''), money(credit.paidCashPaise)],
        [text(w.duesPaidUpi), text(''), money(credit.paidUpiPaise)],
        [text(summary.closed ? w.outstandingAtClose : w.outstandingNow), text(''), money(credit.outstandingPaise)],
      ],
    },
    staffPaymentsTable(credit.staffPayments, words),
    cashMovesTable(summary.drawerMoves, words),
  ]
}

// ---------- CSV ----------

function csvCell(cell: Cell, shop: ReceiptShop): CsvCell {
  if ('text' in cell) return cell.text
  if ('count' in cell) return csvNumber(cell.count)
  if ('paise' in cell) return cell.paise === null ? '' : csvNumber(paiseToDecimal(cell.paise))
  return cell.time === null ? '' : formatExportTime(cell.time, shop.timezone)
}

export function zReportCsv(summary: DaySummary, { shop, training }: ZReportOptions): string {
  const words = paperWords(shop.receiptLanguage)
  const rows: CsvCell[][] = [[words.z.title, shop.shopName, formatDay(summary.businessDay)], ...(training ? [[words.z.training]] : []), []]
  for (const table of tables(summary, shop.receiptLanguage ?? 'en')) {
    rows.push([table.title], table.head, ...table.rows.map((row) => row.map((cell) => csvCell(cell, shop))), [])
  }
  return csvDocument(rows)
}

// ---------- HTML ----------

const signedMoney = (paise: number) => (paise > 0 ? `+${formatPaise(paise)}` : formatPaise(paise))

function htmlCell(cell: Cell, shop: ReceiptShop): string {
  if ('text' in cell) return `<td>${escapeHtml(cell.text)}</td>`
  if ('count' in cell) return `<td class="n">${formatCount(cell.count)}</td>`
  if ('paise' in cell) return `<td class="n">${cell.paise === null ? '' : escapeHtml(cell.signed ? signedMoney(cell.paise) : formatPaise(cell.paise))}</td>`
  return `<td>${cell.time === null ? '' : escapeHtml(paperTime(cell.time, shop))}</td>`
}

const A4_CSS = `@page { size: A4; margin: 15mm }
body { font: 10pt/1.35 "DejaVu Sans", Arial, "${PAPER_DEVANAGARI_FAMILY}", sans-serif; color: #000; margin: 0 }
h1 { font-size: 16pt; margin: 0 } h2 { font-size: 11pt; margin: 6mm 0 2mm }
.address { white-space: pre-line } .training { border: 2px solid #000; font-weight: bold; text-align: center; padding: 2mm; margin: 3mm 0 }
table { width: 100%; border-collapse: collapse; page-break-inside: auto } tr { page-break-inside: avoid }
th, td { border: 1px solid #999; padding: 1mm 2mm; text-align: left; vertical-align: top } th { background: #eee }
td.n { text-align: right; white-space: nowrap } .none { color: #555 }`

export function zReportA4(summary: DaySummary, { shop, training, fontFace = '' }: ZReportOptions): string {
  const words = paperWords(shop.receiptLanguage)
  const w = words.z
  const banner = training ? `<div class="training">${escapeHtml(w.training)}</div>` : ''
  const tablesHtml = tables(summary, shop.receiptLanguage ?? 'en')
    .map((table) => {
      const head = `<tr>${table.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`
      const rows = table.rows.map((row) => `<tr>${row.map((cell) => htmlCell(cell, shop)).join('')}</tr>`).join('\n')
      return `<h2>${escapeHtml(table.title)}</h2>\n${table.rows.length ? `<table>${head}\n${rows}</table>` : `<p class="none">${escapeHtml(w.noneTable)}</p>`}`
    })
    .join('\n')
  const title = `${w.title} ${formatDay(summary.businessDay)}`
  const body = `<h1>${escapeHtml(shop.shopName)} — ${escapeHtml(title)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${banner}
${tablesHtml}
${banner}`
  return `<!doctype html>
<html lang="${words.lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${fontFacesFor(body, fontFace)}
${A4_CSS}</style></head>
<body>
${body}
</body></html>`
}

/** A margin with sales from before rates existed reads "₹4.98 + —": part of it is unknown. */
function earningsReceiptLines(earnings: Earnings | null, w: PaperWords['z'], line: (label: string, value: string, className?: string) => string): string[] {
  if (!earnings) return [line(w.earningsNotKept, '—')]
  const margin = (f: Earnings['total']) => `${formatPaise(f.marginPaise)}${f.unrated ? ' + —' : ''}`
  return earningLines(earnings, w).flatMap(({ label, count: sales, figures: f, total }) => [
    line(`${label} ×${sales}`, formatPaise(f.turnoverPaise)),
    line(`  ${w.margin}`, margin(f)),
    line(`  ${w.serviceCharges}`, signedMoney(f.serviceChargePaise)),
    line(`  ${w.earned}`, signedMoney(f.earnedPaise), total ? 'amount' : ''),
  ])
}

/** Each payment staff took in three lines, the long words in the value column, which wraps on a narrow roll. */
function staffPaymentReceiptLines(
  payments: StaffPayment[] | null,
  words: PaperWords,
  at: (iso: string) => string,
  line: (label: string, value: string, className?: string) => string,
): string[] {
  const w = words.z
  if (!payments) return [line(w.notListedAtClose, '—')]
  return payments.flatMap((p) => [
    line(at(p.at), formatPaise(p.amountPaise)),
    line(`  ${words.receipt.payment.mode[p.mode]}`, p.mode === 'upi' ? w.checkBank : '', 'words'),
    line(`  ${p.receiptId}`, p.name === null ? p.number : `${p.number} ${p.name}`, 'words'),
  ])
}

/**
 * The thermal form's rows, on the receipts' own (resources/receipt.css: a label and its figure share a line when they
 * fit, else the figure goes under the label at the right edge). Decision: here a label breaks at its spaces, a figure
 * never breaks, and a value of words (class "words") wraps like text: on 58 mm "Opening 26-11-2026 10:10:00 pm" once
 * pushed its "₹1,17,400.00" off the paper, and amounts came out split over lines.
 */
const Z_RECEIPT_CSS = `body.z td.k { flex: 1 1 auto; white-space: normal; overflow-wrap: anywhere }
body.z td.v { flex: none; white-space: nowrap }
body.z tr.words td.v { flex-shrink: 1; white-space: normal; overflow-wrap: anywhere }`

/** The thermal receipt: the same facts, one amount per line, in the receipts' stylesheet. */
export function zReportReceipt(summary: DaySummary, { shop, training, fontFace = '' }: ZReportOptions, receiptCss: string): string {
  const words = paperWords(shop.receiptLanguage)
  const { lang, z: w } = words
  const at = (iso: string | null) => (iso ? paperTime(iso, shop) : '')
  const line = (label: string, value: string, className = '') => `<tr${className ? ` class="${className}"` : ''}><td class="k">${escapeHtml(label)}</td><td class="v">${escapeHtml(value)}</td></tr>`
  const amount = (paise: number | null) => (paise === null ? '—' : formatPaise(paise))
  const section = (title: string, lines: string[]) => `<div class="title">${escapeHtml(title)}</div><table>${lines.length ? lines.join('') : line(w.none, '')}</table>`
  const { cash, credit } = summary
  const banner = training ? `<div class="training">${escapeHtml(w.training)}</div>` : ''
  const breakLine = (b: BalanceBreak) => line(`${at(b.at)} ${b.kind === 'coupon' ? w.couponBreak : w.balanceBreak}`, signedMoney(b.differencePaise))
  const sections = [
    section(w.panBalance, [
      line(`${w.opening} ${at(summary.openingPanBalance.at)}`, amount(summary.openingPanBalance.balancePaise)),
      line(`${w.closing} ${at(summary.closingPanBalance.at)}`, amount(summary.closingPanBalance.balancePaise)),
    ]),
    section(w.rechargesShort, summary.recharges.map((r) => line(`${r.operatorName} ${stateLabel(w, r.state)} ×${r.count}`, formatPaise(r.amountPaise)))),
    section(w.couponsShort, summary.coupons.map((c) => line(`${couponTypeNames[c.type]} ${stateLabel(w, c.state)} ${w.ordersAndCoupons(c.orders, c.qty)}`, formatPaise(c.amountPaise)))),
    section(w.earningsShort, earningsReceiptLines(summary.earnings, w, line)),
    section(w.byRole, summary.byRole.map((r) => line(`${w.role[r.role]} ×${r.count}`, formatPaise(r.amountPaise)))),
    // Paper is kept for what happened: a day without a reset (or closed before they were listed) prints no section.
    ...(summary.pinResets?.length ? [section(w.pinResetsShort, summary.pinResets.map((r) => line(at(r.at), r.file, 'words')))] : []),
    section(w.topupsShort, summary.topups.map((t) => line(`${at(t.at)} ${t.reference}`, formatPaise(t.amountPaise)))),
    section(w.pending, summary.pending.map((p) => line(`${p.id} ${p.label} ${stateLabel(w, p.state)}`, amount(p.amountPaise)))),
    section(w.breaksShort, summary.breaks.map(breakLine)),
    ...(summary.shop.counters.length ? [section(w.otherCountersShort, summary.shop.counters.map((c) => line(`${c.counter} ×${c.couponSales}`, formatPaise(c.couponPaise))))] : []),
    ...(summary.shop.judged === 'unsure' ? [section(w.maybeOthersShort, summary.shop.maybeOthers.map(breakLine))] : []),
    section(w.drawer, [
      line(w.openingFloat, amount(cash.openingFloatPaise)),
      line(w.cashCollected, formatPaise(cash.collectedCashPaise)),
      line(w.duesPaidCash, formatPaise(credit.paidCashPaise)),
      // Paper is kept for what happened: the drawer's cash in and out print only on a day that had some.
      ...(summary.drawerMoves?.moves.length ? [line(w.cashIn, formatPaise(summary.drawerMoves.inPaise)), line(w.cashOut, signedMoney(0 - summary.drawerMoves.outPaise))] : []),
      line(w.expectedShort, cash.blind ? w.blindHidden : amount(cash.expectedPaise), cash.blind ? 'words' : ''),
      line(w.counted, amount(cash.countedPaise)),
      line(w.difference, cash.blind ? w.blindHidden : cash.differencePaise === null ? '—' : signedMoney(cash.differencePaise), cash.blind ? 'words' : 'amount'),
      line(w.upiCollected, formatPaise(cash.collectedUpiPaise)),
      line(w.duesPaidUpi, formatPaise(credit.paidUpiPaise)),
    ]),
    section(w.credit, [
      line(w.creditSalesShort(credit.salesCount), formatPaise(credit.salesPaise)),
      line(w.duesPaidCashShort, formatPaise(credit.paidCashPaise)),
      line(w.duesPaidUpiShort, formatPaise(credit.paidUpiPaise)),
      line(summary.closed ? w.outstandingAtCloseShort : w.outstandingNowShort, formatPaise(credit.outstandingPaise)),
    ]),
    section(w.staffPaymentsShort, staffPaymentReceiptLines(credit.staffPayments, words, at, line)),
    // Paper is kept for what happened: a day with no cash in or out (or closed before they were kept) prints no section.
    ...(summary.drawerMoves?.moves.length
      ? [section(w.cashMovesShort, summary.drawerMoves.moves.flatMap((m) => [
          line(`${at(m.at)} ${w.moveKind[m.kind]}`, signedMoney(m.direction === 'in' ? m.amountPaise : -m.amountPaise)),
          line(`  ${w.role[m.by]}`, m.reason, 'words'),
        ]))]
      : []),
  ]
  const note = summary.overrideNote ? `<div class="note">${escapeHtml(w.ownerNote)} ${escapeHtml(summary.overrideNote)}</div>` : ''
  const title = `${w.title} ${formatDay(summary.businessDay)}`
  const body = `<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${banner}
<div class="title">${escapeHtml(title)}</div>
<div class="status">${escapeHtml(statusText(summary, w))}${summary.closedAt ? ` ${escapeHtml(at(summary.closedAt))}` : ''}</div>
${sections.join('\n')}
${note}
${banner}`
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${receiptPageCss(shop.receiptWidthMm)}
${fontFacesFor(body, fontFace)}
${receiptCss}
${Z_RECEIPT_CSS}</style></head>
<body class="w${shop.receiptWidthMm} z">
${body}
</body></html>`
}
