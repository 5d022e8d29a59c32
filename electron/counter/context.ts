// What every domain's handlers share: the current session, settings, catalog, clock and events.
import type { AppStatus, EventName, EventPayload, Sale } from '../contract'
import type { Catalog } from './catalog'
import type { HeldAnswers } from './held-answers'
import type { Serial } from './serial'
import type { Session } from './session'
import type { Settings } from './settings'
import { say, type Said } from '../shared/words'

export interface CounterContext {
  session(): Session
  settings: Settings
  catalog: Catalog
  now(): Date
  businessDay(at: Date): string
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void
  /** What the status bar shows now (the PAN balance is read from the books, hence a promise). */
  status(): Promise<AppStatus>
  /**
   * Runs a ledger write, after journaling any held answers; a write that cannot reach the disk becomes a
   * plain-words ledger_unavailable, followed by `consequence`: what is true when it fails (e.g. NOTHING_SENT).
   * `write` is one section (serial.ts): the checks it makes before its append hold when the append lands.
   */
  recordWrite<T>(write: () => Promise<T>, consequence?: Said): Promise<T>
  /** Runs reads that must see the books with no write between them, as one such section. */
  serial: Serial
  /** Provider answers waiting for room on the disk. */
  answers: HeldAnswers
  /**
   * Tells the UI a recharge changed, as the shop must treat it while its answer is held: the sale as a
   * write just answered with it, or its order id to read it back from the session's ledger.
   */
  saleChanged(session: Session, sale: Sale | string): Promise<Sale>
  /**
   * After every call to the provider, recharge or PAN: any HTTP answer (a refusal, an error page) shows it can be
   * reached; none (refused, no route, timed out) that it cannot. Drives the status bar's connectivity.
   */
  noteContact(reply: { httpStatus: number | null }): void
}

/** The consequence of an intent that could not be journaled: the provider is only asked once it is. */
export const NOTHING_SENT = say('sale.nothingSent')
