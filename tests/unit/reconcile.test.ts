// The PAN balance chain as balance assertions: chains that hold, outside debits, top-ups that
// explain a rise, breaks at balance reads, and what each break reports as lying between.
import { describe, expect, it } from 'vitest'
import { addDays, balanceBreaks, balanceChain, dayBalances } from '../../electron/counter/reconcile'
import type { BalanceFact } from '../../electron/ledger/books-reads'

const day = '2026-11-22'
let seq = 0
const at = (minute: number) => `2026-11-22T04:${String(minute).padStart(2, '0')}:00.000Z`
const read = (minute: number, balancePaise: number): BalanceFact => ({ kind: 'balance', seq: ++seq, at: at(minute), businessDay: day, balancePaise })
const coupon = (minute: number, oldBalPaise: number, amountPaise: number, newBalPaise = oldBalPaise - amountPaise): BalanceFact => ({
  kind: 'coupon',
  seq: ++seq,
  at: at(minute),
  businessDay: day,
  attemptId: `CP${minute}`,
  oldBalPaise,
  newBalPaise,
  amountPaise,
})
const topup = (minute: number, amountPaise: number): BalanceFact => ({ kind: 'topup', seq: ++seq, at: at(minute), businessDay: day, topupId: `PW${minute}`, amountPaise })

describe('balance assertions', () => {
  it('finds no break when every coupon chains from the last balance and every read agrees', () => {
    const facts = [read(0, 5_000_00), coupon(1, 5_000_00, 107_00), read(2, 4_893_00), coupon(3, 4_893_00, 214_00), coupon(4, 4_679_00, 72_00), read(5, 4_607_00)]
    expect(balanceChain(facts)).toEqual({ breaks: [], end: { balancePaise: 4_607_00, at: at(5) } })
  })

  it('reports an outside debit at the next coupon, with the signed difference', () => {
    const facts = [read(0, 5_000_00), coupon(1, 5_000_00, 107_00), read(2, 4_893_00), coupon(3, 4_693_00, 107_00), read(4, 4_586_00)]
    expect(balanceBreaks(facts)).toEqual([
      {
        at: at(3),
        kind: 'coupon',
        ref: 'CP3',
        expectedPaise: 4_893_00,
        actualPaise: 4_693_00,
        differencePaise: -200_00,
        since: { at: at(2), couponSales: 0, couponPaise: 0, topupPaise: 0 },
      },
    ])
  })

  it('lets a recorded top-up explain a rise, and reports one that was not recorded', () => {
    const explained = [read(0, 1_000_00), topup(1, 2_500_00), read(2, 3_500_00)]
    expect(balanceBreaks(explained)).toEqual([])
    const unexplained = [read(0, 1_000_00), read(2, 3_500_00)]
    expect(balanceBreaks(unexplained)).toMatchObject([{ kind: 'balance', ref: null, differencePaise: 2_500_00 }])
  })

  it('breaks at a balance read, telling what lies between it and the last assertion that held', () => {
    const facts = [read(0, 2_000_00), coupon(1, 2_000_00, 321_00), topup(2, 500_00), topup(3, 250_50), read(4, 2_400_00)]
    expect(balanceBreaks(facts)).toEqual([
      {
        at: at(4),
        kind: 'balance',
        ref: null,
        expectedPaise: 2_429_50,
        actualPaise: 2_400_00,
        differencePaise: -29_50,
        since: { at: at(1), couponSales: 1, couponPaise: 321_00, topupPaise: 750_50 },
      },
    ])
  })

  it('re-anchors after a break so that one outside debit is reported once', () => {
    const facts = [read(0, 1_000_00), read(1, 900_00), coupon(2, 900_00, 100_00), read(3, 800_00), read(4, 750_00)]
    expect(balanceBreaks(facts).map((b) => [b.at, b.differencePaise, b.since.at])).toEqual([
      [at(1), -100_00, at(0)],
      [at(4), -50_00, at(3)],
    ])
  })

  it('walks in journal order whatever order the facts come in', () => {
    const facts = [read(0, 1_000_00), coupon(1, 1_000_00, 100_00), read(2, 900_00)]
    expect(balanceBreaks([...facts].reverse())).toEqual([])
  })

  it('checks the first fact against a given start, and ignores top-ups before any known balance', () => {
    const facts = [topup(0, 300_00), read(1, 700_00)]
    expect(balanceBreaks(facts)).toEqual([])
    expect(balanceBreaks(facts, { balancePaise: 500_00, at: '2026-11-21T15:00:00.000Z' })).toMatchObject([
      { expectedPaise: 800_00, actualPaise: 700_00, differencePaise: -100_00, since: { at: '2026-11-21T15:00:00.000Z', topupPaise: 300_00 } },
    ])
  })
})

describe('a day of balances', () => {
  it('opens on the balance expected when the day began and closes on the last one', () => {
    const facts = [coupon(1, 1_000_00, 107_00), topup(2, 100_00)]
    expect(dayBalances(facts, { balancePaise: 1_000_00, at: '2026-11-21T15:00:00.000Z' })).toEqual({
      opening: { balancePaise: 1_000_00, at: '2026-11-21T15:00:00.000Z' },
      closing: { balancePaise: 993_00, at: at(2) },
      breaks: [],
    })
  })

  it('opens on the first old balance of the day when nothing came before, and knows nothing of an empty day', () => {
    expect(dayBalances([topup(0, 50_00), coupon(1, 1_234_56, 72_00)], null)).toMatchObject({
      opening: { balancePaise: 1_234_56, at: at(1) },
      closing: { balancePaise: 1_162_56, at: at(1) },
    })
    expect(dayBalances([], null)).toEqual({ opening: { balancePaise: null, at: null }, closing: { balancePaise: null, at: null }, breaks: [] })
  })

  it('counts calendar days across month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29')
    expect(addDays('2027-01-01', -31)).toBe('2026-12-01')
  })
})
