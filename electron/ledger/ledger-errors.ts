// The ledger's refusals a caller acts on: nothing was recorded, or the day's books are closed.
import { english, say } from '../shared/words'

// Says only what the ledger knows: whether the provider was asked is the caller's to say (see recordWrite).
// The books' words are said (shared/words): notices and refusals reach the screen in its language.
export const NOTHING_WRITTEN = say('ledger.nothingWritten')

/** The one error a caller shows as is: the line was not recorded (an intent not recorded must not be sent either). */
export class LedgerWriteError extends Error {
  constructor(message: string = NOTHING_WRITTEN, options?: ErrorOptions) {
    super(message, options)
    this.name = 'LedgerWriteError'
  }
}

/**
 * Refusal to record a new sale, top-up or close on a day whose books are closed: nothing was written. Its
 * message is English, for logs; the core says it for the screen from businessDay (counter/app.ts recordWrite).
 */
export class DayClosedError extends Error {
  constructor(readonly businessDay: string) {
    super(english(say('ledger.dayClosed', { day: businessDay })))
    this.name = 'DayClosedError'
  }
}
