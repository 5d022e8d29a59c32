// The journal on real files: fsync'd appends, the hash chain, torn tails cut off, damage detected and left alone.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LedgerEventData } from '../../electron/ledger/events'
import { GENESIS_HASH, hashEntry, Journal, JOURNAL_FILE } from '../../electron/ledger/journal'

let dir: string
let journalPath: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-journal-'))
  journalPath = path.join(dir, JOURNAL_FILE)
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

/** Writes `count` entries through a journal that is then closed, and returns the file's lines. */
function writeEntries(count: number): string[] {
  const { journal } = Journal.open(dir)
  for (let i = 1; i <= count; i++) journal.append('recharge.outcome', outcome(`A${i}`), `2025-01-0${i}T10:00:00.000Z`)
  journal.close()
  return readLines()
}

function readLines(): string[] {
  return fs.readFileSync(journalPath, 'utf8').split('\n').slice(0, -1)
}

function reopen(): ReturnType<typeof Journal.open> {
  const opened = Journal.open(dir)
  opened.journal.close()
  return opened
}

describe('appending', () => {
  it('creates the journal in a fresh folder and writes one chained line per event', () => {
    const { journal, scan } = Journal.open(dir)
    expect(scan).toEqual({ entries: [], validBytes: 0, tornTail: null, broken: null })
    const first = journal.append('recharge.outcome', outcome('A1'), '2025-01-01T10:00:00.000Z')
    // The line is on disk the moment append returns.
    expect(readLines()).toHaveLength(1)
    const second = journal.append('recharge.outcome', outcome('A2'), '2025-01-01T10:00:01.000Z')
    journal.close()

    const lines = readLines().map((line) => JSON.parse(line))
    expect(lines).toEqual([first, second])
    expect(lines.map((line) => Object.keys(line))).toEqual([
      ['seq', 'at', 'type', 'data', 'prev', 'hash'],
      ['seq', 'at', 'type', 'data', 'prev', 'hash'],
    ])
    expect(first).toMatchObject({ seq: 1, prev: GENESIS_HASH, data: outcome('A1') })
    expect(second).toMatchObject({ seq: 2, prev: first.hash })
    expect(first.hash).toBe(hashEntry(GENESIS_HASH, first))
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(second.hash).not.toBe(first.hash)
  })

  it('reads its entries back verified and continues the chain after reopening', () => {
    const lines = writeEntries(3)
    const { journal, scan } = Journal.open(dir)
    expect(scan.entries).toEqual(lines.map((line) => JSON.parse(line)))
    expect(scan.broken).toBeNull()
    expect(journal.lastSeq).toBe(3)
    const fourth = journal.append('recharge.outcome', outcome('A4'), '2025-01-04T10:00:00.000Z')
    journal.close()
    expect(fourth).toMatchObject({ seq: 4, prev: scan.entries[2].hash })
    expect(reopen().scan.entries).toHaveLength(4)
  })

  it('hashes exactly prev, a newline and the JSON of seq, at, type and data', () => {
    const body = { seq: 1, at: '2025-01-01T10:00:00.000Z', type: 'recharge.outcome' as const, data: outcome('A1') }
    const expected = createHash('sha256').update(`${GENESIS_HASH}\n${JSON.stringify(body)}`).digest('hex')
    expect(hashEntry(GENESIS_HASH, body)).toBe(expected)
  })
})

describe('a torn tail', () => {
  it('is reported and cut off, and the next append follows the last whole line', () => {
    const lines = writeEntries(2)
    const goodSize = fs.statSync(journalPath).size
    const third = JSON.stringify({ seq: 3, at: 'x', type: 'recharge.outcome', data: {}, prev: GENESIS_HASH, hash: GENESIS_HASH })
    fs.appendFileSync(journalPath, third.slice(0, 25))

    const { journal, scan } = Journal.open(dir)
    expect(scan.tornTail).toEqual({ line: 3, bytes: 25 })
    expect(scan.broken).toBeNull()
    expect(scan.entries).toHaveLength(2)
    expect(fs.statSync(journalPath).size).toBe(goodSize)

    const appended = journal.append('recharge.outcome', outcome('A3'), '2025-01-03T10:00:00.000Z')
    journal.close()
    expect(appended).toMatchObject({ seq: 3, prev: JSON.parse(lines[1]).hash })
    const after = reopen().scan
    expect(after.tornTail).toBeNull()
    expect(after.entries.map((entry) => entry.seq)).toEqual([1, 2, 3])
  })

  it('includes a whole last line that is not JSON', () => {
    writeEntries(2)
    fs.appendFileSync(journalPath, '\0\0\0\0\n')
    const { scan } = reopen()
    expect(scan.tornTail).toEqual({ line: 3, bytes: 5 })
    expect(scan.entries).toHaveLength(2)
    expect(readLines()).toHaveLength(2)
  })
})

describe('damage in the middle', () => {
  function expectDamage(line: number, reason: RegExp): void {
    const before = fs.readFileSync(journalPath)
    const { journal, scan } = Journal.open(dir)
    try {
      expect(scan.broken).toEqual({ line, reason: expect.stringMatching(reason) })
      expect(scan.tornTail).toBeNull()
      expect(scan.entries).toHaveLength(line - 1)
      expect(() => journal.append('recharge.outcome', outcome('X'), '2025-02-01T00:00:00.000Z')).toThrow(/damaged at line/)
    } finally {
      journal.close()
    }
    // Damage is evidence: the file is left exactly as found.
    expect(fs.readFileSync(journalPath).equals(before)).toBe(true)
  }

  it('detects an edited line by its hash', () => {
    const lines = writeEntries(3)
    lines[1] = lines[1].replace('"OP-1"', '"OP-9"')
    fs.writeFileSync(journalPath, lines.join('\n') + '\n')
    expectDamage(2, /do not match its hash/)
  })

  it('detects an edited line whose hash was recomputed, at the line after it', () => {
    const lines = writeEntries(3)
    const edited = JSON.parse(lines[1])
    edited.data.message = 'changed'
    edited.hash = hashEntry(edited.prev, edited)
    lines[1] = JSON.stringify(edited)
    fs.writeFileSync(journalPath, lines.join('\n') + '\n')
    expectDamage(3, /does not link/)
  })

  it('detects a removed line by the gap in the sequence', () => {
    const lines = writeEntries(3)
    fs.writeFileSync(journalPath, [lines[0], lines[2]].join('\n') + '\n')
    expectDamage(2, /expected entry #2 but found #3/)
  })

  it('treats an unreadable line that is not the last as damage, not as a torn tail', () => {
    const lines = writeEntries(3)
    lines[1] = lines[1].slice(0, 30)
    fs.writeFileSync(journalPath, lines.join('\n') + '\n')
    expectDamage(2, /not a journal line/)
  })
})
