// Credit (udhaar) through the real core in REAL mode against the simulator: dues from credit sales
// only when SUCCESS (also when a status check settles them, and reversed when one turns FAILED),
// payments in part, refused past the due and settling to zero, the credit limit checked before the
// provider is called, day close with cash, UPI and credit apart, the payments staff took listed apart
// for the owner (a UPI one marked for the bank statement), and dues the same after a restart.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { businessDayOf } from '../../electron/counter/business-day'
import { ledgerDir } from '../../electron/counter/session'
import { NOT_FOUND_SETTLES_AFTER_MS } from '../../electron/partners/outcome'
import { eventually, journalOf, startRealModeRig, type RealModeRig, valueOf } from './helpers'

const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
const customer = { creditName: 'Sita Devi', creditNumber: '9876500001' }
const onCredit = (number: string, amount: string, extra: Record<string, string> = {}) =>
  ({ kind: 'mobile', number, operatorCode: 'AT', amount, paymentMode: 'credit', ...customer, ...extra }) as const

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

async function dueOf(r: RealModeRig, number = customer.creditNumber) {
  return valueOf(await r.counter.call('credit.statement', { number }))
}

describe('credit sales and dues', () => {
  it('adds a SUCCESS credit sale to the due and a FAILED one not at all; refuses credit without a customer', async () => {
    rig = await startRealModeRig()
    const sold = valueOf(await rig.counter.call('recharge.sell', onCredit('9812345601', '199', { collected: '205' })))
    expect(sold).toMatchObject({ state: 'SUCCESS', paymentMode: 'credit', collectedPaise: 205_00 })
    rig.provider.setFault({ kind: 'failed', times: 1 })
    const failed = valueOf(await rig.counter.call('recharge.sell', onCredit('9812345602', '99')))
    expect(failed.state).toBe('FAILED')

    const { customer: due, lines } = await dueOf(rig)
    expect(due).toMatchObject({ name: 'Sita Devi', duePaise: 205_00, limitPaise: null, since: businessDayOf(new Date(sold.createdAt), valueOf(await rig.counter.call('settings.get', {})).timezone), lastPayment: null })
    expect(lines.map((l) => [l.id, l.state, l.duePaise])).toEqual([
      [sold.orderId, 'SUCCESS', 205_00],
      [failed.orderId, 'FAILED', 205_00],
    ])

    const requestsBefore = rig.provider.requests.length
    const nameless = await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345603', operatorCode: 'AT', amount: '10', paymentMode: 'credit', creditNumber: '98765' })
    expect(nameless).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { creditName: "Enter the customer's name: a sale on credit needs it", creditNumber: expect.stringMatching(/10 digits/) } } })
    expect(rig.provider.requests.length).toBe(requestsBefore)
    const coupon = await rig.counter.dispatch('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 1, paymentMode: 'credit' })
    expect(coupon).toMatchObject({ ok: false, error: { fields: { paymentMode: 'Coupons are paid in cash or UPI, not on credit' } } })
  })

  it('counts an UNKNOWN credit sale only once a status check says SUCCESS, and never one it finds FAILED', async () => {
    let nowMs = Date.now()
    rig = await startRealModeRig({}, { providerTimeoutMs: 400, now: () => new Date(nowMs) })
    // The pending queue checks an UNKNOWN sale the moment it first sees it: its start-up look must come before the sale
    // (it has once the start's balance read, asked beside it, is journaled), or it settles the sale before this test can.
    await eventually(async () => journalOf(rig!).some((line) => line.type === 'pan.balance.read'), "the start's balance read")
    rig.provider.setFault({ kind: 'pendingThenSuccess', times: 1 })
    const pending = valueOf(await rig.counter.call('recharge.sell', onCredit('9812345611', '149')))
    expect(pending.state).toBe('UNKNOWN')
    expect((await dueOf(rig)).customer.duePaise).toBe(0)
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: pending.orderId })).state).toBe('SUCCESS')
    expect((await dueOf(rig)).customer.duePaise).toBe(149_00)

    // Never reached the provider's script: unknown at the counter, and "no such order" when asked.
    rig.provider.setFault({ kind: 'http500', times: 1 })
    const lost = valueOf(await rig.counter.call('recharge.sell', onCredit('9812345612', '50')))
    expect(lost.state).toBe('UNKNOWN')
    // Still pending until the provider has had its time to book the order.
    nowMs += NOT_FOUND_SETTLES_AFTER_MS
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: lost.orderId })).state).toBe('FAILED')
    expect((await dueOf(rig)).customer.duePaise).toBe(149_00)
  })

  it('reverses a counted credit sale that a later outcome line turns FAILED, and says when', async () => {
    rig = await startRealModeRig()
    const sold = valueOf(await rig.counter.call('recharge.sell', onCredit('9812345621', '300')))
    valueOf(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '100', mode: 'cash' }))
    expect((await dueOf(rig)).customer.duePaise).toBe(200_00)
    await rig.counter.session().ledger.append('recharge.outcome', {
      orderId: sold.orderId, source: 'check_status', outcome: 'FAILED', providerStatus: 'FAILED', message: 'Refunded by operator', fpayId: null, operatorRef: null,
    })
    const { customer: due, lines } = await dueOf(rig)
    // The ₹100 already paid is now owed back to the customer.
    expect(due.duePaise).toBe(-100_00)
    expect(lines[0]).toMatchObject({ id: sold.orderId, state: 'FAILED', reversedAt: expect.any(String), duePaise: 0 })
    expect((await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '1', mode: 'cash' })).ok).toBe(false)
  })

  it('takes part payments, refuses more than the due in plain words, settles to zero and prints a receipt of payment', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345631', '199')))
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345632', '100.50')))
    const first = valueOf(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '150.25', mode: 'cash', note: 'part' }))
    expect(first).toMatchObject({ amountPaise: 150_25, mode: 'cash', note: 'part', dueAfterPaise: 149_25, name: 'Sita Devi', training: false })
    expect(first.receiptId).toMatch(/^UP/)

    const over = await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '149.26', mode: 'upi' })
    expect(over).toEqual({ ok: false, error: { code: 'invalid_input', message: 'That is more than Sita Devi owes (₹149.25). Take at most the due.', fields: { amount: expect.any(String) } } })
    const badAmount = await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '1.005', mode: 'upi' })
    expect(badAmount.ok).toBe(false)
    expect((await dueOf(rig)).customer.duePaise).toBe(149_25)

    const last = valueOf(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '149.25', mode: 'upi' }))
    expect(last.dueAfterPaise).toBe(0)
    const { customer: due, lines } = await dueOf(rig)
    expect(due).toMatchObject({ duePaise: 0, since: null, lastPayment: { amountPaise: 149_25, mode: 'upi' } })
    expect(lines.map((l) => l.duePaise)).toEqual([199_00, 299_50, 149_25, 0])
    expect(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '1', mode: 'cash' })).toMatchObject({ ok: false, error: { message: 'Sita Devi owes nothing now.' } })

    const receipt = valueOf(await rig.counter.call('receipt.html', { orderId: first.receiptId }))
    expect(receipt.html).toContain('Payment received (udhaar)')
    expect(receipt.html).toContain('₹150.25')
    expect(receipt.html).toContain('₹149.25')
    const dues = valueOf(await rig.counter.call('credit.dues', {}))
    expect(dues).toEqual({ customers: [expect.objectContaining({ number: customer.creditNumber, duePaise: 0 })], totalPaise: 0 })
  })

  it('refuses a credit sale past the limit before the provider hears of it, counting sales still open', async () => {
    rig = await startRealModeRig({}, { providerTimeoutMs: 400 })
    valueOf(await rig.counter.call('credit.setLimit', { number: customer.creditNumber, name: 'Sita Devi', limit: '300' }))
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345641', '199')))
    rig.provider.setFault({ kind: 'pendingThenSuccess', times: 1, checksUntilFinal: 5 })
    expect(valueOf(await rig.counter.call('recharge.sell', onCredit('9812345642', '50'))).state).toBe('UNKNOWN')
    const requestsBefore = rig.provider.requests.length
    const refused = await rig.counter.call('recharge.sell', onCredit('9812345643', '52'))
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('past their credit limit of ₹300.00') } })
    expect(rig.provider.requests.length).toBe(requestsBefore)
    expect(valueOf(await rig.counter.call('recharge.sell', onCredit('9812345644', '51', { paymentMode: 'cash' }))).state).toBe('SUCCESS')
    expect(valueOf(await rig.counter.call('recharge.sell', onCredit('9812345645', '50'))).state).toBe('SUCCESS')

    const lifted = valueOf(await rig.counter.call('credit.setLimit', { number: customer.creditNumber, limit: '' }))
    expect(lifted).toMatchObject({ limitPaise: null, name: 'Sita Devi', duePaise: 249_00 })
  })
})

