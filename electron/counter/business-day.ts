// The shop's local calendar: which business day an instant belongs to, and local clock times.

/**
 * One formatter per time zone and form, made once: a new Intl.DateTimeFormat costs about a millisecond, and the
 * business day is asked several times a sale (through the bridge it was a twelfth of the main thread's CPU).
 */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(locale: string, timeZone: string, form: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`
  let formatter = formatters.get(key)
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(locale, { timeZone, ...form })))
  return formatter
}

/** 'YYYY-MM-DD' of the instant in the shop's time zone (en-CA formats dates that way). */
export function businessDayOf(instant: Date, timeZone: string): string {
  return formatterFor('en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** "22 Nov 2026, 14:05:09" in the shop's time zone, for receipts. */
export function localDateTime(instant: Date, timeZone: string): string {
  return formatterFor('en-IN', timeZone, {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(instant)
}
