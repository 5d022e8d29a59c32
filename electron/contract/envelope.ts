// The result envelope every call answers with: the value, or an error with a code from a fixed list
// and words for the shop.
import { z } from 'zod'

export const ErrorCodeSchema = z.enum([
  'invalid_input', // the input broke a rule; nothing was changed
  'unknown_channel',
  'not_found',
  'unsupported', // this transport cannot do it (e.g. silent printing in browser mode)
  'not_configured',
  'keychain_unavailable',
  'ledger_unavailable', // the ledger cannot be written; the message says whether the provider was asked (an answer it gives after the call is held, not refused)
  'clock_unconfirmed', // the clock disagrees with the journal: the owner must confirm it before anything is booked
  'day_closed', // the business day's books are closed: nothing more may be booked on it
  'provider_error',
  'printer_error', // the printer did not take the job (off, out of paper, unreachable); the sale and the books are as they were
  'backup_failed', // the copy off this PC was not finished or did not verify; it was removed, and the copies made before it are untouched
  'restore_failed', // the books were not restored: they are as they were before it
  'forbidden',
  'owner_only', // staff called what only the owner may do; nothing was changed
  'internal',
])
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

export interface CounterErrorBody {
  code: ErrorCode
  message: string
  /** For invalid_input: the message for each offending field, keyed by field name. */
  fields?: Record<string, string>
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: CounterErrorBody }
