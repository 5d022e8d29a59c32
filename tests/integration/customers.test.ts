// Customers through the real core: sold-to numbers remembered, named, suggested by four digits, renamed and forgotten (never their sales), across restarts, snapshots and a rebuild from the journal, named on the receipt, and one name with credit (udhaar).
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Sale } from '../../electron/contract'
import { rechargeReceipt } from '../../electron/counter/receipts'
import { ledgerDir } from '../../electron/counter/session'
import { receiptBytes } from '../../electron/printers/escpos'
import { journalOf, startRealModeRig, type RealModeRig } from './helpers'
import { rollBackSnapshot } from './ledger-rig'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sell = async (number: string, amount: string, operatorCode = 'AT', circle = 'DL'): Promise<Sale> => {
  const sold = await rig!.counter.call('recharge.sell', { kind: 'mobile', number, operatorCode, circle, amount })
  if (!sold.ok) throw new Error(sold.error.message)
  return sold.value
}

const value = async <T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T> => {
  const answered = await result
  if (!answered.ok) throw new Error(answered.error.message)
  return answered.value
}

const suggest = async (digits: string) => (await value(rig!.counter.call('customers.suggest', { digits }))).customers
const historyOf = async (text: string) => (await value(rig!.counter.call('history.search', { text }))).rows

