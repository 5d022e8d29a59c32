// Hindi: the screens' dictionaries (every key in both, the same {values}, no English left in Hindi by accident),
// paper's dictionaries, a receipt and the Z report in Hindi (Hindi words, the bundled font inlined, an ESC/POS
// picture chosen) and English paper unchanged (no font carried, text printing kept).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DaySummarySchema } from '../../electron/contract'
import { paymentReceipt, rechargeReceipt, receiptRenderer } from '../../electron/counter/receipts'
import { zReportA4, zReportCsv, zReportReceipt } from '../../electron/counter/z-report'
import { devanagariFontFace } from '../../electron/counter/paper-fonts'
import { needsImage } from '../../electron/printers/escpos'
import { formatPaise } from '../../electron/shared/money'
import { formatCount } from '../../electron/shared/numbers'
import { DEVANAGARI, dictionaries } from '../../electron/shared/words'
import { sampleSale, sampleShop } from '../helpers/sample-sale'

const resources = resolve(__dirname, '../../resources')

/** Every leaf of a dictionary by its dotted key; functions are called with sample values. */
function leaves(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (typeof node === 'string') out.set(prefix, node)
  else if (typeof node === 'function') out.set(prefix, String((node as (a: number, b: number, c: number) => string)(12, 3, 384)))
  else for (const [key, value] of Object.entries(node as object)) for (const [k, v] of leaves(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  return out
}

/**
 * Latin words a Hindi string may keep: names staff say as they are (UPI, PAN, DTH, ID, OTP, FPay, operator and
 * coupon names, Counter), keys on the keyboard, file and protocol names, and the browser's own menu words.
 */
const KEPT = new Set(
  'UPI PAN DTH ID OTP PIN FPay Counter ESC POS API CSV PDF Save as A4 mm Enter Esc Ctrl Alt R P M U F1 F2 HTTP UTR P-Coupon E-Coupon Z IP POST GET Windows dev usb lp0 PC Printer port resources states json pm DD-MM-YYYY WhatsApp QR IMPS NEFT RTGS SDK'.split(' '),
)
const latinWords = (text: string) => text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z][A-Za-z0-9-]*/g) ?? []
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('screen dictionaries', () => {
  const english = leaves(dictionaries.en.screen)
  const hindi = leaves(dictionaries.hi.screen)

  it('have the same keys and the same {values} in every message', () => {
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [key, text] of english) expect(placeholders(hindi.get(key)!), key).toEqual(placeholders(text))
  })

  it('leave no English in Hindi but the names and keys staff use as they are', () => {
    // The language section is in both scripts on purpose (en/screen-language.ts), so either reader finds the way back.
    const leftOver = [...hindi].filter(([key]) => !key.startsWith('language.')).flatMap(([key, text]) => latinWords(text).filter((word) => !KEPT.has(word)).map((word) => `${key}: ${word}`))
    expect(leftOver).toEqual([])
  })

  it('translate every message that has words: a Hindi message reads in Devanagari unless it is only names, keys or signs', () => {
    const untranslated = [...hindi].filter(([key, text]) => text === english.get(key) && latinWords(text).some((word) => !KEPT.has(word)))
    expect(untranslated).toEqual([])
    expect([...hindi.values()].filter((text) => DEVANAGARI.test(text)).length).toBeGreaterThan(english.size * 0.85)
  })

  it('label the language choices in both scripts in both languages', () => {
    for (const words of [leaves(dictionaries.en.screen.language), leaves(dictionaries.hi.screen.language)]) for (const text of words.values()) expect(text).toMatch(/[A-Za-z].*\/.*[\u0900-\u097F]|[\u0900-\u097F].*\/.*[A-Za-z]/)
  })

  it('group amounts and counts the Indian way', () => {
    expect(formatPaise(12_34_567_50)).toBe('₹12,34,567.50')
    expect(formatCount(1234567)).toBe('12,34,567')
  })
})

describe('paper dictionaries', () => {
  const english = leaves(dictionaries.en.paper)
  const hindi = leaves(dictionaries.hi.paper)

  it('have every key in both languages, and Hindi words for every word', () => {
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort())
    const leftOver = [...hindi].filter(([key]) => key !== 'lang').flatMap(([key, text]) => latinWords(text).filter((word) => !KEPT.has(word)).map((word) => `${key}: ${word}`))
    expect(leftOver).toEqual([])
  })
})

const shop = sampleShop()
const sale = sampleSale({
  amountPaise: 12_34_567_50,
  collectedPaise: 12_34_567_50,
  customerName: 'Ramesh Kumar',
  state: 'UNKNOWN',
  providerStatus: 'PENDING',
  training: true,
})

