// Provider answers the journal could not take (a full disk right after the call): held in memory and journaled as soon as the disk allows.
//
// The sale's intent is already on disk as SENDING, so a held sale stays unresolved in the books:
// a new sale for the same number or agent is refused meanwhile, and should the process die before
// the answer is written, the start-up status check settles the sale from that intent.
import type { Outcome } from '../contract'
import { LedgerWriteError } from '../ledger/ledger'
import type { Session } from './session'

/** What the shop is told while a sale's answer is held: it may be charged, so it must not be sold again. */
export const MAY_HAVE_CHARGED =
  'The provider may have charged this sale; do not sell it again. Counter will record the answer and check it as soon as the disk allows.'

export interface HeldAnswer {
  /** The books the answer belongs in; a later mode switch does not move it into the other ledger. */
  session: Session
  kind: 'recharge' | 'coupon'
  /** A recharge's order id, a coupon sale's attempt id. */
  id: string
  /** Appends the answer to the session's ledger; throws LedgerWriteError while the disk refuses it. */
  write(): void
  /** Tells the screens, once the answer is written. */
  announce(): void
}

export class HeldAnswers {
  private readonly held: HeldAnswer[] = []
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly retryMs: number,
    private readonly currentSession: () => Session,
  ) {}

  /** Journals the answer now, or holds it when the disk refuses; false when held. Other errors are the caller's. */
  record(answer: HeldAnswer): boolean {
    this.flush()
    try {
      answer.write()
      return true
    } catch (error) {
      if (!(error instanceof LedgerWriteError)) throw error
      this.held.push(answer)
      this.arm()
      return false
    }
  }

  isHeld(kind: HeldAnswer['kind'], id: string): boolean {
    return this.held.some((answer) => answer.kind === kind && answer.id === id)
  }

  /** A sale as the books show it, or, while its answer is held, as the shop must treat it. */
  overlay<T extends { state: Outcome | 'SENDING'; message: string }>(kind: HeldAnswer['kind'], id: string, sale: T): T {
    return this.isHeld(kind, id) ? { ...sale, state: 'UNKNOWN', message: MAY_HAVE_CHARGED } : sale
  }

  /** Journals what is held, oldest first, stopping at the first answer the disk still refuses. */
  flush(): void {
    while (this.held.length > 0) {
      const answer = this.held[0]
      // Those books were closed by a mode switch: the intent there stays SENDING and that mode's start-up check settles it.
      if (answer.session !== this.currentSession()) {
        this.held.shift()
        continue
      }
      try {
        answer.write()
      } catch (error) {
        if (error instanceof LedgerWriteError) return this.arm()
        // The ledger refuses the line itself, so no retry can write it: the pending checks settle the sale instead.
      }
      this.held.shift()
      answer.announce()
    }
    clearTimeout(this.timer)
    this.timer = undefined
  }

  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private arm(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.flush()
    }, this.retryMs)
    // A held answer must not keep the process alive: its intent is on disk for the next start.
    this.timer.unref()
  }
}
