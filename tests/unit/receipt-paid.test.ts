// A receipt says what the customer paid, and how: with a service charge (collected > amount) the HTML receipt (the
// preview, silent printing, Save PDF, the picture on an ESC/POS printer) lists the amount, the charge, the total in the
// large row and the payment mode, in the receipt's language; without one the amount is the large row, and the payment
// mode follows it all the same.
import { describe, expect, it } from 'vitest'
import type { CouponSale } from '../../electron/contract'
import { couponReceipt, rechargeReceipt, receiptHtml } from '../../electron/counter/receipts'
import { sampleSale, sampleShop } from '../helpers/sample-sale'

const row = (label: string, value: string) => `<tr><td class="k">${label}</td><td class="v">${value}</td></tr>`
const large = (label: string, value: string) => `<tr class="amount"><td class="k">${label}</td><td class="v">${value}</td></tr>`
const html = (sale: Parameters<typeof rechargeReceipt>[0], language: 'en' | 'hi' = 'en') => {
  const shop = sampleShop({ receiptLanguage: language })
  return receiptHtml(rechargeReceipt(sale, shop), shop, '')
}

describe('a receipt with a service charge', () => {
  it('lists the ₹199 amount, the ₹10 charge, the ₹209 total large and the mode, in that order (English)', () => {
    const page = html(sampleSale({ collectedPaise: 209_00, paymentMode: 'cash' }))
    const order = [row('Amount', '₹199.00'), row('Service charge', '₹10.00'), large('Total', '₹209.00'), row('Paid by', 'Cash')].map((part) => page.indexOf(part))
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(page).not.toContain(large('Amount', '₹199.00'))
  })

  it('says the same in Hindi, each mode in its word', () => {
    for (const [mode, word] of [['cash', 'नकद'], ['upi', 'UPI'], ['credit', 'उधार']] as const) {
      const page = html(sampleSale({ collectedPaise: 209_00, paymentMode: mode }), 'hi')
      expect(page).toContain(row('राशि', '₹199.00'))
      expect(page).toContain(row('सर्विस चार्ज', '₹10.00'))
      expect(page).toContain(large('कुल', '₹209.00'))
      expect(page).toContain(row('भुगतान का तरीका', word))
    }
  })

  it('keeps the charge on a pending sale and leaves it off a failed one, whose money goes back', () => {
    expect(html(sampleSale({ collectedPaise: 209_00, state: 'UNKNOWN' }))).toContain(large('Total', '₹209.00'))
    const failed = html(sampleSale({ collectedPaise: 209_00, state: 'FAILED' }))
    expect(failed).toContain(large('Amount', '₹199.00'))
    expect(failed).not.toContain('Service charge')
    expect(failed).not.toContain('₹209.00')
    // How it was paid is how the money goes back.
    expect(failed).toContain(row('Paid by', 'Cash'))
  })

  it('lists a coupon sale\'s charge above its balances', () => {
    const coupon: CouponSale = {
      attemptId: 'CP261128000007ABC', orderId: 'UTI123', vleId: 'VLE1001', vleName: 'Ramesh Kumar', type: 1, qty: 2, expectedRatePaise: 107_00,
      date: '28-Nov-2026', ratePaise: 107_00, amountPaise: 214_00, oldBalPaise: 5_000_00, newBalPaise: 4_786_00, problems: [], state: 'SUCCESS',
      providerStatus: 'SUCCESS', message: '', createdAt: '2026-11-28T06:00:00.000Z', updatedAt: '2026-11-28T06:00:00.000Z', lastCheckedAt: null,
      training: false, collectedPaise: 234_00, paymentMode: 'upi', settledNote: null, upiConfirmedAt: null,
    }
    const content = couponReceipt(coupon, sampleShop())
    expect(content.rows.slice(-2)).toEqual([['Amount', '₹214.00'], ['Service charge', '₹20.00']])
    expect(content.total).toEqual({ label: 'Total', paise: 234_00 })
    expect(content.after).toEqual([['Paid by', 'UPI'], ['Old balance', '₹5,000.00'], ['New balance', '₹4,786.00']])
  })
})

describe('a receipt without a service charge', () => {
  it('has the amount as its large row, no charge or total, and the payment mode after it, each mode in its word', () => {
    for (const [mode, word] of [['cash', 'Cash'], ['upi', 'UPI'], ['credit', 'Credit (udhaar)']] as const) {
      const page = html(sampleSale({ paymentMode: mode }))
      const order = [large('Amount', '₹199.00'), row('Paid by', word)].map((part) => page.indexOf(part))
      expect(order.every((at) => at > 0)).toBe(true)
      expect(order[0]).toBeLessThan(order[1])
      for (const word of ['Service charge', 'Total']) expect(page).not.toContain(word)
    }
  })

  it('says it in Hindi too', () => {
    const page = html(sampleSale({ paymentMode: 'upi' }), 'hi')
    expect(page).toContain(row('भुगतान का तरीका', 'UPI'))
  })

  it('lists a coupon sale\'s payment mode above its balances', () => {
    const coupon: CouponSale = {
      attemptId: 'CP261128000008ABC', orderId: 'UTI124', vleId: 'VLE1001', vleName: 'Ramesh Kumar', type: 1, qty: 2, expectedRatePaise: 107_00,
      date: '28-Nov-2026', ratePaise: 107_00, amountPaise: 214_00, oldBalPaise: 5_000_00, newBalPaise: 4_786_00, problems: [], state: 'SUCCESS',
      providerStatus: 'SUCCESS', message: '', createdAt: '2026-11-28T06:00:00.000Z', updatedAt: '2026-11-28T06:00:00.000Z', lastCheckedAt: null,
      training: false, collectedPaise: 214_00, paymentMode: 'cash', settledNote: null, upiConfirmedAt: null,
    }
    const content = couponReceipt(coupon, sampleShop())
    expect(content.total).toEqual({ label: 'Amount', paise: 214_00 })
    expect(content.after).toEqual([['Paid by', 'Cash'], ['Old balance', '₹5,000.00'], ['New balance', '₹4,786.00']])
  })
})