describe('credit at day close', () => {
  it('counts credit apart from cash and UPI, expects float + cash sales + dues paid in cash, and reports it', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345651', operatorCode: 'AT', amount: '199', collected: '200', paymentMode: 'cash' }))
    valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345652', operatorCode: 'AT', amount: '149', paymentMode: 'upi' }))
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345653', '299')))
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345654', '100', { creditName: 'Ram Lal', creditNumber: '9876500002' })))
    rig.provider.setFault({ kind: 'failed', times: 1 })
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345655', '500')))
    valueOf(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '100', mode: 'cash' }))
    valueOf(await rig.counter.call('credit.pay', { number: '9876500002', amount: '40', mode: 'upi' }))

    const summary = valueOf(await rig.counter.call('day.summary', {}))
    expect(summary.cash).toMatchObject({ collectedCashPaise: 200_00, collectedUpiPaise: 149_00 })
    // The owner took both payments: none is listed as staff's.
    expect(summary.credit).toEqual({ salesCount: 2, salesPaise: 399_00, paidCashPaise: 100_00, paidUpiPaise: 40_00, outstandingPaise: 259_00, staffPayments: [] })
    // Float ₹500 + ₹200 cash sale + ₹100 due paid in cash = ₹800, counted as one ₹500, one ₹200 and one ₹100 note.
    const closed = valueOf(await rig.counter.call('day.close', { businessDay: summary.businessDay, openingFloat: '500', counted: { ...drawer, n500: 1, n200: 1, n100: 1 } }))
    expect(closed.cash).toMatchObject({ expectedPaise: 800_00, countedPaise: 800_00, differencePaise: 0 })
    expect(closed.credit.outstandingPaise).toBe(259_00)

    const csv = valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'csv' })).content
    expect(csv).toContain('Sales on credit (not in the drawer),2,399')
    expect(csv).toContain('Dues paid in cash,,100')
    expect(csv).toContain('Dues paid by UPI,,40')
    expect(csv).toContain('Dues outstanding at close,,259')
    const receipt = valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'receipt' })).content
    expect(receipt).toContain('Sales on credit ×2')
    const a4 = valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'a4' })).content
    expect(a4).toContain('Credit (udhaar)')

    // A closed day takes no payments.
    const late = await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '1', mode: 'cash' })
    expect(late).toMatchObject({ ok: false, error: { code: 'day_closed' } })
  })
})

