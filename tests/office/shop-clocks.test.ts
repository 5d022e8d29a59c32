// The office's PAN balance chain for a shop whose counters' clocks disagree: linked by the provider's balances, one real break, each clock's offset on the page.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Ledger } from '../../electron/ledger/ledger'
import { clockWords, officeDayPage } from '../../electron/office/office-page'
import { OfficeReader, officeToday } from '../../electron/office/office-view'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { couponAnswer, couponIntent } from '../integration/ledger-rig'
import { namedLedger, officeOf, query, ship } from './office-rig'

const ZONE = 'Asia/Kolkata'
const counters = [1, 2, 3].map((n) => ({ terminalId: `gupta-pan/counter-${n}`, shop: 'Gupta PAN Centre', counter: `Counter ${n}` }))
const SLOW_MS = 90_000

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
}, 60_000)
afterAll(() => db?.remove())

test("three counters, one 90 s slow, sell in turn from one account: the office shows the one real outside debit, and the slow counter's clock", async () => {
  const dirs = counters.map(() => tempDir('counter-office-'))
  const ledgers: Ledger[] = []
  try {
    // Counter 2's PC is 90 s slow; the others keep the office's time. Shipped as they write, as in a shop in touch.
    for (const [index, counter] of counters.entries()) {
      ledgers.push(await namedLedger(dirs[index].path, counter, () => new Date(Date.now() - (index === 1 ? SLOW_MS : 0))))
    }
    const shippers = counters.map((counter, index) => ship(dirs[index].path, counter, officeOf(db)))
    await eventually(async () => Number((await query<{ n: string }>(db, 'SELECT count(*) AS n FROM entries').catch(() => [{ n: '0' }]))[0].n) === 3, 'all three registered')
    const [c1, c2, c3] = ledgers
    const day = officeToday(new Date(), ZONE)
    let attempts = 0
    // A coupon sold as the provider answers it: the balance it found and the one it left.
    const coupon = (ledger: Ledger, oldBalPaise: number, qty: number) => {
      const attemptId = `PAN-${++attempts}`
      ledger.append('pan.coupon.intent', couponIntent(attemptId, { businessDay: day, training: false, qty }))
      ledger.append('pan.coupon.outcome', couponAnswer(attemptId, { amountPaise: 10_700 * qty, oldBalPaise, newBalPaise: oldBalPaise - 10_700 * qty }))
      return oldBalPaise - 10_700 * qty
    }
    // The provider's order of events, one account: each answer's old balance is the new balance before it.
    c1.append('pan.balance.read', { balancePaise: 10_000_00, source: 'balance', businessDay: day })
    let balance = coupon(c2, 10_000_00, 1)
    balance = coupon(c3, balance, 2)
    balance = coupon(c1, balance, 1)
    balance = coupon(c2, balance, 3)
    c1.append('pan.topup', { topupId: 'T1', amountPaise: 5_000_00, reference: 'UTR1', note: '', businessDay: day })
    balance = coupon(c3, balance + 5_000_00, 1)
    // Counter 2's next coupon times out without balances; the owner settles it SUCCESS by phone later, charged ₹107.
    c2.append('pan.coupon.intent', couponIntent('PAN-PHONE', { businessDay: day, training: false, qty: 1 }))
    c2.append('pan.coupon.outcome', couponAnswer('PAN-PHONE', { outcome: 'UNKNOWN', providerStatus: null, message: 'timed out', amountPaise: null, oldBalPaise: null, newBalPaise: null }))
    balance -= 10_700
    balance = coupon(c1, balance, 1)
    const expectedAtDebit = balance
    // ₹250 leaves the account outside any counter; counter 1 reads the balance first, then all three sell on.
    balance -= 250_00
    c1.append('pan.balance.read', { balancePaise: balance, source: 'balance', businessDay: day })
    balance = coupon(c1, balance, 1)
    balance = coupon(c2, balance, 1)
    balance = coupon(c3, balance, 1)
    c2.append('sale.settled', { kind: 'coupon', id: 'PAN-PHONE', outcome: 'SUCCESS', note: 'Confirmed by the helpline', chargedPaise: 10_700 })
    c3.append('pan.balance.read', { balancePaise: balance, source: 'balance', businessDay: day })
    await eventually(async () => {
      const rows = await query<{ n: string }>(db, 'SELECT count(*) AS n FROM entries')
      return Number(rows[0].n) === ledgers.reduce((sum, ledger) => sum + ledger.read('lastSeq'), 0)
    }, 'all shipped')
    await Promise.all(shippers.map((s) => s.link.stop()))

    const reader = new OfficeReader(officeOf(db))
    try {
      const view = await reader.day(day, ZONE)
      // Exactly one break: the ₹250 at counter 1's read, against what counter 1's last coupon left.
      expect(view.breaks.map((b) => ({ terminal: b.terminal, type: b.type, seen: b.seenPaise, expected: b.expectedPaise, break: b.breakPaise }))).toEqual([
        { terminal: counters[0].terminalId, type: 'balance read', seen: BigInt(expectedAtDebit - 250_00), expected: BigInt(expectedAtDebit), break: -250_00n },
      ])
      // Each clock bounded by its lines' arrival: counter 2 about 90 s behind the office (never less), the others in step.
      const offsets = new Map(view.terminals.map((t) => [t.terminal, t]))
      const slow = offsets.get(counters[1].terminalId)!
      expect(slow.clockOffsetMs).toBeLessThanOrEqual(-SLOW_MS)
      expect(slow.clockOffsetMs).toBeGreaterThan(-SLOW_MS - 2_000)
      expect(clockWords(slow)).toMatch(/^clock 1 min 3[01] s slow$/)
      expect([offsets.get(counters[0].terminalId)!, offsets.get(counters[2].terminalId)!].map(clockWords)).toEqual(['in step', 'in step'])
      const html = officeDayPage(view, { timeZone: ZONE, now: new Date(), address: { token: 'x'.repeat(32), day, to: null, refresh: false } })
      const terminals = html.slice(html.indexOf('<h2>Terminals'), html.indexOf('<h2>Sales'))
      expect(terminals).toContain(`<td class="n">${clockWords(slow)}</td>`)
      expect(terminals.match(/in step/g)).toHaveLength(2)
      const breaks = html.slice(html.indexOf('<h2>PAN balance breaks'), html.indexOf('<h2>Day closes'))
      expect(breaks.match(/<tr><td/g)).toHaveLength(1)
      expect(breaks).toContain('<td>balance read</td><td class="n">₹13,680.00</td><td class="n">₹13,930.00</td><td class="n">-₹250.00</td>')
    } finally {
      await reader.close()
    }
    // The same lines ordered by the counters' clocks (migration 3's view, which the page read before): false breaks.
    const byClock = await query<{ break_paise: string }>(db, 'SELECT break_paise FROM pan_balance_chain WHERE break_paise <> 0')
    expect(byClock.length).toBeGreaterThan(1)
  } finally {
    await Promise.all(ledgers.map((ledger) => ledger.close()))
    for (const dir of dirs) dir.remove()
  }
}, 60_000)
