// Dues arithmetic: a customer's credit sales and payments, in journal order, as a running due, the
// day the oldest unpaid sale was made and the last payment. Pure: the ledger's reads feed it rows.

export interface CreditEntry {
  id: string
  kind: 'sale' | 'payment'
  amountPaise: number
  /** A sale's state: only SUCCESS adds to the due. Null for a payment. */
  state: string | null
  at: string
  businessDay: string
  mode: 'cash' | 'upi' | null
}

export interface DueFigures {
  duePaise: number
  /** The business day of the oldest counted sale that payments have not covered, or null. */
  since: string | null
  lastPayment: { at: string; amountPaise: number; mode: 'cash' | 'upi' } | null
  /** The due after each entry, in the entries' order. */
  running: number[]
}

/** What one entry does to the due: a successful sale adds, a payment subtracts, anything else nothing. */
export function dueChange(entry: Pick<CreditEntry, 'kind' | 'amountPaise' | 'state'>): number {
  if (entry.kind === 'payment') return -entry.amountPaise
  return entry.state === 'SUCCESS' ? entry.amountPaise : 0
}

/**
 * Decision: payments pay the oldest sale first (as a shop's khata is read), so "since" is the day of
 * the first counted sale whose running total of sales is more than everything paid so far.
 * `entries` are one customer's, in journal order (a sale by its intent's place).
 */
export function dueFigures(entries: readonly CreditEntry[]): DueFigures {
  let due = 0
  let paid = 0
  let lastPayment: DueFigures['lastPayment'] = null
  const running = entries.map((entry) => {
    due += dueChange(entry)
    if (entry.kind === 'payment') {
      paid += entry.amountPaise
      lastPayment = { at: entry.at, amountPaise: entry.amountPaise, mode: entry.mode ?? 'cash' }
    }
    return due
  })
  let sold = 0
  let since: string | null = null
  for (const entry of due > 0 ? entries : []) {
    const adds = entry.kind === 'sale' ? dueChange(entry) : 0
    sold += adds
    if (adds > 0 && sold > paid) {
      since = entry.businessDay
      break
    }
  }
  return { duePaise: due, since, lastPayment, running }
}
