// PAN desk rules that need no provider: agent field validators (Aadhaar with its Verhoeff digit,
// PAN, PIN, mobile, e-mail) and the checks run on each coupon answer.
import { describe, expect, it } from 'vitest'
import { AgentInputSchema, CouponOrderInputSchema } from '../../electron/contract'
import { checkCouponAnswer as checkSaid } from '../../electron/counter/coupon-checks'
import { verhoeffDigit, verhoeffValid } from '../../electron/shared/verhoeff'
import type { CouponReply } from '../../electron/partners/pan-api'
import { english, speak } from '../../electron/shared/words'

/** The checks' problems in English: they are said (shared/words), journaled so, and spoken for the screen. */
const checkCouponAnswer = (...args: Parameters<typeof checkSaid>) => checkSaid(...args).map(english)

const good = {
  vleId: 'VLE1001',
  name: 'Ravi Kumar',
  mobile: '9812345678',
  email: 'ravi@example.in',
  shop: 'Ravi Digital Seva',
  location: 'Sitapur',
  stateCode: '35',
  pin: '261001',
  uid: '',
  pan: 'ABCDE1234F',
}

describe('Verhoeff', () => {
  it('matches the published example (236 -> check digit 3)', () => {
    expect(verhoeffDigit('236')).toBe('3')
    expect(verhoeffValid('2363')).toBe(true)
  })
  it('catches every single-digit change and every neighbour swap of a valid number', () => {
    const valid = '23456789012' + verhoeffDigit('23456789012')
    expect(verhoeffValid(valid)).toBe(true)
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue
        expect(verhoeffValid(valid.slice(0, i) + d + valid.slice(i + 1))).toBe(false)
      }
      if (i < valid.length - 1 && valid[i] !== valid[i + 1]) {
        expect(verhoeffValid(valid.slice(0, i) + valid[i + 1] + valid[i] + valid.slice(i + 2))).toBe(false)
      }
    }
  })
})

describe('agent fields', () => {
  const uid = '98765432101' + verhoeffDigit('98765432101')
  const check = (change: Record<string, string>) => AgentInputSchema.safeParse({ ...good, uid, ...change })

  it('accepts a good agent, upper-casing the PAN and dropping spaces from the Aadhaar', () => {
    const parsed = AgentInputSchema.parse({ ...good, pan: 'abcde1234f', uid: `${uid.slice(0, 4)} ${uid.slice(4, 8)} ${uid.slice(8)}` })
    expect(parsed.pan).toBe('ABCDE1234F')
    expect(parsed.uid).toBe(uid)
  })

  it.each(["R. K. D'Souza", 'Ravi Kumar'])('takes the name %j as the provider does', (name) => {
    expect(check({ name }).success).toBe(true)
  })

  it.each([
    ['uid', '12345678901', 'Aadhaar number: 12 digits'],
    ['uid', '012345678901', 'An Aadhaar number never starts with 0 or 1'],
    ['uid', uid.slice(0, 11) + ((Number(uid[11]) + 1) % 10), 'This Aadhaar number is mistyped (its check digit does not match)'],
    ['pan', 'ABCD12345F', 'PAN: 5 letters, 4 digits, 1 letter (like ABCDE1234F)'],
    ['pin', '012345', 'PIN code: 6 digits, not starting with 0'],
    ['pin', '12345', 'PIN code: 6 digits, not starting with 0'],
    ['mobile', '581234567', 'Mobile number must be exactly 10 digits'],
    ['mobile', '5812345678', 'Mobile number must start with 6, 7, 8 or 9'],
    ['email', 'ravi.example.in', 'Not a valid e-mail address'],
    ['email', 'ravi@example', 'Not a valid e-mail address'],
    ['vleId', 'a', 'Agent id: 3 to 30 letters, digits, - or _'],
    ['name', 'रवि कुमार', "Name: type it in English letters as on the PAN card (the provider's form takes only A–Z, spaces, dots and apostrophes)"],
    ['name', 'Ravi Kumār', "Name: type it in English letters as on the PAN card (the provider's form takes only A–Z, spaces, dots and apostrophes)"],
    ['name', 'Ravi-Kumar', "Name: type it in English letters as on the PAN card (the provider's form takes only A–Z, spaces, dots and apostrophes)"],
    ['name', 'R', 'Name: 2 to 80 characters, starting with a letter'],
    ['name', '.Ravi', 'Name: 2 to 80 characters, starting with a letter'],
    ['name', 'R'.repeat(81), 'Name: 2 to 80 characters, starting with a letter'],
  ])('refuses %s %j', (field, value, message) => {
    const result = check({ [field]: value })
    expect(result.success).toBe(false)
    const [issue] = result.error!.issues
    expect({ path: issue.path, message: english(issue.message) }).toEqual({ path: [field], message })
  })
})

