// Receipts for recharge and coupon sales and payments of dues: what a receipt says (shared/receipt-content.ts, one function
// per sale kind) and its HTML, one layout for 58 and 80 mm thermal paper, the same markup for the
// preview, silent printing, Save PDF and the browser's print. The ESC/POS printer draws the same content.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { couponTypeNames, type CouponSale, type CreditPayment, type PaymentMode, type Sale, type SaleState } from '../contract'
import { formatDateTime, formatDay } from '../shared/dates'
import { paperWords, speak } from '../shared/words'
import { formatPaise } from '../shared/money'
import { receiptPageCss } from '../shared/paper'
import type { ReceiptContent, ReceiptRow } from '../shared/receipt-content'
import { qrSvg, upiLink } from '../shared/upi'
import { devanagariFontFace, fontFacesFor } from './paper-fonts'
import type { StoredSettings } from './settings'

/** The receipt language may be missing (English): paper made before languages existed, and callers that only print English. */
export type ReceiptShop = Pick<StoredSettings, 'shopName' | 'shopAddress' | 'receiptWidthMm' | 'timezone' | 'clock'> &
  Partial<Pick<StoredSettings, 'receiptLanguage' | 'upiVpa' | 'upiPayee'>>

/** A time on paper: the shop's clock, with seconds (a dispute over a receipt is settled to the second). */
export const paperTime = (at: string, shop: ReceiptShop) => formatDateTime(at, { timeZone: shop.timezone, clock: shop.clock }, { seconds: true })

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const known = (rows: [string, string | null][]): ReceiptRow[] => rows.filter((row): row is ReceiptRow => Boolean(row[1]))
const money = (paise: number | null) => (paise === null ? null : formatPaise(paise))
const wordsOf = (shop: ReceiptShop) => paperWords(shop.receiptLanguage).receipt
const sentenceOf = (text: string) => (/[.!?।]$/.test(text) ? text : `${text}.`)

/**
 * The UPI request a receipt carries (issue #29 part 1): for a sale paid by UPI, the same upi://pay link the screen's QR
 * holds (shared/upi.ts), for the amount collected and the sale's own id. Decision: none on a FAILED sale, whose money
 * goes back to the customer; none while the shop has no UPI id.
 */
function upiOf(shop: ReceiptShop, paid: { mode: string; failed: boolean; paise: number; id: string }): ReceiptContent['upi'] {
  if (paid.mode !== 'upi' || paid.failed) return undefined
  const link = upiLink({ vpa: shop.upiVpa ?? '', payee: shop.upiPayee ?? '' }, { amountPaise: paid.paise, orderId: paid.id })
  return link === null ? undefined : { link, label: wordsOf(shop).upiScan(formatPaise(paid.paise)) }
}

function saleContent(
  sale: { state: SaleState; message: string; createdAt: string; training: boolean; collectedPaise: number; paymentMode: PaymentMode },
  shop: ReceiptShop,
  parts: Pick<ReceiptContent, 'title' | 'reference'> & { id: string; rows: [string, string | null][]; amountPaise: number | null; after: [string, string | null][] },
): ReceiptContent {
  const words = wordsOf(shop)
  const pending = sale.state === 'UNKNOWN' || sale.state === 'SENDING'
  const status = pending ? { label: words.state.PENDING, note: words.pendingNote } : sale.state === 'FAILED' ? { label: words.state.FAILED, note: words.failedNote } : { label: words.state.SUCCESS, note: '' }
  const amount = parts.amountPaise
  // A service charge: the customer paid more than the amount, and the paper must say what. The large line is
  // then what they paid, the amount and the charge above it. Decision: not on a FAILED sale, whose money goes back
  // to the customer (the note says nothing was taken); a pending one keeps it, as the shop holds it until it settles.
  const charged = amount !== null && sale.state !== 'FAILED' && sale.collectedPaise > amount
  const charge: ReceiptRow[] = charged ? [[words.amount, formatPaise(amount)], [words.serviceCharge, formatPaise(sale.collectedPaise - amount)]] : []
  // How the customer paid, on every sale's receipt, charge or none: cash, UPI or credit is what the customer and the
  // shop settle by (a failed sale's money goes back the same way; a credit sale is a due).
  const paidBy: ReceiptRow = [words.paidBy, words.saleMode[sale.paymentMode]]
  return {
    language: shop.receiptLanguage ?? 'en',
    title: parts.title,
    training: sale.training,
    reference: parts.reference,
    rows: [...known([[words.date, paperTime(sale.createdAt, shop)], ...parts.rows]), ...charge],
    total: amount === null ? null : charged ? { label: words.totalPaid, paise: sale.collectedPaise } : { label: words.amount, paise: amount },
    after: [paidBy, ...known(parts.after)],
    status: status.label,
    // The provider's own message stays in its words: it is what the provider's helpline will recognise. Counter's words
    // for an answer (a said message: nothing sent, a refusal with its advice) are spoken in the paper's language.
    note: sale.state === 'FAILED' && sale.message ? `${sentenceOf(speak(sale.message, shop.receiptLanguage ?? 'en'))} ${status.note}` : status.note,
    footer: words.footer,
    upi: upiOf(shop, { mode: sale.paymentMode, failed: sale.state === 'FAILED', paise: sale.collectedPaise, id: parts.id }),
  }
}