describe('a receipt in Hindi', () => {
  const render = receiptRenderer(resources)

  it('says every word in Hindi, with the date and amount as on the English receipt, and carries the bundled font', () => {
    const hindiShop = { ...shop, receiptLanguage: 'hi' as const }
    const html = render.recharge(sale, hindiShop)
    for (const word of ['मोबाइल रिचार्ज', 'तारीख', 'ऑर्डर ID', 'ग्राहक', 'Ramesh Kumar', 'ऑपरेटर', 'राशि', 'स्थिति:', 'पेंडिंग', 'दोबारा पैसे न दें', 'धन्यवाद', 'ट्रेनिंग — असली बिक्री नहीं']) expect(html).toContain(word)
    for (const word of ['Mobile recharge', 'Date', 'Customer', 'Amount', 'Status', 'PENDING', 'Thank you', 'TRAINING']) expect(html).not.toContain(word)
    expect(html).toContain('lang="hi"')
    expect(html).toContain('05-01-2026 12:00:15')
    expect(html).toContain('₹12,34,567.50')
    expect(html).toMatch(/@font-face \{ font-family: "Counter Devanagari"; src: url\(data:font\/ttf;base64,[A-Za-z0-9+/]{1000,}/)
  })

  it('goes to an ESC/POS printer as a picture: its code page has no Devanagari', () => {
    expect(needsImage(rechargeReceipt(sale, { ...shop, receiptLanguage: 'hi' }), shop)).toBe(true)
    expect(needsImage(rechargeReceipt(sale, { ...shop, receiptLanguage: 'en' }), shop)).toBe(false)
  })

  it('leaves an English receipt as it was: English words, no font carried', () => {
    const html = render.recharge(sale, shop)
    expect(html).toContain('Mobile recharge')
    expect(html).toContain('Status: PENDING')
    expect(html).not.toContain('@font-face')
    expect(render.recharge(sale, { ...shop, shopName: 'शर्मा मोबाइल' })).toContain('@font-face')
  })
})

describe('a receipt of a payment of a due (udhaar) in Hindi', () => {
  const payment = { receiptId: 'PAY20260105X1', number: '9876543210', name: 'रमेश', amountPaise: 1_500_00, mode: 'cash' as const, note: '', at: '2026-01-05T06:30:15.000Z', businessDay: '2026-01-05', dueAfterPaise: 2_00_000_00, upiConfirmedAt: null, training: false }

  it('says every word in Hindi, the amounts grouped the Indian way, and stays English in English', () => {
    const html = receiptRenderer(resources).html(paymentReceipt(payment, { ...shop, receiptLanguage: 'hi' }), shop)
    for (const word of ['उधार का भुगतान मिला', 'रसीद ID', 'ग्राहक', 'मोबाइल', 'नकद', 'भुगतान', 'अभी बाकी', '₹2,00,000.00', '₹1,500.00', 'मिल गया', 'रसीद ID बताएँ']) expect(html).toContain(word)
    expect(html).not.toMatch(/Payment|Receipt id|Customer|Paid|Still due|RECEIVED|Thank you|Cash/)
    const english = receiptRenderer(resources).html(paymentReceipt({ ...payment, mode: 'upi', note: 'part' }, shop), shop)
    for (const word of ['Payment received (udhaar)', 'Receipt id', 'Paid by', 'UPI', 'Note', 'Still due', 'RECEIVED']) expect(english).toContain(word)
  })
})

describe('the Z report in Hindi', () => {
  const summary = DaySummarySchema.parse({
    businessDay: '2026-11-22',
    closed: true,
    closedAt: '2026-11-22T15:30:00.000Z',
    openingPanBalance: { balancePaise: 5_000_00, at: '2026-11-21T14:00:00.000Z' },
    closingPanBalance: { balancePaise: 3_271_01, at: '2026-11-22T15:29:00.000Z' },
    recharges: [{ operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 1234, amountPaise: 12_34_567_50 }],
    coupons: [{ type: 1, state: 'SUCCESS', orders: 2, qty: 5, amountPaise: 535_00 }],
    topups: [],
    pending: [],
    breaks: [],
    cash: { openingFloatPaise: 2_000_00, collectedCashPaise: 1_968_50, collectedUpiPaise: 199_00, expectedPaise: 3_968_50, countedPaise: 3_968_00, differencePaise: -50, counted: { n500: 5, n200: 3, n100: 7, n50: 1, n20: 2, n10: 3, coins: '38' } },
    overrideNote: null,
  })
  const options = { shop: { ...shop, receiptWidthMm: 80 as const, receiptLanguage: 'hi' as const }, training: false, fontFace: devanagariFontFace(resources) }
  const receiptCss = readFileSync(resolve(resources, 'receipt.css'), 'utf8')

  it('prints its sections, rows and status in Hindi on 80 mm and A4, amounts and counts grouped the Indian way', () => {
    const thermal = zReportReceipt(summary, options, receiptCss)
    for (const word of ['Z रिपोर्ट 22-11-2026', 'PAN बैलेंस', 'रिचार्ज', 'कैश दराज़', 'गिना गया', 'बंद', 'कोई नहीं', 'Airtel सफल ×1234', '₹12,34,567.50']) expect(thermal).toContain(word)
    const a4 = zReportA4(summary, options)
    for (const word of ['ऑपरेटर के हिसाब से रिचार्ज', 'कुल सफल', '>1,234<', 'P-Coupon (प्रकार 1)', '₹500 के नोट', 'कोई नहीं।']) expect(a4).toContain(word)
    for (const html of [thermal, a4]) {
      expect(html).toContain('lang="hi"')
      expect(html).toContain('font-family: "Counter Devanagari"')
      expect(html).not.toMatch(/Recharges|Cash drawer|Summary|Closed|None/)
    }
    expect(zReportCsv(summary, options)).toContain('नकद मिला')
  })

  it('prints credit (udhaar) apart in Hindi: sales on credit, dues paid in cash and by UPI, what is still owed, and what staff took', () => {
    const staffPayment = { receiptId: 'UP2611220000031AB', number: '9876500001', name: 'सीता देवी', amountPaise: 100_00, mode: 'upi' as const, at: '2026-11-22T08:00:00.000Z' }
    const withCredit = { ...summary, credit: { salesCount: 3, salesPaise: 597_00, paidCashPaise: 200_00, paidUpiPaise: 100_00, outstandingPaise: 1_297_00, staffPayments: [staffPayment] } }
    const thermal = zReportReceipt(withCredit, options, receiptCss)
    for (const word of ['उधार बिक्री ×3', '₹597.00', 'उधार वसूली, नकद', 'उधार वसूली, UPI', 'बंद पर बाकी उधार', '₹1,297.00', 'स्टाफ़ ने ली वसूली', 'बैंक स्टेटमेंट से मिलाएँ']) expect(thermal).toContain(word)
    const a4 = zReportA4(withCredit, options)
    for (const word of ['उधार बिक्री (दराज़ में नहीं)', 'उधार की वसूली, नकद', 'उधार की वसूली, UPI (दराज़ में नहीं)', 'दिन बंद होने पर बाकी उधार', 'स्टाफ़ द्वारा ली गई उधार की वसूली', 'मालिक के लिए', 'बैंक स्टेटमेंट से मिलाएँ']) expect(a4).toContain(word)
    for (const html of [thermal, a4, zReportCsv(withCredit, options)]) expect(html).not.toMatch(/Credit|udhaar|Dues|Outstanding|on credit|staff|bank statement/)
  })

  it("prints the day's earnings (margins) in Hindi too, and says so in Hindi when a day closed before margins were kept", () => {
    const figures = { turnoverPaise: 12_34_567_50, marginPaise: 3_20_00, unrated: 2, serviceChargePaise: 10_00, earnedPaise: 3_30_00 }
    const earned = { ...summary, earnings: { recharges: [{ operatorCode: 'AT', operatorName: 'Airtel', count: 1234, ...figures }], coupons: [{ type: 1 as const, orders: 2, qty: 5, ...figures }], total: figures } }
    const thermal = zReportReceipt(earned, options, receiptCss)
    for (const word of ['कमाई', 'Airtel ×1234', 'P-Coupon (5 कूपन) ×2', 'मार्जिन', '₹320.00 + —', 'सर्विस चार्ज']) expect(thermal).toContain(word)
    const a4 = zReportA4(earned, options)
    for (const word of ['कमाई (सफल बिक्री)', 'ऑपरेटर या कूपन', 'कुल बिक्री राशि', 'बिना मार्जिन दर्ज बिक्री', 'कुल कमाई']) expect(a4).toContain(word)
    for (const html of [thermal, a4, zReportCsv(earned, options)]) expect(html).not.toMatch(/Earn|Margin|Turnover|Service|coupons\)|Total/)
    for (const html of [zReportReceipt(summary, options, receiptCss), zReportA4(summary, options)]) {
      expect(html).toContain('यह दिन बंद होते समय दर्ज नहीं थी')
      expect(html).not.toContain('Not kept')
    }
  })
})
