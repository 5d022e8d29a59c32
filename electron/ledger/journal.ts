// The append-only, hash-chained journal: fsync'd appends to the newest segment, rotation, and verified reads.
import fs from 'node:fs'
import path from 'node:path'
import { LINE_SYNC, type JournalEntry, type LedgerEventData, type LedgerEventType } from './events'
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
import { say, type Said } from '../shared/words'
import { syncDirectory, writeFully } from './durable-files'

export { FROM_THE_START, GENESIS, GENESIS_HASH, hashEntry, JOURNAL_DIR, LEGACY_JOURNAL_FILE, segmentName } from './segments'
export type { ChainPoint, ChainRead, Located, ReadStart } from './segments'
export { verifyJournal } from './audit'

/**
 * Moves a journal.ndjson written before segments existed into journal/ as its first segment.
 * Returns why it could not, when both layouts hold lines: Counter will not guess which is the record.
 */
function adoptLegacyJournal(dir: string, journalDir: string): Said | null {
  const legacy = path.join(dir, LEGACY_JOURNAL_FILE)
  if (!fs.existsSync(legacy)) return null
  if (listSegments(journalDir).length > 0) {
    return say('journal.twoJournals', { file: LEGACY_JOURNAL_FILE, folder: JOURNAL_DIR })
  }
  fs.renameSync(legacy, path.join(journalDir, segmentName(1)))
  syncDirectory(journalDir)
  syncDirectory(dir)
  return null
}

/**
 * The longest a deferred line (events.ts LINE_SYNC) waits for its fsync when no other line brings
 * one. Decision: 200 ms. A deferred line is only at risk from a power cut (a killed process leaves
 * it in the page cache), and 200 ms is less than staff take to read an answer off the screen and
 * hand over a receipt; yet long enough that answers arriving together (several windows, a round of
 * status checks) or a sale's outcome followed by the next sale's intent share one fsync, which is
 * the point when the counter is busy. Shorter buys little: each timer fsync runs off the sale path.
 */
export const DEFERRED_SYNC_MS = 200

export class Journal {
  private fd: number | null
  private size = 0
  /**
   * Bytes of the current segment known to be on disk: everything up to the last fsync that succeeded.
   * Zero after open: a process killed before its deferred fsync leaves lines only in the page cache.
   */
  private synced = 0
  private syncTimer: NodeJS.Timeout | null = null
  private last: ChainPoint = GENESIS
  private unusable: Said | null = say('journal.notRead')
  private readonly unusableListeners = new Set<(reason: string) => void>()

  private constructor(
    private readonly journalDir: string,
    private readonly segments: Segment[],
    /** Set when the folder holds two journals: the journal is then read but never written. */
    readonly conflict: Said | null,
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
    if (this.fd === null) throw new Error(say('journal.closed'))
    const read = readChain(this.segments, start, visit)
    this.last = read.last
    this.size = fs.fstatSync(this.fd).size
    this.unusable = this.conflict ?? (read.broken ? say('journal.damagedAt', { line: read.broken.line }) : null)
    if (read.tornTail && this.unusable === null) {
      fs.ftruncateSync(this.fd, read.tailBytes)
      fs.fsyncSync(this.fd)
      this.size = read.tailBytes
      this.synced = this.size
    }
    return read
  }

  /** Calls `listener` with why, when a failed fsync or undo makes the journal unusable (from the deferred sync's timer too). */
  whenUnusable(listener: (reason: string) => void): void {
    this.unusableListeners.add(listener)
  }

  get lastSeq(): number {
    return this.last.seq
  }

