// Bounds on the money a counter takes in, through the whole core in REAL mode: what was collected
// is capped by the service charge set in Settings, a top-up has its own limit, and a day's close
// never answers 'internal' nor journals anything when it is refused.
import { afterEach, describe, expect, it } from 'vitest'
import { startRealModeRig, type RealModeRig, valueOf } from './helpers'

const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
const sale = (number: string, collected: string) => ({ kind: 'mobile', number, operatorCode: 'AT', amount: '10', collected }) as const

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})


describe('money bounds', () => {
  it('refuses a collected amount past the amount and the service-charge cap, with the field named; the cap is a setting', async () => {
    rig = await startRealModeRig()
    const huge = await rig.counter.call('recharge.sell', sale('9812345601', '9999999999999.99'))
    expect(huge).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { collected: expect.stringContaining('₹1,00,00,000') } } })
    const over = await rig.counter.call('recharge.sell', sale('9812345601', '110.01'))
    expect(over).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'Collected must not be more than ₹110.00: the amount and a service charge of at most ₹100.00 (set in Settings)',
        fields: { collected: 'Collected must not be more than ₹110.00: the amount and a service charge of at most ₹100.00 (set in Settings)' },
      },
    })
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345601', '110'))).collectedPaise).toBe(110_00)

    expect(valueOf(await rig.counter.call('settings.save', { serviceChargeCap: '5' })).serviceChargeCapPaise).toBe(5_00)
    expect((await rig.counter.call('recharge.sell', sale('9812345602', '16'))).ok).toBe(false)
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345602', '15'))).collectedPaise).toBe(15_00)
    expect(rig.provider.requests.filter((r) => r.operation === 'transaction')).toHaveLength(2)
  })

  it('ten sales at the most that may be collected, then the day closes (it answered internal for ever before)', async () => {
    rig = await startRealModeRig()
    for (let i = 0; i < 10; i++) {
      expect((await rig.counter.call('recharge.sell', sale(`98123456${10 + i}`, '9999999999999.99'))).ok).toBe(false)
      expect(valueOf(await rig.counter.call('recharge.sell', sale(`98123456${10 + i}`, '110'))).state).toBe('SUCCESS')
    }
    const today = valueOf(await rig.counter.call('app.status', {})).businessDay
    const closed = valueOf(await rig.counter.call('day.close', { businessDay: today, openingFloat: '1,000', counted: { ...drawer, n500: 4, coins: '100' } }))
    expect(closed.cash).toMatchObject({ collectedCashPaise: 1_100_00, openingFloatPaise: 1_000_00, countedPaise: 2_100_00, differencePaise: 0 })
  })

  it('a refused close journals nothing: its input is checked before the provider balance is read', async () => {
    rig = await startRealModeRig()
    const today = valueOf(await rig.counter.call('app.status', {})).businessDay
    await new Promise((resolve) => setTimeout(resolve, 200)) // the start's own balance read
    const ledger = rig.counter.session().ledger
    const before = await ledger.read('lastSeq')
    const balanceReads = () => rig!.provider.requests.filter((r) => r.operation === 'balance').length
    const readsBefore = balanceReads()
    expect(readsBefore).toBeGreaterThan(0)
    const tooMany = await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: { ...drawer, n500: 10_001 } })
    expect(tooMany).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { n500: 'At most 10,000 notes of one kind' } } })
    const floatTooBig = await rig.counter.call('day.close', { businessDay: today, openingFloat: '1,00,000.01', counted: drawer })
    expect(floatTooBig).toMatchObject({ ok: false, error: { fields: { openingFloat: 'Amount must not be more than ₹1,00,000' } } })
    rig.provider.setFault({ kind: 'noAnswer', times: 1 })
    expect(valueOf(await rig.counter.call('recharge.sell', sale('9812345699', '10'))).state).toBe('UNKNOWN')
    const seqAfterSale = await ledger.read('lastSeq')
    const readsAfterSale = balanceReads()
    expect(before).toBeLessThan(seqAfterSale)
    expect(readsAfterSale).toBe(readsBefore)
    const noNote = await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer })
    expect(noNote).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { overrideNote: expect.any(String) } } })
    expect(await ledger.read('lastSeq')).toBe(seqAfterSale)
    expect(balanceReads()).toBe(readsAfterSale)
  })

  it('a provider-wallet top-up has its own limit, not the recharge one', async () => {
    rig = await startRealModeRig()
    expect(valueOf(await rig.counter.call('topups.add', { amount: '1,00,000', reference: 'UTR 1111' })).amountPaise).toBe(1_00_000_00)
    expect(valueOf(await rig.counter.call('topups.add', { amount: '10,00,000', reference: 'UTR 2222' })).amountPaise).toBe(10_00_000_00)
    const over = await rig.counter.call('topups.add', { amount: '10,00,001', reference: 'UTR 3333' })
    expect(over).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: expect.any(String), fields: { amount: 'Amount must not be more than ₹10,00,000' } },
    })
  })
})
