// The shop's local calendar: which business day an instant belongs to, and local clock times.

/** 'YYYY-MM-DD' of the instant in the shop's time zone (en-CA formats dates that way). */
export function businessDayOf(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** "22 Nov 2026, 14:05:09" in the shop's time zone, for receipts. */
export function localDateTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', {
    timeZone,
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(instant)
}
