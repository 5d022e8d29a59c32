// What the partners and the core say of a sale, in Hindi on a Hindi screen, through the real core (#26 part 5): a
// coupon answer's checks, a recharge whose order the provider says it already has, one it has no record of (yet, then
// after a quarter of an hour), a sale past a credit limit and one on a closed day. Each message, its pending row,
// its event and its receipt carry no English sentence outside the provider's own words (quoted) and ids, and no
// said marker (shared/words) reaches a screen or paper unspoken.
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterEvent } from '../../electron/contract'
import { NOT_FOUND_SETTLES_AFTER_MS } from '../../electron/partners/outcome'
import { DEVANAGARI } from '../../electron/shared/words'
import type { SimRequest } from '../../electron/simulator/server'
import { approvedAgent, eventually, pendingItems, startRealModeRig, valueOf, type RealModeRig } from './helpers'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

/** Three Latin words in a row: an English sentence, or a piece of one, left on a Hindi screen. */
const ENGLISH_WORDS = /[A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}/
/** The start of a said reference (shared/words MARK): never shown unspoken. */
const SAID_MARK = '\u2063'

/** Hindi, with the provider's own words quoted ("…") set aside: they stay as it sent them. */
function hindiOnly(text: string | null | undefined): void {
  expect(text).toMatch(DEVANAGARI)
  expect(text).not.toContain(SAID_MARK)
  expect(text!.replace(/"[^"]*"/g, '""')).not.toMatch(ENGLISH_WORDS)
}

const sale = { kind: 'mobile', number: '9812345601', operatorCode: 'AT', amount: '199', paymentMode: 'cash' } as const

async function hindiRig(...options: Parameters<typeof startRealModeRig>): Promise<RealModeRig> {
  const started = await startRealModeRig(...options)
  valueOf(await started.counter.call('settings.save', { screenLanguage: 'hi' }))
  return started
}

describe('a coupon answer whose figures do not add up', () => {
  it("is told in Hindi: the balance moved outside Counter and the provider's arithmetic, figures as they are", async () => {
    rig = await hindiRig({ pan: { balancePaise: 5_000_00 } })
    const seen: CounterEvent[] = []
    rig.counter.onEvent((event) => seen.push(event))
    valueOf(await rig.counter.call('pan.balance.refresh', {}))
    const agent = await approvedAgent(rig.counter)
    rig.provider.pan.outsideDebit(123_45)
    rig.provider.setFault({ kind: 'misanswer', operations: ['coupon_req'], times: 1, fields: { amount: '108.00' } })
    const coupon = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1, paymentMode: 'cash' }))
    expect(coupon.problems).toEqual([
      'राशि ₹108.00 रेट ₹107.00 × 1 = ₹107.00 के बराबर नहीं है (अंतर +₹1.00)।',
      expect.stringMatching(/^नया बैलेंस .* पुराने बैलेंस ₹4,876\.55 − ₹108\.00 = ₹4,768\.55 के बराबर नहीं है/),
      expect.stringMatching(/^बैलेंस Counter के बाहर बदला: Counter को ₹5,000\.00 की उम्मीद थी .*\(अंतर -₹123\.45\)।$/),
    ])
    for (const problem of coupon.problems) hindiOnly(problem)
    const listed = valueOf(await rig.counter.call('pan.coupons.list', {})).sales.find((s) => s.attemptId === coupon.attemptId)
    expect(listed?.problems).toEqual(coupon.problems)
    const changed = seen.filter((e) => e.name === 'coupon.changed').map((e) => (e as CounterEvent<'coupon.changed'>).payload)
    expect(changed.at(-1)?.problems).toEqual(coupon.problems)

    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    const english = valueOf(await rig.counter.call('pan.coupons.list', {})).sales.find((s) => s.attemptId === coupon.attemptId)
    expect(english?.problems[0]).toBe('Amount ₹108.00 is not rate ₹107.00 × 1 = ₹107.00 (difference +₹1.00).')
  })

  it('a coupon order the provider never answered is told in Hindi, in the sale and on the Pending screen', async () => {
    rig = await hindiRig({}, { providerTimeoutMs: 400 })
    const agent = await approvedAgent(rig.counter)
    rig.provider.setFault({ kind: 'noAnswer', operations: ['coupon_req'], times: 1 })
    const coupon = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1, paymentMode: 'cash' }))
    expect(coupon.state).toBe('UNKNOWN')
    expect(coupon.message).toBe('प्रोवाइडर ने 400 मिलीसेकंड में जवाब नहीं दिया। पता नहीं कि कूपन ख़रीदे गए या नहीं: दोबारा ऑर्डर करने से पहले बैलेंस और कूपन का इतिहास जाँचें।')
    hindiOnly(coupon.message)
    const [item] = await pendingItems(rig)
    hindiOnly(item.lastAnswer)
  })
})

