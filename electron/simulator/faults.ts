// The simulator's fault switch: which request a fault hits, how many times, and the broken answers it makes.

export type FaultKind =
  | 'slow'
  | 'noAnswer'
  | 'http500'
  | 'truncatedJson'
  | 'failed'
  | 'pendingThenSuccess'
  | 'pendingThenFailed'
  | 'refuse'
  | 'misanswer'
  | 'outsideDebit'

export interface FaultSwitch {
  kind: FaultKind
  /** Operations hit by the fault; default ['transaction']. */
  operations?: string[]
  /** How many requests it hits; default: until cleared. */
  times?: number
  /** 'slow': answer (correctly) after this delay; default 2000. */
  delayMs?: number
  /** 'pendingThenSuccess', 'pendingThenFailed': status checks answering PENDING before the final state; default 0 (the first check gives it). */
  checksUntilFinal?: number
  /**
   * 'refuse': the provider turns the request away unprocessed, answering {status, message} with this
   * HTTP status, as it does a wrong token, checksum or timestamp. Defaults: FAILED, "Invalid request", 200.
   */
  refusal?: { status?: string; message?: string; httpStatus?: number }
  /** 'misanswer': the request is processed as usual (an order booked, the balance charged), but these fields replace the answer's own. */
  fields?: Record<string, string>
  /** 'outsideDebit' (PAN calls): taken from the wallet just before the request is processed, as another terminal's order would take it. Required. */
  debitPaise?: number
}

export const DEFAULT_SLOW_MS = 2_000

/** The answer a 'refuse' fault gives instead of processing the request. */
export function refusalOf(fault: FaultSwitch): { httpStatus: number; body: string } {
  const { status = 'FAILED', message = 'Invalid request', httpStatus = 200 } = fault.refusal ?? {}
  return { httpStatus, body: JSON.stringify({ status, message }) }
}

export class FaultBoard {
  private fault: FaultSwitch | null = null
  private remaining = Infinity

  set(fault: FaultSwitch | null): void {
    this.remaining = fault?.times ?? Infinity
    this.fault = this.remaining > 0 ? fault : null
  }

  /** The fault that hits this request, if any; each hit uses up one of its times. */
  take(operation: string): FaultSwitch | null {
    const fault = this.fault
    if (fault === null || !(fault.operations ?? ['transaction']).includes(operation)) return null
    this.remaining -= 1
    if (this.remaining <= 0) this.fault = null
    return fault
  }
}

const REASONS: Record<number, string> = {
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request Entity Too Large',
  500: 'Internal Server Error',
}

/** An error page as Apache serves it: what a PHP provider shows when its script is not reached or crashes. */
export function apachePage(status: number): string {
  const reason = REASONS[status] ?? 'Error'
  return [
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">',
    '<html><head>',
    `<title>${status} ${reason}</title>`,
    '</head><body>',
    `<h1>${reason}</h1>`,
    status === 500
      ? '<p>The server encountered an internal error or\nmisconfiguration and was unable to complete\nyour request.</p>'
      : '<p>The requested URL could not be served.</p>',
    '</body></html>',
    '',
  ].join('\n')
}

/** A JSON text cut off part-way, as when the provider's output is interrupted mid-write. */
export function truncateText(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)))
}
