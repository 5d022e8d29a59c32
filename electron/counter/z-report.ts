// The Z report of a business day, drawn from its DaySummary: an 80 mm receipt in the receipts'
// look, an A4 page of tables (for PDF) and one CSV document; pure functions of summary and shop.
import { banknotes, couponTypeNames, type DaySummary, type Role, type SaleState } from '../contract'
import { csvDocument, csvNumber, type CsvCell } from '../shared/csv'
import { formatDay, formatExportTime } from '../shared/dates'
import { formatPaise, paiseToDecimal, parseRupees } from '../shared/money'
import { receiptPageCss } from '../shared/paper'
import { escapeHtml, paperTime, type ReceiptShop } from './receipts'

export interface ZReportOptions {
  shop: ReceiptShop
  /** The summary comes from the training ledger: every format says so. */
  training: boolean
}

const TRAINING_BANNER = 'TRAINING — NOT REAL SALES'

const stateLabels: Record<SaleState, string> = { SUCCESS: 'Successful', FAILED: 'Failed', UNKNOWN: 'Pending', SENDING: 'Sending' }

/** Who sold, in the report's words ("who did what", issue #10). */
const roleLabels: Record<Role, string> = { owner: 'Owner', staff: 'Staff' }

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

function statusText(summary: DaySummary): string {
  return summary.closed ? 'Closed' : 'Open (not closed yet)'
}

