// The office's PAN balance chain: a balance movement one counter cannot explain is explained by another counter's coupon.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { couponAnswer, couponIntent } from '../integration/ledger-rig'
import { namedLedger, officeOf, query, ship } from './office-rig'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

test("an outside debit at counter 1 is counter 2's coupon in the office's balance chain", async () => {
  const [dir1, dir2] = [tempDir('counter-office-'), tempDir('counter-office-')]
  try {
    let clock = Date.parse('2025-03-14T04:30:00Z')
    const at = (minutes: number) => (clock = Date.parse('2025-03-14T04:30:00Z') + minutes * 60_000)
    const now = () => new Date(clock)
    const one = { terminalId: 'sharma-mobile/counter-1', shop: 'Sharma Mobile', counter: 'Counter 1' }
    const two = { terminalId: 'sharma-mobile/counter-2', shop: 'Sharma Mobile', counter: 'Counter 2' }
    const [counter1, counter2] = [await namedLedger(dir1.path, one, now), await namedLedger(dir2.path, two, now)]
    at(1)
    counter1.append('pan.balance.read', { balancePaise: 5_000_00, source: 'balance', businessDay: '2025-03-14' })
    // Counter 2 sells 3 P-Coupons at ₹107 from the same account.
    at(2)
    counter2.append('pan.coupon.intent', couponIntent('C2-1', { training: false }))
    at(3)
    counter2.append('pan.coupon.outcome', couponAnswer('C2-1', { oldBalPaise: 5_000_00, newBalPaise: 4_679_00 }))
    // A top-up seen by counter 1, then counter 1 reads the balance: ₹321 less than it alone expects.
    at(4)
    counter1.append('pan.topup', { topupId: 'T1', amountPaise: 1_000_00, reference: 'UTR1', note: '', businessDay: '2025-03-14' })
    at(5)
    counter1.append('pan.balance.read', { balancePaise: 5_679_00, source: 'balance', businessDay: '2025-03-14' })
    const shippers = [ship(dir1.path, one, officeOf(db)), ship(dir2.path, two, officeOf(db))]
    await eventually(async () => {
      const rows = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM entries').catch(() => [{ n: '0' }])
      return Number(rows[0].n) === counter1.read('lastSeq') + counter2.read('lastSeq')
    }, 'both shipped')
    await Promise.all(shippers.map((s) => s.link.stop()))
    const chain = await query(db, 'SELECT terminal, type, seen_paise, expected_paise, break_paise, local_expected_paise, local_break_paise, previous_terminal FROM pan_balance_chain ORDER BY at')
    expect(chain).toEqual([
      { terminal: one.terminalId, type: 'pan.balance.read', seen_paise: '500000', expected_paise: null, break_paise: null, local_expected_paise: null, local_break_paise: null, previous_terminal: null },
      // Counter 2 alone has never read the balance: its coupon follows counter 1's read in the shop's chain.
      { terminal: two.terminalId, type: 'pan.coupon.outcome', seen_paise: '500000', expected_paise: '500000', break_paise: '0', local_expected_paise: null, local_break_paise: null, previous_terminal: one.terminalId },
      { terminal: one.terminalId, type: 'pan.topup', seen_paise: null, expected_paise: '567900', break_paise: null, local_expected_paise: '600000', local_break_paise: null, previous_terminal: two.terminalId },
      // Counter 1 alone: ₹5,000 + ₹1,000 expected, ₹5,679 seen, ₹321 out. The shop's chain: counter 2's coupon, no break.
      { terminal: one.terminalId, type: 'pan.balance.read', seen_paise: '567900', expected_paise: '567900', break_paise: '0', local_expected_paise: '600000', local_break_paise: '-32100', previous_terminal: two.terminalId },
    ])
    await Promise.all([counter1.close(), counter2.close()])
  } finally {
    dir1.remove()
    dir2.remove()
  }
})
