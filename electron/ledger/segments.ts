// The journal's files: segments named by their first entry, read line by line in bounded chunks, and checked as one hash chain.
// Why a line breaks the chain is said (shared/words): it reaches the screen inside the books' notices.
import { createHash, hash as digestOnce } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry } from './events'
import { say } from '../shared/words'

export const JOURNAL_DIR = 'journal'
/** Where versions before segments kept the whole journal: adopted as the first segment on open. */
export const LEGACY_JOURNAL_FILE = 'journal.ndjson'
/** The `prev` of the first line: there is no line before it. */
export const GENESIS_HASH = '0'.repeat(64)

const NEWLINE = 0x0a
const HASH_PATTERN = /^[0-9a-f]{64}$/
const SEGMENT_NAME = /^(\d{12})\.ndjson$/
/** Reads never hold more than this (plus one line) of a segment in memory. */
const CHUNK_BYTES = 1 << 20

export interface Segment {
  /** The sequence number of its first line, which is also its name. */
  first: number
  file: string
}

/** A point in the chain: an entry's sequence number and hash (seq 0 and the genesis hash before the first). */
export interface ChainPoint {
  seq: number
  hash: string
}

export const GENESIS: ChainPoint = { seq: 0, hash: GENESIS_HASH }

export const samePoint = (a: ChainPoint, b: ChainPoint): boolean => a.seq === b.seq && a.hash === b.hash

export function segmentName(first: number): string {
  return `${String(first).padStart(12, '0')}.ndjson`
}