function tables(summary: DaySummary): Table[] {
  const { cash } = summary
  const recharged = summary.recharges.filter((r) => r.state === 'SUCCESS')
  const couponsSold = summary.coupons.filter((c) => c.state === 'SUCCESS')
  const counted = cash.counted
  return [
    {
      title: 'Summary',
      head: ['Item', 'Value', 'Time'],
      rows: [
        [text('Business day'), text(formatDay(summary.businessDay)), time(null)],
        [text('Status'), text(statusText(summary)), time(summary.closedAt)],
        [text('Opening PAN balance'), money(summary.openingPanBalance.balancePaise), time(summary.openingPanBalance.at)],
        [text('Closing PAN balance'), money(summary.closingPanBalance.balancePaise), time(summary.closingPanBalance.at)],
        ...(summary.overrideNote ? [[text("Owner's note at close"), text(summary.overrideNote), time(null)]] : []),
      ],
    },
    {
      title: 'Recharges by operator',
      head: ['Operator', 'Operator code', 'Status', 'Count', 'Amount'],
      rows: [
        ...summary.recharges.map((r) => [text(r.operatorName), text(r.operatorCode), text(stateLabels[r.state]), count(r.count), money(r.amountPaise)]),
        [text('Total successful'), text(''), text(''), count(sum(recharged, (r) => r.count)), money(sum(recharged, (r) => r.amountPaise))],
      ],
    },
    {
      title: 'PAN coupons by type',
      head: ['Type', 'Status', 'Orders', 'Coupons', 'Amount'],
      rows: [
        ...summary.coupons.map((c) => [text(`${couponTypeNames[c.type]} (type ${c.type})`), text(stateLabels[c.state]), count(c.orders), count(c.qty), money(c.amountPaise)]),
        [text('Total successful'), text(''), count(sum(couponsSold, (c) => c.orders)), count(sum(couponsSold, (c) => c.qty)), money(sum(couponsSold, (c) => c.amountPaise))],
      ],
    },
    {
      title: 'Sales by who sold',
      head: ['Sold by', 'Count', 'Amount'],
      rows: summary.byRole.map((r) => [text(roleLabels[r.role]), count(r.count), money(r.amountPaise)]),
    },
    {
      title: 'Top-ups of the provider wallet',
      head: ['Time', 'Top-up id', 'Reference', 'Note', 'Amount'],
      rows: [
        ...summary.topups.map((t) => [time(t.at), text(t.topupId), text(t.reference), text(t.note), money(t.amountPaise)]),
        [time(null), text('Total'), text(''), text(''), money(sum(summary.topups, (t) => t.amountPaise))],
      ],
    },
    {
      title: 'Unresolved sales',
      head: ['Sold at', 'Kind', 'Id', 'Number or agent', 'Status', 'Amount', 'Checks', 'Last answer'],
      rows: summary.pending.map((p) => [time(p.createdAt), text(p.kind), text(p.id), text(p.label), text(stateLabels[p.state]), money(p.amountPaise), count(p.checks), text(p.lastAnswer)]),
    },
    {
      title: 'PAN balance breaks',
      head: ['Time', 'Seen in', 'Ref', 'Expected', 'Provider said', 'Difference', 'Since', 'Coupon sales since', 'Coupon amount since', 'Top-ups since'],
      rows: summary.breaks.map((b) => [
        time(b.at),
        text(b.kind === 'coupon' ? 'Coupon answer' : 'Balance check'),
        text(b.ref),
        money(b.expectedPaise),
        money(b.actualPaise),
        money(b.differencePaise, true),
        time(b.since.at),
        count(b.since.couponSales),
        money(b.since.couponPaise),
        money(b.since.topupPaise),
      ]),
    },
    {
      title: 'Cash drawer',
      head: ['Item', 'Count', 'Amount'],
      rows: [
        [text('Opening float'), text(''), money(cash.openingFloatPaise)],
        [text('Cash collected'), text(''), money(cash.collectedCashPaise)],
        [text('Expected in the drawer'), text(''), money(cash.expectedPaise)],
        ...(counted ? banknotes.map((n) => [text(`₹${n.rupees} notes`), count(counted[n.key]), money(counted[n.key] * n.paise)]) : []),
        ...(counted ? [[text('Coins and smaller'), text(''), money(parseRupees(counted.coins || '0'))]] : []),
        [text('Counted'), text(''), money(cash.countedPaise)],
        [text('Difference (counted − expected)'), text(''), money(cash.differencePaise, true)],
        [text('UPI collected (not in the drawer)'), text(''), money(cash.collectedUpiPaise)],
      ],
    },
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
  const rows: CsvCell[][] = [['Z report', shop.shopName, formatDay(summary.businessDay)], ...(training ? [[TRAINING_BANNER]] : []), []]
  for (const table of tables(summary)) {
    rows.push([table.title], table.head, ...table.rows.map((row) => row.map((cell) => csvCell(cell, shop))), [])
  }
  return csvDocument(rows)
}

// ---------- HTML ----------

const signedMoney = (paise: number) => (paise > 0 ? `+${formatPaise(paise)}` : formatPaise(paise))

function htmlCell(cell: Cell, shop: ReceiptShop): string {
  if ('text' in cell) return `<td>${escapeHtml(cell.text)}</td>`
  if ('count' in cell) return `<td class="n">${cell.count}</td>`
  if ('paise' in cell) return `<td class="n">${cell.paise === null ? '' : escapeHtml(cell.signed ? signedMoney(cell.paise) : formatPaise(cell.paise))}</td>`
  return `<td>${cell.time === null ? '' : escapeHtml(paperTime(cell.time, shop))}</td>`
}

const A4_CSS = `@page { size: A4; margin: 15mm }
body { font: 10pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0 }
h1 { font-size: 16pt; margin: 0 } h2 { font-size: 11pt; margin: 6mm 0 2mm }
.address { white-space: pre-line } .training { border: 2px solid #000; font-weight: bold; text-align: center; padding: 2mm; margin: 3mm 0 }
table { width: 100%; border-collapse: collapse; page-break-inside: auto } tr { page-break-inside: avoid }
th, td { border: 1px solid #999; padding: 1mm 2mm; text-align: left; vertical-align: top } th { background: #eee }
td.n { text-align: right; white-space: nowrap } .none { color: #555 }`

export function zReportA4(summary: DaySummary, { shop, training }: ZReportOptions): string {
  const banner = training ? `<div class="training">${TRAINING_BANNER}</div>` : ''
  const body = tables(summary)
    .map((table) => {
      const head = `<tr>${table.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`
      const rows = table.rows.map((row) => `<tr>${row.map((cell) => htmlCell(cell, shop)).join('')}</tr>`).join('\n')
      return `<h2>${escapeHtml(table.title)}</h2>\n${table.rows.length ? `<table>${head}\n${rows}</table>` : '<p class="none">None.</p>'}`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Z report ${escapeHtml(formatDay(summary.businessDay))}</title>
<style>${A4_CSS}</style></head>
<body>
<h1>${escapeHtml(shop.shopName)} — Z report ${escapeHtml(formatDay(summary.businessDay))}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${banner}
${body}
${banner}
</body></html>`
}

/** The thermal receipt: the same facts, one amount per line, in the receipts' stylesheet. */
export function zReportReceipt(summary: DaySummary, { shop, training }: ZReportOptions, receiptCss: string): string {
  const at = (iso: string | null) => (iso ? paperTime(iso, shop) : '')
  const line = (label: string, value: string, className = '') => `<tr${className ? ` class="${className}"` : ''}><td class="k">${escapeHtml(label)}</td><td class="v">${escapeHtml(value)}</td></tr>`
  const amount = (paise: number | null) => (paise === null ? '—' : formatPaise(paise))
  const section = (title: string, lines: string[]) => `<div class="title">${escapeHtml(title)}</div><table>${lines.length ? lines.join('') : line('None', '')}</table>`
  const { cash } = summary
  const banner = training ? `<div class="training">${TRAINING_BANNER}</div>` : ''
  const sections = [
    section('PAN balance', [
      line(`Opening ${at(summary.openingPanBalance.at)}`, amount(summary.openingPanBalance.balancePaise)),
      line(`Closing ${at(summary.closingPanBalance.at)}`, amount(summary.closingPanBalance.balancePaise)),
    ]),
    section('Recharges', summary.recharges.map((r) => line(`${r.operatorName} ${stateLabels[r.state]} ×${r.count}`, formatPaise(r.amountPaise)))),
    section('PAN coupons', summary.coupons.map((c) => line(`${couponTypeNames[c.type]} ${stateLabels[c.state]} ${c.orders} orders, ${c.qty} coupons`, formatPaise(c.amountPaise)))),
    section('Sales by who sold', summary.byRole.map((r) => line(`${roleLabels[r.role]} ×${r.count}`, formatPaise(r.amountPaise)))),
    section('Top-ups', summary.topups.map((t) => line(`${at(t.at)} ${t.reference}`, formatPaise(t.amountPaise)))),
    section('Unresolved sales', summary.pending.map((p) => line(`${p.id} ${p.label} ${stateLabels[p.state]}`, amount(p.amountPaise)))),
    section('Balance breaks', summary.breaks.map((b) => line(`${at(b.at)} ${b.kind === 'coupon' ? 'coupon' : 'balance check'}`, signedMoney(b.differencePaise)))),
    section('Cash drawer', [
      line('Opening float', amount(cash.openingFloatPaise)),
      line('Cash collected', formatPaise(cash.collectedCashPaise)),
      line('Expected', amount(cash.expectedPaise)),
      line('Counted', amount(cash.countedPaise)),
      line('Difference', cash.differencePaise === null ? '—' : signedMoney(cash.differencePaise), 'amount'),
      line('UPI collected', formatPaise(cash.collectedUpiPaise)),
    ]),
  ]
  const note = summary.overrideNote ? `<div class="note">Owner's note: ${escapeHtml(summary.overrideNote)}</div>` : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Z report ${escapeHtml(formatDay(summary.businessDay))}</title>
<style>${receiptPageCss(shop.receiptWidthMm)}
${receiptCss}</style></head>
<body class="w${shop.receiptWidthMm}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${banner}
<div class="title">Z report ${escapeHtml(formatDay(summary.businessDay))}</div>
<div class="status">${escapeHtml(statusText(summary))}${summary.closedAt ? ` ${escapeHtml(at(summary.closedAt))}` : ''}</div>
${sections.join('\n')}
${note}
${banner}
</body></html>`
}