describe('payments taken by staff', () => {
  const PIN = '4826'
  const STAFF_SECTION = 'Payments of dues taken by staff'
  /** The CSV's lines from a section's title to the blank line after it. */
  const csvSection = (csv: string, title: string) => {
    const lines = csv.split('\r\n')
    const start = lines.indexOf(title)
    expect(start).toBeGreaterThan(-1)
    return lines.slice(start + 1, lines.indexOf('', start))
  }

  it('lists the payments staff took apart in the day close and Z report, a UPI one marked for the bank; the owner\'s not', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    // The owner sets the customer up (a sale on credit and a limit), then hands the counter to staff.
    valueOf(await counter.call('recharge.sell', onCredit('9812345671', '500')))
    valueOf(await counter.call('credit.setLimit', { number: customer.creditNumber, limit: '1000' }))
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    expect(valueOf(await counter.call('roles.lock', {})).role).toBe('staff')
    const cash = valueOf(await counter.call('credit.pay', { number: customer.creditNumber, amount: '100', mode: 'cash' }))
    const upi = valueOf(await counter.call('credit.pay', { number: customer.creditNumber, amount: '150.50', mode: 'upi', note: 'GPay' }))
    expect(valueOf(await counter.call('roles.unlock', { pin: PIN })).role).toBe('owner')
    const owners = valueOf(await counter.call('credit.pay', { number: customer.creditNumber, amount: '50', mode: 'cash' }))
    expect(journalOf(rig).filter((line) => line.type === 'credit.payment').map((line) => line.data.by)).toEqual(['staff', 'staff', 'owner'])

    const taken = (payment: typeof cash) => ({ receiptId: payment.receiptId, number: customer.creditNumber, name: 'Sita Devi', amountPaise: payment.amountPaise, mode: payment.mode, at: payment.at })
    const summary = valueOf(await counter.call('day.summary', {}))
    expect(summary.credit).toMatchObject({ paidCashPaise: 150_00, paidUpiPaise: 150_50, staffPayments: [taken(cash), taken(upi)] })

    const rowsOf = (csv: string) => csvSection(csv, STAFF_SECTION)
    const csv = valueOf(await counter.call('day.report', { businessDay: summary.businessDay, format: 'csv' })).content
    expect(rowsOf(csv)).toEqual([
      'Time,Receipt id,Customer number,Customer name,Amount,Paid by,For the owner',
      expect.stringMatching(new RegExp(`^[^,]+,${cash.receiptId},${customer.creditNumber},Sita Devi,100,Cash,$`)),
      expect.stringMatching(new RegExp(`^[^,]+,${upi.receiptId},${customer.creditNumber},Sita Devi,150\\.50,UPI,Check against the bank statement$`)),
    ])
    expect(rowsOf(csv).join('\n')).not.toContain(owners.receiptId)

    // Books rebuilt from the journal alone give each payment its taker from its line.
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerDir(rig!.dataDir, 'real'), file), { force: true })
    })
    expect(valueOf(await rig.counter.call('roles.unlock', { pin: PIN })).role).toBe('owner')
    // The closed day keeps the list as it was shown at the close.
    const closed = valueOf(await rig.counter.call('day.close', { businessDay: summary.businessDay, openingFloat: '0', counted: { ...drawer, n100: 1, n50: 1 } }))
    expect(closed.credit.staffPayments).toEqual([taken(cash), taken(upi)])
    expect(rowsOf(valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'csv' })).content)).toEqual(rowsOf(csv))
  })
})

describe('credit after a restart', () => {
  it('gives the same dues from the snapshot and from a replay of the journal alone', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345661', '199')))
    valueOf(await rig.counter.call('recharge.sell', onCredit('9812345662', '80', { creditName: 'Ram Lal', creditNumber: '9876500002' })))
    valueOf(await rig.counter.call('credit.pay', { number: customer.creditNumber, amount: '99', mode: 'upi', note: 'GPay' }))
    valueOf(await rig.counter.call('credit.setLimit', { number: '9876500002', limit: '500' }))
    const before = valueOf(await rig.counter.call('credit.dues', {}))
    const statement = await dueOf(rig)
    expect(before.totalPaise).toBe(180_00)

    await rig.restart()
    expect(valueOf(await rig.counter.call('credit.dues', {}))).toEqual(before)
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerDir(rig!.dataDir, 'real'), file), { force: true })
    })
    expect(valueOf(await rig.counter.call('credit.dues', {}))).toEqual(before)
    expect(await dueOf(rig)).toEqual(statement)
  })
})