export function rechargeReceipt(sale: Sale, shop: ReceiptShop): ReceiptContent {
  const words = wordsOf(shop)
  return saleContent(sale, shop, {
    title: sale.kind === 'mobile' ? words.title.mobile : words.title.dth,
    reference: sale.orderId,
    id: sale.orderId,
    rows: [
      [words.orderId, sale.orderId],
      [sale.kind === 'mobile' ? words.mobile : words.subscriberId, sale.number],
      [words.customer, sale.customerName],
      [words.operator, sale.operatorName],
      [words.circle, sale.circle],
      [words.txnId, sale.fpayId],
      [words.operatorRef, sale.operatorRef],
    ],
    amountPaise: sale.amountPaise,
    after: [],
  })
}

export function couponReceipt(sale: CouponSale, shop: ReceiptShop): ReceiptContent {
  const words = wordsOf(shop)
  return saleContent(sale, shop, {
    title: words.title.coupons,
    // Decision: the provider's order id once it gave one; before that our ref, which History finds too.
    reference: sale.orderId ?? sale.attemptId,
    // The UPI request names our ref: the id Counter knew before the provider answered, which History finds too.
    id: sale.attemptId,
    rows: [
      [words.orderId, sale.orderId],
      [words.ourRef, sale.attemptId],
      [words.orderDate, sale.date && formatDay(sale.date)],
      [words.agent, sale.vleName ? `${sale.vleId} ${sale.vleName}` : sale.vleId],
      [words.type, words.typeName(couponTypeNames[sale.type], sale.type)],
      [words.qty, String(sale.qty)],
      [words.rate, money(sale.ratePaise)],
    ],
    amountPaise: sale.amountPaise,
    after: [
      [words.oldBalance, money(sale.oldBalPaise)],
      [words.newBalance, money(sale.newBalPaise)],
    ],
  })
}

/** A receipt of a payment of a due (credit, udhaar), drawn by the same receipt machinery as a sale's. */
export function paymentReceipt(payment: CreditPayment, shop: ReceiptShop): ReceiptContent {
  const receipt = wordsOf(shop)
  const words = receipt.payment
  return {
    language: shop.receiptLanguage ?? 'en',
    title: words.title,
    training: payment.training,
    reference: payment.receiptId,
    rows: known([
      [receipt.date, paperTime(payment.at, shop)],
      [words.receiptId, payment.receiptId],
      [receipt.customer, payment.name],
      [receipt.mobile, payment.number],
      [words.paidBy, words.mode[payment.mode]],
      [words.note, payment.note],
    ]),
    total: { label: words.paid, paise: payment.amountPaise },
    after: [[words.stillDue, formatPaise(payment.dueAfterPaise)]],
    status: words.received,
    note: '',
    footer: words.footer,
    upi: upiOf(shop, { mode: payment.mode, failed: false, paise: payment.amountPaise, id: payment.receiptId }),
  }
}

/** A UPI QR on paper: about 5 cm on 80 mm rolls, 4 cm on 58 mm, a module near 1 mm, read by a phone at arm's length. */
const UPI_QR_SIZE: Record<58 | 80, string> = { 58: '40mm', 80: '50mm' }

/** The receipt's HTML page; `css` is resources/receipt.css, `fontFace` the Devanagari font's rule (paper-fonts.ts). */
export function receiptHtml(content: ReceiptContent, shop: ReceiptShop, css: string, fontFace = ''): string {
  const { lang, receipt: words } = paperWords(content.language)
  const table = (rows: ReceiptRow[]) => rows.map(([key, value]) => `<tr><td class="k">${escapeHtml(key)}</td><td class="v">${escapeHtml(value)}</td></tr>`).join('')
  const training = content.training ? `<div class="training">${escapeHtml(words.training)}</div>` : ''
  const total = content.total ? `<tr class="amount"><td class="k">${escapeHtml(content.total.label)}</td><td class="v">${escapeHtml(formatPaise(content.total.paise))}</td></tr>` : ''
  const body = `<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
${training}
<div class="title">${escapeHtml(content.title)}</div>
<table>${table(content.rows)}${total}${table(content.after)}</table>
<div class="status">${escapeHtml(words.status)} ${escapeHtml(content.status)}</div>
${content.note ? `<div class="note">${escapeHtml(content.note)}</div>` : ''}
${content.upi ? `<div class="upi"><div>${escapeHtml(content.upi.label)}</div>${qrSvg(content.upi.link, UPI_QR_SIZE[shop.receiptWidthMm], content.upi.label)}</div>` : ''}
${training}
<div class="footer">${escapeHtml(content.footer)}</div>`
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(words.page)}</title>
<style>${receiptPageCss(shop.receiptWidthMm)}
${fontFacesFor(body, fontFace)}
${css}</style></head>
<body class="w${shop.receiptWidthMm}">
${body}
</body></html>`
}

export function receiptRenderer(resourcesDir: string) {
  const css = readFileSync(join(resourcesDir, 'receipt.css'), 'utf8')
  // The font is read at the first receipt, not at start (paper-fonts.ts keeps it once read).
  const fontFace = () => devanagariFontFace(resourcesDir)
  return {
    recharge: (sale: Sale, shop: ReceiptShop) => receiptHtml(rechargeReceipt(sale, shop), shop, css, fontFace()),
    coupon: (sale: CouponSale, shop: ReceiptShop) => receiptHtml(couponReceipt(sale, shop), shop, css, fontFace()),
    html: (content: ReceiptContent, shop: ReceiptShop) => receiptHtml(content, shop, css, fontFace()),
  }
}
