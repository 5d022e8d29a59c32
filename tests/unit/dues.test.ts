// Dues arithmetic: which credit entries move a customer's due, the running due, the oldest unpaid sale and the last payment.
import { describe, expect, it } from 'vitest'
import { dueChange, dueFigures, type CreditEntry } from '../../electron/ledger/dues'

let n = 0
const sale = (amountPaise: number, state: string, businessDay = '2026-04-01'): CreditEntry => ({
  id: `S${++n}`, kind: 'sale', amountPaise, state, at: `${businessDay}T10:00:00.000Z`, businessDay, mode: null,
})
const payment = (amountPaise: number, mode: 'cash' | 'upi' = 'cash', businessDay = '2026-04-05'): CreditEntry => ({
  id: `P${++n}`, kind: 'payment', amountPaise, state: null, at: `${businessDay}T11:00:00.000Z`, businessDay, mode,
})

describe('dues', () => {
  it('only a SUCCESS sale adds; FAILED and unresolved ones add nothing; a payment subtracts', () => {
    expect(dueChange(sale(199_00, 'SUCCESS'))).toBe(199_00)
    for (const state of ['FAILED', 'UNKNOWN', 'SENDING']) expect(dueChange(sale(199_00, state))).toBe(0)
    expect(dueChange(payment(50_00))).toBe(-50_00)
  })

  it('keeps a running due to the paisa through part payments and settles at zero', () => {
    const entries = [sale(199_00, 'SUCCESS'), sale(100_50, 'SUCCESS'), payment(150_25), sale(10_00, 'FAILED'), payment(149_25, 'upi')]
    const figures = dueFigures(entries)
    expect(figures.running).toEqual([199_00, 299_50, 149_25, 149_25, 0])
    expect(figures).toMatchObject({ duePaise: 0, since: null, lastPayment: { amountPaise: 149_25, mode: 'upi' } })
  })

  it('dates the due from the oldest sale payments have not covered (oldest paid first)', () => {
    const entries = [sale(100_00, 'SUCCESS', '2026-04-01'), sale(50_00, 'FAILED', '2026-04-02'), sale(80_00, 'SUCCESS', '2026-04-03'), payment(100_00)]
    expect(dueFigures(entries)).toMatchObject({ duePaise: 80_00, since: '2026-04-03' })
    expect(dueFigures(entries.slice(0, 3))).toMatchObject({ duePaise: 180_00, since: '2026-04-01' })
    expect(dueFigures([...entries.slice(0, 3), payment(99_99)])).toMatchObject({ since: '2026-04-01' })
  })

  it('goes below zero when a paid sale is reversed (FAILED later), with no "since"', () => {
    expect(dueFigures([sale(300_00, 'FAILED'), payment(100_00)])).toMatchObject({ duePaise: -100_00, since: null })
    expect(dueFigures([])).toEqual({ duePaise: 0, since: null, lastPayment: null, running: [] })
  })
})
