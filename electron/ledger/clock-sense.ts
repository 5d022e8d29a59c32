// Clock sense: the journal's entry times are a floor for the computer's clock, so a wrong date is
// caught before it archives a year, closes a day or books a sale on the wrong day.
import fs from 'node:fs'
import path from 'node:path'
import { DAY_BOUND_EVENTS } from './events'
import { JOURNAL_DIR, listSegments } from './segments'

/**
 * A clock up to 2 minutes behind the last entry is not a wrong date: two machines' clocks, or a
 * network time correction after a restart, differ by seconds. More than that, and sales would be
 * stamped before entries already in the books.
 */
export const BEHIND_TOLERANCE_MS = 2 * 60_000

/**
 * More than 3 days past the last entry: a shop is rarely shut longer than a long weekend with a
 * holiday, while a clock that jumped (a dead CMOS battery, a wrong year typed) is often months
 * out and would archive the year and date every sale wrongly. After a real longer break the owner
 * confirms once.
 */
export const AHEAD_LIMIT_MS = 3 * 24 * 60 * 60_000

/** The journal line with which the owner says the clock is right: from it on, it is the floor. */
export const CLOCK_CONFIRMED = 'clock.confirmed'

export type ClockState = 'ok' | 'behind' | 'ahead'

export interface ClockCheck {
  state: ClockState
  /** What the computer's clock says. */
  clockAt: string
  /** The floor: the latest entry time since the owner last confirmed the clock (null: empty books). */
  floorAt: string | null
}

/** Refusal to archive, close or book while the clock disagrees with the journal: nothing was written. */
export class ClockUnconfirmedError extends Error {
  constructor(readonly check: ClockCheck) {
    super(`The clock says ${check.clockAt} but the last entry in the books was at ${check.floorAt}.`)
    this.name = 'ClockUnconfirmedError'
  }
}

/** Each line opens with its seq, time and type (journal.ts writes them in that order); data comes after. */
const LINE_HEAD = /^\{"seq":\d+,"at":"([^"]+)","type":"([^"]+)"/gm

/** Lines written only when the clock agreed with the floor (or was confirmed): the ones that set it. */
const VOUCHED: readonly string[] = [...DAY_BOUND_EVENTS, CLOCK_CONFIRMED]

/**
 * The floor the journal vouches for: the latest sale, top-up or close, or the owner's confirmation
 * (which sets it, lower if the clock went back). Decision: lines recorded whatever the clock says
 * (the provider's answers, status checks, balance reads) neither raise nor lower it — they may be
 * stamped by the very clock in doubt, and one balance read at a start months ahead must not make
 * that clock look right at the next start, nor the right clock look wrong.
 */
export class ClockFloor {
  private constructor(private floorMs: number | null) {}

  /**
   * Read from the journal's end. Vouched lines are written only while the clock agrees with the
   * floor (to the 2 minutes' tolerance) or by a confirmation, so after the last confirmation their
   * times only rise: the last vouched line is the floor. Found by reading ever larger tails of the
   * newest segments, so an open reads kilobytes, not the 32 MiB a segment may hold.
   */
  static fromJournal(dir: string): ClockFloor {
    const segments = listSegments(path.join(dir, JOURNAL_DIR))
    for (const segment of [...segments].reverse()) {
      const last = lastVouchedHead(segment.file)
      if (last) return new ClockFloor(timeOf(last.at))
    }
    // No sale, top-up or close yet, but agents or balance reads may be there: the first line ever
    // written is then the floor. Not the last one: a balance read at a start months ahead is stamped
    // by the clock in doubt, and it must not make that clock look right at the next start.
    const first = segments.length > 0 ? firstHead(segments[0].file) : null
    return new ClockFloor(first ? timeOf(first.at) : null)
  }

  /** A floor already found (by the ledger thread, for the main thread's own checks). */
  static of(floorAt: string | null): ClockFloor {
    return new ClockFloor(floorAt === null ? null : timeOf(floorAt))
  }

  get at(): string | null {
    return this.floorMs === null ? null : new Date(this.floorMs).toISOString()
  }

  /** A line of `type` was journaled at `at`. */
  note(type: string, at: string): void {
    const ms = Date.parse(at)
    if (Number.isNaN(ms) || !VOUCHED.includes(type)) return
    this.floorMs = type === CLOCK_CONFIRMED || this.floorMs === null ? ms : Math.max(this.floorMs, ms)
  }

  check(now: Date): ClockCheck {
    const clockAt = now.toISOString()
    if (this.floorMs === null) return { state: 'ok', clockAt, floorAt: null }
    const ms = now.getTime()
    const state = ms < this.floorMs - BEHIND_TOLERANCE_MS ? 'behind' : ms > this.floorMs + AHEAD_LIMIT_MS ? 'ahead' : 'ok'
    return { state, clockAt, floorAt: this.at }
  }

  /** Throws ClockUnconfirmedError unless the clock agrees with the floor. */
  assertAgrees(now: Date): void {
    const check = this.check(now)
    if (check.state !== 'ok') throw new ClockUnconfirmedError(check)
  }
}

const timeOf = (at: string): number | null => (Number.isNaN(Date.parse(at)) ? null : Date.parse(at))

/** The time and type of a segment's first line, or null when it has none (or is no regular file). */
function firstHead(file: string): { at: string; type: string } | null {
  if (!fs.statSync(file).isFile()) return null
  const fd = fs.openSync(file, 'r')
  try {
    const head = Buffer.alloc(512)
    const read = fs.readSync(fd, head, 0, head.length, 0)
    const match = new RegExp(LINE_HEAD.source).exec(head.subarray(0, read).toString('latin1'))
    return match ? { at: match[1], type: match[2] } : null
  } finally {
    fs.closeSync(fd)
  }
}

/** The time and type of the last vouched line in a segment file, or null when it has none. */
function lastVouchedHead(file: string): { at: string; type: string } | null {
  // Only a regular file has an end to read back from (a device in its place, like /dev/full, has none).
  if (!fs.statSync(file).isFile()) return null
  const fd = fs.openSync(file, 'r')
  try {
    const size = fs.fstatSync(fd).size
    for (let window = 64 * 1024; ; window *= 4) {
      const length = Math.min(window, size)
      const tail = Buffer.alloc(length)
      fs.readSync(fd, tail, 0, length, size - length)
      // A window that starts mid-line cannot match LINE_HEAD there: ^ needs a line's first byte.
      const head = [...tail.toString('latin1').matchAll(LINE_HEAD)].findLast((match) => VOUCHED.includes(match[2]))
      if (head) return { at: head[1], type: head[2] }
      if (length === size) return null
    }
  } finally {
    fs.closeSync(fd)
  }
}
