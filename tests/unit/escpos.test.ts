// The ESC/POS receipt's text rules: which receipts must go as images (nothing may print as "?"), and
// how rows are justified and wrapped to the roll's columns.
import { describe, expect, it } from 'vitest'
import type { CouponSale } from '../../electron/contract'
import { couponReceipt, type ReceiptShop } from '../../electron/counter/receipts'
import { justified, needsImage, printedForm, receiptBytes, wrap } from '../../electron/printers/escpos'
import { decodeEscPos } from '../helpers/escpos-printer'

const shop: ReceiptShop = { shopName: 'Sharma Mobile Point', shopAddress: 'MG Road — Pune', receiptWidthMm: 58, timezone: 'Asia/Kolkata', clock: '12h' }

const coupon: CouponSale = {
  attemptId: 'PAN-A7',
  orderId: null,
  vleId: 'VLE1001',
  vleName: 'Ramesh Kumar',
  type: 1,
  qty: 2,
  expectedRatePaise: 10700,
  date: '05-Jan-2026',
  ratePaise: 10700,
  amountPaise: 21400,
  oldBalPaise: 500000,
  newBalPaise: 478600,
  problems: [],
  state: 'UNKNOWN',
  providerStatus: null,
  message: '',
  createdAt: '2026-01-05T13:30:15.000Z',
  updatedAt: '2026-01-05T13:30:15.000Z',
  lastCheckedAt: null,
  training: false,
  collectedPaise: 21400,
  paymentMode: 'upi',
  settledNote: null,
  upiConfirmedAt: null,
}

describe('needsImage', () => {
  it('prints our own typography as text: the rupee sign as Rs., dashes, the space Intl puts before "pm"', () => {
    const content = couponReceipt(coupon, shop)
    expect(content.rows.find(([label]) => label === 'Date')?.[1]).toMatch(/pm$/)
    expect(needsImage(content, shop)).toBe(false)
    expect(printedForm('₹1,07,000.00 — ok\u202fpm')).toBe('Rs.1,07,000.00 - ok pm')
  })

  it('sends the receipt as an image when any text holds a letter code page PC437 lacks', () => {
    expect(needsImage(couponReceipt({ ...coupon, vleName: 'रमेश कुमार' }, shop), shop)).toBe(true)
    expect(needsImage(couponReceipt(coupon, shop), { ...shop, shopAddress: 'Łódź Road' })).toBe(true)
    expect(needsImage(couponReceipt(coupon, shop), { ...shop, shopName: 'Café Señor' })).toBe(false)
  })

  it('prints PC437 letters as themselves', () => {
    const decoded = decodeEscPos(receiptBytes(couponReceipt(coupon, shop), { ...shop, shopName: 'Café' }, { widthMm: 58, drawerKick: false }))
    expect(decoded.large).toContain('Café')
    expect(decoded.lines.map((line) => line.trim())).toContain('MG Road - Pune')
    expect(decoded.lines).toContain(`New balance${' '.repeat(32 - 22)}Rs.4,786.00`)
    // Before the provider names its order, the QR holds our ref.
    expect(decoded.qr).toEqual(['PAN-A7'])
  })
})

describe('justified and wrap', () => {
  it('puts the value at the right edge, or under the label when it does not fit', () => {
    expect(justified('Qty', '2', 10)).toEqual(['Qty      2'])
    expect(justified('Agent', 'VLE1001 Ramesh', 12)).toEqual(['Agent', '     VLE1001', '      Ramesh'])
  })

  it('breaks at spaces and splits only a word longer than the line', () => {
    expect(wrap('Do not pay again: the shop', 12)).toEqual(['Do not pay', 'again: the', 'shop'])
    expect(wrap('ab CTR20260105A1B2C3', 8)).toEqual(['ab', 'CTR20260', '105A1B2C', '3'])
    expect(wrap('one\ntwo', 8)).toEqual(['one', 'two'])
  })
})
