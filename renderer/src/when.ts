// When a record that may be days or years old happened (agents, coupon orders, resets, history): day, month and 24-hour clock in the shop's time zone.
const OPTIONS: Intl.DateTimeFormatOptions = { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
const WITH_YEAR: Intl.DateTimeFormatOptions = { ...OPTIONS, year: 'numeric' }
// A long list formats hundreds of times while it scrolls: one formatter per zone and style.
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string | undefined, withYear: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${withYear}`
  let formatter = formatters.get(key)
  if (!formatter) {
    const options = withYear ? WITH_YEAR : OPTIONS
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone })
    } catch {
      // An unknown zone must not break the screen: the machine's.
      formatter = new Intl.DateTimeFormat('en-GB', options)
    }
    formatters.set(key, formatter)
  }
  return formatter
}

/** "2025-03-04T09:05:00Z" -> "04 Mar, 14:35" (with the year: "04 Mar 2025, 14:35") in Asia/Kolkata; empty when the text is not a time. */
export function formatWhen(iso: string, timeZone?: string, withYear = false): string {
  const millis = Date.parse(iso)
  return Number.isNaN(millis) ? '' : formatterFor(timeZone || undefined, withYear).format(millis)
}
