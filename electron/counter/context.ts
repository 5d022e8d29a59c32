// What every domain's handlers share: the current session, settings, catalog, clock and events.
import type { AppStatus, EventName, EventPayload, Sale } from '../contract'
import type { Catalog } from './catalog'
import type { Session } from './session'
import type { Settings } from './settings'

export interface CounterContext {
  session(): Session
  settings: Settings
  catalog: Catalog
  now(): Date
  businessDay(at: Date): string
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void
  /** What the status bar shows now. */
  status(): AppStatus
  /** Runs a ledger write; a write that cannot reach the disk becomes a plain-words ledger_unavailable. */
  recordWrite<T>(write: () => T): T
  /** Reads a sale back from the session's ledger and tells the UI it changed. */
  saleChanged(session: Session, orderId: string): Sale
  /** Whether the provider answered at all: drives the status bar's connectivity. */
  noteContact(answered: boolean): void
}
