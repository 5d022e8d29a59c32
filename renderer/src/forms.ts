// Per-field messages for forms: from the contract's schemas before sending, and from the core's answers.
import type { ZodError } from 'zod'
import type { CounterErrorBody } from '../../electron/contract'
import { speak } from '../../electron/shared/error-words'
import type { Language } from '../../electron/shared/paper-words'
import { i18n } from './i18n'

/** Field name -> the one message shown beside that field. */
export type FieldErrors = Record<string, string>

/** The first message for each top-level field the schema rejected, in the screen's language (the core's words are already). */
export function fieldErrorsOf(error: ZodError): FieldErrors {
  const errors: FieldErrors = {}
  const language = i18n.global.locale.value as Language
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '')
    if (field && !(field in errors)) errors[field] = speak(issue.message, language)
  }
  return errors
}

/**
 * Splits the core's error into messages beside the fields the form shows and one message for the
 * form: a rule about a field the form does not show would otherwise be lost.
 */
export function placeServerError(error: CounterErrorBody, shownFields: readonly string[]): { fields: FieldErrors; form: string | null } {
  const fields: FieldErrors = {}
  let unplaced = false
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    if (shownFields.includes(field)) fields[field] = message
    else unplaced = true
  }
  const placedAll = Object.keys(fields).length > 0 && !unplaced
  return { fields, form: placedAll ? null : error.message }
}
