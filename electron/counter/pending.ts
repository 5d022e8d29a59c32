// The pending queue: sales left without a final answer (a crash, a lost reply) are asked about by
// status checks on a backoff until the provider settles them, or the operator settles one by phone.
// It never sends a sale again: only check_status / coupon_status are ever called.
import type { CouponSale, HandlersFor, PendingItem, Sale } from '../contract'
import type { UnresolvedSale } from '../ledger/ledger'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import type { Session } from './session'
import { singleFlight } from './single-flight'
import { say } from '../shared/words'

export type UnresolvedEntry = UnresolvedSale

export interface StatusChecks {
  recharge(orderId: string): Promise<Sale>
  coupon(attemptId: string): Promise<CouponSale>
}

export interface PendingQueueOptions {
  /** Wait before each check of an item, by how many checks it has had; the last step repeats. */
  delaysMs?: number[]
  now?: () => number
}

export const DEFAULT_DELAYS_MS = [0, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000]

/**
 * A provider call gives up long before this (its whole-request limit is 30 s by default), so a sale
 * of this run still SENDING after it lost its outcome write and may be asked about.
 */
const STUCK_SENDING_MS = 10 * 60_000
/**
 * Decision: while sales change quicker than this (a script selling through the bridge, four at once), the
 * pending list is read and sent at most once per tenth of a second. Each read is a message to the ledger
 * thread and a walk of every open sale; sent at every change, it was two of a sale's four messages. A
 * change at a quiet moment is still sent at once, and a person cannot tell a list a tenth of a second late.
 */
const LIST_SPACING_MS = 100

// Journaled as the check's answer: said, as a sale's message is, and spoken in the screen's language where it is shown.
const CHECK_BROKE = say('pending.checkBroke')

/**
 * A second sale for a number (or agent) whose last one has no final answer could charge the customer
 * twice: it is refused until that one is settled by a status check or by phone.
 */
export function refuseWhileUnresolved(ctx: CounterContext, open: { kind: PendingItem['kind']; id: string }, whom: string, field: string): never {
  const why = say(ctx.answers.isHeld(open.kind, open.id) ? 'pending.mayHaveCharged' : 'pending.notKnownYet')
  throw new CounterError('invalid_input', say('pending.unresolved', { id: open.id, whom, why }), { [field]: say('pending.unresolvedField', { id: open.id, whom }) })
}

/** How long to wait before an item's next check, given the checks it has had so far. */
export function delayBeforeCheck(checksDone: number, delaysMs: readonly number[] = DEFAULT_DELAYS_MS): number {
  return delaysMs[Math.min(checksDone, delaysMs.length - 1)]
}

export function saleIdOf(entry: UnresolvedEntry): string {
  return 'attemptId' in entry.sale ? entry.sale.attemptId : entry.sale.orderId
}

/** The provider only answers coupon_status about an order it named; without one, only a phone call settles it. */
export function isCheckable(entry: UnresolvedEntry): boolean {
  return !('attemptId' in entry.sale) || entry.sale.orderId !== null
}

/** What a coupon order costs the shop's provider balance: the provider's amount once it named one, else the rate quoted x qty. */
const expectedCharge = (sale: CouponSale) => sale.amountPaise ?? sale.expectedRatePaise * sale.qty

export function pendingItemOf(entry: UnresolvedEntry, now: Date = new Date()): PendingItem {
  const { sale } = entry
  const checkable = isCheckable(entry)
  return {
    kind: entry.kind,
    id: saleIdOf(entry),
    label: 'attemptId' in sale ? (sale.vleName ? `${sale.vleName} (${sale.vleId})` : sale.vleId) : sale.number,
    amountPaise: sale.amountPaise,
    state: sale.state,
    lastAnswer: entry.lastAnswer || sale.message,
    createdAt: sale.createdAt,
    lastCheckedAt: entry.lastCheckedAt,
    // Never scheduled yet: the queue takes it up as soon as it sees it.
    nextCheckAt: checkable ? (entry.nextCheckAt ?? now.toISOString()) : null,
    checks: entry.checks,
    checkable,
    chargePaise: 'attemptId' in sale ? expectedCharge(sale) : null,
  }
}

