// The history screen through the whole core: searching sales of several days by number, order id,
// agent, status, kind and date range, paging, and the CSV export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryRow, Input } from '../../electron/contract'
import { historyCsv, historyExport } from '../../electron/counter/history'
import type { HistoryQuery } from '../../electron/ledger/ledger'
import { verhoeffDigit } from '../../electron/shared/verhoeff'
import { startRealModeRig, valueOf, type RealModeRig } from './helpers'

let rig: RealModeRig
let clock = new Date('2024-05-01T06:00:00.000Z')
const sold: Record<'mobile' | 'dth' | 'failed' | 'coupon', string> = { mobile: '', dth: '', failed: '', coupon: '' }

/** One shop over three business days (India): a recharge on the 1st, two on the 2nd (one refused), a coupon on the 3rd. */
beforeAll(async () => {
  rig = await startRealModeRig({}, { now: () => clock })
  const sell = async (input: Input<'recharge.sell'>) => {
    const result = await rig.counter.call('recharge.sell', input)
    if (!result.ok) throw new Error(result.error.message)
    return result.value.orderId
  }
  sold.mobile = await sell({ kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199.50' })
  clock = new Date('2024-05-02T06:00:00.000Z')
  sold.dth = await sell({ kind: 'dth', number: '3012345678', operatorCode: 'TTV', amount: '350' })
  rig.provider.setFault({ kind: 'failed', times: 1 })
  sold.failed = await sell({ kind: 'mobile', number: '9812345678', operatorCode: 'RJP', amount: '239' })
  clock = new Date('2024-05-03T06:00:00.000Z')
  const uid = '23456789012' + verhoeffDigit('23456789012')
  const agent = { vleId: 'VLE1001', name: 'Ravi Kumar', mobile: '9812345670', email: 'ravi@example.in', shop: 'Ravi Digital Seva', location: 'Sitapur', stateCode: '35', pin: '261001', uid, pan: 'ABCDE1234F' }
  await rig.counter.call('pan.agents.create', agent)
  for (let i = 0; i < 5; i++) await rig.counter.call('pan.agents.refresh', { vleId: agent.vleId })
  const coupon = await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2 })
  if (!coupon.ok || coupon.value.state !== 'SUCCESS') throw new Error(`coupon sale: ${JSON.stringify(coupon)}`)
  sold.coupon = coupon.value.attemptId
})
afterAll(() => rig?.close())

async function search(query: Input<'history.search'>) {
  const result = await rig.counter.call('history.search', query)
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}
const ids = (rows: HistoryRow[]) => rows.map((row) => row.id).sort()

describe('history.search', () => {
  it('finds a recharge by its number, with what the row shows', async () => {
    const found = await search({ text: '9876543210' })
    expect(found.total).toBe(1)
    expect(found.rows).toEqual([
      {
        kind: 'recharge',
        id: sold.mobile,
        at: expect.any(String),
        businessDay: '2024-05-01',
        label: '9876543210',
        customerName: null,
        detail: expect.stringContaining('Airtel'),
        amountPaise: 19950,
        state: 'SUCCESS',
        reference: expect.stringMatching(/^RCH/),
        // Sold with no commission rate set: a margin of ₹0 frozen with it, nothing collected above the amount.
        marginPaise: 0,
        serviceChargePaise: 0,
      },
    ])
  })

  it('finds a sale by its order id, and a coupon by its agent', async () => {
    expect(ids((await search({ text: sold.failed })).rows)).toEqual([sold.failed])
    const byAgent = await search({ text: 'Ravi Kumar' })
    expect(byAgent.rows).toMatchObject([{ kind: 'coupon', id: sold.coupon, businessDay: '2024-05-03', amountPaise: 21400, state: 'SUCCESS' }])
    expect(ids((await search({ text: 'VLE1001' })).rows)).toEqual([sold.coupon])
  })

  it('filters by status and by kind', async () => {
    expect(ids((await search({ state: 'FAILED' })).rows)).toEqual([sold.failed])
    expect(ids((await search({ kind: 'coupon' })).rows)).toEqual([sold.coupon])
    expect(ids((await search({ kind: 'recharge' })).rows)).toEqual([sold.mobile, sold.dth, sold.failed].sort())
    expect((await search({ kind: 'recharge', state: 'SUCCESS' })).total).toBe(2)
  })

  it('filters by a range of business days, either end open', async () => {
    expect(ids((await search({ from: '2024-05-02', to: '2024-05-02' })).rows)).toEqual([sold.dth, sold.failed].sort())
    expect(ids((await search({ from: '2024-05-03' })).rows)).toEqual([sold.coupon])
    expect(ids((await search({ to: '2024-05-01' })).rows)).toEqual([sold.mobile])
    expect((await search({ from: '2024-05-04' })).total).toBe(0)
  })

  it('refuses a range that ends before it starts, next to the field', async () => {
    const refused = await rig.counter.call('history.search', { from: '2024-05-03', to: '2024-05-01' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { to: expect.any(String) } } })
  })

  it('pages through every sale with a steady total', async () => {
    const first = await search({ limit: 3 })
    const second = await search({ limit: 3, offset: 3 })
    expect([first.total, second.total]).toEqual([4, 4])
    expect([first.rows.length, second.rows.length]).toEqual([3, 1])
    expect(ids([...first.rows, ...second.rows])).toEqual(Object.values(sold).sort())
    expect((await search({ offset: 4 })).rows).toEqual([])
  })
})