describe('a recharge the provider answers about its order', () => {
  it('"an order with this id already exists": UNKNOWN, in Hindi, the provider\'s words quoted, on the sale, Pending and the Z report', async () => {
    rig = await hindiRig()
    rig.provider.setFault({ kind: 'refuse', times: 1, refusal: { message: 'Duplicate order id' } })
    const sold = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(sold.state).toBe('UNKNOWN')
    expect(sold.message).toBe(
      'प्रोवाइडर कहता है कि इस ID का ऑर्डर पहले से मौजूद है ("Duplicate order id")। पता नहीं कि बिक्री हुई या नहीं: दोबारा बेचने से पहले उसका स्टेटस जाँचें।',
    )
    hindiOnly(sold.message)
    const [item] = await pendingItems(rig)
    expect(item.lastAnswer).toBe(sold.message)
    const today = valueOf(await rig.counter.call('sales.today', {}))
    expect(today.sales.find((s) => s.orderId === sold.orderId)?.message).toBe(sold.message)
    // The Z report lists the pending sale with its last answer, in the paper's language (Hindi here).
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'hi' }))
    const report = valueOf(await rig.counter.call('day.report', { businessDay: today.businessDay, format: 'csv' })).content
    expect(report).toContain('प्रोवाइडर कहता है कि इस ID का ऑर्डर पहले से मौजूद है')
    expect(report).not.toContain(SAID_MARK)

    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(valueOf(await rig.counter.call('sales.today', {})).sales.find((s) => s.orderId === sold.orderId)?.message).toBe(
      'The provider says an order with this id already exists (Duplicate order id). It is not known whether the sale went through: check its status before selling it again.',
    )
  })

  it('"no record of the order yet" keeps it pending, in Hindi; a refused sale prints its words in the receipt\'s language', async () => {
    let release!: () => void
    const booked = new Promise<void>((resolve) => (release = resolve))
    const onRequest = async (req: SimRequest) => {
      if (req.operation === 'transaction') await booked
    }
    rig = await hindiRig({ onRequest }, { providerTimeoutMs: 400 })
    const sold = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(sold.state).toBe('UNKNOWN')
    hindiOnly(sold.message)
    const asked = valueOf(await rig.counter.call('recharge.checkStatus', { orderId: sold.orderId }))
    expect(asked.state).toBe('UNKNOWN')
    expect(asked.message).toBe(
      `प्रोवाइडर के पास अभी ऑर्डर ${sold.orderId} का कोई रिकॉर्ड नहीं है ("No such order")। प्रोवाइडर को ऑर्डर दर्ज करने में कुछ समय लग सकता है: फिर से पूछा जाएगा, और भेजने के 15 मिनट बाद भी रिकॉर्ड न मिला तो इसे फ़ेल माना जाएगा।`,
    )
    hindiOnly(asked.message)
    release()
    // The held transaction takes a fault set while it waits: the next one is set once this order is booked.
    await eventually(async () => rig!.provider.orderBook().recharges.length === 1, 'the provider to book the order')

    rig.provider.setFault({ kind: 'refuse', times: 1, refusal: { message: 'Invalid token' } })
    const refused = valueOf(await rig.counter.call('recharge.sell', { ...sale, number: '9812345602' }))
    expect(refused.state).toBe('FAILED')
    hindiOnly(refused.message)
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'hi' }))
    const receipt = valueOf(await rig.counter.call('receipt.html', { orderId: refused.orderId })).html
    expect(receipt).toContain('प्रोवाइडर ने बिक्री से मना किया')
    expect(receipt).not.toContain(SAID_MARK)
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'en' }))
    const english = valueOf(await rig.counter.call('receipt.html', { orderId: refused.orderId })).html
    expect(english).toContain('The provider refused the sale (Invalid token): it did not take the order, so nothing was charged.')
    expect(english).not.toContain(SAID_MARK)
  })

  it('"no record of the order" a quarter of an hour on settles it FAILED, in Hindi', async () => {
    let nowMs = Date.now()
    rig = await hindiRig({}, { providerTimeoutMs: 400, now: () => new Date(nowMs) })
    rig.provider.setFault({ kind: 'http500', times: 1 })
    const lost = valueOf(await rig.counter.call('recharge.sell', sale))
    expect(lost.state).toBe('UNKNOWN')
    expect(lost.message).toBe('प्रोवाइडर ने एरर पेज से जवाब दिया (HTTP 500)। पता नहीं कि बिक्री हुई या नहीं: दोबारा बेचने से पहले उसका स्टेटस जाँचें।')
    hindiOnly(lost.message)
    nowMs += NOT_FOUND_SETTLES_AFTER_MS
    const settled = valueOf(await rig.counter.call('recharge.checkStatus', { orderId: lost.orderId }))
    expect(settled).toMatchObject({
      state: 'FAILED',
      message: `भेजने के 15 मिनट या ज़्यादा बाद भी प्रोवाइडर के पास ऑर्डर ${lost.orderId} का कोई रिकॉर्ड नहीं है ("No such order"): वह प्रोवाइडर तक पहुँचा ही नहीं, और कोई पैसा नहीं कटा।`,
    })
    hindiOnly(settled.message)
  })
})

describe('refusals before the provider hears of a sale', () => {
  it('a credit sale past the limit is refused in Hindi', async () => {
    rig = await hindiRig()
    const customer = { creditName: 'Sita Devi', creditNumber: '9876500001' }
    valueOf(await rig.counter.call('credit.setLimit', { number: customer.creditNumber, name: 'Sita Devi', limit: '100' }))
    const refused = await rig.counter.call('recharge.sell', { ...sale, paymentMode: 'credit', ...customer })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    hindiOnly(!refused.ok ? refused.error.message : null)
  })

  it('a sale on a closed day is refused in Hindi', async () => {
    rig = await hindiRig()
    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
    valueOf(await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer }))
    const refused = await rig.counter.call('recharge.sell', sale)
    expect(refused).toMatchObject({ ok: false, error: { code: 'day_closed' } })
    hindiOnly(!refused.ok ? refused.error.message : null)
  })
})
