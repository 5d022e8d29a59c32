// The office page's tables from a day's figures (electron/office/office-page.ts): each shop's total under its counters
// and all shops' at the end, a customer who owes at two counters of a shop as one row (two shops' customers apart),
// and a table as CSV with plain numbers (a shortfall stays a number, not defused text).
import { describe, expect, it } from 'vitest'
import { officeCsv, officeTables } from '../../electron/office/office-page'
import type { OfficeDay, TerminalRow } from '../../electron/office/office-view'

const NOW = new Date('2026-11-28T08:30:00Z')
const context = { timeZone: 'Asia/Kolkata', now: NOW }
const terminal = (id: string, shop: string, counter: string): TerminalRow => ({ terminal: id, shop, counter, lastContact: NOW, lastSeq: 5n, journalEnd: 5n, backlog: 0n, clockOffsetMs: 0 })
const view: OfficeDay = {
  day: '2026-11-27',
  to: '2026-11-28',
  terminals: [terminal('a1', 'Gupta Mobile', 'Counter 1'), terminal('a2', 'Gupta Mobile', 'Counter 2'), terminal('b1', 'Verma Telecom', 'Counter 1')],
  recharges: [
    { terminal: 'a1', operator: 'Jio', sales: 2n, amountPaise: 39_800n, unresolved: 0n },
    { terminal: 'a2', operator: 'Airtel', sales: 1n, amountPaise: 19_900n, unresolved: 1n },
    { terminal: 'b1', operator: 'Vi', sales: 1n, amountPaise: 14_900n, unresolved: 0n },
  ],
  coupons: [{ terminal: 'b1', couponType: 1, sales: 1n, coupons: 3n, amountPaise: 32_100n, unresolved: 0n }],
  margins: [{ terminal: 'a1', kind: 'recharge', earnedPaise: 796n, marginUnknown: 0n }],
  dues: [
    { terminal: 'a1', shop: 'Gupta Mobile', number: '9811111111', name: 'Ramesh', duePaise: 19_900n },
    { terminal: 'a2', shop: 'Gupta Mobile', number: '9811111111', name: null, duePaise: 5_000n },
    { terminal: 'b1', shop: 'Verma Telecom', number: '9811111111', name: 'Ramesh K', duePaise: 1_000n },
  ],
  breaks: [],
  closes: [{ terminal: 'a1', businessDay: '2026-11-27', closedAt: NOW, countedPaise: 100_000n, expectedCashPaise: 100_350n, cashDifferencePaise: -350n, closingPanBalancePaise: null, overrideNote: null }],
  forks: [],
}
const text = (rows: ReturnType<typeof officeTables>['tables'][number]['rows']) => rows.map((row) => row.map((cell) => (typeof cell === 'string' ? cell : cell.text)))
const tableOf = (id: string) => officeTables(view, context).tables.find((table) => table.id === id)!

describe('the office page tables', () => {
  it('totals each shop under its counters and all shops at the end', () => {
    expect(text(tableOf('sales').rows)).toEqual([
      ['Gupta Mobile · Counter 1', '2', '₹398.00', '0', '₹0.00', '₹7.96', '0'],
      ['Gupta Mobile · Counter 2', '1', '₹199.00', '0', '₹0.00', '₹0.00', '1'],
      ['Gupta Mobile: all counters', '3', '₹597.00', '0', '₹0.00', '₹7.96', '1'],
      ['Verma Telecom · Counter 1', '1', '₹149.00', '3', '₹321.00', '₹0.00', '0'],
      ['All shops', '4', '₹746.00', '3', '₹321.00', '₹7.96', '1'],
    ])
  })

  it("merges a customer's dues across a shop's counters, not across shops", () => {
    expect(text(tableOf('dues').rows)).toEqual([
      ['Ramesh', '9811111111', 'Gupta Mobile · Counter 1, Gupta Mobile · Counter 2', '₹249.00'],
      ['Ramesh K', '9811111111', 'Verma Telecom · Counter 1', '₹10.00'],
    ])
  })

  it('writes a table as CSV, figures as plain numbers, named by its days', () => {
    const closes = officeCsv(view, context, 'closes')!
    expect(closes.filename).toBe('counter-office-closes-2026-11-27_2026-11-28.csv')
    expect(closes.content.split('\r\n')[1]).toBe('Gupta Mobile · Counter 1,27-11-2026,28-11-2026 14:00,1000.00,1003.50,-3.50,—')
    expect(officeCsv(view, context, 'no-such-table')).toBeNull()
  })
})
