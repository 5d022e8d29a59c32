// A receipt as a WhatsApp message (counter/receipt-share.ts): the chat text from the receipt's own content in English
// and Hindi, TRAINING as on paper, amounts in Indian grouping, and the wa.me address with the text encoded and only a
// 10-digit Indian mobile number accepted.
import { describe, expect, it } from 'vitest'
import type { Sale } from '../../electron/contract'
import { receiptChatText, whatsAppUrl } from '../../electron/counter/receipt-share'
import { rechargeReceipt } from '../../electron/counter/receipts'
import { sampleSale, sampleShop } from '../helpers/sample-sale'

const shop = sampleShop()
const sale = sampleSale({ amountPaise: 12_34_567_50, collectedPaise: 12_34_567_50, customerName: 'Ramesh Kumar' })

const chat = (of: Sale, language: 'en' | 'hi' = 'en') => receiptChatText(rechargeReceipt(of, { ...shop, receiptLanguage: language }), shop)

describe('the chat text', () => {
  it("is the receipt's lines in English: the shop, what was sold, its rows, the amount in Indian grouping, how it was paid, the status; no address", () => {
    expect(chat(sale)).toBe(
      [
        '*Sharma Mobile Point*',
        'Mobile recharge',
        'Date: 05-01-2026 12:00:15',
        'Order id: CTR20260105A1B2',
        'Mobile: 9876543210',
        'Customer: Ramesh Kumar',
        'Operator: Airtel',
        'Circle: Maharashtra',
        'Txn id: FP778812',
        'Operator ref: OPR-55121',
        '*Amount: ₹12,34,567.50*',
        'Paid by: Cash',
        'Status: SUCCESSFUL',
        'Thank you. For any query, quote the order id.',
      ].join('\n'),
    )
  })

  it('is in Hindi when the receipts are, with the same date, ids and amount', () => {
    const text = chat(sale, 'hi')
    for (const line of ['मोबाइल रिचार्ज', 'तारीख: 05-01-2026 12:00:15', 'ऑर्डर ID: CTR20260105A1B2', 'ग्राहक: Ramesh Kumar', '*राशि: ₹12,34,567.50*', 'स्थिति: सफल', 'धन्यवाद']) {
      expect(text).toContain(line)
    }
    for (const word of ['Mobile recharge', 'Date', 'Amount', 'Status', 'Thank you']) expect(text).not.toContain(word)
  })

  it('says TRAINING above and below the sale, as on paper, in the receipt language', () => {
    const lines = chat({ ...sale, training: true }).split('\n')
    expect(lines[1]).toBe('TRAINING — NOT A REAL SALE')
    expect(lines.at(-2)).toBe('TRAINING — NOT A REAL SALE')
    expect(chat({ ...sale, training: true }, 'hi').split('\n').filter((line) => line === 'ट्रेनिंग — असली बिक्री नहीं')).toHaveLength(2)
    expect(chat(sale)).not.toContain('TRAINING')
  })

  it('carries a pending sale\'s "do not pay again", and leaves off what the receipt does not know', () => {
    const text = chat({ ...sale, state: 'UNKNOWN', fpayId: null, operatorRef: null, customerName: null })
    expect(text).toContain('Status: PENDING\nDo not pay again: the shop is checking the status of this order.')
    for (const label of ['Txn id', 'Operator ref', 'Customer']) expect(text).not.toContain(label)
  })
})

describe('the wa.me address', () => {
  it("opens a chat with the number in international form and the text encoded: ₹, Devanagari, newlines and & survive the trip", () => {
    const text = `${chat(sale, 'hi')}\nA & B?`
    const url = whatsAppUrl('9876543210', text)
    expect(url.startsWith('https://wa.me/919876543210?text=')).toBe(true)
    expect(url).not.toMatch(/[\s₹&]|\p{Script=Devanagari}/u) // nothing raw: the & of the text is not a second parameter
    expect(url).toContain('%E2%82%B9') // ₹
    expect(url).toContain('%0A')
    const parsed = new URL(url)
    expect(parsed.origin + parsed.pathname).toBe('https://wa.me/919876543210')
    expect([...parsed.searchParams.keys()]).toEqual(['text'])
    expect(parsed.searchParams.get('text')).toBe(text)
  })

  it.each(['987654321', '98765432101', '+919876543210', '919876543210', '5876543210', '98765 43210', ''])('refuses %j as a number', (mobile) => {
    expect(() => whatsAppUrl(mobile, 'hello')).toThrow('10-digit Indian mobile number')
  })
})
