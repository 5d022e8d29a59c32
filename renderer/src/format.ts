// How times and days read on the screens: the shared formatter (electron/shared/dates.ts) in the shop's zone and clock.
import { formatDateTime, formatDay, formatTime, type DateStyle } from '../../electron/shared/dates'

export { formatDay }

/** Today's times: "14:35" or "2:35 pm"; empty when the text is not a time. */
export function formatClock(iso: string, style: DateStyle): string {
  return formatTime(iso, style)
}

/** A record that may be days or years old: "04-03-2025 14:35"; empty when the text is not a time. */
export function formatWhen(iso: string, style: DateStyle): string {
  return formatDateTime(iso, style)
}