/** The segments in `journalDir`, oldest first; other files there are ignored. */
export function listSegments(journalDir: string): Segment[] {
  let names: string[]
  try {
    names = fs.readdirSync(journalDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names
    .flatMap((name) => {
      const match = SEGMENT_NAME.exec(name)
      return match ? [{ first: Number(match[1]), file: path.join(journalDir, name) }] : []
    })
    .sort((a, b) => a.first - b.first)
}

/** The text a line's hash covers after its prev and a newline: its body as the journal wrote it (the head office keeps it, to hash it again). */
export function hashedBody(body: Pick<JournalEntry, 'seq' | 'at' | 'type' | 'data'>): string {
  const { seq, at, type, data } = body
  return JSON.stringify({ seq, at, type, data })
}

export function hashEntry(prev: string, body: Pick<JournalEntry, 'seq' | 'at' | 'type' | 'data'>): string {
  return createHash('sha256')
    .update(prev + '\n' + hashedBody(body))
    .digest('hex')
}

export function parseLine(bytes: Uint8Array): JournalEntry | null {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const line = value as Record<string, unknown>
  const wellFormed =
    Number.isSafeInteger(line.seq) &&
    typeof line.at === 'string' &&
    typeof line.type === 'string' &&
    typeof line.data === 'object' && line.data !== null && !Array.isArray(line.data) &&
    typeof line.prev === 'string' && HASH_PATTERN.test(line.prev) &&
    typeof line.hash === 'string' && HASH_PATTERN.test(line.hash)
  return wellFormed ? (value as JournalEntry) : null
}

function chainProblem(entry: JournalEntry, after: ChainPoint): string | null {
  if (entry.seq !== after.seq + 1) return say('chain.expected', { expected: after.seq + 1, found: entry.seq })
  if (entry.prev !== after.hash) return say('chain.noLink')
  if (hashEntry(entry.prev, entry) !== entry.hash) return say('chain.hashDiffers')
  return null
}

/** Checks one line against the entry before it: what the line holds, or in words why it breaks the chain. */
type LineCheck<E extends ChainPoint> = (bytes: Buffer, after: ChainPoint) => E | string

/** The parsing check, which readChain uses; exported for a journal written from lines held elsewhere (journal-copy.ts). */
export const checkEntry: LineCheck<JournalEntry> = (bytes, after) => {
  const entry = parseLine(bytes)
  return entry === null ? say('chain.notALine') : (chainProblem(entry, after) ?? entry)
}

/** How every line Journal.append writes begins, and how it ends after the body: `,"prev":"<64 hex>","hash":"<64 hex>"}`. */
const LINE_START = Buffer.from('{"seq":')
const PREV_KEY = Buffer.from(',"prev":"')
const HASH_KEY = Buffer.from('","hash":"')
const HASH_CHARS = 64
const TAIL_BYTES = PREV_KEY.length + HASH_CHARS + HASH_KEY.length + HASH_CHARS + 2
const DIGIT_0 = 0x30
const COMMA = 0x2c
const QUOTE = 0x22
const CLOSE_BRACE = 0x7d
/** Where the fast check builds `prev`, a newline and the body to hash; grown to the longest line seen. */
let hashInput = Buffer.alloc(4096)

const sameBytes = (bytes: Buffer, at: number, expected: Buffer) => bytes.compare(expected, 0, expected.length, at, at + expected.length) === 0

function sameChars(bytes: Buffer, at: number, text: string): boolean {
  for (let index = 0; index < text.length; index++) if (bytes[at + index] !== text.charCodeAt(index)) return false
  return true
}

/**
 * The line's chain point, checked on its bytes as written, without parsing it; null when the line is
 * not exactly as Journal.append writes it, or does not pass.
 * Decision: the body hashed is the line's own bytes up to `,"prev":` (closed with `}`), which is
 * byte for byte the JSON.stringify of its parsed body that `hashEntry` hashes, since the writer made
 * the line by stringifying that same body with prev and hash after it. A line this check refuses goes
 * to the parsing check, which decides (and words) it exactly as before; so an edited line still fails
 * and one only re-spaced still passes. What this check does not prove is that the body is valid JSON:
 * a line whose hash matches bytes that do not parse was made by someone computing the chain on
 * purpose, which the chain (unkeyed) never guarded against. It allocates a few small objects a line,
 * not the parsed entry and its re-serialised copy: the first audit of 1M sales collected garbage 155
 * times instead of 687, and those collections' helper threads share the cores the counter's own
 * thread needs.
 */
function checkedPoint(bytes: Buffer, after: ChainPoint): ChainPoint | null {
  const bodyEnd = bytes.length - TAIL_BYTES
  if (bodyEnd <= LINE_START.length || !sameBytes(bytes, 0, LINE_START)) return null
  let seq = 0
  let at = LINE_START.length
  for (; at < bodyEnd && bytes[at] !== COMMA; at++) {
    const digit = bytes[at] - DIGIT_0
    if (digit < 0 || digit > 9 || (seq === 0 && at > LINE_START.length)) return null
    seq = seq * 10 + digit
  }
  if (at === bodyEnd || seq !== after.seq + 1 || bytes[bytes.length - 2] !== QUOTE || bytes[bytes.length - 1] !== CLOSE_BRACE) return null
  const prevAt = bodyEnd + PREV_KEY.length
  const hashAt = prevAt + HASH_CHARS + HASH_KEY.length
  if (!sameBytes(bytes, bodyEnd, PREV_KEY) || !sameBytes(bytes, prevAt + HASH_CHARS, HASH_KEY) || !sameChars(bytes, prevAt, after.hash)) return null
  const inputBytes = HASH_CHARS + 1 + bodyEnd + 1
  if (hashInput.length < inputBytes) hashInput = Buffer.alloc(2 * inputBytes)
  hashInput.write(after.hash, 0, 'latin1')
  hashInput[HASH_CHARS] = NEWLINE
  bytes.copy(hashInput, HASH_CHARS + 1, 0, bodyEnd)
  hashInput[inputBytes - 1] = CLOSE_BRACE
  const hash = digestOnce('sha256', hashInput.subarray(0, inputBytes))
  return sameChars(bytes, hashAt, hash) ? { seq, hash } : null
}

const checkPoint: LineCheck<ChainPoint> = (bytes, after) => checkedPoint(bytes, after) ?? checkEntry(bytes, after)

interface Line {
  bytes: Buffer
  /** Byte offsets in the file: where the line starts, and where the next one does. */
  start: number
  end: number
  /** Ends with a newline: its write finished. Only the file's last line can lack one. */
  complete: boolean
}

/** The lines of `file` from byte `from` on, as far as the file reached when reading began. */
function* readLines(file: string, from = 0): Generator<Line> {
  const fd = fs.openSync(file, 'r')
  try {
    const size = fs.fstatSync(fd).size
    let carry = Buffer.alloc(0)
    let carryStart = from
    let position = from
    while (position < size) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position))
      const read = fs.readSync(fd, chunk, 0, chunk.length, position)
      if (read === 0) break
      position += read
      const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read)
      let offset = 0
      for (let newline = buffer.indexOf(NEWLINE); newline !== -1; newline = buffer.indexOf(NEWLINE, offset)) {
        const end = carryStart + newline + 1
        yield { bytes: buffer.subarray(offset, newline), start: carryStart + offset, end, complete: true }
        offset = newline + 1
      }
      carry = buffer.subarray(offset)
      carryStart += offset
    }
    if (carry.length > 0) yield { bytes: carry, start: carryStart, end: carryStart + carry.length, complete: false }
  } finally {
    fs.closeSync(fd)
  }
}

/** Where a verified read begins: a segment, a byte offset in it, and the entry the next line must follow. */
export interface ReadStart {
  segment: number
  offset: number
  after: ChainPoint
}

/** A read of the whole journal, from its first line. */
export const FROM_THE_START: ReadStart = { segment: 0, offset: 0, after: GENESIS }

/** `ahead`: the journal ends before the point (lines were lost); `reason` says what is missing or different. */
export type Located = { found: true; start: ReadStart } | { found: false; reason: string; ahead: boolean }

/**
 * Finds where the entries after `point` begin, reading only the segment that holds them.
 * `point` must be in the journal: an entry with that seq and hash, or the prev of entry seq+1.
 */