describe('customers', () => {
  it('remembers every number sold to with its last recharge, suggests by 4 digits, names, renames and shows the name everywhere', async () => {
    rig = await startRealModeRig()
    const first = await sell('9876500001', '199')
    await sell('9876500001', '299', 'RJP', 'MH')
    await sell('9876511111', '49')
    await sell('9123400000', '10')

    const found = await suggest('9876')
    expect(found.map((customer) => customer.number)).toEqual(['9876511111', '9876500001'])
    expect(found[1]).toMatchObject({ name: null, operatorCode: 'RJP', circle: 'MH', lastAmountPaise: 29900, sales: 2 })
    expect(await suggest('98765000')).toHaveLength(1)

    const named = await value(rig.counter.call('customers.name', { number: '9876500001', name: '  Ramesh   Kumar ' }))
    expect(named.name).toBe('Ramesh Kumar')
    expect((await suggest('9876'))[1].name).toBe('Ramesh Kumar')
    expect((await value(rig.counter.call('sales.today', {}))).sales.filter((sale) => sale.number === '9876500001').map((sale) => sale.customerName)).toEqual([
      'Ramesh Kumar',
      'Ramesh Kumar',
    ])
    expect((await historyOf('ramesh')).map((row) => row.id)).toHaveLength(2)
    expect((await historyOf('9876500001')).every((row) => row.customerName === 'Ramesh Kumar')).toBe(true)

    await value(rig.counter.call('customers.name', { number: '9876500001', name: 'रमेश कुमार' }))
    expect((await value(rig.counter.call('customers.get', { number: '9876500001' }))).customer?.name).toBe('रमेश कुमार')
    expect(await historyOf('ramesh')).toEqual([])
    expect(await historyOf('रमेश')).toHaveLength(2)

    const html = (await value(rig.counter.call('receipt.html', { orderId: first.orderId }))).html
    expect(html).toContain('<td class="k">Customer</td><td class="v">रमेश कुमार</td>')
    const sale = (await value(rig.counter.call('sales.today', {}))).sales.find((row) => row.orderId === first.orderId)!
    const content = rechargeReceipt(sale, { shopName: 'Shop', shopAddress: '', receiptWidthMm: 58, timezone: 'Asia/Kolkata', clock: '24h' })
    expect(content.rows).toContainEqual(['Customer', 'रमेश कुमार'])
    const unnamed = rechargeReceipt({ ...sale, customerName: null }, { shopName: 'Shop', shopAddress: '', receiptWidthMm: 58, timezone: 'Asia/Kolkata', clock: '24h' })
    expect(unnamed.rows.map(([label]) => label)).not.toContain('Customer')
    expect(Buffer.from(receiptBytes({ ...content, rows: content.rows.map(([l, v]) => [l, l === 'Customer' ? 'Ramesh' : v]) }, { shopName: 'Shop', shopAddress: '' }, { widthMm: 58, drawerKick: false })).toString('latin1')).toMatch(/Customer\s+Ramesh/)

    expect(journalOf(rig).filter((line) => line.type.startsWith('customer.'))).toEqual([
      expect.objectContaining({ type: 'customer.named', data: { number: '9876500001', name: 'Ramesh Kumar', by: 'owner' } }),
      expect.objectContaining({ type: 'customer.named', data: { number: '9876500001', name: 'रमेश कुमार', by: 'owner' } }),
    ])
  })

  it('refuses bad names and unknown numbers in plain words, and changes nothing', async () => {
    rig = await startRealModeRig()
    await sell('9876500001', '199')
    await value(rig.counter.call('customers.name', { number: '9876500001', name: 'Sita' }))
    const linesBefore = journalOf(rig).length
    const refusals = [
      [{ number: '9876500001', name: '   ' }, 'Enter a name'],
      [{ number: '9876500001', name: 'x'.repeat(61) }, 'A name must be at most 60 characters'],
      [{ number: '9876500001', name: 'Sita 2' }, /only letters/],
      [{ number: '9876500001', name: '<b>Sita</b>' }, /only letters/],
      [{ number: '9876500001', name: "-Sita" }, /start with a letter/],
      [{ number: '98765', name: 'Sita' }, 'A number is 6 to 15 digits'],
      [{ number: '9000000000', name: 'Sita' }, /No sale to 9000000000 is remembered/],
    ] as const
    for (const [input, message] of refusals) {
      const refused = await rig.counter.call('customers.name', input)
      expect(refused.ok).toBe(false)
      if (!refused.ok) expect(refused.error.message).toMatch(message)
    }
    expect(await value(rig.counter.call('customers.name', { number: '9876500001', name: 'स'.repeat(60) }))).toMatchObject({ name: 'स'.repeat(60) })
    expect(journalOf(rig).length).toBe(linesBefore + 1)
    for (const digits of ['987', '98a7']) expect((await rig.counter.call('customers.suggest', { digits })).ok).toBe(false)
    const forgetUnknown = await rig.counter.call('customers.forget', { number: '9000000000' })
    expect(forgetUnknown).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(journalOf(rig).length).toBe(linesBefore + 1)
  })

  it('forgets a customer: its name and suggestion go, its sales stay, after a snapshot, a restart and a rebuild from the journal', async () => {
    rig = await startRealModeRig()
    const sold = await sell('9876500001', '199')
    await sell('9876522222', '99')
    await value(rig.counter.call('customers.name', { number: '9876500001', name: 'Gita' }))
    await value(rig.counter.call('customers.name', { number: '9876522222', name: 'Mohan' }))
    expect(await value(rig.counter.call('customers.forget', { number: '9876500001' }))).toEqual({ number: '9876500001' })

    const check = async () => {
      expect((await suggest('9876')).map((customer) => [customer.number, customer.name])).toEqual([['9876522222', 'Mohan']])
      expect((await value(rig!.counter.call('customers.get', { number: '9876500001' }))).customer).toBeNull()
      const rows = await historyOf('9876500001')
      expect(rows.map((row) => [row.id, row.customerName])).toEqual([[sold.orderId, null]])
      expect(await historyOf('gita')).toEqual([])
      expect((await value(rig!.counter.call('sales.today', {}))).sales.map((sale) => sale.customerName).sort()).toEqual(['Mohan', null].sort())
      expect((await value(rig!.counter.call('receipt.html', { orderId: sold.orderId }))).html).not.toContain('Customer')
    }
    await check()
    await rig.counter.session().ledger.snapshot()
    await rig.restart()
    await check()
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerDir(rig!.dataDir, 'real'), file), { force: true })
    })
    await check()

    // Sold to again: remembered anew, without the forgotten name.
    await sell('9876500001', '20')
    expect((await value(rig.counter.call('customers.get', { number: '9876500001' }))).customer).toMatchObject({ name: null, sales: 1, lastAmountPaise: 2000 })
  })
})

