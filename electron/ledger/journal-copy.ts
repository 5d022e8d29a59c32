// Writes a journal from lines held elsewhere (the head office's copy of a counter's): each line checked against the one before as it is written, in segments, fsync'd.
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry } from './events'
import { checkEntry, GENESIS, JOURNAL_DIR, segmentName, type ChainPoint } from './segments'
import { syncDirectory, writeFully } from './durable-files'
import { say } from '../shared/words'

const NEWLINE = 0x0a
/** Lines are gathered to this size before a write: a million lines' copy makes a few hundred writes, not a million. */
const WRITE_BYTES = 1 << 20

/**
 * The line Journal.append writes for an entry whose hashed text (segments.ts hashedBody, which the head office keeps)
 * is `body`: the same JSON.stringify with prev and hash after data, so the body's text with them before its closing brace.
 */
export function journalLine(body: string, prev: string, hash: string): string {
  return `${body.slice(0, -1)},"prev":"${prev}","hash":"${hash}"}`
}

/**
 * A journal being written, line by line, into `<dir>/journal`, which must not exist yet. Decision: segments are cut
 * as the ledger cuts them (Ledger.open's segmentBytes), at the first line past the size, so a copied journal opens,
 * backs up and is searched as one the counter wrote; where the original was cut is not kept anywhere, and no reader
 * depends on it (a segment is named by its first entry).
 */
export class JournalCopy {
  private readonly journalDir: string
  private fd: number | null = null
  private size = 0
  private pending: Buffer[] = []
  private pendingBytes = 0
  private last: ChainPoint = GENESIS

  constructor(
    dir: string,
    private readonly segmentBytes: number,
  ) {
    this.journalDir = path.join(dir, JOURNAL_DIR)
    fs.mkdirSync(this.journalDir)
  }

  /** The last entry written so far (the genesis point before the first). */
  get end(): ChainPoint {
    return this.last
  }

  /**
   * Appends one line (its text, without the newline) when it follows the line before it: its entry, or in words why
   * it does not (then nothing of it is written). A line of several lines is refused here: written, it would read back
   * as two, neither of them a journal line.
   */
  add(text: string): JournalEntry | string {
    const bytes = Buffer.from(text, 'utf8')
    if (bytes.includes(NEWLINE)) return say('chain.notALine')
    const entry = checkEntry(bytes, this.last)
    if (typeof entry === 'string') return entry
    if (this.fd === null) this.fd = fs.openSync(path.join(this.journalDir, segmentName(entry.seq)), 'wx')
    this.pending.push(bytes, Buffer.from([NEWLINE]))
    this.pendingBytes += bytes.length + 1
    this.size += bytes.length + 1
    this.last = { seq: entry.seq, hash: entry.hash }
    if (this.size > this.segmentBytes) this.closeSegment()
    else if (this.pendingBytes >= WRITE_BYTES) this.writePending(this.fd)
    return entry
  }

  /** Every line added is on disk, names included, when this returns. */
  finish(): void {
    this.closeSegment()
    syncDirectory(this.journalDir)
  }

  /** Lets go of the open segment, as after a failure; what was written stays for the caller to remove. */
  abandon(): void {
    if (this.fd !== null) fs.closeSync(this.fd)
    this.fd = null
  }

  private writePending(fd: number): void {
    writeFully(fd, Buffer.concat(this.pending, this.pendingBytes))
    this.pending = []
    this.pendingBytes = 0
  }

  private closeSegment(): void {
    if (this.fd === null) return
    this.writePending(this.fd)
    fs.fsyncSync(this.fd)
    fs.closeSync(this.fd)
    this.fd = null
    this.size = 0
  }
}
