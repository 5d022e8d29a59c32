// A closed year's export file: written durably, and read back with every line's hash and link checked from the file alone.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { once } from 'node:events'
import zlib from 'node:zlib'
import { syncDirectory } from '../ledger/durable-files'
import { checkEntry, type ChainPoint } from '../ledger/segments'
import { english } from '../shared/words'
import { HASH_BYTES } from './archives'

/** What the first line of the file names it as; a file without it is not one of these. */
const FORMAT = 'counter-office-year'
const FORMAT_VERSION = 1

/** One terminal's lines in the file: consecutive, firstSeq to lastSeq, the first linked to `firstPrev`. */
export interface YearRange {
  terminal: string
  firstSeq: number
  lastSeq: number
  firstPrev: string
  lastHash: string
}

/**
 * The file's first line. Decision: gzip'd JSON lines, the header then each terminal's journal lines in its order and
 * seq order, each exactly as the counter's journal holds it (journal-copy.ts journalLine): the file alone verifies
 * (every hash recomputed, every link followed), and a counter is rebuilt from it line for line (`npm run rebuild -- --archive`).
 */
export interface YearHeader {
  format: typeof FORMAT
  version: typeof FORMAT_VERSION
  year: number
  timeZone: string
  exportedAt: string
  terminals: YearRange[]
}

/** The file is not a verified year export; nothing was done with it. */
export class YearFileProblem extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'YearFileProblem'
  }
}

export const rangeEntries = (range: YearRange) => range.lastSeq - range.firstSeq + 1

/** Progress is told at most this often: slow work says how far it is, without a line per entry. */
const PROGRESS_MS = 2_000

/** Calls `tell(done)` every PROGRESS_MS at most. */
export function progressTeller(tell: ((done: number) => void) | undefined): (done: number) => void {
  let toldAt = Date.now()
  return (done) => {
    if (!tell || Date.now() - toldAt < PROGRESS_MS) return
    toldAt = Date.now()
    tell(done)
  }
}

/**
 * Writes a year's file: into `<file>.partial` (never over an existing file), gzip'd, fsync'd, then renamed to `file`
 * and its folder fsync'd, so a file under the given name is always whole. `lines` gives each terminal's journal lines
 * in the header's order.
 */
export async function writeYearFile(file: string, header: YearHeader, lines: AsyncIterable<string>): Promise<void> {
  if (fs.existsSync(file)) throw new YearFileProblem(`${file} already exists: give a new file name (an export never replaces a file).`)
  const partial = `${file}.partial`
  const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 })
  const gzip = zlib.createGzip()
  gzip.pipe(out)
  const closed = once(out, 'close')
  try {
    const write = async (text: string) => {
      if (!gzip.write(text + '\n')) await once(gzip, 'drain')
    }
    await write(JSON.stringify(header))
    for await (const line of lines) await write(line)
    gzip.end()
    await closed
    const fd = fs.openSync(partial, 'r')
    try {
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(partial, file)
    syncDirectory(path.dirname(path.resolve(file)))
  } catch (error) {
    gzip.destroy()
    out.destroy()
    fs.rmSync(partial, { force: true })
    throw error
  }
}

/** What a verified file holds: its header, every line's hash packed by terminal (as office_archives keeps them), and the file's sha256. */
export interface VerifiedYear {
  header: YearHeader
  hashes: Map<string, Buffer>
  sha256: string
}

/** One line of the file, checked: its terminal, seq and hash, and its text as the counter's journal holds it. */
export interface YearLine {
  terminal: string
  seq: number
  hash: string
  line: string
}

function headerProblem(header: unknown): string | null {
  const h = header as Partial<YearHeader> | null
  if (!h || h.format !== FORMAT) return 'its first line is not a Counter year export'
  if (h.version !== FORMAT_VERSION) return `it is version ${String(h.version)} of the format, and this Counter reads version ${FORMAT_VERSION}`
  if (!Number.isInteger(h.year) || !Array.isArray(h.terminals) || typeof h.timeZone !== 'string') return 'its first line lacks the year, the time zone or the terminals'
  const wellFormed = (r: YearRange) =>
    typeof r.terminal === 'string' && Number.isSafeInteger(r.firstSeq) && Number.isSafeInteger(r.lastSeq) && r.firstSeq > 0 && r.lastSeq >= r.firstSeq && typeof r.firstPrev === 'string' && typeof r.lastHash === 'string'
  if (!h.terminals.every(wellFormed)) return 'a terminal in its first line lacks its range'
  if (new Set(h.terminals.map((r) => r.terminal)).size !== h.terminals.length) return 'its first line names a terminal twice'
  return null
}

