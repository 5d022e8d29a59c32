// The day close's view of the shop's one PAN balance: this counter's balance facts beside the other counters', as the head office holds them.
//
// Decision (issue #31): the counters of a shop share one provider account, so each counter alone sees the others'
// coupons as drops "outside Counter". With a head office set up, the day close asks it for every counter's facts and
// links them by the provider's own numbers (shared/shop-balance.ts): a break is then what no counter explains, and
// the others' sales that moved the balance are listed by counter. When the office cannot be asked, or another
// counter's lines have not reached it, a break may still be that counter's: shown apart, never as a plain break.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BalanceBreak, DaySummary } from '../contract'
import type { BalanceFact } from '../ledger/books-reads'
import { readShopAtOffice, type ShopAtOffice } from '../office/shop-facts'
import { unreachableWords, type OfficeAddress } from '../office/shipper'
import { say, type Said } from '../shared/words'
import { linkShopBalance, LINK_WINDOW_MS, type ShopBalanceFact, type ShopLink } from '../shared/shop-balance'
import type { KnownBalance } from './coupon-checks'
import { readHintFile } from './hint-files'

type ShopJudgement = DaySummary['shop']

/** How long the day close waits for the office: it must never hold a close up for long. */
export const OFFICE_ASK_MS = 4_000

/** What the day close needs of the office: its address and this counter's name there; null with no office set up. */
export interface OfficeAsk {
  office: OfficeAddress
  terminalId: string
}

function asShopFact(terminal: string, fact: BalanceFact): ShopBalanceFact {
  const common = { terminal, seq: fact.seq, at: fact.at }
  if (fact.kind === 'balance') return { ...common, kind: 'balance', seenPaise: fact.balancePaise, afterPaise: fact.balancePaise, movePaise: 0, ref: null }
  if (fact.kind === 'coupon') return { ...common, kind: 'coupon', seenPaise: fact.oldBalPaise, afterPaise: fact.newBalPaise, movePaise: 0, ref: fact.attemptId }
  if (fact.kind === 'charge') return { ...common, kind: 'charge', seenPaise: null, afterPaise: null, movePaise: -fact.amountPaise, ref: fact.attemptId }
  return { ...common, kind: 'topup', seenPaise: null, afterPaise: null, movePaise: fact.amountPaise, ref: fact.topupId }
}

/** What a coupon fact took from the balance: its answer's drop, or the charge it carries. */
const chargeOf = (fact: ShopBalanceFact) => (fact.kind === 'coupon' ? fact.seenPaise! - fact.afterPaise! : -fact.movePaise)

/** The links' breaks as the day close shows them, each with what lay between it and the last fact that said a balance. */
function breaksOf(links: readonly ShopLink[]): BalanceBreak[] {
  const breaks: BalanceBreak[] = []
  let since: BalanceBreak['since'] = { at: null, couponSales: 0, couponPaise: 0, topupPaise: 0 }
  for (const { fact, expectedPaise, breakPaise } of links) {
    if (fact.seenPaise !== null && expectedPaise !== null && breakPaise !== 0) {
      const kind = fact.kind === 'coupon' ? 'coupon' : 'balance'
      breaks.push({ at: fact.at, kind, ref: fact.ref, expectedPaise, actualPaise: fact.seenPaise, differencePaise: breakPaise, since })
    }
    if (fact.seenPaise !== null) since = { at: fact.at, couponSales: 0, couponPaise: 0, topupPaise: 0 }
    if (fact.kind === 'coupon' || fact.kind === 'charge') {
      since = { ...since, couponSales: since.couponSales + 1, couponPaise: since.couponPaise + chargeOf(fact) }
    }
    if (fact.kind === 'topup') since = { ...since, topupPaise: since.topupPaise + fact.movePaise }
  }
  return breaks
}

/** Each other counter's coupons and top-ups among the facts, by its name. */
function countersOf(facts: readonly ShopBalanceFact[], shop: ShopAtOffice): ShopJudgement['counters'] {
  return shop.siblings
    .map((sibling) => {
      const own = facts.filter((fact) => fact.terminal === sibling.terminal)
      const coupons = own.filter((fact) => fact.kind === 'coupon' || fact.kind === 'charge')
      return {
        counter: sibling.counter ?? sibling.terminal,
        couponSales: coupons.length,
        couponPaise: coupons.reduce((sum, fact) => sum + chargeOf(fact), 0),
        topupPaise: own.filter((fact) => fact.kind === 'topup').reduce((sum, fact) => sum + fact.movePaise, 0),
      }
    })
    .filter((counter) => counter.couponSales > 0 || counter.topupPaise !== 0)
}

/**
 * What the office said for a day close: the shop as it holds it, or why it could not be asked (and whether, when it
 * last answered, this counter was the shop's only one); null with no office.
 */
