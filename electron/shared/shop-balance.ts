// The shop's one PAN balance across its counters: every counter's balance facts linked in the order the provider's own numbers give.
//
// Decision (issue #31): the counters of one shop share one provider account, so a coupon sold at one counter moves
// the balance the next coupon at another counter starts from. Their clocks cannot order those facts (a PC 90 s slow
// turned every other coupon into a false break), but the provider's numbers can: each answer's old balance is the
// balance left by the fact before it. So the chain takes next, among each counter's next fact (a counter's own facts
// keep their journal order), the one that starts from the balance the chain holds; clocks only choose between facts
// the balances cannot tell apart, and only facts within LINK_WINDOW_MS of the earliest waiting one are candidates, so
// a coincidentally equal balance hours later is never pulled forward. What no fact explains is a break.

export interface ShopBalanceFact {
  /** The counter that wrote it (its terminal id), and its place in that counter's journal. */
  terminal: string
  seq: number
  /** When, by that counter's clock. */
  at: string
  kind: 'coupon' | 'balance' | 'topup' | 'charge'
  /** The balance the provider said stood before it: a coupon answer's old balance, a reading. Null for a move. */
  seenPaise: number | null
  /** The balance after it: a coupon answer's new balance, a reading. Null for a move. */
  afterPaise: number | null
  /** A move's effect: a top-up +, a coupon charge known without its balances (settled by phone) −. 0 for the rest. */
  movePaise: number
  /** The coupon attempt, the top-up; null for a reading. */
  ref: string | null
}

export interface ShopLink {
  fact: ShopBalanceFact
  /** The balance the chain held just before this fact; null before the first balance known. */
  expectedPaise: number | null
  /** What the provider said less what the chain held: 0 where it holds, and for every move. */
  breakPaise: number
  /** The fact the chain's balance came from (a move's, or the last that said a balance); null at the start. */
  previous: ShopBalanceFact | null
}

/** How far apart two counters' clocks may be and their facts still be weighed against each other: a quarter of an hour. */
export const LINK_WINDOW_MS = 15 * 60_000

const says = (fact: ShopBalanceFact): fact is ShopBalanceFact & { seenPaise: number; afterPaise: number } => fact.seenPaise !== null && fact.afterPaise !== null

/** The shop's facts in the provider's order, each with the balance expected before it. `startPaise`: the balance before the first. */
export function linkShopBalance(facts: readonly ShopBalanceFact[], startPaise: number | null = null): ShopLink[] {
  const queues = new Map<string, ShopBalanceFact[]>()
  for (const fact of [...facts].sort((a, b) => a.seq - b.seq)) {
    const queue = queues.get(fact.terminal) ?? []
    queue.push(fact)
    queues.set(fact.terminal, queue)
  }
  const time = (fact: ShopBalanceFact) => Date.parse(fact.at)
  const byTime = (a: ShopBalanceFact, b: ShopBalanceFact) => time(a) - time(b) || a.terminal.localeCompare(b.terminal) || a.seq - b.seq
  const links: ShopLink[] = []
  let expected = startPaise
  let previous: ShopBalanceFact | null = null

  const choose = (heads: ShopBalanceFact[]): ShopBalanceFact => {
    const earliest = heads[0]
    const near = heads.filter((fact) => time(fact) - time(earliest) <= LINK_WINDOW_MS)
    // A fact that starts where another counter's waiting fact ends follows that fact, however early its clock says it is.
    const waiting = () => [...queues.values()].flat().filter((fact) => time(fact) - time(earliest) <= LINK_WINDOW_MS)
    const unexplained = (pending: ShopBalanceFact[]) => (fact: ShopBalanceFact) =>
      !says(fact) || !pending.some((other) => other.terminal !== fact.terminal && says(other) && other.afterPaise === fact.seenPaise)
    // The first balance: a fact no waiting fact leads into (a slow clock's coupon may look earliest and still follow another).
    if (expected === null) return near.find(unexplained(waiting())) ?? earliest
    const startsHere = near.find((fact) => says(fact) && fact.seenPaise === expected)
    if (startsHere) return startsHere
    // A move first only when a waiting fact starts from where it leads: a top-up is not let hide a drop before it.
    const held = expected
    const leadsOn = near.find((move) => !says(move) && near.some((fact) => says(fact) && fact.seenPaise === held + move.movePaise))
    if (leadsOn) return leadsOn
    // A break, and it is the earliest unexplained fact's: a slow clock's coupon taken first here would split one
    // outside debit into two breaks of the wrong sizes, the first at the wrong counter.
    return near.find(unexplained(waiting())) ?? earliest
  }

  for (;;) {
    const heads = [...queues.values()].filter((queue) => queue.length > 0).map((queue) => queue[0])
    if (heads.length === 0) return links
    const fact = choose(heads.sort(byTime))
    const queue = queues.get(fact.terminal)!
    queue.shift()
    if (says(fact)) {
      links.push({ fact, expectedPaise: expected, breakPaise: expected === null ? 0 : fact.seenPaise - expected, previous })
      expected = fact.afterPaise
      // A counter notes a coupon answer's new balance as a reading too: the same moment, never a fact apart.
      while (fact.kind === 'coupon' && queue[0]?.kind === 'balance' && queue[0].seenPaise === fact.afterPaise) {
        links.push({ fact: queue.shift()!, expectedPaise: expected, breakPaise: 0, previous: fact })
      }
    } else {
      links.push({ fact, expectedPaise: expected, breakPaise: 0, previous })
      if (expected !== null) expected += fact.movePaise
    }
    previous = fact
  }
}
