// What the core says, in the one dictionary of each language: every key in English and Hindi, every param filled in both, a said message spoken
// in either language (a message inside another too), other text passed on as it is, and zod's own rules in words.
import { describe, expect, it } from 'vitest'
import { SaveSettingsInputSchema, SellRechargeInputSchema } from '../../electron/contract'
import { DEVANAGARI, dictionaries, english, type SaidKey, say, speak, speakAll } from '../../electron/shared/words'

const en = dictionaries.en.said
const hi = dictionaries.hi.said
const keys = Object.keys(en) as SaidKey[]

/** Params that name themselves: what a message does with each shows in its words. */
const named = new Proxy({}, { get: (_, name) => (typeof name === 'string' ? `«${name}»` : undefined) })
const words = (entry: unknown): string => (typeof entry === 'function' ? (entry as (p: object) => string)(named) : (entry as string))

/** Entries that only join other words (a ledger's or printer's message and what is still true): no words of their own. */
const JOINS: SaidKey[] = ['ledger.refused', 'ledger.refusedThen', 'printer.failed', 'partner.notKnownAfter']

describe('the refusals in English and Hindi', () => {
  it('has the same keys in both, each of the same kind', () => {
    expect(Object.keys(hi).sort()).toEqual([...keys].sort())
    for (const key of keys) expect([key, typeof hi[key]]).toEqual([key, typeof en[key]])
  })

  it.each(keys)('%s: Hindi words that use every param the English does', (key) => {
    const english = words(en[key])
    const hindi = words(hi[key])
    const params = (text: string) => [...text.matchAll(/«(\w+)»/gi)].map((m) => m[1].toLowerCase()).sort()
    expect(params(hindi)).toEqual(params(english))
    for (const text of [english, hindi]) expect(text).not.toMatch(/undefined|\[object|\$\{/)
    if (!JOINS.includes(key)) {
      expect(hindi).toMatch(DEVANAGARI)
      expect(english).not.toMatch(DEVANAGARI)
    }
  })

  it('speaks a said message in either language, with its params and a message inside it', () => {
    const owes = say('credit.owesNothing', { name: 'Ramesh' })
    expect(speak(owes, 'en')).toBe('Ramesh owes nothing now.')
    expect(speak(owes, 'hi')).toBe('Ramesh पर अभी कुछ बाकी नहीं है।')
    const refused = say('ledger.refusedThen', { problem: 'The disk is full.', consequence: say('sale.nothingSent') })
    expect(english(refused)).toBe('The disk is full. Nothing was sent to the provider.')
    expect(speak(refused, 'hi')).toBe('The disk is full. प्रोवाइडर को कुछ नहीं भेजा गया।')
    expect(speak(say('pin.wrong', { left: 1 }), 'en')).toBe('That PIN is wrong. 1 more wrong PIN lock PIN entry for a minute.')
  })

  it('passes any other text on as it is: a provider answer, or a key no dictionary has', () => {
    expect(speak('Invalid operator', 'hi')).toBe('Invalid operator')
    const unknown = say('credit.nothingDue').replace('credit.nothingDue', 'credit.noSuchKey')
    expect(speak(unknown, 'hi')).toBe(unknown)
  })

  it("words zod's own rules from the dictionary where a schema names none", () => {
    const long = SaveSettingsInputSchema.safeParse({ shopName: 'x'.repeat(81) })
    expect(long.success).toBe(false)
    expect(speak(long.error!.issues[0].message, 'en')).toBe('At most 80 characters')
    expect(speak(long.error!.issues[0].message, 'hi')).toBe('ज़्यादा से ज़्यादा 80 अक्षर')
    const wrongKind = SellRechargeInputSchema.safeParse({ kind: 'fax', number: '9876543210', operatorCode: 'AT', amount: '199' })
    expect(wrongKind.error!.issues.map((issue) => [issue.path[0], speak(issue.message, 'hi')])).toContainEqual(['kind', 'सूची में से एक चुनें'])
  })

  it("names the customer's number in a credit sale's refusal in both languages", () => {
    const refused = SellRechargeInputSchema.safeParse({ kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '199', paymentMode: 'credit', creditName: 'Ramesh', creditNumber: '12345' })
    const message = refused.error!.issues.find((issue) => issue.path[0] === 'creditNumber')!.message
    expect(english(message)).toBe("Customer's mobile number must be exactly 10 digits")
    expect(speak(message, 'hi')).toBe('ग्राहक का मोबाइल नंबर ठीक 10 अंकों का होना चाहिए')
  })

  it('speaks every said string of an answer or an event, however deep, and leaves the rest as it came', () => {
    const notice = say('ledger.damagedAt', { line: 7, reason: say('chain.notALine'), file: '000000000001.ndjson' })
    const bytes = Uint8Array.of(1, 2)
    const status = { books: { readOnly: say('ledger.readOnlyUntil', { problem: notice }), notices: [notice, 'A provider said this'] }, office: null, bytes, count: 3 }
    expect(speakAll(status, 'hi')).toEqual({
      books: {
        readOnly: 'जर्नल लाइन 7 पर खराब है: वह जर्नल की लाइन नहीं है (000000000001.ndjson में)। जब तक इसे देखा न जाए, लेजर सिर्फ़ पढ़ने के लिए है।',
        notices: ['जर्नल लाइन 7 पर खराब है: वह जर्नल की लाइन नहीं है (000000000001.ndjson में)।', 'A provider said this'],
      },
      office: null,
      bytes,
      count: 3,
    })
    expect(speakAll(status, 'en').books.notices[0]).toBe('The journal is damaged at line 7: it is not a journal line (in 000000000001.ndjson).')
    // Said nothing: the same object back, not a copy (a history page of thousands of rows is not copied).
    const plain = { sales: [{ orderId: 'A1', message: 'Recharge done' }], total: 1 }
    expect(speakAll(plain, 'hi')).toBe(plain)
    expect(speakAll(status, 'hi').bytes).toBe(bytes)
  })
})