export type OfficeAnswer = { ask: OfficeAsk; shop: ShopAtOffice } | { ask: OfficeAsk; unreachable: Said; aloneWhenLastAsked: boolean } | null

/**
 * How many other counters the shop had when the office last answered, under which id. Decision: a shop with one
 * counter and a head office would otherwise see every real drop as "may be another counter's" whenever the office is
 * away; it had no other counter at the last answer, so its breaks are its own, as they are without an office. A
 * counter added since, while the office stayed away, would show its first coupons as breaks until the office
 * answers again: the rarer mistake, and the one that rings rather than hides. A hint, written without fsync.
 */
const SHOP_NOTE_FILE = 'office-shop.json'

interface ShopNote {
  terminalId: string
  siblings: number
}

const readShopNote = (dataDir: string) =>
  readHintFile<ShopNote>(join(dataDir, SHOP_NOTE_FILE), (read) => typeof read.terminalId === 'string' && Number.isSafeInteger(read.siblings))

/**
 * One visit to the office for `dayFacts` (this counter's facts of the day) and `start` (the balance expected before
 * them). Decision: apart from the judging, so a day close asks once, before its closing section: a slow office
 * must never hold that section, and the sales waiting on it, for its timeout.
 */
export async function askOffice(ask: OfficeAsk | null, dayFacts: readonly BalanceFact[], start: KnownBalance | null, dataDir: string): Promise<OfficeAnswer> {
  if (!ask || dayFacts.length === 0) return null
  const times = dayFacts.map((fact) => Date.parse(fact.at))
  // From the last fact before the day (where the chain starts), so a sale another counter made since is in it.
  const from = new Date(Math.min(start ? Date.parse(start.at) : Infinity, ...times) - LINK_WINDOW_MS)
  // A quarter of an hour on: a sale booked since the visit (the close's own section reads the day again) is in it.
  const to = new Date(Math.max(...times) + LINK_WINDOW_MS)
  let shop: ShopAtOffice
  try {
    shop = await readShopAtOffice(ask.office, ask.terminalId, from, to, OFFICE_ASK_MS)
  } catch (error) {
    const note = readShopNote(dataDir)
    const aloneWhenLastAsked = note?.terminalId === ask.terminalId && note.siblings === 0
    return { ask, unreachable: say('shop.officeUnreachable', { reason: unreachableWords(error, ask.office) }), aloneWhenLastAsked }
  }
  const note: ShopNote = { terminalId: ask.terminalId, siblings: shop.siblings.length }
  const was = readShopNote(dataDir)
  if (was?.terminalId !== note.terminalId || was.siblings !== note.siblings) await writeFile(join(dataDir, SHOP_NOTE_FILE), JSON.stringify(note)).catch(() => undefined)
  return { ask, shop }
}

/**
 * The day's breaks judged for the whole shop. `ownBreaks`: this counter's own chain's (what it says alone);
 * `dayFacts` and `start`: its facts of the day and the balance it expected before them; `answer`: the office's.
 */
export function judgeShopBalance(
  ownBreaks: BalanceBreak[],
  dayFacts: readonly BalanceFact[],
  start: KnownBalance | null,
  answer: OfficeAnswer,
): { breaks: BalanceBreak[]; shop: ShopJudgement } {
  const alone = { breaks: ownBreaks, shop: { judged: 'counter' as const, reason: null, counters: [], maybeOthers: [] } }
  if (!answer || dayFacts.length === 0) return alone
  if ('unreachable' in answer) {
    return answer.aloneWhenLastAsked ? alone : { breaks: [], shop: { judged: 'unsure', reason: answer.unreachable, counters: [], maybeOthers: ownBreaks } }
  }
  const { ask, shop } = answer
  if (shop.shop === null || shop.siblings.length === 0) return alone
  // This counter's own facts from its own books (the office may not have them all yet); the others' from the office.
  const facts = [...dayFacts.map((fact) => asShopFact(ask.terminalId, fact)), ...shop.facts.filter((fact) => fact.terminal !== ask.terminalId)]
  const links = linkShopBalance(facts, start?.balancePaise ?? null)
  const counters = countersOf(facts, shop)
  const behind = shop.siblings.find((sibling) => sibling.backlog === null || sibling.backlog > 0)
  const breaks = breaksOf(links)
  if (behind && breaks.length > 0) {
    const counter = behind.counter ?? behind.terminal
    const reason = behind.backlog === null ? say('shop.counterUnknownBehind', { counter }) : say('shop.counterBehind', { counter, entries: behind.backlog })
    return { breaks: [], shop: { judged: 'unsure', reason, counters, maybeOthers: breaks } }
  }
  return { breaks, shop: { judged: 'shop', reason: null, counters, maybeOthers: [] } }
}
