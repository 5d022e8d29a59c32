// The full audit of the journal: every line's hash chain from the first. Segments are closed once
// rotated and never written again, so a closed segment that passed is sealed with the digest of its
// bytes; the next audit re-reads a sealed segment only if its bytes changed. Hashing a file is
// several times cheaper than re-checking its lines one by one, which five years of sales make slow.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomically } from './durable-files'
import { say } from '../shared/words'
import { FROM_THE_START, JOURNAL_DIR, LEGACY_JOURNAL_FILE, listSegments, readChainPoints, samePoint, type ChainPoint, type ReadStart, type Segment } from './segments'

const SEALS_FILE = 'sealed.json'

interface Seal {
  /** sha256 of the segment's bytes when it passed. */
  digest: string
  entries: number
  /** The chain point the segment continues from, and the one it ends on. */
  after: ChainPoint
  last: ChainPoint
}

/** The seals file's contents: a seal for each closed segment that passed, by the segment's file name. */
export type Seals = Record<string, Seal>

/** sha256 of a file's bytes, read 4 MiB at a time: also how a backup's copy of a closed year is compared with its original (backup-copy.ts). */
export function digestOf(file: string): string {
  const hash = createHash('sha256')
  const fd = fs.openSync(file, 'r')
  try {
    const chunk = Buffer.allocUnsafe(4 * 1024 * 1024)
    for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) hash.update(chunk.subarray(0, read))
  } finally {
    fs.closeSync(fd)
  }
  return hash.digest('hex')
}

function readSeals(journalDir: string): Seals {
  try {
    return JSON.parse(fs.readFileSync(path.join(journalDir, SEALS_FILE), 'utf8')) as Seals
  } catch {
    // None yet, or unreadable: every segment is simply checked line by line again.
    return {}
  }
}


/** Leading closed segments whose bytes are still what passed, chained one to the next: skipped. */
function sealedPrefix(segments: readonly Segment[], seals: Seals): { start: ReadStart; entries: number } {
  let start = FROM_THE_START
  let entries = 0
  for (let index = 0; index < segments.length - 1; index++) {
    const seal = seals[path.basename(segments[index].file)]
    if (!seal || !samePoint(seal.after, start.after) || digestOf(segments[index].file) !== seal.digest) break
    start = { segment: index + 1, offset: 0, after: seal.last }
    entries += seal.entries
  }
  return { start, entries }
}

export interface JournalAudit {
  entries: number
  ok: boolean
  problem: string | null
}

export interface AuditOptions {
  /**
   * The last entry the asker has written. Decision: an unfinished line after it is an append the
   * ledger is making while this audit reads (it runs in the chores thread), not a torn write.
   */
  through?: number
  /** Bytes checked so far (sealed segments count whole) of the journal's size when the audit began. */
  onProgress?: (done: number, total: number) => void
}

/** Progress is told about a hundred times over a whole audit, not per line. */
const PROGRESS_STEPS = 100

/** An audit's answer, and the seals it earned: the closed segments that passed and are not sealed yet. */
export interface JournalCheck {
  audit: JournalAudit
  newSeals: Seals
}

/** The audit, sealing as it goes: checkJournal, then sealSegments. */
export function verifyJournal(dir: string, options: AuditOptions = {}): JournalAudit {
  const { audit, newSeals } = checkJournal(dir, options)
  sealSegments(dir, newSeals)
  return audit
}

/**
 * Streams the journal from its first line (sealed segments by digest) and checks the whole chain,
 * holding one chunk at a time. Only reads: the audit's own process (audit-process.ts) runs it, and
 * the thread that asked writes the seals.
 */
export function checkJournal(dir: string, { through = Infinity, onProgress }: AuditOptions = {}): JournalCheck {
  const journalDir = path.join(dir, JOURNAL_DIR)
  const segments = listSegments(journalDir)
  const legacy = path.join(dir, LEGACY_JOURNAL_FILE)
  if (segments.length === 0 && fs.existsSync(legacy)) segments.push({ first: 1, file: legacy })
  const seals = readSeals(journalDir)
  // Where each segment starts in the journal as a whole, and the whole's size.
  const starts = [0]
  for (const segment of segments) starts.push(starts[starts.length - 1] + fs.statSync(segment.file).size)
  const total = starts[segments.length]
  let told = -Infinity
  const tell = (done: number) => {
    const now = Math.min(done, total)
    if (now === told || (now < total && now - told < total / PROGRESS_STEPS)) return
    told = now
    onProgress?.(now, total)
  }
  tell(0)
  const { start, entries: sealedEntries } = sealedPrefix(segments, seals)
  tell(starts[start.segment])

  let entries = sealedEntries
  let segmentIndex = start.segment
  let segmentStart = { point: start.after, entries }
  const newSeals: Seals = {}
  const read = readChainPoints(segments, start, (entry, resumeAt) => {
    entries++
    tell(starts[resumeAt.segment] + resumeAt.offset)
    const next = segments[segmentIndex + 1]
    // The entry just before the next segment's first closes this one: it can be sealed.
    if (next && entry.seq === next.first - 1) {
      const file = segments[segmentIndex].file
      const last = { seq: entry.seq, hash: entry.hash }
      newSeals[path.basename(file)] = { digest: digestOf(file), entries: entries - segmentStart.entries, after: segmentStart.point, last }
      segmentIndex++
      segmentStart = { point: last, entries }
    }
  })
  const problem = read.broken
    ? say('audit.lineBroken', { line: read.broken.line, file: path.basename(read.broken.file), reason: read.broken.reason })
    : read.tornTail && read.last.seq < through
      ? say('audit.tornTail', { line: read.tornTail.line })
      : null
  tell(total)
  // A legacy journal (one file, before segments) has no closed segment to seal.
  const sealable = segments[0]?.file !== legacy
  return { audit: { entries, ok: problem === null, problem }, newSeals: sealable ? newSeals : {} }
}

/** Adds `newSeals` to the seals file; a failure only costs the next audit time, so it is not one. */
export function sealSegments(dir: string, newSeals: Seals): void {
  if (Object.keys(newSeals).length === 0) return
  const journalDir = path.join(dir, JOURNAL_DIR)
  try {
    writeFileAtomically(journalDir, SEALS_FILE, Buffer.from(JSON.stringify({ ...readSeals(journalDir), ...newSeals })))
  } catch {
    // Sealing only saves time next audit; the audit's answer stands without it.
  }
}