describe('one name for a customer and their credit', () => {
  const onCredit = (number: string, amount: string, creditName: string, creditNumber = number, kind: 'mobile' | 'dth' = 'mobile') =>
    ({ kind, number, operatorCode: kind === 'dth' ? 'TTV' : 'AT', amount, paymentMode: 'credit', creditName, creditNumber }) as const
  const duesNames = async () => (await value(rig!.counter.call('credit.dues', {}))).customers.map((due) => [due.number, due.name, due.duePaise])
  const names = async () => ({
    suggested: (await suggest('9876')).map((customer) => [customer.number, customer.name]),
    history: (await historyOf('9876500001')).map((row) => row.customerName),
    dues: await duesNames(),
    found: (await historyOf('ramesh')).length,
  })

  it('a credit sale names the customer, a regular\'s new name is the one Dues shows, the same after a rebuild and a migrated snapshot', async () => {
    rig = await startRealModeRig()
    await sell('9876500001', '199')
    await value(rig.counter.call('customers.name', { number: '9876500001', name: 'Ramesh' }))
    await value(rig.counter.call('recharge.sell', onCredit('9876500001', '149', 'Ramesh Kumar')))
    // The credit sale's name is the regular's name now, in suggestions and History as on the statement.
    expect((await suggest('9876'))[0]).toMatchObject({ number: '9876500001', name: 'Ramesh Kumar' })
    expect((await historyOf('9876500001')).map((row) => row.customerName)).toEqual(['Ramesh Kumar', 'Ramesh Kumar'])
    expect((await value(rig.counter.call('credit.statement', { number: '9876500001' }))).customer.name).toBe('Ramesh Kumar')

    // Renamed as a regular: Dues and the payment's receipt know them by it.
    await value(rig.counter.call('customers.name', { number: '9876500001', name: 'Ramesh K' }))
    expect(await duesNames()).toEqual([['9876500001', 'Ramesh K', 149_00]])
    const paid = await value(rig.counter.call('credit.pay', { number: '9876500001', amount: '49', mode: 'cash' }))
    expect(paid.name).toBe('Ramesh K')

    // A DTH sale on credit, paid for by a mobile number never recharged: named on Dues, not a suggestion.
    await value(rig.counter.call('recharge.sell', onCredit('3012345678', '350', 'Ram Lal', '9123400000', 'dth')))
    expect((await value(rig.counter.call('customers.get', { number: '9123400000' }))).customer).toBeNull()

    const before = await names()
    expect(before).toEqual({
      suggested: [['9876500001', 'Ramesh K']],
      history: ['Ramesh K', 'Ramesh K'],
      dues: [['9123400000', 'Ram Lal', 350_00], ['9876500001', 'Ramesh K', 100_00]],
      found: 2,
    })
    const ledgerFiles = ledgerDir(rig.dataDir, 'real')
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerFiles, file), { force: true })
    })
    expect(await names()).toEqual(before)
    // A snapshot written by the Counter before one name store (schema 9), migrated at the update.
    await rig.counter.session().ledger.snapshot()
    await rig.restart(() => rollBackSnapshot(ledgerFiles, 9))
    expect(readdirSync(join(ledgerFiles, 'backups')).some((file) => file.startsWith('pre-migration-v9-to-v'))).toBe(true)
    expect(await names()).toEqual(before)
  })

  it('refuses to forget a customer who owes, in plain words, changing nothing; once paid, forgets the name and the limit, never the books', async () => {
    rig = await startRealModeRig()
    const sold = await value(rig.counter.call('recharge.sell', onCredit('9876500001', '199', 'Gita')))
    await value(rig.counter.call('credit.setLimit', { number: '9876500001', limit: '500' }))
    const linesBefore = journalOf(rig).length
    const refused = await rig.counter.call('customers.forget', { number: '9876500001' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Gita still owes ₹199.00. Take the payment in Dues (Ctrl+D) before forgetting this customer.' } })
    expect(journalOf(rig).length).toBe(linesBefore)
    expect((await suggest('9876'))[0].name).toBe('Gita')

    await value(rig.counter.call('credit.pay', { number: '9876500001', amount: '199', mode: 'upi' }))
    await value(rig.counter.call('customers.forget', { number: '9876500001' }))
    const check = async () => {
      expect(await suggest('9876')).toEqual([])
      expect(await duesNames()).toEqual([])
      expect((await historyOf('9876500001')).map((row) => [row.id, row.customerName])).toEqual([[sold.orderId, null]])
      expect(await rig!.counter.call('credit.statement', { number: '9876500001' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    }
    await check()
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerDir(rig!.dataDir, 'real'), file), { force: true })
    })
    await check()

    // On credit again: a new name, no old limit, the old sale and payment back on the statement.
    await value(rig.counter.call('recharge.sell', onCredit('9876500001', '20', 'Gita Devi')))
    const statement = await value(rig.counter.call('credit.statement', { number: '9876500001' }))
    expect(statement.customer).toMatchObject({ name: 'Gita Devi', limitPaise: null, duePaise: 20_00 })
    expect(statement.lines.map((line) => line.kind)).toEqual(['sale', 'payment', 'sale'])
  })
})