/** Filled as `yearFileLines` reads: the header once its first line is read, the file's sha256 once its last is. */
export interface YearFileRead {
  header?: YearHeader
  sha256?: string
}

/**
 * Each line of `file`, checked as the journal checks its own (its hash over its text, its link to the line before, its
 * seq), each terminal's lines exactly its header's range, nothing after the last: the year verifies from the file
 * alone. Throws YearFileProblem in plain words at the first line that does not verify; a reader that stops early has
 * had only the lines it read checked.
 */
export async function* yearFileLines(file: string, read: YearFileRead = {}): AsyncGenerator<YearLine> {
  const problem = (what: string) => new YearFileProblem(`${file} is not a whole, unchanged year export: ${what}. Nothing was done with it.`)
  let input: fs.ReadStream
  try {
    input = fs.createReadStream(file)
    await once(input, 'open')
  } catch (error) {
    throw new YearFileProblem(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): give the path of the year's export file.`)
  }
  const digest = createHash('sha256')
  input.on('data', (chunk) => digest.update(chunk))
  const gunzip = zlib.createGunzip()
  const lines = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity })
  let unzipError: Error | null = null
  const stop = (error: Error) => {
    unzipError = error
    lines.close()
  }
  gunzip.on('error', stop)
  input.on('error', stop)
  let header: YearHeader | null = null
  let rangeIndex = 0
  let at: ChainPoint = { seq: 0, hash: '' }
  const ended = (range: YearRange) => {
    if (at.seq !== range.lastSeq) throw problem(`the lines of ${range.terminal} end at #${at.seq}, and its range at #${range.lastSeq}`)
    if (at.hash !== range.lastHash) throw problem(`the last line of ${range.terminal} is not the one its range names`)
  }
  const begin = (range: YearRange) => (at = { seq: range.firstSeq - 1, hash: range.firstPrev })
  try {
    for await (const text of lines) {
      if (header === null) {
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          parsed = null
        }
        const wrong = headerProblem(parsed)
        if (wrong) throw problem(wrong)
        header = read.header = parsed as YearHeader
        if (header.terminals.length > 0) begin(header.terminals[0])
        continue
      }
      let range = header.terminals[rangeIndex]
      if (range && at.seq === range.lastSeq) {
        ended(range)
        range = header.terminals[++rangeIndex]
        if (range) begin(range)
      }
      if (!range) throw problem('it goes on after the last line its first line names')
      const entry = checkEntry(Buffer.from(text, 'utf8'), at)
      if (typeof entry === 'string') throw problem(`the line after #${at.seq} of ${range.terminal} does not verify (${english(entry)})`)
      at = { seq: entry.seq, hash: entry.hash }
      yield { terminal: range.terminal, seq: entry.seq, hash: entry.hash, line: text }
    }
    if (unzipError) throw problem(`it does not read or unpack (${(unzipError as Error).message})`)
    if (header === null) throw problem('it is empty')
    const last = header.terminals[rangeIndex]
    if (last) ended(last)
    if (rangeIndex < header.terminals.length - 1) throw problem(`it ends before the lines of ${header.terminals[rangeIndex + 1].terminal}`)
    read.sha256 = digest.digest('hex')
  } catch (error) {
    if (error instanceof YearFileProblem) throw error
    throw problem(`it does not read or unpack (${(error as Error).message ?? String(error)})`)
  } finally {
    lines.close()
    input.destroy()
  }
}

/** Reads `file` through (yearFileLines), every line checked; `progress` told the lines read so far. */
export async function readYearFile(file: string, progress?: (done: number) => void): Promise<VerifiedYear> {
  const read: YearFileRead = {}
  const tell = progressTeller(progress)
  const hashes = new Map<string, Buffer>()
  let done = 0
  for await (const { terminal, seq, hash } of yearFileLines(file, read)) {
    const range = read.header!.terminals.find((r) => r.terminal === terminal)!
    let packed = hashes.get(terminal)
    if (!packed) hashes.set(terminal, (packed = Buffer.alloc(rangeEntries(range) * HASH_BYTES)))
    Buffer.from(hash, 'hex').copy(packed, (seq - range.firstSeq) * HASH_BYTES)
    tell(++done)
  }
  return { header: read.header!, hashes, sha256: read.sha256! }
}

/** The first line of `file`: which terminals and ranges it says it holds (the rest is checked when its lines are read). */
export async function readYearHeader(file: string): Promise<YearHeader> {
  const read: YearFileRead = {}
  // The header is read with the first line after it; the reader stops there.
  for await (const first of yearFileLines(file, read)) if (first) break
  if (!read.header) throw new YearFileProblem(`${file} holds no lines: give the file npm run office -- export-year wrote.`)
  return read.header
}
