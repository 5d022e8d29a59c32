// The one way dates and times read at Counter, on every screen, receipt and export: DD-MM-YYYY, and a
// 24- or 12-hour clock as the shop sets, in the shop's time zone. A leaf module: it imports nothing of ours.

/** The shop's choice in Settings; 24-hour is the default (unambiguous on a receipt). */
export const CLOCK_STYLES = ['24h', '12h'] as const
export type ClockStyle = (typeof CLOCK_STYLES)[number]

export interface DateStyle {
  /** IANA zone, e.g. Asia/Kolkata; absent or unknown: the machine's. */
  timeZone?: string
  clock?: ClockStyle
}

type Instant = string | number | Date

// Lists format hundreds of rows while they scroll: one Intl formatter per zone and clock.
const formatters = new Map<string, Intl.DateTimeFormat>()

function partsFormatter(timeZone: string | undefined, clock: ClockStyle): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${clock}`
  let formatter = formatters.get(key)
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      hourCycle: clock === '12h' ? 'h12' : 'h23',
    }
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone })
    } catch {
      formatter = new Intl.DateTimeFormat('en-GB', options) // an unknown zone must not break a screen or a receipt
    }
    formatters.set(key, formatter)
  }
  return formatter
}

function partsOf(instant: Instant, style: DateStyle): Record<string, string> | null {
  const millis = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant)
  if (Number.isNaN(millis)) return null
  const parts: Record<string, string> = {}
  for (const part of partsFormatter(style.timeZone || undefined, style.clock ?? '24h').formatToParts(millis)) parts[part.type] = part.value
  return parts
}

function clockText(parts: Record<string, string>, clock: ClockStyle, seconds: boolean): string {
  const tail = seconds ? `:${parts.second}` : ''
  if (clock === '24h') return `${parts.hour}:${parts.minute}${tail}`
  // "2:05 pm": no leading zero and a lower-case marker, as Indian receipts and phones write it.
  return `${Number(parts.hour)}:${parts.minute}${tail} ${(parts.dayPeriod ?? '').toLowerCase()}`
}

/** "04-03-2025" for an instant in the zone; '' when the text is not a time. */
export function formatDate(instant: Instant, style: DateStyle = {}): string {
  const parts = partsOf(instant, style)
  return parts ? `${parts.day}-${parts.month}-${parts.year}` : ''
}

/** "14:35" or "2:35 pm" (with seconds: "14:35:09"); '' when the text is not a time. */
export function formatTime(instant: Instant, style: DateStyle = {}, { seconds = false } = {}): string {
  const parts = partsOf(instant, style)
  return parts ? clockText(parts, style.clock ?? '24h', seconds) : ''
}

/** "04-03-2025 14:35" or "04-03-2025 2:35 pm"; '' when the text is not a time. */
export function formatDateTime(instant: Instant, style: DateStyle = {}, { seconds = false } = {}): string {
  const parts = partsOf(instant, style)
  return parts ? `${parts.day}-${parts.month}-${parts.year} ${clockText(parts, style.clock ?? '24h', seconds)}` : ''
}

/**
 * A time in an export: the same DD-MM-YYYY, but always 24-hour with seconds whatever the shop's
 * clock, so that a spreadsheet's column of times sorts and reads back the same on any PC.
 */
export function formatExportTime(instant: Instant, timeZone?: string): string {
  return formatDateTime(instant, { timeZone, clock: '24h' }, { seconds: true })
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/**
 * A business day as stored ("2025-03-04"), or as the PAN provider writes its order's date ("04-Mar-2025", English
 * month names whatever the screen's language), as staff read every day ("04-03-2025"); other text passes unchanged.
 */
export function formatDay(day: string): string {
  const stored = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (stored) return `${stored[3]}-${stored[2]}-${stored[1]}`
  const provider = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(day)
  const month = provider ? MONTHS.indexOf(provider[2].toLowerCase()) : -1
  return provider && month >= 0 ? `${provider[1].padStart(2, '0')}-${String(month + 1).padStart(2, '0')}-${provider[3]}` : day
}

/**
 * A day as typed ("4-3-2025", "04/03/2025", "04.03.2025") to the stored form ("2025-03-04"); null
 * when it is not a real calendar day (31-02-2025 is refused, not rolled over to March).
 */
export function readDay(text: string): string | null {
  const match = /^\s*(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\s*$/.exec(text)
  if (!match) return null
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** The pattern a DD-MM-YYYY text field is checked with (the same days readDay accepts, loosely). */
export const DAY_INPUT_PATTERN = '\\s*\\d{1,2}[\\-/.]\\d{1,2}[\\-/.]\\d{4}\\s*'
