// How times read at the counter: 24-hour clock in the shop's time zone (the one receipts and the business day use).
const clocks = new Map<string, Intl.DateTimeFormat>()

function clockFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? ''
  let clock = clocks.get(key)
  if (!clock) {
    try {
      clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
    } catch {
      // An unknown zone must not break the screen: fall back to the machine's.
      clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    }
    clocks.set(key, clock)
  }
  return clock
}

/** "2025-03-04T09:05:00Z" -> "14:35" in Asia/Kolkata; empty when the text is not a time. No zone: the machine's. */
export function formatClock(iso: string, timeZone?: string): string {
  const millis = Date.parse(iso)
  return Number.isNaN(millis) ? '' : clockFor(timeZone || undefined).format(millis)
}
