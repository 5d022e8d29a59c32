// "UPI received" through the real core in REAL mode against the simulator (issue #29 part 1): the UPI id and payee saved
// by the owner (refused without a payee), a UPI recharge, coupon order and payment of a due each confirmed once as a
// journal line read back on the sale (and after a restart, replayed), a cash or FAILED sale refused, and the receipt's
// UPI request for the amount collected. No UPI id: receipts carry none.
import { afterEach, describe, expect, it } from 'vitest'
import { couponReceipt, paymentReceipt, rechargeReceipt } from '../../electron/counter/receipts'
import { english } from '../../electron/shared/words'
import { approvedAgent, journalOf, startRealModeRig, valueOf, type RealModeRig } from './helpers'

const UPI = { upiVpa: 'shop.ramesh@okaxis', upiPayee: 'Sharma & Sons Mobile' }
const upiLines = (r: RealModeRig) => journalOf(r).filter((line) => line.type === 'sale.upiConfirmed').map((line) => line.data)

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('a UPI sale confirmed', () => {
  it('saves the UPI id only with a payee name, and refuses a malformed id with words for its field', async () => {
    rig = await startRealModeRig()
    const alone = await rig.counter.call('settings.save', { upiVpa: UPI.upiVpa })
    expect(alone).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { upiPayee: "Enter the payee name the customer's UPI app should show" } } })
    const malformed = await rig.counter.call('settings.save', { upiVpa: 'shop.ramesh', upiPayee: UPI.upiPayee })
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { upiVpa: expect.stringContaining('name@bank') } } })
    expect(valueOf(await rig.counter.call('settings.get', {}))).toMatchObject({ upiVpa: '', upiPayee: '' })
    expect(valueOf(await rig.counter.call('settings.save', UPI))).toMatchObject(UPI)
  })

  it('records "UPI received" once for a recharge, read back on the sale and after a restart; refuses cash and FAILED sales', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', UPI))
    const sale = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345670', operatorCode: 'AT', amount: '209', collected: '210.50', paymentMode: 'upi' }))
    expect(sale).toMatchObject({ state: 'SUCCESS', paymentMode: 'upi', collectedPaise: 210_50, upiConfirmedAt: null })
    const shop = valueOf(await rig.counter.call('settings.get', {}))
    expect(rechargeReceipt(sale, shop).upi).toEqual({
      link: `upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20%26%20Sons%20Mobile&am=210.50&cu=INR&tn=${sale.orderId}&tr=${sale.orderId}`,
      label: 'Pay ₹210.50 by UPI: scan with any UPI app',
    })

    const confirmed = valueOf(await rig.counter.call('sales.upiReceived', { orderId: sale.orderId }))
    expect(confirmed.upiConfirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    // A second press (a second window) records nothing more and answers the same time.
    expect(valueOf(await rig.counter.call('sales.upiReceived', { orderId: sale.orderId }))).toEqual(confirmed)
    expect(upiLines(rig)).toEqual([{ kind: 'recharge', id: sale.orderId, by: 'owner' }])
    const today = valueOf(await rig.counter.call('sales.today', {})).sales
    expect(today.find((s) => s.orderId === sale.orderId)?.upiConfirmedAt).toBe(confirmed.upiConfirmedAt)

    const cash = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345671', operatorCode: 'AT', amount: '99' }))
    const refusedCash = await rig.counter.call('sales.upiReceived', { orderId: cash.orderId })
    expect(refusedCash.ok).toBe(false)
    if (!refusedCash.ok) expect(english(refusedCash.error.message)).toBe(`${cash.orderId} was not paid by UPI: there is no UPI payment to confirm.`)
    rig.provider.setFault({ kind: 'failed', times: 1 })
    const failed = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345672', operatorCode: 'AT', amount: '99', paymentMode: 'upi' }))
    expect(failed.state).toBe('FAILED')
    expect(rechargeReceipt(failed, shop).upi).toBeUndefined()
    expect(await rig.counter.call('sales.upiReceived', { orderId: failed.orderId })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(upiLines(rig)).toHaveLength(1)

    // Replayed from the journal, the confirmation is still on the sale.
    const restarted = await rig.restart()
    const again = valueOf(await restarted.call('sales.today', {})).sales.find((s) => s.orderId === sale.orderId)
    expect(again?.upiConfirmedAt).toBe(confirmed.upiConfirmedAt)
  })

  it('confirms a coupon order by its attempt id and a payment of a due by its receipt id', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', UPI))
    const shop = valueOf(await rig.counter.call('settings.get', {}))
    await approvedAgent(rig.counter, 'VLE1001')
    const coupon = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 2, qty: 1, paymentMode: 'upi' }))
    expect(coupon).toMatchObject({ state: 'SUCCESS', collectedPaise: 72_00 })
    expect(couponReceipt(coupon, shop).upi?.link).toBe(`upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20%26%20Sons%20Mobile&am=72.00&cu=INR&tn=${coupon.attemptId}&tr=${coupon.attemptId}`)
    const couponConfirmed = valueOf(await rig.counter.call('sales.upiReceived', { orderId: coupon.attemptId }))
    expect(valueOf(await rig.counter.call('pan.coupons.list', {})).sales.find((s) => s.attemptId === coupon.attemptId)?.upiConfirmedAt).toBe(couponConfirmed.upiConfirmedAt)

    valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345680', operatorCode: 'AT', amount: '300', paymentMode: 'credit', creditName: 'Sita Devi', creditNumber: '9876500001' }))
    const payment = valueOf(await rig.counter.call('credit.pay', { number: '9876500001', amount: '120.25', mode: 'upi' }))
    expect(payment.upiConfirmedAt).toBeNull()
    expect(paymentReceipt(payment, shop).upi?.link).toBe(`upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20%26%20Sons%20Mobile&am=120.25&cu=INR&tn=${payment.receiptId}&tr=${payment.receiptId}`)
    const paid = valueOf(await rig.counter.call('sales.upiReceived', { orderId: payment.receiptId }))
    expect(paid.upiConfirmedAt).toMatch(/T/)
    expect(upiLines(rig)).toEqual([
      { kind: 'coupon', id: coupon.attemptId, by: 'owner' },
      { kind: 'payment', id: payment.receiptId, by: 'owner' },
    ])
  })

  it('puts no UPI request on a receipt while the shop has no UPI id', async () => {
    rig = await startRealModeRig()
    const sale = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345690', operatorCode: 'AT', amount: '209', paymentMode: 'upi' }))
    expect(rechargeReceipt(sale, valueOf(await rig.counter.call('settings.get', {}))).upi).toBeUndefined()
    expect(valueOf(await rig.counter.call('receipt.html', { orderId: sale.orderId })).html).not.toContain('<svg')
  })
})