describe('coupon order quantity', () => {
  it.each([0, -1, 1.5])('refuses qty %d', (qty) => {
    expect(CouponOrderInputSchema.safeParse({ vleId: 'V1', type: 1, qty }).success).toBe(false)
  })
  it('refuses a type other than 1 or 2', () => {
    expect(CouponOrderInputSchema.safeParse({ vleId: 'V1', type: 3, qty: 1 }).success).toBe(false)
  })
})

describe('coupon answer checks', () => {
  const reply = (over: Partial<CouponReply>): CouponReply => ({
    outcome: 'SUCCESS',
    providerStatus: 'SUCCESS',
    message: '',
    httpStatus: 200,
    requestRefused: false,
    orderId: 'UTI1',
    date: '22-Nov-2026',
    vleId: 'V1',
    vleName: 'Ravi',
    type: 1,
    qty: 3,
    ratePaise: 10700,
    amountPaise: 32100,
    oldBalPaise: 500000,
    newBalPaise: 467900,
    unreadable: [],
    ...over,
  })

  it('passes a consistent answer that continues the chain', () => {
    expect(checkCouponAnswer(reply({}), 3, { balancePaise: 500000, at: 't' })).toEqual([])
  })
  it('reports amount ≠ rate × qty with the difference', () => {
    expect(checkCouponAnswer(reply({ amountPaise: 32200, newBalPaise: 467800 }), 3, null)).toEqual([
      'Amount ₹322.00 is not rate ₹107.00 × 3 = ₹321.00 (difference +₹1.00).',
    ])
  })
  it('reports new_bal ≠ old_bal − amount', () => {
    expect(checkCouponAnswer(reply({ newBalPaise: 467000 }), 3, null)).toEqual([
      'New balance ₹4,670.00 is not old balance ₹5,000.00 − ₹321.00 = ₹4,679.00 (difference -₹9.00).',
    ])
  })
  it('names a quantity past any sum Number can hold without throwing, so the answer is still journaled', () => {
    expect(checkCouponAnswer(reply({ qty: 999_999_999_999_999 }), 3, null)).toEqual([
      'The provider charged for 999999999999999 coupons; Counter asked for 3.',
      'Amount ₹321.00 is not rate ₹107.00 × 999999999999999 = ₹1,06,99,99,99,99,99,99,893.00 (difference -₹1,06,99,99,99,99,99,99,572.00).',
    ])
  })
  it('names a FAILED order whose balance dropped: money taken for coupons not given', () => {
    expect(checkCouponAnswer(reply({ outcome: 'FAILED' }), 3, null)).toEqual([
      'The provider says the order failed, yet its balance went from ₹5,000.00 to ₹4,679.00: ₹321.00 taken for coupons it did not give.',
    ])
    expect(checkCouponAnswer(reply({ outcome: 'FAILED', newBalPaise: 500000, amountPaise: 0 }), 3, null)).toEqual([
      'Amount ₹0.00 is not rate ₹107.00 × 3 = ₹321.00 (difference -₹321.00).',
    ])
  })
  it('reports a break in the balance chain, a quantity mismatch and unreadable fields', () => {
    const problems = checkCouponAnswer(reply({ qty: 2, amountPaise: 21400, newBalPaise: 478600, unreadable: ['old_bal'] }), 3, { balancePaise: 510000, at: '10:00' })
    expect(problems).toEqual([
      "The provider's old_bal could not be read.",
      'The provider charged for 2 coupons; Counter asked for 3.',
      'The balance moved outside Counter: Counter expected ₹5,100.00 (the last balance read and the top-ups entered since, as of 10:00), the provider\'s old balance ₹5,000.00 (difference -₹100.00).',
    ])
  })
  it('says the problems in Hindi for a Hindi screen, the figures as they are', () => {
    const problems = checkSaid(reply({ qty: 2, amountPaise: 22400, newBalPaise: 477600 }), 3, { balancePaise: 510000, at: '10:00' }).map((said) => speak(said, 'hi'))
    expect(problems).toEqual([
      'प्रोवाइडर ने 2 कूपन के पैसे लिए; Counter ने 3 माँगे थे।',
      'राशि ₹224.00 रेट ₹107.00 × 2 = ₹214.00 के बराबर नहीं है (अंतर +₹10.00)।',
      'बैलेंस Counter के बाहर बदला: Counter को ₹5,100.00 की उम्मीद थी (10:00 तक पढ़ा गया आख़िरी बैलेंस और उसके बाद डाले गए टॉप-अप), प्रोवाइडर का पुराना बैलेंस ₹5,000.00 है (अंतर -₹100.00)।',
    ])
  })
})
