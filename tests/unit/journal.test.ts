// The journal on real files: fsync'd appends, segments and their rotation, the hash chain across them, torn tails cut off, damage detected and left alone.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JournalEntry, LedgerEventData } from '../../electron/ledger/events'
import {
  FROM_THE_START,
  GENESIS_HASH,
  hashEntry,
  Journal,
  JOURNAL_DIR,
  LEGACY_JOURNAL_FILE,
  segmentName,
  verifyJournal,
} from '../../electron/ledger/journal'
import { listSegments, readChain, readChainPoints } from '../../electron/ledger/segments'
import { speakAll } from '../../electron/shared/words'
import { thrownInEnglish } from '../helpers/english-replies'

/** Why the chain broke, as the books' notices say it in English (segments.ts says it for the screen's language). */
const inEnglish = <T>(value: T): T => speakAll(value, 'en')

let dir: string
const segmentPath = (first: number) => path.join(dir, JOURNAL_DIR, segmentName(first))
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-journal-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const outcome = (orderId: string): LedgerEventData['recharge.outcome'] => ({
  orderId,
  source: 'transaction',
  outcome: 'SUCCESS',
  providerStatus: 'Success',
  message: 'Recharge done ✓',
  fpayId: null,
  operatorRef: 'OP-1',
})

/** Opens the journal and reads it all, as a ledger without a snapshot does. */
function openAndRead(): { journal: Journal; read: ReturnType<Journal['readFrom']>; entries: JournalEntry[] } {
  const journal = Journal.open(dir)
  const entries: JournalEntry[] = []
  const read = journal.readFrom(FROM_THE_START, (entry) => entries.push(entry))
  return { journal, read, entries }
}

function reopen(): ReturnType<typeof openAndRead> {
  const opened = openAndRead()
  opened.journal.close()
  return opened
}

let clock = 0
const append = (journal: Journal, orderId: string) => journal.append('recharge.outcome', outcome(orderId), new Date(Date.UTC(2025, 0, 1) + 1000 * clock++).toISOString())

/** Writes `count` entries, starting a new segment after each entry number in `rotateAfter`, and closes. */
function writeEntries(count: number, rotateAfter: number[] = []): void {
  const { journal } = openAndRead()
  for (let i = journal.lastSeq + 1; i <= count; i++) {
    append(journal, `A${i}`)
    if (rotateAfter.includes(i)) expect(journal.rotateIfLarger(0)).toBe(true)
  }
  journal.close()
}

const linesOf = (file: string) => fs.readFileSync(file, 'utf8').split('\n').slice(0, -1)

describe('appending', () => {
  it('creates the first segment in a fresh folder and writes one chained line per event', () => {
    const { journal, read, entries } = openAndRead()
    expect(entries).toEqual([])
    expect(read).toEqual({ last: { seq: 0, hash: GENESIS_HASH }, tailBytes: 0, tornTail: null, broken: null })
    const first = append(journal, 'A1')
    // The line is on disk the moment append returns.
    expect(linesOf(segmentPath(1))).toHaveLength(1)
    const second = append(journal, 'A2')
    journal.close()

    const lines = linesOf(segmentPath(1)).map((line) => JSON.parse(line))
    expect(lines).toEqual([first, second])
    expect(lines.map((line) => Object.keys(line))).toEqual([
      ['seq', 'at', 'type', 'data', 'prev', 'hash'],
      ['seq', 'at', 'type', 'data', 'prev', 'hash'],
    ])
    expect(first).toMatchObject({ seq: 1, prev: GENESIS_HASH, data: outcome('A1') })
    expect(second).toMatchObject({ seq: 2, prev: first.hash })
    expect(first.hash).toBe(hashEntry(GENESIS_HASH, first))
    expect(second.hash).not.toBe(first.hash)
  })

  it('refuses to append before it has been read', () => {
    const journal = Journal.open(dir)
    expect(thrownInEnglish(() => append(journal, 'A1'))).toMatch(/has not been read/)
    journal.close()
    expect(fs.statSync(segmentPath(1)).size).toBe(0)
  })

  it('reads its entries back verified and continues the chain after reopening', () => {
    writeEntries(3)
    const lines = linesOf(segmentPath(1))
    const { journal, read, entries } = openAndRead()
    expect(entries).toEqual(lines.map((line) => JSON.parse(line)))
    expect(read.broken).toBeNull()
    expect(journal.lastSeq).toBe(3)
    const fourth = append(journal, 'A4')
    journal.close()
    expect(fourth).toMatchObject({ seq: 4, prev: entries[2].hash })
    expect(reopen().entries).toHaveLength(4)
  })

  it('hashes exactly prev, a newline and the JSON of seq, at, type and data', () => {
    const body = { seq: 1, at: '2025-01-01T10:00:00.000Z', type: 'recharge.outcome' as const, data: outcome('A1') }
    const expected = createHash('sha256').update(`${GENESIS_HASH}\n${JSON.stringify(body)}`).digest('hex')
    expect(hashEntry(GENESIS_HASH, body)).toBe(expected)
  })
})

