// Reconciliation and day close through the whole core in REAL mode against the simulator: a day of
// recharges, coupons and a top-up, an outside debit found as a break, closing refused over an
// unresolved sale and allowed with the owner's note, the drawer counted to the paisa, the day
// locked (also after a restart), and the Z report as CSV, A4 and receipt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SystemPrinter } from '../../electron/printers/printer-ports'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import { agentInput, approvedAgent, eventually, startRealModeRig, statusEvents, type RealModeRig, valueOf } from './helpers'

const agent = agentInput()
const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }


let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

/**
 * A day at the counter: ₹(210 + 214 + 99) in cash for sales that took money (the ₹99 one unresolved),
 * ₹50 for a recharge that failed (given back), ₹(149.50 + 107) by UPI, a ₹1,000 top-up, a ₹123.45 outside debit.
 */
async function dayAtTheCounter(r: RealModeRig) {
  valueOf(await r.counter.call('pan.balance.refresh', {}))
  await approvedAgent(r.counter)
  const sold = [
    valueOf(await r.counter.call('recharge.sell', { kind: 'mobile', number: '9812345601', operatorCode: 'AT', amount: '199', collected: '210', paymentMode: 'cash' })),
    valueOf(await r.counter.call('recharge.sell', { kind: 'mobile', number: '9812345602', operatorCode: 'RJP', amount: '149.50', paymentMode: 'upi' })),
    valueOf(await r.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2, paymentMode: 'cash' })),
  ]
  expect(sold.map((s) => s.state)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS'])
  r.provider.setFault({ kind: 'failed', times: 1 })
  const failed = valueOf(await r.counter.call('recharge.sell', { kind: 'mobile', number: '9812345609', operatorCode: 'AT', amount: '50', paymentMode: 'cash' }))
  expect(failed.state).toBe('FAILED')

  r.provider.pan.setBalance(r.provider.pan.balancePaise() + 1_000_00)
  const topup = valueOf(await r.counter.call('topups.add', { amount: '1000', reference: 'UTR 5512 9987', note: 'NEFT from the shop account' }))
  r.provider.pan.outsideDebit(123_45)
  const coupon = valueOf(await r.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1, paymentMode: 'upi' }))
  expect(coupon.state).toBe('SUCCESS')
  // The top-up entered since the last reading is expected: only the outside debit is named.
  expect(coupon.problems).toEqual([expect.stringMatching(/moved outside Counter: Counter expected ₹5,786\.00 .*\(difference -₹123\.45\)\.$/)])

  r.provider.setFault({ kind: 'noAnswer', times: 1 })
  const unresolved = valueOf(await r.counter.call('recharge.sell', { kind: 'mobile', number: '9812345603', operatorCode: 'AT', amount: '99', paymentMode: 'cash' }))
  expect(unresolved.state).toBe('UNKNOWN')
  return { topup, coupon, unresolved }
}

