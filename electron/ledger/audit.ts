// The full audit of the journal: every line's hash chain from the first. Segments are closed once
// rotated and never written again, so a closed segment that passed is sealed with the digest of its
// bytes; the next audit re-reads a sealed segment only if its bytes changed. Hashing a file is
// several times cheaper than re-checking its lines one by one, which five years of sales make slow.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomically } from './durable-files'
import { FROM_THE_START, JOURNAL_DIR, LEGACY_JOURNAL_FILE, listSegments, readChain, type ChainPoint, type ReadStart, type Segment } from './segments'

const SEALS_FILE = 'sealed.json'

interface Seal {
  /** sha256 of the segment's bytes when it passed. */
  digest: string
  entries: number
  /** The chain point the segment continues from, and the one it ends on. */
  after: ChainPoint
  last: ChainPoint
}

type Seals = Record<string, Seal>

function digestOf(file: string): string {
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

const samePoint = (a: ChainPoint, b: ChainPoint) => a.seq === b.seq && a.hash === b.hash

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

/**
 * Streams the journal from its first line (sealed segments by digest) and checks the whole chain,
 * holding one chunk at a time; seals the closed segments that pass.
 */
export function verifyJournal(dir: string): { entries: number; ok: boolean; problem: string | null } {
  const journalDir = path.join(dir, JOURNAL_DIR)
  const segments = listSegments(journalDir)
  const legacy = path.join(dir, LEGACY_JOURNAL_FILE)
  if (segments.length === 0 && fs.existsSync(legacy)) segments.push({ first: 1, file: legacy })
  const seals = readSeals(journalDir)
  const { start, entries: sealedEntries } = sealedPrefix(segments, seals)

  let entries = sealedEntries
  let segmentIndex = start.segment
  let segmentStart = { point: start.after, entries }
  const newSeals: Seals = {}
  const read = readChain(segments, start, (entry) => {
    entries++
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
    ? `Line ${read.broken.line} (${path.basename(read.broken.file)}): ${read.broken.reason}.`
    : read.tornTail
      ? `The last line (line ${read.tornTail.line}) is incomplete: it was never confirmed.`
      : null
  if (Object.keys(newSeals).length > 0 && segments[0]?.file !== legacy) {
    try {
      writeFileAtomically(journalDir, SEALS_FILE, Buffer.from(JSON.stringify({ ...seals, ...newSeals })))
    } catch {
      // Sealing only saves time next audit; the audit's answer stands without it.
    }
  }
  return { entries, ok: problem === null, problem }
}
