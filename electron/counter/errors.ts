// The one error type the core throws on purpose: a code from the contract and words for the shop, in either language.
//
// Decision (#10, Hindi screens): the core speaks the screen language. A refusal is thrown as a "said"
// reference, a key of electron/shared/words/en/said.ts and its params (say('credit.owesNothing', { name })),
// and so are the contract's zod rules ({ error: say('mobile.tenDigits') }; contract/fields.ts maps zod's own
// rules the same way). The dispatch (dispatch.ts) speaks the refusal and each field's message in the
// settings' screenLanguage, so the envelope stays { code, message, fields? } and every screen that shows
// error.message shows its own language unchanged; the renderer's forms speak a rule it checks before sending
// in the page's language (renderer/src/forms.ts). Chosen over sending key and params to the renderer: that
// would change every one of the renderer's ~40 places that show error.message, and zod's messages reach the
// forms on both sides anyway. A CounterError's own `message` is English, as logs and journal lines stay.
// A message from below travels as a param. The printer link, the books (electron/ledger) and the office shipper say
// theirs from the same dictionary, so they are spoken with the refusal; answers and events that carry them (app.status,
// printer.status, status.changed) are spoken whole by the dispatch and by app.ts's emit (speakAll). Decision: a
// provider's own words (a sale's message, a lookup's refusal) stay as it sent them: they are its answer, journaled so.
// Counter's words about an answer (electron/partners: nothing sent, no record yet, a refusal and its advice; a coupon
// answer's checks) are said there with the provider's words as a param, journaled said, and spoken like any answer:
// by the dispatch and the emit, and by the paper (receipts.ts, z-report.ts) in its own language (#26 part 5).
import type { CounterErrorBody, ErrorCode } from '../contract'
import { english, type Language, type Said, speak } from '../shared/words'

export class CounterError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly said: Said,
    readonly saidFields?: Record<string, Said>,
  ) {
    super(english(said))
  }

  /** The refusal as the envelope carries it, in the screen's language. */
  toBody(language: Language = 'en'): CounterErrorBody {
    const message = speak(this.said, language)
    if (!this.saidFields) return { code: this.code, message }
    return { code: this.code, message, fields: Object.fromEntries(Object.entries(this.saidFields).map(([name, said]) => [name, speak(said, language)])) }
  }
}
