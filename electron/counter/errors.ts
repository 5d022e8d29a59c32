// The one error type the core throws on purpose: a code from the contract and words for the shop.
import type { CounterErrorBody, ErrorCode } from '../contract'

export class CounterError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message)
  }

  toBody(): CounterErrorBody {
    return this.fields ? { code: this.code, message: this.message, fields: this.fields } : { code: this.code, message: this.message }
  }
}