describe('segments', () => {
  it('rotate to a file named by the next entry once larger than asked, and chain across files', () => {
    const { journal } = openAndRead()
    append(journal, 'A1')
    append(journal, 'A2')
    const size = fs.statSync(segmentPath(1)).size
    expect(journal.rotateIfLarger(size)).toBe(false)
    expect(journal.rotateIfLarger(size - 1)).toBe(true)
    expect(fs.readdirSync(path.join(dir, JOURNAL_DIR)).sort()).toEqual([segmentName(1), segmentName(3)])
    const third = append(journal, 'A3')
    journal.close()
    expect(linesOf(segmentPath(1))).toHaveLength(2)
    expect(linesOf(segmentPath(3)).map((line) => JSON.parse(line))).toEqual([third])
    const { entries, read } = reopen()
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3])
    expect(third.prev).toBe(entries[1].hash)
    expect(read.broken).toBeNull()
  })

  it('let a read start after a known entry without opening older segments', () => {
    writeEntries(5, [2])
    const anchor = JSON.parse(linesOf(segmentPath(1))[1]) as JournalEntry
    // The old segment is unreadable: only the segment after the anchor may be touched.
    fs.writeFileSync(segmentPath(1), 'not a journal\n')
    const journal = Journal.open(dir)
    const located = journal.locate({ seq: 2, hash: anchor.hash })
    expect(located).toEqual({ found: true, start: { segment: 1, offset: 0, after: { seq: 2, hash: anchor.hash } } })
    const seen: number[] = []
    if (located.found) journal.readFrom(located.start, (entry) => seen.push(entry.seq))
    expect(seen).toEqual([3, 4, 5])
    expect(append(journal, 'A6').seq).toBe(6)
    journal.close()
  })

  it('let a read start in the middle of a segment, checking the entry it starts after', () => {
    writeEntries(5)
    const [, , third] = linesOf(segmentPath(1)).map((line) => JSON.parse(line) as JournalEntry)
    const journal = Journal.open(dir)
    const located = journal.locate({ seq: 3, hash: third.hash })
    const seen: number[] = []
    if (located.found) journal.readFrom(located.start, (entry) => seen.push(entry.seq))
    expect(seen).toEqual([4, 5])
    expect(inEnglish(journal.locate({ seq: 3, hash: GENESIS_HASH }))).toEqual({ found: false, ahead: false, reason: expect.stringMatching(/does not match/) })
    expect(inEnglish(journal.locate({ seq: 9, hash: third.hash }))).toEqual({ found: false, ahead: true, reason: "the journal's readable lines end at #5" })
    journal.close()
  })

  it('adopt a journal.ndjson from before segments as the first segment', () => {
    writeEntries(3)
    const bytes = fs.readFileSync(segmentPath(1))
    fs.rmSync(path.join(dir, JOURNAL_DIR), { recursive: true })
    fs.writeFileSync(path.join(dir, LEGACY_JOURNAL_FILE), bytes)
    expect(verifyJournal(dir)).toEqual({ entries: 3, ok: true, problem: null })

    const { journal, entries } = openAndRead()
    expect(journal.conflict).toBeNull()
    expect(entries).toHaveLength(3)
    expect(fs.existsSync(path.join(dir, LEGACY_JOURNAL_FILE))).toBe(false)
    expect(fs.readFileSync(segmentPath(1)).equals(bytes)).toBe(true)
    expect(append(journal, 'A4').seq).toBe(4)
    journal.close()
  })

  it('refuse to write, and leave both alone, when journal.ndjson and segments both exist', () => {
    writeEntries(2)
    fs.writeFileSync(path.join(dir, LEGACY_JOURNAL_FILE), fs.readFileSync(segmentPath(1)))
    const { journal, entries } = openAndRead()
    expect(inEnglish(journal.conflict)).toMatch(/both journal\.ndjson and the journal folder hold a journal/)
    expect(entries).toHaveLength(2)
    expect(thrownInEnglish(() => append(journal, 'A3'))).toMatch(/nothing more can be written/)
    journal.close()
    expect(fs.existsSync(path.join(dir, LEGACY_JOURNAL_FILE))).toBe(true)
  })
})

