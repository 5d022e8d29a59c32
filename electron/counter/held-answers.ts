// Provider answers the journal could not take (a full disk right after the call, or a ledger that stopped before it answered): held in memory, overlaid on every read of a sale, and journaled as soon as the disk allows.
//
// The sale's intent is already on disk as SENDING, so a held sale stays unresolved in the books:
// a new sale for the same number or agent is refused meanwhile, and should the process die before
// the answer is written, the start-up status check settles the sale from that intent.
import type { CouponSale, Outcome, Sale } from '../contract'
import type { HistoryPage, HistoryQuery, UnresolvedSale } from '../ledger/ledger'
import { LedgerWriteError } from '../ledger/ledger-errors'
import type { Serial } from './serial'
import type { Session } from './session'
import { say } from '../shared/words'

/** What the shop is told while a sale's answer is held (the sale's message, said as the books keep it): it may be charged, so it must not be sold again. */
export const MAY_HAVE_CHARGED = say('pending.mayHaveCharged')

export interface HeldAnswer {
  /** The books the answer belongs in; a later mode switch does not move it into the other ledger. */
  session: Session
  kind: 'recharge' | 'coupon'
  /** A recharge's order id, a coupon sale's attempt id. */
  id: string
  /** What the provider said, as the books show it once written. */
  outcome: Outcome
  message: string
  /** Appends the answer to the session's ledger; rejects with LedgerWriteError while the disk refuses it. */
  write(): Promise<void>
  /** Tells the screens, once the answer is written. */
  announce(): Promise<unknown>
}

/**
 * The sales of one session's books as the shop must treat them. Every read of a sale for a screen, a
 * receipt or an event goes through here, so none shows SENDING while its answer waits for the disk.
 */
export interface SaleReads {
  sale(orderId: string): Promise<Sale | null>
  /** A recharge the books answered with otherwise (a sale's write answers with it), as the shop must treat it. */
  shown(sale: Sale): Sale
  /** The same for a coupon sale. */
  shownCoupon(sale: CouponSale): CouponSale
  couponSale(attemptId: string): Promise<CouponSale | null>
  salesForDay(businessDay: string): Promise<Sale[]>
  couponSales(): Promise<CouponSale[]>
  unresolved(): Promise<UnresolvedSale[]>
  /**
   * A history row carries no message, so a held sale shows only as UNKNOWN there. The state filter
   * still matches what the books hold: while held, the sale is found under SENDING (shown UNKNOWN).
   */
  historySearch(query: HistoryQuery): Promise<HistoryPage>
}

export class HeldAnswers {
  private readonly held: HeldAnswer[] = []
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly retryMs: number,
    private readonly currentSession: () => Session,
    /** The core's write sections: an answer's checks and append run as one, like every other write. */
    private readonly serial: Serial,
  ) {}

  /** Journals the answer now, or holds it when the disk refuses; false when held. Other errors are the caller's. */
  async record(answer: HeldAnswer): Promise<boolean> {
    await this.flush()
    return this.serial(async () => {
      try {
        await answer.write()
        return true
      } catch (error) {
        if (!(error instanceof LedgerWriteError)) throw error
        this.held.push(answer)
        this.arm()
        return false
      }
    })
  }

  isHeld(kind: HeldAnswer['kind'], id: string, session: Session = this.currentSession()): boolean {
    return this.held.some((answer) => answer.session === session && answer.kind === kind && answer.id === id)
  }

  /** The session's sales, each as the books show it or, while its answer is held, as the shop must treat it. */
  reads(session: Session): SaleReads {
    const { ledger } = session
    // Looked at once the read is answered: an answer written meanwhile is in what the books returned.
    const overlay = <T extends { state: Outcome | 'SENDING'; message: string }>(kind: HeldAnswer['kind'], id: string, sale: T): T =>
      this.isHeld(kind, id, session) ? { ...sale, state: 'UNKNOWN', message: MAY_HAVE_CHARGED } : sale
    const recharge = (sale: Sale) => overlay('recharge', sale.orderId, sale)
    const coupon = (sale: CouponSale) => overlay('coupon', sale.attemptId, sale)
    return {
      sale: async (orderId) => {
        const sale = await ledger.read('getSale', orderId)
        return sale && recharge(sale)
      },
      shown: recharge,
      shownCoupon: coupon,
      couponSale: async (attemptId) => {
        const sale = await ledger.read('couponSale', attemptId)
        return sale && coupon(sale)
      },
      salesForDay: async (businessDay) => (await ledger.read('salesForDay', businessDay)).map(recharge),
      couponSales: async () => (await ledger.read('couponSales')).map(coupon),
      unresolved: async () =>
        (await ledger.read('unresolved')).map((entry) => ({ ...entry, sale: 'attemptId' in entry.sale ? coupon(entry.sale) : recharge(entry.sale) })),
      historySearch: async (query) => {
        const page = await ledger.read('historySearch', query)
        return { ...page, rows: page.rows.map((row) => (this.isHeld(row.kind, row.id, session) ? { ...row, state: 'UNKNOWN' as const } : row)) }
      },
    }
  }

  /** Journals what is held, oldest first, stopping at the first answer the disk still refuses; then tells the screens. */
  async flush(): Promise<void> {
    const written = await this.serial(() => this.journalHeld())
    for (const answer of written) await answer.announce()
  }

  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private async journalHeld(): Promise<HeldAnswer[]> {
    const written: HeldAnswer[] = []
    while (this.held.length > 0) {
      const answer = this.held[0]
      // Those books were closed by a mode switch: the intent there stays SENDING and that mode's start-up check settles it.
      if (answer.session !== this.currentSession()) {
        this.held.shift()
        continue
      }
      try {
        if (!(await this.inBooks(answer))) await answer.write()
      } catch (error) {
        if (error instanceof LedgerWriteError) {
          this.arm()
          return written
        }
        // The ledger refuses the line itself, so no retry can write it: the pending checks settle the sale instead.
      }
      this.held.shift()
      written.push(answer)
    }
    this.stop()
    return written
  }

  /**
   * A write the ledger stopped before answering may have reached the journal after all: the retry is
   * then done, not a second line. So is one for a sale the books show settled: settled by this answer,
   * or by a later one (a status check, a call to the provider), which is newer news than the one held.
   */
  private async inBooks(answer: HeldAnswer): Promise<boolean> {
    const { ledger } = answer.session
    const sale = answer.kind === 'recharge' ? await ledger.read('getSale', answer.id) : await ledger.read('couponSale', answer.id)
    if (sale === null) return false
    return sale.state === 'SUCCESS' || sale.state === 'FAILED' || (sale.state === answer.outcome && sale.message === answer.message)
  }

  private arm(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      // A screen that could not be told now reads the journaled answer at its next refresh.
      this.flush().catch(() => undefined)
    }, this.retryMs)
    // A held answer must not keep the process alive: its intent is on disk for the next start.
    this.timer.unref()
  }
}
