// The append-only, hash-chained journal (journal.ndjson): fsync'd appends, and reading it back verified.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import { syncDirectory, writeFully } from './snapshot'

export const JOURNAL_FILE = 'journal.ndjson'
/** The `prev` of the first line: there is no line before it. */
export const GENESIS_HASH = '0'.repeat(64)

const NEWLINE = 0x0a
const HASH_PATTERN = /^[0-9a-f]{64}$/

/** What reading the journal found. Only `entries` (the verified lines) may be trusted. */
export interface JournalScan {
  entries: JournalEntry[]
  /** Bytes taken by the verified lines: where a torn tail starts. */
  validBytes: number
  /** An incomplete last line: its write was never confirmed, so it was never acknowledged. */
  tornTail: { line: number; bytes: number } | null
  /** The first line that breaks the sequence or the hash chain; nothing from it on is trusted. */
  broken: { line: number; reason: string } | null
}

export function hashEntry(prev: string, body: Pick<JournalEntry, 'seq' | 'at' | 'type' | 'data'>): string {
  const { seq, at, type, data } = body
  return createHash('sha256')
    .update(prev + '\n' + JSON.stringify({ seq, at, type, data }))
    .digest('hex')
}

function parseLine(text: string): JournalEntry | null {
  let value: unknown
  try {
    value = JSON.parse(text)
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

function chainProblem(entry: JournalEntry, expectedSeq: number, prevHash: string): string | null {
  if (entry.seq !== expectedSeq) return `expected entry #${expectedSeq} but found #${entry.seq} (a line was removed or moved)`
  if (entry.prev !== prevHash) return 'it does not link to the line before it (a line was changed, removed or inserted)'
  if (hashEntry(entry.prev, entry) !== entry.hash) return 'its contents do not match its hash (the line was changed)'
  return null
}

/** Verifies the journal's bytes line by line: sequence continuity and the hash chain. */
export function scanJournal(bytes: Uint8Array): JournalScan {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries: JournalEntry[] = []
  let offset = 0
  let lineNumber = 0
  let prevHash = GENESIS_HASH
  const stop = (found: Partial<JournalScan>): JournalScan => ({ entries, validBytes: offset, tornTail: null, broken: null, ...found })

  while (offset < buffer.length) {
    lineNumber++
    const newline = buffer.indexOf(NEWLINE, offset)
    const complete = newline !== -1
    const next = complete ? newline + 1 : buffer.length
    const entry = parseLine(buffer.toString('utf8', offset, complete ? newline : buffer.length))
    // A last line without its newline, or one that is not even JSON, is a write that never
    // finished (so was never acknowledged); anything else that fails is damage.
    if (!complete || (entry === null && next === buffer.length)) {
      return stop({ tornTail: { line: lineNumber, bytes: buffer.length - offset } })
    }
    if (entry === null) return stop({ broken: { line: lineNumber, reason: 'it is not a journal line' } })
    const reason = chainProblem(entry, entries.length + 1, prevHash)
    if (reason !== null) return stop({ broken: { line: lineNumber, reason } })
    entries.push(entry)
    prevHash = entry.hash
    offset = next
  }
  return stop({})
}

function readWhole(fd: number): Buffer {
  // Read exactly the size the file has now: a device or a growing file must not make this loop forever.
  const bytes = Buffer.alloc(fs.fstatSync(fd).size)
  let read = 0
  while (read < bytes.length) {
    const count = fs.readSync(fd, bytes, read, bytes.length - read, read)
    if (count === 0) break
    read += count
  }
  return bytes.subarray(0, read)
}

export class Journal {
  private unusable: string | null

  private constructor(
    private fd: number | null,
    private size: number,
    private last: { seq: number; hash: string },
    broken: JournalScan['broken'],
  ) {
    this.unusable = broken ? `the journal is damaged at line ${broken.line}` : null
  }

  /**
   * Opens (creating if needed) the journal in `dir`, verifies it, and cuts off a torn tail.
   * A broken chain is left exactly as found (it is evidence) and makes the journal refuse appends.
   */
  static open(dir: string): { journal: Journal; scan: JournalScan } {
    const fd = fs.openSync(path.join(dir, JOURNAL_FILE), 'a+')
    try {
      const bytes = readWhole(fd)
      const scan = scanJournal(bytes)
      let size = bytes.length
      if (scan.tornTail && !scan.broken) {
        fs.ftruncateSync(fd, scan.validBytes)
        fs.fsyncSync(fd)
        size = scan.validBytes
      }
      syncDirectory(dir)
      const lastEntry = scan.entries.at(-1)
      const last = lastEntry ? { seq: lastEntry.seq, hash: lastEntry.hash } : { seq: 0, hash: GENESIS_HASH }
      return { journal: new Journal(fd, size, last, scan.broken), scan }
    } catch (error) {
      fs.closeSync(fd)
      throw error
    }
  }

  get lastSeq(): number {
    return this.last.seq
  }

  /**
   * Writes one line and fsyncs it before returning: only then may the caller act on it.
   * On failure the file is cut back to where it was, so no half line is left for the next append.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T], at: string): JournalEntry<T> {
    if (this.fd === null) throw new Error('the journal is closed')
    if (this.unusable) throw new Error(`${this.unusable}; nothing more can be written`)
    const seq = this.last.seq + 1
    const prev = this.last.hash
    const line = JSON.stringify({ seq, at, type, data, prev, hash: hashEntry(prev, { seq, at, type, data }) }) + '\n'
    const bytes = Buffer.from(line, 'utf8')
    try {
      writeFully(this.fd, bytes)
      fs.fsyncSync(this.fd)
    } catch (error) {
      this.undoPartialWrite(this.fd)
      throw error
    }
    this.size += bytes.length
    // Parsed back from the line itself, so the caller projects exactly what a replay will see.
    const entry = JSON.parse(line) as JournalEntry<T>
    this.last = { seq: entry.seq, hash: entry.hash }
    return entry
  }

  private undoPartialWrite(fd: number): void {
    try {
      fs.ftruncateSync(fd, this.size)
      fs.fsyncSync(fd)
    } catch {
      this.unusable = 'a failed journal write could not be undone; restart Counter'
    }
  }

  close(): void {
    if (this.fd === null) return
    fs.closeSync(this.fd)
    this.fd = null
  }
}