describe('day close', () => {
  it('summarises the day, reports the outside debit, closes only with a note, counts the drawer to the paisa and locks the day', async () => {
    rig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } }, { providerTimeoutMs: 400 })
    const { topup, coupon, unresolved } = await dayAtTheCounter(rig)

    const summary = valueOf(await rig.counter.call('day.summary', {}))
    const today = summary.businessDay
    expect(topup).toMatchObject({ amountPaise: 1_000_00, reference: 'UTR 5512 9987', businessDay: today })
    expect(summary).toMatchObject({
      closed: false,
      openingPanBalance: { balancePaise: 5_000_00 },
      closingPanBalance: { balancePaise: rig.provider.pan.balancePaise() },
      topups: [topup],
      pending: [{ kind: 'recharge', id: unresolved.orderId, label: '9812345603' }],
    })
    // 5000 - 214 + 1000 - 123.45 - 107: the provider's balance, read live at the summary.
    expect(rig.provider.pan.balancePaise()).toBe(5_555_55)
    expect(summary.breaks).toEqual([
      {
        at: expect.any(String),
        kind: 'coupon',
        ref: coupon.attemptId,
        expectedPaise: 5_786_00,
        actualPaise: 5_662_55,
        differencePaise: -123_45,
        since: { at: expect.any(String), couponSales: 0, couponPaise: 0, topupPaise: 1_000_00 },
      },
    ])
    expect(summary.recharges).toEqual(
      expect.arrayContaining([
        { operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 1, amountPaise: 199_00 },
        { operatorCode: 'RJP', operatorName: 'Jio', state: 'SUCCESS', count: 1, amountPaise: 149_50 },
        { operatorCode: 'AT', operatorName: 'Airtel', state: 'FAILED', count: 1, amountPaise: 50_00 },
        { operatorCode: 'AT', operatorName: 'Airtel', state: 'UNKNOWN', count: 1, amountPaise: 99_00 },
      ]),
    )
    expect(summary.coupons).toEqual([{ type: 1, state: 'SUCCESS', orders: 2, qty: 3, amountPaise: 321_00 }])
    expect(summary.cash).toEqual({
      openingFloatPaise: null,
      collectedCashPaise: 523_00,
      collectedUpiPaise: 256_50,
      expectedPaise: null,
      countedPaise: null,
      differencePaise: null,
      counted: null,
      blind: false,
    })

    const close = { businessDay: today, openingFloat: '2000', counted: { ...drawer, n500: 4, n100: 4, coins: '23.50' } }
    const refused = await rig.counter.call('day.close', close)
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { overrideNote: expect.stringContaining('1 sale is still unresolved') } } })
    const shortNote = await rig.counter.call('day.close', { ...close, overrideNote: 'later' })
    expect(shortNote).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { overrideNote: expect.any(String) } } })
    const badCoins = await rig.counter.call('day.close', { ...close, overrideNote: 'Airtel helpline: order pending', counted: { ...drawer, coins: '12.345' } })
    expect(badCoins).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { coins: expect.any(String) } } })

    const closed = valueOf(await rig.counter.call('day.close', { ...close, overrideNote: 'Airtel helpline: order pending' }))
    expect(closed).toMatchObject({
      businessDay: today,
      closed: true,
      closedAt: expect.any(String),
      overrideNote: 'Airtel helpline: order pending',
      breaks: summary.breaks,
      cash: {
        openingFloatPaise: 2_000_00,
        collectedCashPaise: 523_00,
        expectedPaise: 2_523_00,
        countedPaise: 2_423_50,
        differencePaise: -99_50,
        counted: { ...drawer, n500: 4, n100: 4, coins: '23.50' },
      },
    })
    expect(valueOf(await rig.counter.call('day.summary', { businessDay: today }))).toEqual(closed)

    expect(await rig.counter.call('day.close', { ...close, overrideNote: 'Airtel helpline: order pending' })).toMatchObject({ ok: false, error: { code: 'day_closed' } })
    const transactionsBefore = rig.provider.requests.filter((r) => r.operation === 'transaction').length
    const afterClose = await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345604', operatorCode: 'AT', amount: '10', paymentMode: 'cash' })
    expect(afterClose).toMatchObject({ ok: false, error: { code: 'day_closed' } })
    expect(rig.provider.requests.filter((r) => r.operation === 'transaction')).toHaveLength(transactionsBefore)
    expect(await rig.counter.call('topups.add', { amount: '50', reference: 'UTR 1234' })).toMatchObject({ ok: false, error: { code: 'day_closed' } })

    await rig.restart()
    expect(valueOf(await rig.counter.call('day.summary', { businessDay: today }))).toEqual(closed)
    expect(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345605', operatorCode: 'AT', amount: '10', paymentMode: 'cash' })).toMatchObject({
      ok: false,
      error: { code: 'day_closed' },
    })
  })

  it('produces the Z report as CSV, A4 and receipt, saves the CSV and refuses a PDF without the desktop printer', async () => {
    rig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } }, { providerTimeoutMs: 400 })
    await dayAtTheCounter(rig)
    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    const closed = valueOf(
      await rig.counter.call('day.close', { businessDay: today, openingFloat: '1500.50', counted: { ...drawer, n500: 3, n10: 2, coins: '0.25' }, overrideNote: 'Checked with the provider by phone' }),
    )
    // Counted 1500 + 20 + 0.25 against 1500.50 + 523 expected.
    expect(closed.cash).toMatchObject({ expectedPaise: 2_023_50, countedPaise: 1_520_25, differencePaise: -503_25 })

    const csv = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'csv' }))
    expect(csv.filename).toBe(`z-report-${today}.csv`)
    expect(csv.content).toContain('\r\nTop-ups of the provider wallet\r\n')
    expect(csv.content).toContain(',UTR 5512 9987,NEFT from the shop account,1000\r\n')
    expect(csv.content).toContain(',-123.45,')
    expect(csv.content).toContain('\r\nDifference (counted − expected),,-503.25\r\n')
    expect(csv.content).toContain('\r\nCoins and smaller,,0.25\r\n')

    const a4 = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'a4' }))
    expect(a4.filename).toBe(`z-report-${today}.html`)
    expect(a4.content).toContain('@page { size: A4')
    expect(a4.content).toContain('-₹123.45')
    const receipt = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'receipt' }))
    expect(receipt.content).toContain(':root { --receipt-width-mm: 80 } body { width: 80mm }')
    expect(receipt.content).not.toContain('TRAINING')

    const saved = valueOf(await rig.counter.call('day.saveReport', { businessDay: today, format: 'csv' }))
    expect(saved.path).toBe(join(rig.dataDir, 'reports', `z-report-${today}.csv`))
    expect(readFileSync(saved.path, 'utf8')).toBe(csv.content)
    expect(await rig.counter.call('day.saveReport', { businessDay: today, format: 'pdf' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported', message: expect.stringContaining('Print') },
    })
    expect(existsSync(join(rig.dataDir, 'reports', `z-report-${today}.pdf`))).toBe(false)
  })

  it('hands the desktop printer the A4 report on an A4 page for the PDF', async () => {
    const pages: { html: string; page: { widthMm: number; heightMm?: number }; path: string }[] = []
    // Stands in for Electron's printToPDF, the one part that needs a window system.
    const systemPrinter: SystemPrinter = {
      print: async () => 'none',
      savePdf: async (html, page, path) => void pages.push({ html, page, path }),
      list: async () => [],
    }
    rig = await startRealModeRig({}, { systemPrinter })
    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    const saved = valueOf(await rig.counter.call('day.saveReport', { businessDay: today, format: 'pdf' }))
    const a4 = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'a4' }))
    expect(pages).toEqual([{ html: a4.content, page: { widthMm: 210, heightMm: 297 }, path: saved.path }])
    expect(saved.path).toBe(join(rig.dataDir, 'reports', `z-report-${today}.pdf`))
  })

  it('prints the 80 mm Z report silently on the receipt printer, and says so plainly without one', async () => {
    const printed: { html: string; options: { deviceName: string; widthMm: 58 | 80 } }[] = []
    // Stands in for Electron's silent webContents.print, the one part that needs a window system.
    const systemPrinter: SystemPrinter = {
      print: async (html, options) => {
        printed.push({ html, options })
        return options.deviceName
      },
      savePdf: async () => undefined,
      list: async () => [],
    }
    rig = await startRealModeRig({}, { systemPrinter })
    valueOf(await rig.counter.call('settings.save', { printerName: 'TVS RP3160', receiptWidthMm: 58 }))
    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    expect(valueOf(await rig.counter.call('day.printReport', { businessDay: today }))).toEqual({ printer: 'TVS RP3160' })
    const receipt = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'receipt' }))
    expect(printed).toEqual([{ html: receipt.content, options: { deviceName: 'TVS RP3160', widthMm: 58 } }])

    await rig.close()
    rig = await startRealModeRig()
    expect(await rig.counter.call('day.printReport', { businessDay: today })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
  })

  it('checks the whole journal before closing: a line edited behind the snapshot is found, and the books turn read-only', async () => {
    rig = await startRealModeRig()
    const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '100' } as const
    valueOf(await rig.counter.call('recharge.sell', sale))
    // Written on restart: opening then checks only the journal past this snapshot.
    await rig.restart()
    const segment = join(ledgerDir(rig.dataDir, 'real'), JOURNAL_DIR, segmentName(1))
    const lines = readFileSync(segment, 'utf8').split('\n')
    const edited = lines.findIndex((line) => line.includes('"amountPaise":10000'))
    lines[edited] = lines[edited].replace('"amountPaise":10000', '"amountPaise":1000')
    writeFileSync(segment, lines.join('\n'))
    await rig.restart()
    expect(rig.counter.session().ledger.readOnly).toBeNull()

    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    const seen = statusEvents(rig.counter)
    const closing = await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer, overrideNote: 'closing for the test' })
    expect(closing).toMatchObject({ ok: false, error: { code: 'ledger_unavailable', message: expect.stringContaining(`Line ${edited + 1}`) } })
    // The screen hears of it unasked (the status is sent once its balance is read from the books), and app.status says it from now on.
    const readOnly = expect.stringMatching(new RegExp(`^The journal is damaged: Line ${edited + 1} \\(${segmentName(1)}\\): `))
    await eventually(async () => seen.at(-1)?.books.readOnly, 'the status event saying the books are read-only')
    expect(seen.at(-1)?.books.readOnly).toEqual(readOnly)
    expect(valueOf(await rig.counter.call('app.status', {})).books.readOnly).toEqual(readOnly)
    expect(await rig.counter.call('recharge.sell', sale)).toMatchObject({ ok: false, error: { code: 'ledger_unavailable' } })
  })
})