export function createPendingQueue(ctx: CounterContext, check: StatusChecks, options: PendingQueueOptions = {}) {
  const delaysMs = options.delaysMs ?? DEFAULT_DELAYS_MS
  if (delaysMs.length === 0 || delaysMs.some((ms) => !(ms >= 0)) || delaysMs[delaysMs.length - 1] === 0) {
    throw new RangeError('delaysMs needs at least one step, none negative, and a last step above 0')
  }
  const clock = options.now ?? Date.now
  // Sales that turn unresolved while the app runs are noticed by looking at the ledger this often.
  const rescanMs = Math.min(...delaysMs.filter((ms) => ms > 0))
  // Anything SENDING from before this moment was interrupted by a crash, not sending now.
  const bornAt = clock()

  /** When each item is next due, by key; kept in memory too, so a check that cannot be journaled still backs off. */
  const dueAt = new Map<string, number>()
  let timer: NodeJS.Timeout | undefined
  let round: Promise<void> | null = null
  let checking: { key: string; done: Promise<void> } | null = null
  /**
   * Sales being settled by phone: a round that read the list before the settlement landed must not
   * then ask about one, or the provider's later answer would overwrite what the owner settled.
   */
  const settling = new Set<string>()
  let stopped = true

  const keyOf = (kind: PendingItem['kind'], id: string) => `${kind}:${id}`
  const entryKey = (entry: UnresolvedEntry) => keyOf(entry.kind, saleIdOf(entry))

  /** Asking about a sale whose own request is still on its way could race the provider's answer to it. */
  const sendingNow = (entry: UnresolvedEntry) => {
    if (entry.sale.state !== 'SENDING') return false
    const started = Date.parse(entry.sale.createdAt)
    return started > bornAt && clock() - started < STUCK_SENDING_MS
  }

  const items = async (session: Session): Promise<PendingItem[]> => {
    const unresolved = await ctx.answers.reads(session).unresolved()
    const now = new Date(clock())
    return unresolved.map((entry) => pendingItemOf(entry, now))
  }

  /** Looked at once the list is read: a mode switch meanwhile means these are not the books on screen. */
  const publish = async (session: Session) => {
    const list = await items(session)
    if (session === ctx.session()) ctx.emit('pending.changed', { items: list })
  }

  /** Sales that change together (four at once, each twice) are told in one list read after them, at most one read per LIST_SPACING_MS. */
  const publishSoon = singleFlight(() => publish(ctx.session()), LIST_SPACING_MS)

  const dueOf = (entry: UnresolvedEntry, now: number): number => {
    const key = entryKey(entry)
    if (!dueAt.has(key)) dueAt.set(key, now + delayBeforeCheck(0, delaysMs))
    return dueAt.get(key)!
  }

  async function checkOne(session: Session, entry: UnresolvedEntry): Promise<void> {
    const id = saleIdOf(entry)
    let answer: string
    let stillOpen = true
    try {
      const sale = entry.kind === 'recharge' ? await check.recharge(id) : await check.coupon(id)
      stillOpen = sale.state === 'SENDING' || sale.state === 'UNKNOWN'
      answer = sale.message
    } catch (error) {
      answer = error instanceof CounterError ? error.said : CHECK_BROKE
    }
    const next = clock() + delayBeforeCheck(entry.checks + 1, delaysMs)
    dueAt.set(entryKey(entry), next)
    if (stillOpen) {
      try {
        await ctx.recordWrite(() => session.ledger.append('pending.checked', { kind: entry.kind, id, answer, nextCheckAt: new Date(next).toISOString() }))
      } catch {
        // The ledger refused the bookkeeping line (full disk, read-only): the schedule above still holds in memory.
      }
    }
    await publish(session)
  }

  /** Checks every item that is due, one at a time, oldest first; returns how long to wait for the next. */
  async function runRound(): Promise<number> {
    try {
      const session = ctx.session()
      for (;;) {
        const now = clock()
        const open = (await session.ledger.read('unresolved')).filter((entry) => isCheckable(entry) && !sendingNow(entry) && !settling.has(entryKey(entry)))
        const due = stopped ? undefined : open.find((entry) => dueOf(entry, now) <= now)
        if (!due) {
          const keys = new Set(open.map(entryKey))
          for (const key of dueAt.keys()) if (!keys.has(key)) dueAt.delete(key)
          const soonest = Math.min(...open.map((entry) => dueOf(entry, now)))
          return Math.max(0, Math.min(soonest - now, rescanMs))
        }
        // Settling by phone waits on this; a check that broke still ends the wait (its schedule is already set).
        const done = checkOne(session, due).catch(() => undefined)
        checking = { key: entryKey(due), done }
        await done
        checking = null
      }
    } catch {
      // The ledger went away under the round (a closing session): look again later.
      checking = null
      return rescanMs
    }
  }

  const arm = (ms: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      round = runRound().then((wait) => {
        round = null
        if (!stopped) arm(wait)
      })
    }, ms)
    // A waiting check must never keep the process alive.
    timer.unref()
  }

  const handlers: HandlersFor<'pending.list' | 'pending.settle'> = {
    async 'pending.list'() {
      return { items: await items(ctx.session()) }
    },

    async 'pending.settle'({ kind, id, outcome, note, charged = null }) {
      const key = keyOf(kind, id)
      settling.add(key)
      const session = ctx.session()
      try {
        // The answer being fetched right now may settle it first; then there is nothing to settle by hand.
        if (checking?.key === key) await checking.done
        await ctx.recordWrite(async () => {
          const entry = (await session.ledger.read('unresolved')).find((candidate) => entryKey(candidate) === key)
          if (!entry) {
            throw new CounterError('invalid_input', say('pending.notPending', { id }), { id: say('pending.notPendingField') })
          }
          if (sendingNow(entry)) {
            throw new CounterError('invalid_input', say('pending.sendingNow', { id }), { id: say('pending.sendingNowField') })
          }
          // Decision: a coupon settled SUCCESS always carries a charge, so the balance chain counts the money the
          // provider took and the next reading is no break; blank means the charge expected (the quote's rate x qty).
          const chargesBalance = 'attemptId' in entry.sale && outcome === 'SUCCESS'
          if (charged !== null && !chargesBalance) throw new CounterError('invalid_input', say('settle.chargeOnlyCoupon'), { charged: say('settle.chargeOnlyCouponField') })
          const chargedPaise = 'attemptId' in entry.sale && chargesBalance ? (charged ?? expectedCharge(entry.sale)) : undefined
          await session.ledger.append('sale.settled', { kind, id, outcome, note, ...(chargedPaise === undefined ? {} : { chargedPaise }) })
        })
      } finally {
        settling.delete(key)
      }
      dueAt.delete(key)
      if (kind === 'recharge') await ctx.saleChanged(session, id)
      else ctx.emit('coupon.changed', (await ctx.answers.reads(session).couponSale(id))!)
      await publish(session)
      return { items: await items(session) }
    },
  }

  return {
    handlers,
    /** Tells the UI the list as it is now (a sale was just answered, or left without an answer). */
    publish(): void {
      // A list the books cannot give now (a closing session) is sent with the next change.
      publishSoon().catch(() => undefined)
    },
    async start(): Promise<void> {
      stopped = false
      dueAt.clear()
      // At start every open sale is asked about at once, whatever its schedule said before the restart.
      const open = await ctx.session().ledger.read('unresolved')
      const now = clock()
      for (const entry of open) dueAt.set(entryKey(entry), now)
      if (!round) arm(0)
    },
    async stop(): Promise<void> {
      stopped = true
      clearTimeout(timer)
      timer = undefined
      await round
    },
  }
}