describe('history.exportCsv', () => {
  it('exports every matching sale as CSV named by its days', async () => {
    const exported = await rig.counter.call('history.exportCsv', { limit: 1 })
    expect(exported.ok).toBe(true)
    if (!exported.ok) return
    expect(exported.value.filename).toBe('history-2024-05-01-2024-05-03.csv')
    const lines = exported.value.content.split('\r\n')
    expect(lines[0]).toBe('kind,id,time,business day,number/agent,detail,amount (rupees),status,reference,margin earned (rupees),service charge (rupees)')
    expect(lines.at(-1)).toBe('')
    expect(lines).toHaveLength(4 + 2)
    const mobile = lines.find((line) => line.includes(sold.mobile))!.split(',')
    expect(mobile).toMatchObject({ 0: 'recharge', 3: '01-05-2024', 4: '9876543210', 6: '199.50', 7: 'SUCCESS' })
    expect(lines.find((line) => line.includes(sold.coupon))).toContain(',214,SUCCESS,')
  })

  it('writes the headings in the receipt language, the cells as data', async () => {
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'hi' }))
    try {
      const lines = valueOf(await rig.counter.call('history.exportCsv', {})).content.split('\r\n')
      expect(lines[0]).toBe('किस्म,ID,समय,कारोबारी दिन,नंबर/एजेंट,ब्योरा,राशि (रुपये),स्थिति,रेफ़रेंस,कमाया मार्जिन (रुपये),सर्विस चार्ज (रुपये)')
      expect(lines.find((line) => line.includes(sold.mobile))!.split(',')).toMatchObject({ 0: 'recharge', 6: '199.50', 7: 'SUCCESS' })
    } finally {
      valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'en' }))
    }
  })

  it('exports only what the filters match, named by the range asked for', async () => {
    const exported = await rig.counter.call('history.exportCsv', { from: '2024-05-02', to: '2024-05-02', state: 'FAILED' })
    expect(exported).toMatchObject({ ok: true, value: { filename: 'history-2024-05-02-2024-05-02.csv' } })
    if (!exported.ok) return
    const lines = exported.value.content.split('\r\n').filter(Boolean)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(`${sold.failed},`)
    expect(lines[1]).toContain(',239,FAILED,')
  })

  it('reads page after page, and says in the filename when it stopped at the cap', async () => {
    const { ledger } = rig.counter.session()
    const sales = { historySearch: (query: HistoryQuery) => ledger.read('historySearch', query) }
    const paged = await historyExport(sales, { offset: 0, limit: 100 }, '2024-05-03', 'Asia/Kolkata', { pageRows: 1 })
    expect(paged.filename).toBe('history-2024-05-01-2024-05-03.csv')
    expect(paged.content.split('\r\n').filter(Boolean)).toHaveLength(1 + 4)
    const capped = await historyExport(sales, { offset: 0, limit: 100 }, '2024-05-03', 'Asia/Kolkata', { maxRows: 3, pageRows: 2 })
    const lines = capped.content.split('\r\n').filter(Boolean)
    expect(lines).toHaveLength(1 + 3)
    expect(new Set(lines).size).toBe(lines.length)
    expect(capped.filename).toMatch(/^history-2024-05-0\d-2024-05-03-first-3-of-4\.csv$/)
  })

  it('quotes fields as RFC 4180 asks and leaves unknown amounts and references empty', () => {
    const row: HistoryRow = {
      kind: 'coupon',
      id: 'C1',
      at: '2024-05-03T06:00:00.000Z',
      businessDay: '2024-05-03',
      label: 'VLE9 "Raju", Sitapur',
      customerName: null,
      detail: 'line one\nline two',
      amountPaise: null,
      state: 'UNKNOWN',
      reference: null,
      // An unresolved sale has earned nothing yet: its margin and service charge stay blank.
      marginPaise: 500,
      serviceChargePaise: 0,
    }
    expect(historyCsv([row], 'Asia/Kolkata').split('\r\n')[1]).toBe('coupon,C1,03-05-2024 11:30:00,03-05-2024,"VLE9 ""Raju"", Sitapur","line one\nline two",,UNKNOWN,,,')
  })

  it('defuses provider text a spreadsheet would run as a formula, and keeps amounts numbers', () => {
    const row: HistoryRow = {
      kind: 'recharge',
      id: 'CN1',
      at: '2024-05-03T06:00:00.000Z',
      businessDay: '2024-05-03',
      label: '9876543210',
      customerName: null,
      detail: '@SUM(A1:A9)',
      amountPaise: -150,
      state: 'SUCCESS',
      reference: '=HYPERLINK("http://x.example","ok")',
      // Sold before margins were kept: its margin is unknown (blank), not ₹0.
      marginPaise: null,
      serviceChargePaise: 10_00,
    }
    const fields = historyCsv([row], 'Asia/Kolkata').split('\r\n')[1]
    expect(fields).toBe(`recharge,CN1,03-05-2024 11:30:00,03-05-2024,9876543210,'@SUM(A1:A9),-1.50,SUCCESS,"'=HYPERLINK(""http://x.example"",""ok"")",,10`)
  })
})