  /**
   * Writes one line, and fsyncs it before returning unless its type may wait (events.ts LINE_SYNC):
   * only then may the caller act on it. An fsync also carries every deferred line before it to disk.
   * On failure the file is cut back to where it was, so no half line is left for the next append.
   */
  append<T extends LedgerEventType>(type: T, data: LedgerEventData[T], at: string): JournalEntry<T> {
    if (this.fd === null) throw new Error(say('journal.closed'))
    if (this.unusable) throw new Error(say('journal.nothingMore', { why: this.unusable }))
    const seq = this.last.seq + 1
    const prev = this.last.hash
    const line = JSON.stringify({ seq, at, type, data, prev, hash: hashEntry(prev, { seq, at, type, data }) }) + '\n'
    const bytes = Buffer.from(line, 'utf8')
    try {
      writeFully(this.fd, bytes)
      if (LINE_SYNC[type] === 'own') this.sync(this.fd)
    } catch (error) {
      this.undoPartialWrite(this.fd)
      throw error
    }
    this.size += bytes.length
    if (LINE_SYNC[type] === 'own') this.synced = this.size
    else this.syncTimer ??= setTimeout(() => this.syncQuietly(), DEFERRED_SYNC_MS)
    // Parsed back from the line itself, so the caller projects exactly what a replay will see.
    const entry = JSON.parse(line) as JournalEntry<T>
    this.last = { seq: entry.seq, hash: entry.hash }
    return entry
  }

  /**
   * Makes every line written so far durable: before a snapshot says the books hold them, before the
   * segment is left for a new one, and at close. Throws why when it cannot: the fsync failed (the
   * journal is then unusable) or the journal was unusable already, its last lines in doubt.
   */
  syncDeferred(): void {
    if (this.fd === null) return
    if (this.unusable) throw new Error(say('journal.nothingMore', { why: this.unusable }))
    if (this.synced === this.size) return
    try {
      this.sync(this.fd)
    } catch (error) {
      throw new Error(say('journal.nothingMore', { why: this.unusable ?? (error as Error).message }))
    }
    this.synced = this.size
  }

  /** For the timer and close, which have no caller to throw to: a failure reaches the listeners (whenUnusable). */
  private syncQuietly(): void {
    try {
      this.syncDeferred()
    } catch {
      // Already told: sync() made the journal unusable.
    }
  }

  /**
   * One fsync. Decision: a failed fsync is never retried when lines wait on it. The kernel may drop
   * the pages it could not write and report the next fsync clean, so nothing written since the last
   * good one can be vouched for: the journal takes no more lines until Counter restarts and reads
   * what is really on disk (a lost sale outcome is then a sale still SENDING, which the start-up
   * status check settles). With nothing waiting, only the line being appended is in doubt, and
   * append cuts it off as before.
   */
  private sync(fd: number): void {
    try {
      fs.fsyncSync(fd)
    } catch (error) {
      if (this.synced < this.size) {
        const said = (error as NodeJS.ErrnoException).code ?? (error as Error).message
        this.becomeUnusable(say('journal.diskError', { code: said }))
      }
      throw error
    } finally {
      this.clearSyncTimer()
    }
  }

  private clearSyncTimer(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer)
    this.syncTimer = null
  }

  private becomeUnusable(reason: Said): void {
    if (this.unusable) return
    this.unusable = reason
    for (const listener of this.unusableListeners) listener(reason)
  }

  private undoPartialWrite(fd: number): void {
    try {
      fs.ftruncateSync(fd, this.size)
      fs.fsyncSync(fd)
      if (!this.unusable) this.synced = this.size
    } catch {
      this.becomeUnusable(say('journal.undoFailed'))
    }
  }

  /**
   * Starts a new segment once the current one is larger than `maxBytes`. Called right after a
   * snapshot, so the next open finds the snapshot's entries before the new segment and reads only it.
   */
  rotateIfLarger(maxBytes: number): boolean {
    if (this.fd === null || this.unusable || this.size <= maxBytes) return false
    // A deferred line lost from the end of this segment would leave a hole in the chain, not a torn tail.
    this.syncDeferred()
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
    this.synced = 0
    this.segments.push(segment)
    return true
  }

  /** Makes deferred lines durable and closes; a failed fsync reaches the listeners, and the file is let go of all the same. */
  close(): void {
    if (this.fd === null) return
    this.syncQuietly()
    this.clearSyncTimer()
    fs.closeSync(this.fd)
    this.fd = null
  }
}

