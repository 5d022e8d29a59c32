// The UPI request for a sale's exact amount (shared/upi.ts): the NPCI link's amount from paise to the paisa, the payee
// name and ids URL-encoded, nothing for a shop without a UPI id or with one the settings refuse, the settings' own
// refusals, and the one QR maker read back by an independent decoder.
import { describe, expect, it } from 'vitest'
import { SaveSettingsInputSchema } from '../../electron/contract'
import { speak } from '../../electron/shared/words'
import { isUpiPayee, isUpiVpa, qrPath, qrSvg, QR_QUIET_MODULES, upiAmount, upiLink } from '../../electron/shared/upi'
import { readQrPath } from '../helpers/qr-read'

const shop = { vpa: 'shop.ramesh@okaxis', payee: 'Sharma Mobile' }

describe('the upi://pay link', () => {
  it('carries the shop, the payee, the exact amount in rupees with 2 decimals, INR and the sale id as note and reference', () => {
    expect(upiLink(shop, { amountPaise: 209_00, orderId: 'CTR20261128A1' })).toBe(
      'upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20Mobile&am=209.00&cu=INR&tn=CTR20261128A1&tr=CTR20261128A1',
    )
  })

  it('writes the amount from paise to the paisa, never through a float', () => {
    expect([1, 50, 99, 100, 20_950, 1_999_05, 25_000_00, 10_00_000_01].map(upiAmount)).toEqual([
      '0.01', '0.50', '0.99', '1.00', '209.50', '1999.05', '25000.00', '1000000.01',
    ])
    // 0.1 + 0.2 in rupees would be 0.30000000000000004: paise stay whole.
    expect(upiAmount(10 + 20)).toBe('0.30')
    for (const wrong of [0, -100, 1.5, Number.NaN]) expect(() => upiAmount(wrong)).toThrow()
  })

  it('encodes a payee name with spaces and marks, so & cannot start another field', () => {
    const link = upiLink({ vpa: '9876543210@ybl', payee: "Sharma & Sons' A.K.-Mobile" }, { amountPaise: 72_00, orderId: 'UP2611280001' })!
    expect(link).toBe("upi://pay?pa=9876543210@ybl&pn=Sharma%20%26%20Sons'%20A.K.-Mobile&am=72.00&cu=INR&tn=UP2611280001&tr=UP2611280001")
    const fields = new URLSearchParams(link.slice('upi://pay?'.length))
    expect([...fields.keys()]).toEqual(['pa', 'pn', 'am', 'cu', 'tn', 'tr'])
    expect(fields.get('pn')).toBe("Sharma & Sons' A.K.-Mobile")
  })

  it('is off without a UPI id, and never made for an id or payee the settings refuse (a hand-edited settings.json)', () => {
    expect(upiLink({ vpa: '', payee: 'Sharma Mobile' }, { amountPaise: 100, orderId: 'A1' })).toBeNull()
    expect(upiLink({ vpa: 'shop@okaxis&am=1', payee: 'Sharma' }, { amountPaise: 100, orderId: 'A1' })).toBeNull()
    expect(upiLink({ vpa: 'shop@okaxis', payee: '' }, { amountPaise: 100, orderId: 'A1' })).toBeNull()
  })
})

describe("the settings' rules", () => {
  it('take name@handle UPI ids and refuse the rest', () => {
    for (const good of ['shop.ramesh@okaxis', '9876543210@ybl', 'a_b-c.d@paytm', 'ab@icici']) expect(isUpiVpa(good), good).toBe(true)
    for (const bad of ['shop', '@okaxis', 'a@okaxis', 'shop@ok axis', 'shop@okaxis1', 'shop@@okaxis', 'shop ramesh@okaxis', 'shop@o', 'रमेश@okaxis', `${'a'.repeat(257)}@okaxis`]) {
      expect(isUpiVpa(bad), bad).toBe(false)
    }
  })

  it('take plain payee names of letters and spaces (with . & \' -) up to 50, and refuse the rest', () => {
    for (const good of ['Sharma Mobile', "A.K. Sharma & Sons' Shop", 'R-K Store', 'x'.repeat(50)]) expect(isUpiPayee(good), good).toBe(true)
    for (const bad of ['', ' Sharma', 'Shop 24x7', 'रमेश मोबाइल', 'Sharma<b>', 'Sharma/Sons', 'x'.repeat(51)]) expect(isUpiPayee(bad), bad).toBe(false)
  })

  it('refuse a wrong UPI id or payee in settings.save with words for the field, in English and Hindi', () => {
    const refused = SaveSettingsInputSchema.safeParse({ upiVpa: 'shop.ramesh', upiPayee: 'Shop 24x7' })
    expect(refused.success).toBe(false)
    const byField = Object.fromEntries(refused.error!.issues.map((issue) => [issue.path[0], issue.message]))
    expect(speak(byField.upiVpa, 'en')).toBe('A UPI id is name@bank, like shop.ramesh@okaxis or 9876543210@ybl')
    expect(speak(byField.upiPayee, 'hi')).toMatch(/पाने वाले का नाम/)
    expect(SaveSettingsInputSchema.safeParse({ upiVpa: ' shop.ramesh@okaxis ', upiPayee: 'Sharma Mobile' })).toMatchObject({ success: true, data: { upiVpa: 'shop.ramesh@okaxis' } })
    expect(SaveSettingsInputSchema.safeParse({ upiVpa: '', upiPayee: '' }).success).toBe(true)
  })
})

describe('the QR', () => {
  it('reads back as the exact link, with its quiet zone of 4 modules on every side', () => {
    const link = upiLink({ vpa: 'shop.ramesh@okaxis', payee: 'Sharma & Sons Mobile Store' }, { amountPaise: 2_10_50, orderId: 'CTR20261128ABCDEF' })!
    const qr = qrPath(link)
    expect(readQrPath(qr)).toBe(link)
    const modules = [...qr.path.matchAll(/M(\d+) (\d+)/g)].flatMap(([, x, y]) => [Number(x), Number(y)])
    expect(Math.min(...modules)).toBe(QR_QUIET_MODULES)
    expect(Math.max(...modules)).toBe(qr.size - QR_QUIET_MODULES - 1)
  })

  it('on paper is the same path in an SVG of the size asked, its label escaped', () => {
    const svg = qrSvg('upi://pay?pa=a.b@okaxis', '50mm', 'Pay <₹1> & go')
    expect(svg).toContain(`d="${qrPath('upi://pay?pa=a.b@okaxis').path}"`)
    expect(svg).toContain('width="50mm" height="50mm"')
    expect(svg).toContain('aria-label="Pay &lt;₹1&gt; &amp; go"')
  })
})
