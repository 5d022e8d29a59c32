// Receipt HTML for recharge and coupon sales: one layout for 58 and 80 mm thermal paper, the same
// markup for the preview, silent printing, Save PDF and the browser's print.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { couponTypeNames, type CouponSale, type Sale, type SaleState } from '../contract'
import { formatDateTime } from '../shared/dates'
import { formatPaise } from '../shared/money'
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

interface ReceiptContent {
  title: string
  createdAt: string
  training: boolean
  state: SaleState
  failureMessage: string
  rows: [string, string | null][]
  /** Printed large between dashed rules. */
  total: [string, number | null]
  after: [string, string | null][]
}

export function receiptRenderer(resourcesDir: string) {
  const css = readFileSync(join(resourcesDir, 'receipt.css'), 'utf8')
  const table = (rows: [string, string | null][]) =>
    rows
      .filter(([, value]) => value)
      .map(([key, value]) => `<tr><td class="k">${key}</td><td class="v">${escapeHtml(value!)}</td></tr>`)
      .join('')

  const layout = (content: ReceiptContent, shop: ReceiptShop): string => {
    const status = statusLines[content.state]
    const training = content.training ? '<div class="training">TRAINING — NOT A REAL SALE</div>' : ''
    const note = content.state === 'FAILED' && content.failureMessage ? `${content.failureMessage}. ${status.note}` : status.note
    const [totalLabel, totalPaise] = content.total
    const total = totalPaise === null ? '' : `<tr class="amount"><td class="k">${totalLabel}</td><td class="v">${escapeHtml(formatPaise(totalPaise))}</td></tr>`
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt</title>
<style>@page { size: ${shop.receiptWidthMm}mm auto; margin: 0 } body { width: ${shop.receiptWidthMm}mm }
${css}</style></head>
<body class="w${shop.receiptWidthMm}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${training}
<div class="title">${content.title}</div>
<table>${table([['Date', paperTime(content.createdAt, shop)], ...content.rows])}${total}${table(content.after)}</table>
<div class="status">Status: ${status.label}</div>
${note ? `<div class="note">${escapeHtml(note)}</div>` : ''}
${training}
<div class="footer">Thank you. For any query, quote the order id.</div>
</body></html>`
  }

  return {
    recharge: (sale: Sale, shop: ReceiptShop) =>
      layout(
        {
          title: sale.kind === 'mobile' ? 'Mobile recharge' : 'DTH recharge',
          createdAt: sale.createdAt,
          training: sale.training,
          state: sale.state,
          failureMessage: sale.message,
          rows: [
            ['Order id', sale.orderId],
            [sale.kind === 'mobile' ? 'Mobile' : 'Subscriber id', sale.number],
            ['Operator', sale.operatorName],
            ['Circle', sale.circle],
            ['Txn id', sale.fpayId],
            ['Operator ref', sale.operatorRef],
          ],
          total: ['Amount', sale.amountPaise],
          after: [],
        },
        shop,
      ),
    coupon: (sale: CouponSale, shop: ReceiptShop) =>
      layout(
        {
          title: 'PAN coupons',
          createdAt: sale.createdAt,
          training: sale.training,
          state: sale.state,
          failureMessage: sale.message,
          rows: [
            ['Order id', sale.orderId],
            ['Our ref', sale.attemptId],
            ['Order date', sale.date],
            ['Agent', sale.vleName ? `${sale.vleId} ${sale.vleName}` : sale.vleId],
            ['Type', `${couponTypeNames[sale.type]} (type ${sale.type})`],
            ['Qty', String(sale.qty)],
            ['Rate', sale.ratePaise === null ? null : formatPaise(sale.ratePaise)],
          ],
          total: ['Amount', sale.amountPaise],
          after: [
            ['Old balance', sale.oldBalPaise === null ? null : formatPaise(sale.oldBalPaise)],
            ['New balance', sale.newBalPaise === null ? null : formatPaise(sale.newBalPaise)],
          ],
        },
        shop,
      ),
  }
}