describe('a torn tail', () => {
  it('is reported and cut off, and the next append follows the last whole line', () => {
    writeEntries(2)
    const lines = linesOf(segmentPath(1))
    const goodSize = fs.statSync(segmentPath(1)).size
    const third = JSON.stringify({ seq: 3, at: 'x', type: 'recharge.outcome', data: {}, prev: GENESIS_HASH, hash: GENESIS_HASH })
    fs.appendFileSync(segmentPath(1), third.slice(0, 25))
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: 2, ok: false, problem: expect.stringMatching(/line 3\) is incomplete/) })

    const { journal, read, entries } = openAndRead()
    expect(read.tornTail).toEqual({ line: 3, bytes: 25 })
    expect(read.broken).toBeNull()
    expect(entries).toHaveLength(2)
    expect(fs.statSync(segmentPath(1)).size).toBe(goodSize)

    const appended = append(journal, 'A3')
    journal.close()
    expect(appended).toMatchObject({ seq: 3, prev: JSON.parse(lines[1]).hash })
    const after = reopen()
    expect(after.read.tornTail).toBeNull()
    expect(after.entries.map((entry) => entry.seq)).toEqual([1, 2, 3])
  })

  it('is a last line without its newline even when its bytes parse: that write never returned', () => {
    writeEntries(3)
    const [first, second, third] = linesOf(segmentPath(1))
    expect(JSON.parse(third)).toMatchObject({ seq: 3 })
    fs.writeFileSync(segmentPath(1), `${first}\n${second}\n${third}`)
    const { read, entries } = reopen()
    expect(read.tornTail).toEqual({ line: 3, bytes: Buffer.byteLength(third) })
    expect(entries).toHaveLength(2)
    expect(fs.readFileSync(segmentPath(1), 'utf8')).toBe(`${first}\n${second}\n`)
  })

  it('is damage, not a torn tail, at the end of a segment that is not the last', () => {
    writeEntries(3, [2])
    fs.appendFileSync(segmentPath(1), '{"seq":3')
    const { read } = reopen()
    expect(inEnglish(read.broken)).toMatchObject({ line: 3, reason: 'it was cut short' })
    expect(read.tornTail).toBeNull()
  })
})

