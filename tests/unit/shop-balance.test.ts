// The shop's balance chain across counters: linked by the provider's numbers, not by the counters' clocks.
import { describe, expect, it } from 'vitest'
import { linkShopBalance, LINK_WINDOW_MS, type ShopBalanceFact } from '../../electron/shared/shop-balance'

const base = Date.parse('2026-11-27T04:30:00Z')
const at = (seconds: number) => new Date(base + seconds * 1000).toISOString()
let seq = 0
const coupon = (terminal: string, seconds: number, oldBal: number, newBal: number): ShopBalanceFact => ({
  terminal,
  seq: ++seq,
  at: at(seconds),
  kind: 'coupon',
  seenPaise: oldBal,
  afterPaise: newBal,
  movePaise: 0,
  ref: `pan-${seq}`,
})
const reading = (terminal: string, seconds: number, balance: number): ShopBalanceFact => ({ terminal, seq: ++seq, at: at(seconds), kind: 'balance', seenPaise: balance, afterPaise: balance, movePaise: 0, ref: null })
const move = (terminal: string, seconds: number, kind: 'topup' | 'charge', paise: number): ShopBalanceFact => ({
  terminal,
  seq: ++seq,
  at: at(seconds),
  kind,
  seenPaise: null,
  afterPaise: null,
  movePaise: paise,
  ref: `${kind}-${seq}`,
})
const breaks = (facts: ShopBalanceFact[], start: number | null = null) => linkShopBalance(facts, start).filter((link) => link.breakPaise !== 0).map((link) => link.breakPaise)

describe('the shop balance chain', () => {
  it('links three counters selling in turn with one clock 90 s slow: no break', () => {
    // The provider's order: a (10 s), b (20 s), c (30 s), a (40 s), b (50 s)...; counter b's clock says 90 s less.
    const facts: ShopBalanceFact[] = []
    let balance = 500_000
    for (let turn = 0; turn < 30; turn++) {
      const terminal = ['a', 'b', 'c'][turn % 3]
      const charge = 10_700 + (turn % 4) * 1_000
      facts.push(coupon(terminal, turn * 10 - (terminal === 'b' ? 90 : 0), balance, balance - charge))
      balance -= charge
    }
    expect(breaks(facts)).toEqual([])
    // Ordered by the clocks alone, the slow counter's coupons break the chain: the test would catch a clock order.
    const byClock = [...facts].sort((x, y) => Date.parse(x.at) - Date.parse(y.at)).map((fact, index) => ({ ...fact, terminal: 'one', seq: index }))
    expect(breaks(byClock).length).toBeGreaterThan(5)
  })

  it('names a real outside debit once, with its size and sign, among concurrent counters', () => {
    const facts = [coupon('a', 0, 100_000, 89_300), coupon('b', 1, 89_300, 82_100), coupon('a', 5, 77_100, 66_400), coupon('b', 6, 66_400, 59_200)]
    expect(breaks(facts)).toEqual([-5_000])
  })

  it("charges a real outside debit to the counter that saw it first, not to a slow clock's next coupon", () => {
    // a reads ₹250 short; a sells; b (90 s slow: its coupon looks earliest) sells from what a's coupon left.
    const facts = [coupon('a', 0, 100_000, 89_300), reading('a', 10, 64_300), coupon('a', 20, 64_300, 53_600), coupon('b', 30 - 90, 53_600, 42_900)]
    const linked = linkShopBalance(facts).filter((link) => link.breakPaise !== 0)
    expect(linked.map((link) => [link.fact.terminal, link.fact.kind, link.breakPaise])).toEqual([['a', 'balance', -25_000]])
  })

  it('takes a top-up before the coupon that starts from it, and never lets one hide a drop before it', () => {
    expect(breaks([reading('a', 0, 5_000), move('b', 10, 'topup', 300_000), coupon('a', 5, 305_000, 294_300)])).toEqual([])
    // ₹50 taken outside, then a ₹3,000 top-up entered, then a coupon: the break is −₹50, not +₹2,950.
    expect(breaks([reading('a', 0, 5_000), move('a', 10, 'topup', 300_000), coupon('a', 20, 300_000, 289_300)])).toEqual([-5_000])
  })

  it('counts a charge settled by phone as the drop it was', () => {
    expect(breaks([coupon('a', 0, 100_000, 89_300), move('a', 10, 'charge', -10_700), coupon('b', 20, 78_600, 67_900)])).toEqual([])
  })

  it('keeps each counter in its own journal order, and never links a fact further than the window away', () => {
    // b's second coupon starts from 89,300 too, but b's first comes before it in b's journal: a break there, once.
    const facts = [coupon('a', 0, 100_000, 89_300), coupon('b', 10, 50_000, 40_000), coupon('b', 20, 89_300, 80_000)]
    const linked = linkShopBalance(facts)
    expect(linked.map((link) => link.fact.ref)).toEqual(facts.map((fact) => fact.ref))
    expect(linked.map((link) => link.breakPaise)).toEqual([0, 50_000 - 89_300, 89_300 - 40_000])
    // A fact whose balance fits but whose time is past the window waits its turn.
    const late = [coupon('a', 0, 100_000, 90_000), coupon('b', 60, 80_000, 70_000), coupon('c', LINK_WINDOW_MS / 1000 + 120, 90_000, 80_000)]
    expect(linkShopBalance(late).map((link) => link.fact.terminal)).toEqual(['a', 'b', 'c'])
  })

  it('starts from the balance given, and leaves top-ups before any known balance out', () => {
    expect(breaks([coupon('a', 0, 90_000, 80_000)], 100_000)).toEqual([-10_000])
    expect(breaks([move('a', 0, 'topup', 10_000), coupon('a', 10, 90_000, 80_000)])).toEqual([])
  })
})
