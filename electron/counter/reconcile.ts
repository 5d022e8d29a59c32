// PAN balance reconciliation: walks the balance facts as hledger/beancount walk balance assertions,
// reporting each break and the balance expected now; and the provider-wallet top-ups the operator enters, which explain rises.
import type { BalanceBreak, HandlersFor } from '../contract'
import type { BalanceFact } from '../ledger/books-reads'
import type { LedgerPort } from '../ledger/ledger-port'
import type { CounterContext } from './context'
import type { KnownBalance } from './coupon-checks'
import { idToNumber } from './order-ids'

type Since = BalanceBreak['since']

export interface BalanceChain {
  breaks: BalanceBreak[]
  /** The balance Counter expects after the last fact, and that fact's time; null when none said a balance. */
  end: KnownBalance | null
}

/**
 * The facts in journal order with a running expected balance. Each balance read and each coupon's
 * old balance asserts it; a coupon's new balance, a coupon's charge known without its balances, and a
 * top-up move it. A break re-anchors the chain
 * on what the provider said, so the next break is measured from there and not counted twice.
 * `start` is the balance expected before the first fact; without it the first fact sets it, and
 * top-ups before any known balance are left out (the first balance seen already includes them).
 */
export function balanceChain(facts: readonly BalanceFact[], start: KnownBalance | null = null): BalanceChain {
  const breaks: BalanceBreak[] = []
  const opened = (at: string | null): Since => ({ at, couponSales: 0, couponPaise: 0, topupPaise: 0 })
  let expected = start?.balancePaise ?? null
  let lastAt = start?.at ?? null
  let since = opened(lastAt)

  const assert = (fact: BalanceFact, ref: string | null, actualPaise: number) => {
    if (expected !== null && actualPaise !== expected) {
      const kind = fact.kind === 'coupon' ? 'coupon' : 'balance'
      breaks.push({ at: fact.at, kind, ref, expectedPaise: expected, actualPaise, differencePaise: actualPaise - expected, since })
    }
    expected = actualPaise
    since = opened(fact.at)
  }

  for (const fact of [...facts].sort((a, b) => a.seq - b.seq)) {
    if (fact.kind === 'balance') {
      assert(fact, null, fact.balancePaise)
    } else if (fact.kind === 'coupon') {
      assert(fact, fact.attemptId, fact.oldBalPaise)
      expected = fact.newBalPaise
      since.couponSales += 1
      since.couponPaise += fact.amountPaise
    } else if (fact.kind === 'charge') {
      if (expected !== null) expected -= fact.amountPaise
      since.couponSales += 1
      since.couponPaise += fact.amountPaise
    } else if (expected !== null) {
      expected += fact.amountPaise
      since.topupPaise += fact.amountPaise
    }
    lastAt = fact.at
  }
  return { breaks, end: expected === null ? null : { balancePaise: expected, at: lastAt! } }
}

/**
 * The one balance Counter expects now: where the day close's chain would end. Each reading
 * re-anchors the chain and each coupon answer is a reading, so only the top-ups entered after the
 * last one move it. The coupon quote, each coupon answer's check and the status bar use it.
 * Recharges are paid from the recharge provider's account, which reports no balance: they never move this one.
 */
export async function expectedPanBalance(ledger: LedgerPort): Promise<KnownBalance | null> {
  return balanceChain(await ledger.read('balanceFactsSinceReading')).end
}

export function balanceBreaks(facts: readonly BalanceFact[], start: KnownBalance | null = null): BalanceBreak[] {
  return balanceChain(facts, start).breaks
}

export interface BalanceAt {
  balancePaise: number | null
  at: string | null
}

/**
 * One day's PAN balances. Opening: what Counter expected when the day began (`start`), else the
 * first balance the day's facts show. Closing: what it expects after the day's last fact.
 */
export function dayBalances(dayFacts: readonly BalanceFact[], start: KnownBalance | null): { opening: BalanceAt; closing: BalanceAt; breaks: BalanceBreak[] } {
  const { breaks, end } = balanceChain(dayFacts, start)
  // Only a reading or a coupon answer says a balance; a top-up or a charge only moves one.
  const firstSeen = [...dayFacts].sort((a, b) => a.seq - b.seq).find((f): f is Extract<BalanceFact, { kind: 'balance' | 'coupon' }> => f.kind === 'balance' || f.kind === 'coupon')
  const opening = start ?? (firstSeen && { balancePaise: firstSeen.kind === 'coupon' ? firstSeen.oldBalPaise : firstSeen.balancePaise, at: firstSeen.at })
  const none = { balancePaise: null, at: null }
  return { opening: opening ?? none, closing: end ?? none, breaks }
}

/** 'YYYY-MM-DD' moved by whole calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

// Most days follow a day with balance facts: a month's look-back avoids walking years of history.
const LOOK_BACK_DAYS = 31

/** The balance Counter expected when `day` began, from the facts of the days before it. */
export async function chainStart(ledger: LedgerPort, day: string): Promise<KnownBalance | null> {
  const before = addDays(day, -1)
  const recent = await ledger.read('balanceFacts', addDays(day, -LOOK_BACK_DAYS), before)
  const facts = recent.some((f) => f.kind !== 'topup') ? recent : await ledger.read('balanceFacts', undefined, before)
  return balanceChain(facts).end
}

export function reconcileHandlers(ctx: CounterContext): HandlersFor<'reconcile.breaks' | 'topups.add' | 'topups.list'> {
  return {
    async 'reconcile.breaks'({ from, to }) {
      const { ledger } = ctx.session()
      return { breaks: balanceBreaks(await ledger.read('balanceFacts', from, to), from ? await chainStart(ledger, from) : null) }
    },

    async 'topups.add'({ amount: amountPaise, reference, note }) {
      const session = ctx.session()
      const now = ctx.now()
      const businessDay = ctx.businessDay(now)
      const topupId = await ctx.recordWrite(async () => {
        const line = { type: 'pan.topup', data: { amountPaise, reference, note: note ?? '', businessDay } } as const
        return session.ledger.write('numberedLine', line, idToNumber('topup', session.mode === 'training', now, ctx.settings.current.timezone))
      })
      session.simulator?.receiveTopUp(amountPaise)
      // The status bar's balance is the one expected, which counts the top-up from now on.
      ctx.emit('status.changed', await ctx.status())
      return (await session.ledger.read('topups', businessDay, businessDay)).find((t) => t.topupId === topupId)!
    },

    async 'topups.list'({ from, to }) {
      return { topups: await ctx.session().ledger.read('topups', from, to) }
    },
  }
}
