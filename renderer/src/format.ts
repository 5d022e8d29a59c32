// How times read at the counter: 24-hour clock in the machine's local time.
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

/** "2025-03-04T09:05:00Z" -> "14:35" (local); empty when the text is not a time. */
export function formatClock(iso: string): string {
  const millis = Date.parse(iso)
  return Number.isNaN(millis) ? '' : clock.format(millis)
}
