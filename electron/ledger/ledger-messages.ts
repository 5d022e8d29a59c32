// The messages between the main thread's ledger client and the ledger thread, and how errors cross between them.
import { carry, uncarry, type CarriedError } from './chores'
import { ClockUnconfirmedError, type ClockCheck } from './clock-sense'
import type { LedgerEventData, LedgerEventType, WrittenBy } from './events'
import type { OpenReport } from './ledger'
import { DayClosedError, LedgerWriteError } from './ledger-errors'
import type { LedgerProgress, WorkArgs, WorkName } from './ledger-port'
import type { ReadArgs, ReadName } from './ledger-reads'
import type { WriteArgs, WriteName } from './sale-writes'

/** What the thread opens with (workerData). */
export interface LedgerThreadData {
  dir: string
  snapshotEvery?: number
  segmentBytes?: number
  clockSense: boolean
  /** The main thread's clock when it started the thread. */
  at: string
  /** The main thread's performance.timeOrigin: the start-up timeline's steps in the thread count from it. */
  timelineOrigin: number
}

/**
 * Every request carries the main thread's clock: the core's `now` (a test's, or the computer's)
 * stamps the journal and is what the clock sense judges, wherever the ledger runs.
 */
export type LedgerRequest = { id: number; at: string } & LedgerCall

/** A request as the client asks it, before it is numbered and stamped. */
export type LedgerCall =
  | { call: 'read'; name: ReadName; args: ReadArgs[ReadName] }
  | { call: 'work'; name: WorkName; args: WorkArgs[WorkName] }
  | { call: 'append'; args: [LedgerEventType, LedgerEventData[LedgerEventType]] }
  | { call: 'write'; name: WriteName; by: WrittenBy; args: WriteArgs[WriteName] }
  | { call: 'close'; args: [] }

/** The books' state the client mirrors, so the status bar and the clock check never wait for the thread. */
export interface BooksState {
  readOnly: string | null
  notices: string[]
  clockFloorAt: string | null
}

/** An error as it crosses from the ledger thread: the chores thread's carried error, with what the core's refusals say. */
export interface WireError extends CarriedError {
  businessDay?: string
  check?: ClockCheck
}

export type LedgerMessage =
  | { kind: 'opened'; report: OpenReport; books: BooksState }
  | { kind: 'open-failed'; error: WireError }
  | { kind: 'answer'; id: number; ok: true; value: unknown; books: BooksState }
  | { kind: 'answer'; id: number; ok: false; error: WireError; books: BooksState }
  | { kind: 'books'; books: BooksState }
  | { kind: 'progress'; progress: LedgerProgress }

export function toWire(error: unknown): WireError {
  const wire: WireError = carry(error)
  if (error instanceof DayClosedError) wire.businessDay = error.businessDay
  if (error instanceof ClockUnconfirmedError) wire.check = error.check
  return wire
}

/** The same classes the core catches when the ledger runs in its own thread as when it did not. */
export function fromWire(wire: WireError): Error {
  switch (wire.name) {
    case 'LedgerWriteError':
      return new LedgerWriteError(wire.message)
    case 'DayClosedError':
      return new DayClosedError(wire.businessDay ?? '')
    case 'ClockUnconfirmedError':
      return wire.check ? new ClockUnconfirmedError(wire.check) : new Error(wire.message)
    default:
      return uncarry(wire)
  }
}
