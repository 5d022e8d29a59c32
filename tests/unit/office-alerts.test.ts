// The office page's alerts (electron/office/office-alerts.ts) from a day's figures: a counter silent past two hours in
// shop hours (and not at night), an open fork (not a resolved one), a closed day's drawer difference and its unresolved
// sales, a balance break; nothing for a quiet, well-kept day.
import { describe, expect, it } from 'vitest'
import { officeAlerts } from '../../electron/office/office-alerts'
import type { OfficeDay, TerminalRow } from '../../electron/office/office-view'

const TZ = 'Asia/Kolkata'
/** 14:00 in India. */
const AFTERNOON = new Date('2026-11-28T08:30:00Z')
const terminal = (id: string, lastContact: Date | null): TerminalRow => ({ terminal: id, shop: 'Gupta Mobile', counter: id, lastContact, lastSeq: 10n, journalEnd: 10n, backlog: 0n, clockOffsetMs: 0 })
const day = (parts: Partial<OfficeDay>): OfficeDay => ({ day: '2026-11-28', to: '2026-11-28', terminals: [], recharges: [], coupons: [], margins: [], dues: [], breaks: [], closes: [], forks: [], ...parts })
const alertsAt = (view: OfficeDay, now = AFTERNOON) => officeAlerts(view, { now, timeZone: TZ, nameOf: (id) => `Counter ${id}` }).map(({ kind, words }) => `${kind}: ${words}`)
const HOUR = 3_600_000

describe('the office page alerts', () => {
  it('says nothing of a day with every counter heard from, closed even, no break and no fork', () => {
    const view = day({
      terminals: [terminal('1', new Date(AFTERNOON.getTime() - 60_000))],
      closes: [{ terminal: '1', businessDay: '2026-11-28', closedAt: AFTERNOON, countedPaise: 100_000n, expectedCashPaise: 100_000n, cashDifferencePaise: 0n, closingPanBalancePaise: null, overrideNote: null }],
      forks: [{ terminal: '1', shop: null, counter: null, lastSeq: 9n, partSeq: 5n, officeHash: 'a', claimantHash: 'b', claimantShop: null, claimantCounter: null, claimantJournalEnd: 7n, firstSeen: AFTERNOON, lastSeen: AFTERNOON, resolvedAs: '1-abc', resolvedAt: AFTERNOON }],
    })
    expect(alertsAt(view)).toEqual([])
  })

  it('names a counter silent past two hours in shop hours, not one silent overnight, nor one never heard from', () => {
    const view = day({ terminals: [terminal('1', new Date(AFTERNOON.getTime() - 2 * HOUR - 5 * 60_000)), terminal('2', new Date(AFTERNOON.getTime() - HOUR)), terminal('3', null)] })
    expect(alertsAt(view)).toEqual(['silent: Counter 1: not heard from for 2 h 5 min'])
    // 23:30 in India: the shop is shut, silence is no news.
    expect(alertsAt(view, new Date('2026-11-28T18:00:00Z'))).toEqual([])
  })

  it('raises an open fork, a break, a drawer out at close and the sales a closed day left unresolved', () => {
    const view = day({
      terminals: [terminal('1', AFTERNOON), terminal('2', AFTERNOON)],
      forks: [{ terminal: '2', shop: null, counter: null, lastSeq: 9n, partSeq: 5n, officeHash: 'a', claimantHash: 'b', claimantShop: null, claimantCounter: null, claimantJournalEnd: 7n, firstSeen: AFTERNOON, lastSeen: AFTERNOON, resolvedAs: null, resolvedAt: null }],
      breaks: [{ shop: 'Gupta Mobile', terminal: '1', at: AFTERNOON, type: 'balance read', seenPaise: 4_950_00n, expectedPaise: 5_000_00n, breakPaise: -50_00n, ref: null }],
      closes: [{ terminal: '1', businessDay: '2026-11-28', closedAt: AFTERNOON, countedPaise: 97_000n, expectedCashPaise: 100_000n, cashDifferencePaise: -3_000n, closingPanBalancePaise: null, overrideNote: 'two pending' }],
      recharges: [{ terminal: '1', operator: 'Airtel', sales: 4n, amountPaise: 79_600n, unresolved: 1n }, { terminal: '2', operator: 'Jio', sales: 1n, amountPaise: 19_900n, unresolved: 3n }],
      coupons: [{ terminal: '1', couponType: 1, sales: 1n, coupons: 2n, amountPaise: 21_400n, unresolved: 1n }],
    })
    expect(alertsAt(view)).toEqual([
      'fork: Counter 2: another counter claims its terminal id, and its lines from entry #5 are refused (see Forks)',
      "break: Counter 1: the PAN balance moved by -₹50.00 that no counter's sale or top-up explains (see PAN balance breaks)",
      'drawer: Counter 1: 28-11-2026 was closed with the drawer ₹30.00 short',
      'unresolved: Counter 1: 28-11-2026 is closed with 2 sales still unresolved: settle them with the provider',
    ])
  })
})