describe('damage: a line with its newline that does not parse or chain', () => {
  function expectDamage(line: number, reason: RegExp): void {
    const before = fs.readFileSync(segmentPath(1))
    const { journal, read, entries } = openAndRead()
    try {
      expect(inEnglish(read.broken)).toEqual({ line, file: segmentPath(1), reason: expect.stringMatching(reason) })
      expect(read.tornTail).toBeNull()
      expect(entries).toHaveLength(line - 1)
      expect(thrownInEnglish(() => append(journal, 'X'))).toMatch(/damaged at line/)
    } finally {
      journal.close()
    }
    // Damage is evidence: the file is left exactly as found.
    expect(fs.readFileSync(segmentPath(1)).equals(before)).toBe(true)
    // The audit, which checks lines on their bytes, gives the parsing read's verdict in its words.
    const { reason: said } = inEnglish(read.broken)!
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: line - 1, ok: false, problem: `Line ${line} (${segmentName(1)}): ${said}.` })
  }

  function rewrite(edit: (lines: string[]) => string[]): void {
    fs.writeFileSync(segmentPath(1), edit(linesOf(segmentPath(1))).join('\n') + '\n')
  }

  it('detects an edited line by its hash', () => {
    writeEntries(3)
    rewrite((lines) => lines.map((line, index) => (index === 1 ? line.replace('"OP-1"', '"OP-9"') : line)))
    expectDamage(2, /do not match its hash/)
  })

  it('detects an edited line whose hash was recomputed, at the line after it', () => {
    writeEntries(3)
    rewrite((lines) => {
      const edited = JSON.parse(lines[1])
      edited.data.message = 'changed'
      edited.hash = hashEntry(edited.prev, edited)
      return [lines[0], JSON.stringify(edited), lines[2]]
    })
    expectDamage(3, /does not link/)
  })

  it('detects a removed line by the gap in the sequence', () => {
    writeEntries(3)
    rewrite((lines) => [lines[0], lines[2]])
    expectDamage(2, /expected entry #2 but found #3/)
  })

  it('treats a whole last line that no longer parses (its final } edited to #) as damage, not as a torn tail', () => {
    writeEntries(3)
    rewrite((lines) => [lines[0], lines[1], lines[2].replace(/}$/, '#')])
    expectDamage(3, /^it is not a journal line$/)
  })

  it('treats a whole last line that is not JSON at all as damage', () => {
    writeEntries(2)
    fs.appendFileSync(segmentPath(1), '\0\0\0\0\n')
    expectDamage(3, /^it is not a journal line$/)
  })

  it('treats an unreadable line that is not the last as damage, not as a torn tail', () => {
    writeEntries(3)
    rewrite((lines) => [lines[0], lines[1].slice(0, 30), lines[2]])
    expectDamage(2, /not a journal line/)
  })
})

