// The clock in plain words: the ledger's check of the computer's clock against the journal, for the
// bar at the top of the screen and for the refusal of anything booked while the two disagree.
import type { AppStatus } from '../contract'
import type { ClockCheck } from '../ledger/ledger'
import { CounterError } from './errors'
import { say, type Said } from '../shared/words'

/** "23-05-2027 10:02" in the shop's time zone: how the shop writes dates. */
function shopTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso))
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('day')}-${part('month')}-${part('year')} ${part('hour')}:${part('minute')}`
}

function clockMessage(check: ClockCheck, timeZone: string): Said {
  return say('clock.disagrees', { clockAt: shopTime(check.clockAt, timeZone), lastAt: shopTime(check.floorAt!, timeZone) })
}

/** What app.status says of the clock (ok when the ledger does not judge it); said, spoken on the way to the screen. */
export function clockStatus(check: ClockCheck | null, timeZone: string): AppStatus['clock'] {
  if (check === null || check.state === 'ok') return { state: 'ok', message: null, lastEntryAt: check?.floorAt ?? null }
  return { state: check.state, message: clockMessage(check, timeZone), lastEntryAt: check.floorAt }
}

/** The refusal of a sale, top-up, close or archiving while the clock is unconfirmed: nothing was written. */
export function clockRefusal(check: ClockCheck, timeZone: string): CounterError {
  return new CounterError('clock_unconfirmed', say('clock.nothingBooked', { problem: clockMessage(check, timeZone) }))
}

/** For work that must not start at all (a day close reads the provider's balance first) while the clock is unconfirmed. */
export function refuseUnlessClockAgrees(check: ClockCheck | null, timeZone: string): void {
  if (check !== null && check.state !== 'ok') throw clockRefusal(check, timeZone)
}
