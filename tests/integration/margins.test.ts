// Margins frozen at sale time, through the whole core in REAL mode against the simulator: a sale made under
// rate A keeps A's margin after the rates change to B, in day close, the Z report and History's export, after
// a restart from the snapshot and after a rebuild from the journal alone; FAILED sales earn nothing, and a
// sale pending at close earns nothing until its status check says SUCCESS.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { agentInput, approvedAgent, startRealModeRig, type RealModeRig, valueOf } from './helpers'

const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
const rateA = { operators: [{ operatorCode: 'AT', kind: 'percent' as const, value: '2.5' }], coupons: { p: '5', e: '' } }
const rateB = { operators: [{ operatorCode: 'AT', kind: 'fixed' as const, value: '3' }], coupons: { p: '2', e: '1' } }

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sell = (r: RealModeRig, number: string, amount: string, collected?: string) =>
  r.counter.call('recharge.sell', { kind: 'mobile', number, operatorCode: 'AT', amount, collected, paymentMode: 'cash' }).then(valueOf)

/** History's CSV export as rows of cells keyed by the header, by sale id. */
async function exported(r: RealModeRig): Promise<Record<string, Record<string, string>>> {
  const { content } = valueOf(await r.counter.call('history.exportCsv', {}))
  const [head, ...lines] = content.split('\r\n').filter(Boolean).map((line) => line.split(','))
  return Object.fromEntries(lines.map((cells) => [cells[1], Object.fromEntries(head.map((name, i) => [name, cells[i]]))]))
}

const earnedColumns = (row: Record<string, string>) => [row.status, row['margin earned (rupees)'], row['service charge (rupees)']]