describe('verifyJournal', () => {
  /** What reading every line with the audit's byte check finds, beside reading them parsed. */
  const bothReads = () => {
    const segments = listSegments(path.join(dir, JOURNAL_DIR))
    return { points: readChainPoints(segments, FROM_THE_START, () => undefined), entries: readChain(segments, FROM_THE_START, () => undefined) }
  }

  it('passes a line re-spaced by hand, as the parsing read does: its JSON is the same', () => {
    writeEntries(3)
    const lines = linesOf(segmentPath(1))
    fs.writeFileSync(segmentPath(1), [lines[0], lines[1].replaceAll('":', '": '), lines[2]].join('\n') + '\n')
    const { points, entries } = bothReads()
    expect(points).toEqual(entries)
    expect(points.broken).toBeNull()
    expect(verifyJournal(dir)).toEqual({ entries: 3, ok: true, problem: null })
  })

  it('checks lines longer than its buffer, in any script, and still finds an edit deep in one', () => {
    const journal = Journal.open(dir)
    journal.readFrom(FROM_THE_START, () => undefined)
    const long = (orderId: string, text: string) => journal.append('recharge.outcome', { ...outcome(orderId), message: text.repeat(4_000) }, '2025-01-01T10:00:00.000Z')
    long('L1', 'रिचार्ज हुआ ✓ ')
    long('L2', 'ok "quoted" ,"prev":"x" ')
    append(journal, 'L3')
    journal.close()
    expect(verifyJournal(dir)).toEqual({ entries: 3, ok: true, problem: null })
    const lines = linesOf(segmentPath(1))
    expect(lines[1].length).toBeGreaterThan(60_000)
    const deep = lines[1].indexOf('quoted', 30_000)
    fs.writeFileSync(segmentPath(1), [lines[0], `${lines[1].slice(0, deep)}QUOTED${lines[1].slice(deep + 6)}`, lines[2]].join('\n') + '\n')
    const { points, entries } = bothReads()
    expect(points).toEqual(entries)
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: 1, ok: false, problem: `Line 2 (${segmentName(1)}): its contents do not match its hash (the line was changed).` })
  })

  it('gives the parsing read\'s verdict for any one byte changed anywhere in the journal', () => {
    writeEntries(6, [3])
    const files = [segmentPath(1), segmentPath(4)]
    const original = files.map((file) => fs.readFileSync(file))
    fc.assert(
      fc.property(fc.nat(1), fc.nat(), fc.integer({ min: 1, max: 255 }), (which, position, flip) => {
        original.forEach((bytes, index) => fs.writeFileSync(files[index], bytes))
        const damaged = Buffer.from(original[which])
        const at = position % damaged.length
        damaged[at] ^= flip
        fs.writeFileSync(files[which], damaged)
        const { points, entries } = bothReads()
        expect(points).toEqual(entries)
        expect(points.broken ?? points.tornTail).not.toBeNull()
      }),
      { numRuns: 300 },
    )
  })

  it('checks the whole chain across every segment', () => {
    writeEntries(7, [2, 5])
    expect(fs.readdirSync(path.join(dir, JOURNAL_DIR))).toHaveLength(3)
    expect(verifyJournal(dir)).toEqual({ entries: 7, ok: true, problem: null })
  })

  it('finds an edit in an old segment that opening from a later point never reads', () => {
    writeEntries(7, [2, 5])
    const lines = linesOf(segmentPath(3))
    fs.writeFileSync(segmentPath(3), [lines[0].replace('"A3"', '"A9"'), ...lines.slice(1)].join('\n') + '\n')
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: 2, ok: false, problem: `Line 3 (${segmentName(3)}): its contents do not match its hash (the line was changed).` })
  })

  it('seals closed segments that passed, skips them by digest next time, and still finds a later edit in one', () => {
    writeEntries(7, [2, 5])
    expect(verifyJournal(dir)).toEqual({ entries: 7, ok: true, problem: null })
    const seals = JSON.parse(fs.readFileSync(path.join(dir, JOURNAL_DIR, 'sealed.json'), 'utf8'))
    // The two rotated segments, not the one still being appended to.
    expect(Object.keys(seals).sort()).toEqual([segmentName(1), segmentName(3)])
    expect(verifyJournal(dir)).toEqual({ entries: 7, ok: true, problem: null })
    const lines = linesOf(segmentPath(3))
    fs.writeFileSync(segmentPath(3), [lines[0].replace('"A3"', '"A9"'), ...lines.slice(1)].join('\n') + '\n')
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: 2, ok: false, problem: `Line 3 (${segmentName(3)}): its contents do not match its hash (the line was changed).` })
  })

  it('finds a missing segment', () => {
    writeEntries(7, [2, 5])
    fs.rmSync(segmentPath(3))
    expect(inEnglish(verifyJournal(dir))).toEqual({ entries: 2, ok: false, problem: `Line 6 (${segmentName(6)}): the file ${segmentName(6)} should begin with entry #3.` })
  })

  it('finds nothing wrong with a folder that has no journal yet', () => {
    expect(verifyJournal(dir)).toEqual({ entries: 0, ok: true, problem: null })
  })
})
