// Receipt HTML for one sale: one template for 58 and 80 mm thermal paper, the same markup for the
// preview, silent printing, Save PDF and the browser's print.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sale } from '../contract'
import { localDateTime } from './business-day'
import { formatPaise } from './money'
import type { StoredSettings } from './settings'

export type ReceiptShop = Pick<StoredSettings, 'shopName' | 'shopAddress' | 'receiptWidthMm' | 'timezone'>

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const statusLines: Record<Sale['state'], { label: string; note: string }> = {
  SUCCESS: { label: 'SUCCESSFUL', note: '' },
  FAILED: { label: 'FAILED', note: 'No money was taken by the provider for this order.' },
  UNKNOWN: { label: 'PENDING', note: 'Do not pay again: the shop is checking the status of this order.' },
  SENDING: { label: 'PENDING', note: 'Do not pay again: the shop is checking the status of this order.' },
}

export function receiptRenderer(resourcesDir: string) {
  const css = readFileSync(join(resourcesDir, 'receipt.css'), 'utf8')
  return (sale: Sale, shop: ReceiptShop): string => {
    const status = statusLines[sale.state]
    const rows: [string, string | null][] = [
      ['Date', localDateTime(new Date(sale.createdAt), shop.timezone)],
      ['Order id', sale.orderId],
      [sale.kind === 'mobile' ? 'Mobile' : 'Subscriber id', sale.number],
      ['Operator', sale.operatorName],
      ['Circle', sale.circle],
      ['Txn id', sale.fpayId],
      ['Operator ref', sale.operatorRef],
    ]
    const body = rows
      .filter(([, value]) => value)
      .map(([key, value]) => `<tr><td class="k">${key}</td><td class="v">${escapeHtml(value!)}</td></tr>`)
      .join('')
    const training = sale.training ? '<div class="training">TRAINING — NOT A REAL SALE</div>' : ''
    const note = sale.state === 'FAILED' && sale.message ? `${sale.message}. ${status.note}` : status.note
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt ${escapeHtml(sale.orderId)}</title>
<style>@page { size: ${shop.receiptWidthMm}mm auto; margin: 0 } body { width: ${shop.receiptWidthMm}mm }
${css}</style></head>
<body class="w${shop.receiptWidthMm}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${training}
<div class="title">${sale.kind === 'mobile' ? 'Mobile recharge' : 'DTH recharge'}</div>
<table>${body}<tr class="amount"><td class="k">Amount</td><td class="v">${escapeHtml(formatPaise(sale.amountPaise))}</td></tr></table>
<div class="status">Status: ${status.label}</div>
${note ? `<div class="note">${escapeHtml(note)}</div>` : ''}
${training}
<div class="footer">Thank you. For any query, quote the order id.</div>
</body></html>`
  }
}