describe('margins', () => {
  it('freeze at sale time: a change of rates, a close, a restart and a rebuild from the journal never rewrite them', async () => {
    rig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } }, { providerTimeoutMs: 400 })
    const agent = agentInput()
    await approvedAgent(rig.counter)

    // Rate A: Airtel 2.5%, P-Coupon ₹5 each.
    expect(valueOf(await rig.counter.call('margins.saveRates', rateA))).toEqual({
      operators: { AT: { kind: 'percent', basisPoints: 250 } },
      coupons: { p: 5_00, e: 0 },
    })
    const first = await sell(rig, '9812345601', '199', '210') // 2.5% of ₹199 = 497.5 paise -> ₹4.98; ₹11 service charge
    const coupon = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2, paymentMode: 'cash' }))
    expect([first.state, coupon.state]).toEqual(['SUCCESS', 'SUCCESS'])

    // Rate B: Airtel ₹3 a recharge, P-Coupon ₹2.
    valueOf(await rig.counter.call('margins.saveRates', rateB))
    const second = await sell(rig, '9812345602', '199')
    rig.provider.setFault({ kind: 'failed', times: 1 })
    const failed = await sell(rig, '9812345609', '50', '60')
    rig.provider.setFault({ kind: 'noAnswer', times: 1 })
    const pending = await sell(rig, '9812345603', '99')
    expect([second.state, failed.state, pending.state]).toEqual(['SUCCESS', 'FAILED', 'UNKNOWN'])

    const airtel = { operatorCode: 'AT', operatorName: 'Airtel', count: 2, turnoverPaise: 398_00, marginPaise: 4_98 + 3_00, unrated: 0, serviceChargePaise: 11_00, earnedPaise: 18_98 }
    const pCoupons = { type: 1, orders: 1, qty: 2, turnoverPaise: 214_00, marginPaise: 10_00, unrated: 0, serviceChargePaise: 0, earnedPaise: 10_00 }
    const earnings = {
      recharges: [airtel],
      coupons: [pCoupons],
      total: { turnoverPaise: 612_00, marginPaise: 17_98, unrated: 0, serviceChargePaise: 11_00, earnedPaise: 28_98 },
    }
    const summary = valueOf(await rig.counter.call('day.summary', {}))
    const today = summary.businessDay
    expect(summary.earnings).toEqual(earnings)

    const history = await exported(rig)
    expect(earnedColumns(history[first.orderId])).toEqual(['SUCCESS', '4.98', '11'])
    expect(earnedColumns(history[second.orderId])).toEqual(['SUCCESS', '3', '0'])
    expect(earnedColumns(history[failed.orderId])).toEqual(['FAILED', '0', '0'])
    expect(earnedColumns(history[pending.orderId])).toEqual(['UNKNOWN', '', ''])
    expect(earnedColumns(history[coupon.attemptId])).toEqual(['SUCCESS', '10', '0'])

    // Closed with the sale still pending: the close counts what was earned then, and keeps it.
    const closed = valueOf(await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer, overrideNote: 'Airtel says the ₹99 is still pending' }))
    expect(closed.earnings).toEqual(earnings)
    const csv = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'csv' })).content.split('\r\n')
    expect(csv).toEqual(expect.arrayContaining([
      'Earnings (successful sales)',
      'Operator or coupon,Successful sales,Turnover,Margin,Sales with no margin kept,Service charges,Total earned',
      'Airtel,2,398,7.98,0,11,18.98',
      'P-Coupon (2 coupons),1,214,10,0,0,10',
      'Total,3,612,17.98,0,11,28.98',
    ]))
    const receipt = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'receipt' })).content
    expect(receipt).toContain('<div class="title">Earnings</div>')
    expect(receipt).toContain('<tr class="amount"><td class="k">  Earned</td><td class="v">+₹28.98</td></tr>')
    const a4 = valueOf(await rig.counter.call('day.report', { businessDay: today, format: 'a4' })).content
    expect(a4).toContain('<h2>Earnings (successful sales)</h2>')
    expect(a4).toContain('<td>Total</td><td class="n">3</td><td class="n">₹612.00</td><td class="n">₹17.98</td>')

    // The pending sale turns SUCCESS after the close: it earns its rate-B margin from then on, in History.
    expect(valueOf(await rig.counter.call('recharge.checkStatus', { orderId: pending.orderId })).state).toBe('SUCCESS')
    expect(earnedColumns((await exported(rig))[pending.orderId])).toEqual(['SUCCESS', '3', '0'])

    // A third change of rates after all this rewrites nothing.
    valueOf(await rig.counter.call('margins.saveRates', { operators: [{ operatorCode: 'AT', kind: 'percent', value: '20' }], coupons: { p: '50', e: '' } }))
    const settled = { ...earnings, recharges: [{ ...airtel, count: 3, turnoverPaise: 497_00, marginPaise: 10_98, earnedPaise: 21_98 }] }
    settled.total = { turnoverPaise: 711_00, marginPaise: 20_98, unrated: 0, serviceChargePaise: 11_00, earnedPaise: 31_98 }
    const after = async () => {
      expect(valueOf(await rig!.counter.call('day.summary', { businessDay: today })).earnings).toEqual(earnings)
      expect((await rig!.counter.session().ledger.read('dayTotals', today)).earnings).toEqual(settled)
      const rows = await exported(rig!)
      expect([first.orderId, second.orderId, failed.orderId, pending.orderId, coupon.attemptId].map((id) => earnedColumns(rows[id]))).toEqual([
        ['SUCCESS', '4.98', '11'], ['SUCCESS', '3', '0'], ['FAILED', '0', '0'], ['SUCCESS', '3', '0'], ['SUCCESS', '10', '0'],
      ])
    }
    await after()

    // From the snapshot written at stop, then from the journal alone (every saved copy gone).
    await rig.restart()
    await after()
    const dir = ledgerDir(rig.dataDir, 'real')
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(dir, file), { force: true })
    })
    expect(valueOf(await rig.counter.call('app.status', {})).books.readOnly).toBeNull()
    await after()
  })

  it('refuses a rate for an operator not in the list, and a bad value, saving nothing', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('margins.saveRates', rateA))
    const unknown = await rig.counter.call('margins.saveRates', { operators: [{ operatorCode: 'NOPE', kind: 'fixed', value: '1' }], coupons: { p: '', e: '' } })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { 'rate.NOPE': 'Not an operator in the list' } } })
    const tooHigh = await rig.counter.call('margins.saveRates', { operators: [{ operatorCode: 'AT', kind: 'percent', value: '21' }], coupons: { p: '', e: '' } })
    expect(tooHigh).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'A commission must not be more than 20%', fields: { 'rate.AT': expect.any(String) } } })
    expect(valueOf(await rig.counter.call('margins.rates', {}))).toEqual({ operators: { AT: { kind: 'percent', basisPoints: 250 } }, coupons: { p: 5_00, e: 0 } })
    await rig.restart()
    expect(valueOf(await rig.counter.call('margins.rates', {}))).toEqual({ operators: { AT: { kind: 'percent', basisPoints: 250 } }, coupons: { p: 5_00, e: 0 } })
  })
})
