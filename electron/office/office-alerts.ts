// What needs the owner's eye on the office page (issue #28), so nothing is seen only by whoever stands at that counter:
// a counter silent too long in shop hours, two counters claiming one terminal, a day closed with the drawer out, a
// PAN balance break no counter's sales explain, and a sale still unresolved on a day its counter has closed.
import { formatDay } from '../shared/dates'
import { formatBigPaise } from '../shared/money'
import type { OfficeDay } from './office-view'

export type AlertKind = 'silent' | 'fork' | 'drawer' | 'break' | 'unresolved'

export interface OfficeAlert {
  kind: AlertKind
  terminal: string
  /** For the owner, naming the counter as the page does. */
  words: string
}

/**
 * Decision: silence counts only in shop hours (08:00 to 22:00 in the office's time zone), after 2 hours without a
 * word: a counter switched off overnight or for a lunch hour is no alarm, and a shipper that is up says something at
 * least every 30 s (its heartbeat), so two hours is a counter down or cut off, not a quiet spell.
 */
export const SILENT_AFTER_MS = 2 * 3_600_000
export const SHOP_HOURS = { from: 8, to: 22 } as const

function hourIn(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now))
}

function silence(ms: number): string {
  const minutes = Math.floor(ms / 60_000)
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`
}

/** Every alert the day's figures raise, the most urgent kinds first; `nameOf` names a terminal as the page does. */
export function officeAlerts(view: OfficeDay, { now, timeZone, nameOf }: { now: Date; timeZone: string; nameOf: (terminal: string) => string }): OfficeAlert[] {
  const alerts: OfficeAlert[] = []
  for (const fork of view.forks.filter((f) => f.resolvedAs === null)) {
    alerts.push({ kind: 'fork', terminal: fork.terminal, words: `${nameOf(fork.terminal)}: another counter claims its terminal id, and its lines from entry #${fork.partSeq} are refused (see Forks)` })
  }
  const hour = hourIn(now, timeZone)
  if (hour >= SHOP_HOURS.from && hour < SHOP_HOURS.to) {
    for (const terminal of view.terminals) {
      const quiet = terminal.lastContact === null ? null : now.getTime() - terminal.lastContact.getTime()
      if (quiet !== null && quiet > SILENT_AFTER_MS) alerts.push({ kind: 'silent', terminal: terminal.terminal, words: `${nameOf(terminal.terminal)}: not heard from for ${silence(quiet)}` })
    }
  }
  for (const found of view.breaks) {
    alerts.push({ kind: 'break', terminal: found.terminal, words: `${nameOf(found.terminal)}: the PAN balance moved by ${formatBigPaise(found.breakPaise)} that no counter's sale or top-up explains (see PAN balance breaks)` })
  }
  for (const close of view.closes) {
    const unresolved = [...view.recharges, ...view.coupons].filter((sale) => sale.terminal === close.terminal).reduce((sum, sale) => sum + sale.unresolved, 0n)
    if (close.cashDifferencePaise !== 0n) {
      const side = close.cashDifferencePaise < 0n ? 'short' : 'over'
      const size = formatBigPaise(close.cashDifferencePaise < 0n ? -close.cashDifferencePaise : close.cashDifferencePaise)
      alerts.push({ kind: 'drawer', terminal: close.terminal, words: `${nameOf(close.terminal)}: ${formatDay(close.businessDay)} was closed with the drawer ${size} ${side}` })
    }
    if (unresolved > 0n) {
      alerts.push({ kind: 'unresolved', terminal: close.terminal, words: `${nameOf(close.terminal)}: ${formatDay(close.businessDay)} is closed with ${unresolved} ${unresolved === 1n ? 'sale' : 'sales'} still unresolved: settle ${unresolved === 1n ? 'it' : 'them'} with the provider` })
    }
  }
  return alerts
}
