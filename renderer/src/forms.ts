// Per-field messages for forms: from the contract's schemas before sending, and from the core's answers.
import { ref } from 'vue'
import type { ZodError } from 'zod'
import type { CounterErrorBody, Result } from '../../electron/contract'
import { speak } from '../../electron/shared/words'
import { screenLanguage } from './words'

/** Field name -> the one message shown beside that field. */
export type FieldErrors = Record<string, string>

/** The first message for each top-level field the schema rejected, in the screen's language (the core's words are already). */
export function fieldErrorsOf(error: ZodError): FieldErrors {
  const errors: FieldErrors = {}
  const language = screenLanguage()
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

/**
 * A sale form's messages: beside its fields, one for the form, and the core's refusal because today's
 * books are closed (shown as its own notice). The recharge and coupon screens keep theirs the same way.
 */
export function useSaleMessages(shownFields: () => readonly string[]) {
  const fieldErrors = ref<FieldErrors>({})
  const formError = ref<string | null>(null)
  const dayClosed = ref<string | null>(null)

  function clear(): void {
    fieldErrors.value = {}
    formError.value = null
    dayClosed.value = null
  }

  return {
    fieldErrors,
    formError,
    dayClosed,
    clear,
    /** Whether anything is on show (Esc clears it before it clears the screen). */
    showing: () => formError.value !== null || dayClosed.value !== null || Object.keys(fieldErrors.value).length > 0,
    /** The form's own check before sending replaces what was on show; true when it passed. */
    passed(errors: FieldErrors): boolean {
      clear()
      fieldErrors.value = errors
      return Object.keys(errors).length === 0
    },
    /** Shows the core's refusal where it belongs: 'day-closed', 'refused' (beside fields or for the form), or null for a sale. */
    refusal(result: Result<unknown>): 'day-closed' | 'refused' | null {
      if (result.ok) return null
      if (result.error.code === 'day_closed') {
        dayClosed.value = result.error.message
        return 'day-closed'
      }
      const placed = placeServerError(result.error, shownFields())
      fieldErrors.value = placed.fields
      formError.value = placed.form
      return 'refused'
    },
  }
}
