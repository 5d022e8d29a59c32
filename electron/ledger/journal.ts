// The append-only, hash-chained journal: fsync'd appends to the newest segment, rotation, and verified reads.
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import {
  GENESIS,
  hashEntry,
  JOURNAL_DIR,
  LEGACY_JOURNAL_FILE,
  listSegments,
  locate,
  readChain,
  segmentName,
  type ChainPoint,
  type ChainRead,
  type Located,
  type ReadStart,
  type Segment,
} from './segments'
import { syncDirectory, writeFully } from './durable-files'

export { FROM_THE_START, GENESIS, GENESIS_HASH, hashEntry, JOURNAL_DIR, LEGACY_JOURNAL_FILE, segmentName } from './segments'
export type { ChainPoint, ChainRead, Located, ReadStart } from './segments'
export { verifyJournal } from './audit'

/**
 * Moves a journal.ndjson written before segments existed into journal/ as its first segment.
 * Returns why it could not, when both layouts hold lines: Counter will not guess which is the record.
 */
function adoptLegacyJournal(dir: string, journalDir: string): string | null {
  const legacy = path.join(dir, LEGACY_JOURNAL_FILE)
  if (!fs.existsSync(legacy)) return null
  if (listSegments(journalDir).length > 0) {
    return `both ${LEGACY_JOURNAL_FILE} and the ${JOURNAL_DIR} folder hold a journal; move one of them aside`
  }
  fs.renameSync(legacy, path.join(journalDir, segmentName(1)))
  syncDirectory(journalDir)
  syncDirectory(dir)
  return null
}

export class Journal {
  private fd: number | null
  private size = 0
  private last: ChainPoint = GENESIS
  private unusable: string | null = 'the journal has not been read yet'

  private constructor(
    private readonly journalDir: string,
    private readonly segments: Segment[],
    /** Set when the folder holds two journals: the journal is then read but never written. */
    readonly conflict: string | null,
  ) {
    this.fd = fs.openSync(segments[segments.length - 1].file, 'a+')
  }

  /** Opens the journal in `dir` (creating or adopting it); nothing is read until `readFrom`. */
  static open(dir: string): Journal {
    const journalDir = path.join(dir, JOURNAL_DIR)
    fs.mkdirSync(journalDir, { recursive: true })
    const conflict = adoptLegacyJournal(dir, journalDir)
    const segments = listSegments(journalDir)
    const created = segments.length === 0
    if (created) segments.push({ first: 1, file: path.join(journalDir, segmentName(1)) })
    const journal = new Journal(journalDir, segments, conflict)
    try {
      if (created) syncDirectory(journalDir)
    } catch (error) {
      journal.close()
      throw error
    }
    return journal
  }

  /** Where the entries after `point` (a snapshot's position) begin, reading only the segment that holds them. */
  locate(point: ChainPoint): Located {
    return locate(this.segments, point)
  }

  /**
   * Verifies the journal from `start` to its end, handing each entry to `visit`, and gets ready to
   * append after the last good line: a torn tail is cut off. A broken chain is left exactly as found
   * (it is evidence) and makes the journal refuse appends.
   */
  readFrom(start: ReadStart, visit: (entry: JournalEntry) => void): ChainRead {
    if (this.fd === null) throw new Error('the journal is closed')
    const read = readChain(this.segments, start, visit)
    this.last = read.last
    this.size = fs.fstatSync(this.fd).size
    this.unusable = this.conflict ?? (read.broken ? `the journal is damaged at line ${read.broken.line}` : null)
    if (read.tornTail && this.unusable === null) {
      fs.ftruncateSync(this.fd, read.tailBytes)
      fs.fsyncSync(this.fd)
      this.size = read.tailBytes
    }
    return read
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

  /**
   * Starts a new segment once the current one is larger than `maxBytes`. Called right after a
   * snapshot, so the next open finds the snapshot's entries before the new segment and reads only it.
   */
  rotateIfLarger(maxBytes: number): boolean {
    if (this.fd === null || this.unusable || this.size <= maxBytes) return false
    const segment = { first: this.last.seq + 1, file: path.join(this.journalDir, segmentName(this.last.seq + 1)) }
    const fd = fs.openSync(segment.file, 'a+')
    try {
      syncDirectory(this.journalDir)
    } catch (error) {
      // A segment whose name is not durable must not receive lines: go on in the current one.
      fs.closeSync(fd)
      fs.rmSync(segment.file, { force: true })
      throw error
    }
    fs.closeSync(this.fd)
    this.fd = fd
    this.size = 0
    this.segments.push(segment)
    return true
  }

  close(): void {
    if (this.fd === null) return
    fs.closeSync(this.fd)
    this.fd = null
  }
}

