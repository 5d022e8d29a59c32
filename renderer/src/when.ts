// When a record that may be days old happened (agents, coupon orders, resets): day, month and 24-hour clock in the shop's time zone.
const OPTIONS: Intl.DateTimeFormatOptions = { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }

/** "2025-03-04T09:05:00Z" -> "04 Mar, 14:35" in Asia/Kolkata; empty when the text is not a time. */
export function formatWhen(iso: string, timeZone?: string): string {
  const millis = Date.parse(iso)
  if (Number.isNaN(millis)) return ''
  try {
    return new Intl.DateTimeFormat('en-GB', { ...OPTIONS, timeZone: timeZone || undefined }).format(millis)
  } catch {
    // An unknown zone must not break the screen: the machine's.
    return new Intl.DateTimeFormat('en-GB', OPTIONS).format(millis)
  }
}
