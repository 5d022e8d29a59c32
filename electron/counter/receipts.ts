// Receipts for recharge and coupon sales: what a receipt says (shared/receipt-content.ts, one function
// per sale kind) and its HTML, one layout for 58 and 80 mm thermal paper, the same markup for the
// preview, silent printing, Save PDF and the browser's print. The ESC/POS printer draws the same content.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { couponTypeNames, type CouponSale, type Sale, type SaleState } from '../contract'
import { formatDateTime } from '../shared/dates'
import { formatPaise } from '../shared/money'
import { receiptPageCss } from '../shared/paper'
import { TRAINING_RECEIPT_BANNER, type ReceiptContent, type ReceiptRow } from '../shared/receipt-content'
import type { StoredSettings } from './settings'

export type ReceiptShop = Pick<StoredSettings, 'shopName' | 'shopAddress' | 'receiptWidthMm' | 'timezone' | 'clock'>

/** A time on paper: the shop's clock, with seconds (a dispute over a receipt is settled to the second). */
export const paperTime = (at: string, shop: ReceiptShop) => formatDateTime(at, { timeZone: shop.timezone, clock: shop.clock }, { seconds: true })

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const PENDING_NOTE = 'Do not pay again: the shop is checking the status of this order.'
const statusLines: Record<SaleState, { label: string; note: string }> = {
  SUCCESS: { label: 'SUCCESSFUL', note: '' },
  FAILED: { label: 'FAILED', note: 'No money was taken by the provider for this order.' },
  UNKNOWN: { label: 'PENDING', note: PENDING_NOTE },
  SENDING: { label: 'PENDING', note: PENDING_NOTE },
}

const known = (rows: [string, string | null][]): ReceiptRow[] => rows.filter((row): row is ReceiptRow => Boolean(row[1]))
const money = (paise: number | null) => (paise === null ? null : formatPaise(paise))

function saleContent(
  sale: { state: SaleState; message: string; createdAt: string; training: boolean },
  shop: ReceiptShop,
  parts: Pick<ReceiptContent, 'title' | 'reference'> & { rows: [string, string | null][]; amountPaise: number | null; after: [string, string | null][] },
): ReceiptContent {
  const status = statusLines[sale.state]
  return {
    title: parts.title,
    training: sale.training,
    reference: parts.reference,
    rows: known([['Date', paperTime(sale.createdAt, shop)], ...parts.rows]),
    total: parts.amountPaise === null ? null : { label: 'Amount', paise: parts.amountPaise },
    after: known(parts.after),
    status: status.label,
    note: sale.state === 'FAILED' && sale.message ? `${sale.message}. ${status.note}` : status.note,
    footer: 'Thank you. For any query, quote the order id.',
  }
}

export function rechargeReceipt(sale: Sale, shop: ReceiptShop): ReceiptContent {
  return saleContent(sale, shop, {
    title: sale.kind === 'mobile' ? 'Mobile recharge' : 'DTH recharge',
    reference: sale.orderId,
    rows: [
      ['Order id', sale.orderId],
      [sale.kind === 'mobile' ? 'Mobile' : 'Subscriber id', sale.number],
      ['Customer', sale.customerName],
      ['Operator', sale.operatorName],
      ['Circle', sale.circle],
      ['Txn id', sale.fpayId],
      ['Operator ref', sale.operatorRef],
    ],
    amountPaise: sale.amountPaise,
    after: [],
  })
}

export function couponReceipt(sale: CouponSale, shop: ReceiptShop): ReceiptContent {
  return saleContent(sale, shop, {
    title: 'PAN coupons',
    // Decision: the provider's order id once it gave one; before that our ref, which History finds too.
    reference: sale.orderId ?? sale.attemptId,
    rows: [
      ['Order id', sale.orderId],
      ['Our ref', sale.attemptId],
      ['Order date', sale.date],
      ['Agent', sale.vleName ? `${sale.vleId} ${sale.vleName}` : sale.vleId],
      ['Type', `${couponTypeNames[sale.type]} (type ${sale.type})`],
      ['Qty', String(sale.qty)],
      ['Rate', money(sale.ratePaise)],
    ],
    amountPaise: sale.amountPaise,
    after: [
      ['Old balance', money(sale.oldBalPaise)],
      ['New balance', money(sale.newBalPaise)],
    ],
  })
}

/** The receipt's HTML page; `css` is resources/receipt.css. */
export function receiptHtml(content: ReceiptContent, shop: ReceiptShop, css: string): string {
  const table = (rows: ReceiptRow[]) => rows.map(([key, value]) => `<tr><td class="k">${key}</td><td class="v">${escapeHtml(value)}</td></tr>`).join('')
  const training = content.training ? `<div class="training">${TRAINING_RECEIPT_BANNER}</div>` : ''
  const total = content.total ? `<tr class="amount"><td class="k">${content.total.label}</td><td class="v">${escapeHtml(formatPaise(content.total.paise))}</td></tr>` : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt</title>
<style>${receiptPageCss(shop.receiptWidthMm)}
${css}</style></head>
<body class="w${shop.receiptWidthMm}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${training}
<div class="title">${content.title}</div>
<table>${table(content.rows)}${total}${table(content.after)}</table>
<div class="status">Status: ${content.status}</div>
${content.note ? `<div class="note">${escapeHtml(content.note)}</div>` : ''}
${training}
<div class="footer">${content.footer}</div>
</body></html>`
}

export function receiptRenderer(resourcesDir: string) {
  const css = readFileSync(join(resourcesDir, 'receipt.css'), 'utf8')
  return {
    recharge: (sale: Sale, shop: ReceiptShop) => receiptHtml(rechargeReceipt(sale, shop), shop, css),
    coupon: (sale: CouponSale, shop: ReceiptShop) => receiptHtml(couponReceipt(sale, shop), shop, css),
    html: (content: ReceiptContent, shop: ReceiptShop) => receiptHtml(content, shop, css),
  }
}