export function locate(segments: readonly Segment[], point: ChainPoint): Located {
  if (point.seq === 0) return { found: true, start: FROM_THE_START }
  const differs = { found: false, ahead: false, reason: say('chain.differsAt', { seq: point.seq }) } as const
  const next = segments.findIndex((segment) => segment.first === point.seq + 1)
  if (next !== -1) {
    const line = firstLine(segments[next].file, 0)
    const entry = line && parseLine(line.bytes)
    return entry && entry.prev !== point.hash ? differs : { found: true, start: { segment: next, offset: 0, after: point } }
  }
  const holder = segments.findLastIndex((segment) => segment.first <= point.seq)
  if (holder === -1) return { found: false, ahead: false, reason: say('chain.noEntry', { seq: point.seq }) }
  const { first, file } = segments[holder]
  const skipped = skipLines(file, point.seq - first)
  const anchor = skipped.found ? firstLine(file, skipped.offset) : null
  if (anchor) {
    const entry = parseLine(anchor.bytes)
    return entry?.seq === point.seq && entry.hash === point.hash ? { found: true, start: { segment: holder, offset: anchor.end, after: point } } : differs
  }
  const ahead = holder === segments.length - 1
  const whole = skipped.found ? point.seq - first : skipped.lines
  return { found: false, ahead, reason: ahead ? say('chain.endsAt', { seq: first + whole - 1 }) : say('chain.missing', { seq: point.seq }) }
}

/** The first whole line of `file` from byte `from`, or null. */
function firstLine(file: string, from: number): Line | null {
  for (const line of readLines(file, from)) return line.complete ? line : null
  return null
}

/** Where line `count` + 1 of `file` starts, found by counting newlines without decoding a line; else how many lines it has. */
function skipLines(file: string, count: number): { found: true; offset: number } | { found: false; lines: number } {
  if (count === 0) return { found: true, offset: 0 }
  const fd = fs.openSync(file, 'r')
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    let lines = 0
    for (let position = 0; ; ) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, position)
      if (read === 0) return { found: false, lines }
      for (let newline = chunk.indexOf(NEWLINE); newline !== -1 && newline < read; newline = chunk.indexOf(NEWLINE, newline + 1)) {
        if (++lines === count) return { found: true, offset: position + newline + 1 }
      }
      position += read
    }
  } finally {
    fs.closeSync(fd)
  }
}

export interface ChainRead {
  /** The last verified entry (or the start point, when none followed it). */
  last: ChainPoint
  /** An incomplete last line of the last segment: its write never finished, so it was never acknowledged. */
  tornTail: { line: number; bytes: number } | null
  /** The first line that breaks the chain; nothing from it on is trusted. */
  broken: { line: number; file: string; reason: string } | null
  /** Bytes of the last segment up to its last verified line: where a torn tail starts. */
  tailBytes: number
}

/**
 * Verifies every line from `start` to the end of the last segment, handing each entry to `visit` as
 * it goes, with where the next line starts (to resume a later read there, or to tell progress).
 */
export function readChain(segments: readonly Segment[], start: ReadStart, visit: (entry: JournalEntry, next: ReadStart) => void): ChainRead {
  return walkChain(segments, start, checkEntry, visit)
}

/** readChain for a reader that needs only each line's chain point (the audit): the same verdicts, without parsing the lines that pass. */
export function readChainPoints(segments: readonly Segment[], start: ReadStart, visit: (point: ChainPoint, next: ReadStart) => void): ChainRead {
  return walkChain(segments, start, checkPoint, visit)
}

function walkChain<E extends ChainPoint>(segments: readonly Segment[], start: ReadStart, check: LineCheck<E>, visit: (entry: E, next: ReadStart) => void): ChainRead {
  let last = start.after
  let tailBytes = 0
  for (let index = start.segment; index < segments.length; index++) {
    const { first, file } = segments[index]
    const isLast = index === segments.length - 1
    const offset = index === start.segment ? start.offset : 0
    let lineNumber = offset === 0 ? first : last.seq + 1
    const stop = (found: Pick<ChainRead, 'tornTail' | 'broken'>): ChainRead => ({ last, tailBytes, ...found })
    const broken = (reason: string) => stop({ tornTail: null, broken: { line: lineNumber, file, reason } })
    if (offset === 0 && first !== last.seq + 1) return broken(say('chain.fileStart', { file: path.basename(file), seq: last.seq + 1 }))
    tailBytes = offset
    for (const line of readLines(file, offset)) {
      // Only the newline proves a write finished: a final line of the last segment without one is a
      // write that never returned (never acknowledged), cut off whether or not its bytes parse. A
      // line that has its newline was acknowledged, so one that does not parse is damage, last or not.
      if (!line.complete && isLast) return stop({ tornTail: { line: lineNumber, bytes: line.end - line.start }, broken: null })
      if (!line.complete) return broken(say('chain.cutShort'))
      const entry = check(line.bytes, last)
      if (typeof entry === 'string') return broken(entry)
      last = { seq: entry.seq, hash: entry.hash }
      visit(entry, { segment: index, offset: line.end, after: last })
      tailBytes = line.end
      lineNumber++
    }
  }
  return { last, tailBytes, tornTail: null, broken: null }
}
