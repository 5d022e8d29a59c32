// A receipt as a WhatsApp message: the chat text drawn from the same content the printers draw (shared/receipt-content.ts),
// in the receipt's language, and the wa.me address that opens a chat with it for an Indian mobile number.
import { WHATSAPP_ADDRESS } from '../contract'
import { formatPaise } from '../shared/money'
import { paperWords } from '../shared/words'
import type { ReceiptContent, ShopHeader } from '../shared/receipt-content'

/**
 * The receipt as lines of a chat: the shop's name, the TRAINING banner above and below as on paper, what was sold,
 * its rows, the amount, the status and its note, the footer. Decision: the shop's address is left off (the customer
 * stood in the shop; a chat should fit on one phone screen), and *…* is WhatsApp's bold, for the name and the amount.
 * The text holds only what the paper receipt shows, never a credential: ReceiptContent carries none.
 */
export function receiptChatText(content: ReceiptContent, shop: Pick<ShopHeader, 'shopName'>): string {
  const words = paperWords(content.language).receipt
  const banner = content.training ? [words.training] : []
  const rows = (list: [string, string][]) => list.map(([label, value]) => `${label}: ${value}`)
  const lines = [
    shop.shopName.trim() ? `*${shop.shopName.trim()}*` : '',
    ...banner,
    content.title,
    ...rows(content.rows),
    content.total ? `*${content.total.label}: ${formatPaise(content.total.paise)}*` : '',
    ...rows(content.after),
    `${words.status} ${content.status}`,
    content.note,
    ...banner,
    content.footer,
  ]
  return lines.filter(Boolean).join('\n')
}

/** India's country code: wa.me wants the number in international form, digits only. */
const INDIA = '91'

/** The wa.me address of a chat with a 10-digit Indian mobile number, the text typed in. Throws on any other number. */
export function whatsAppUrl(mobile: string, text: string): string {
  if (!/^[6-9]\d{9}$/.test(mobile)) throw new Error('A WhatsApp share needs a 10-digit Indian mobile number')
  return `${WHATSAPP_ADDRESS}${INDIA}${mobile}?text=${encodeURIComponent(text)}`
}
