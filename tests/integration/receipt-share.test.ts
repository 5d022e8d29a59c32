// receipt.share through the real core in REAL mode against the simulator over HTTP: the wa.me address is built from the
// sale the core finds by its id (a mobile recharge's own number; a mobile the screen gives for DTH and coupons; a
// payment's customer), with the receipt as text and no credential in it; an unknown or malformed id, or a missing or
// wrong mobile, is refused in plain words; sharing writes nothing to the books.
import { afterEach, describe, expect, it } from 'vitest'
import { approvedAgent, journalOf, realApiKey, realCredentials, startRealModeRig, valueOf, type RealModeRig } from './helpers'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

/** The number and the chat text a shared address carries. */
function chatOf(url: string): { to: string; text: string } {
  const parsed = new URL(url)
  expect(parsed.origin).toBe('https://wa.me')
  return { to: parsed.pathname.slice(1), text: parsed.searchParams.get('text') ?? '' }
}

describe('receipt.share', () => {
  it("a SUCCESS recharge: wa.me for its own number with the receipt as text, no credential in it, nothing journaled", async () => {
    rig = await startRealModeRig()
    const sale = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '1,999.50' }))
    expect(sale.state).toBe('SUCCESS')
    const journaled = journalOf(rig).length

    const { url } = valueOf(await rig.counter.call('receipt.share', { orderId: sale.orderId }))
    const { to, text } = chatOf(url)
    expect(to).toBe('919876543210')
    for (const line of ['Mobile recharge', `Order id: ${sale.orderId}`, 'Mobile: 9876543210', 'Operator: Airtel', `Txn id: ${sale.fpayId}`, '*Amount: ₹1,999.50*', 'Status: SUCCESSFUL']) {
      expect(text).toContain(line)
    }
    expect(text).not.toContain('TRAINING')
    for (const secret of [realCredentials.token, realCredentials.secretKey, realApiKey, realCredentials.userId]) expect(url).not.toContain(secret)
    expect(journalOf(rig).length).toBe(journaled)

    // The address and the text are the core's alone: an address or text sent along is not read.
    const handed = await rig.counter.dispatch('receipt.share', { orderId: sale.orderId, url: 'https://evil.example/', text: 'Pay here' })
    expect(handed).toEqual({ ok: true, value: { url } })

    // A mobile typed on the screen replaces the sale's own.
    expect(chatOf(valueOf(await rig.counter.call('receipt.share', { orderId: sale.orderId, mobile: ' 9123456789 ' })).url).to).toBe('919123456789')
  })

  it('an unknown order id is refused plainly, a malformed one as not valid; neither gives an address', async () => {
    rig = await startRealModeRig()
    expect(await rig.counter.call('receipt.share', { orderId: 'TR000000000000NONE' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'There is no sale with order id TR000000000000NONE.' },
    })
    expect(await rig.counter.dispatch('receipt.share', { orderId: 'https://evil.example/' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'Not a valid order id' },
    })
  })

  it("a DTH recharge asks for the customer's mobile, refuses a wrong one in plain words, and shares to a right one", async () => {
    rig = await startRealModeRig()
    const sale = valueOf(await rig.counter.call('recharge.sell', { kind: 'dth', number: '3012345678', operatorCode: 'TTV', amount: '350' }))
    const ask = "Type the customer's 10-digit mobile number to share this receipt on WhatsApp."
    expect(await rig.counter.call('receipt.share', { orderId: sale.orderId })).toEqual({ ok: false, error: { code: 'invalid_input', message: ask, fields: { mobile: ask } } })
    expect(await rig.counter.call('receipt.share', { orderId: sale.orderId, mobile: '30123' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { mobile: 'Mobile number must be exactly 10 digits' } },
    })
    const { to, text } = chatOf(valueOf(await rig.counter.call('receipt.share', { orderId: sale.orderId, mobile: '9876500001' })).url)
    expect(to).toBe('919876500001')
    expect(text).toContain('DTH recharge')
    expect(text).toContain('Subscriber id: 3012345678')
  })

  it("a coupon order asks for a mobile, and its chat leaves off the shop's wallet balances that its paper shows", async () => {
    rig = await startRealModeRig()
    await approvedAgent(rig.counter)
    const sold = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 3 }))
    expect(await rig.counter.call('receipt.share', { orderId: sold.attemptId })).toMatchObject({ ok: false, error: { fields: { mobile: expect.any(String) } } })
    const { to, text } = chatOf(valueOf(await rig.counter.call('receipt.share', { orderId: sold.attemptId, mobile: '9876500002' })).url)
    expect(to).toBe('919876500002')
    for (const line of ['PAN coupons', `Order id: ${sold.orderId}`, 'Agent: VLE1001 Ravi Kumar', 'Qty: 3', '*Amount: ₹321.00*']) expect(text).toContain(line)
    expect(text).not.toMatch(/balance/i)
    expect(valueOf(await rig.counter.call('receipt.html', { orderId: sold.attemptId })).html).toContain('Old balance')
  })

  it("a payment of a due goes to the paying customer's mobile with what is still due", async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345601', operatorCode: 'AT', amount: '500', paymentMode: 'credit', creditName: 'Sita Devi', creditNumber: '9876500003' }))
    const paid = valueOf(await rig.counter.call('credit.pay', { number: '9876500003', amount: '200', mode: 'cash' }))
    const { to, text } = chatOf(valueOf(await rig.counter.call('receipt.share', { orderId: paid.receiptId })).url)
    expect(to).toBe('919876500003')
    for (const line of ['Payment received (udhaar)', 'Customer: Sita Devi', '*Paid: ₹200.00*', 'Still due: ₹300.00', 'Status: RECEIVED']) expect(text).toContain(line)
  })
})
