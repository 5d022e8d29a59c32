// Rebuilds a counter whose PC is gone from the head office: its journal line for line into an empty data folder's real books, the books replayed from it, and its names, so it goes on as the same terminal.
import fs from 'node:fs'
import path from 'node:path'
import { syncDirectory, writeFileAtomically } from '../ledger/durable-files'
import { JournalCopy } from '../ledger/journal-copy'
import { Ledger, SEGMENT_BYTES } from '../ledger/ledger'
import { JOURNAL_DIR, listSegments } from '../ledger/segments'
import type { TerminalName } from '../ledger/terminal-projections'
import { HeldJournalReader, type ArchivedRange, type HeldJournal } from '../office/held-journal'
import { readYearHeader, yearFileLines, YearFileProblem, type YearHeader } from '../office/year-file'
import type { OfficeAddress } from '../office/shipper'
import { english, type Said, say } from '../shared/words'
import { ledgerDir } from './session'
import type { StoredSettings } from './settings'

/**
 * Why nothing was rebuilt, in plain English words. Decision: English only for now: its one caller is the command
 * whoever supports the shop runs (`npm run rebuild`); the restore screen (issue #30) will say them in the screen's language.
 */
export class RebuildRefusal extends Error {
  /** Said, so a screen's restore from the office shows it in its language; `npm run rebuild` prints it in English. */
  constructor(message: Said) {
    super(message)
    this.name = 'RebuildRefusal'
  }
}

/**
 * Where the books are written before they are books: inside the data folder (so the last step is one rename on one
 * disk), under a name Counter never opens. A rebuild cut short (a crash, the power) leaves it, and the folder, no
 * longer empty, is refused until it is removed: never half a journal taken for the shop's books.
 */
const STAGING = 'ledger.rebuilding'
/** As Settings writes settings.json: the OS user's alone. */
const USER_ONLY_FILE = 0o600
const USER_ONLY_FOLDER = 0o700

/** Refuses a data folder that holds anything: a rebuild never replaces books, nor settings, nor a rebuild cut short. */
function refuseUnlessEmpty(dataDir: string): void {
  let names: string[]
  try {
    names = fs.readdirSync(dataDir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    if (code === 'ENOTDIR') throw new RebuildRefusal(say('rebuild.isFile', { dir: dataDir }))
    throw error
  }
  if (names.length === 0) return
  const shown = names.length > 5 ? say('rebuild.andMore', { names: names.slice(0, 5).join(', '), more: names.length - 5 }) : names.join(', ')
  throw new RebuildRefusal(say('rebuild.notEmpty', { dir: dataDir, shown }))
}

/** A year's export file and the ranges its first line says it holds. */
interface ArchiveFile {
  file: string
  header: YearHeader
}

/** The first lines of the year files given (`--archive`), refused in words when one is not a year export. */
async function archiveFiles(files: readonly string[]): Promise<ArchiveFile[]> {
  const read: ArchiveFile[] = []
  for (const file of files) {
    try {
      read.push({ file, header: await readYearHeader(file) })
    } catch (error) {
      if (error instanceof YearFileProblem) throw new RebuildRefusal(say('rebuild.nothingRebuilt', { problem: error.message }))
      throw error
    }
  }
  return read
}

/** The file among `archives` holding exactly `range`, if one was given. */
const fileOf = (archives: readonly ArchiveFile[], range: ArchivedRange) =>
  archives.find(({ header }) => header.terminals.some((r) => r.terminal === range.terminal && r.firstSeq === range.firstSeq && r.lastSeq === range.lastSeq && r.lastHash === range.lastHash))

/** What the office holds of `terminalId`, refused in words when there is nothing a counter could be rebuilt from (with the year files in `archives`). */
async function rebuildable(reader: HeldJournalReader, terminalId: string, archives: readonly ArchiveFile[] = []): Promise<HeldJournal> {
  const held = await reader.held(terminalId)
  if (held === null) {
    const known = await reader.terminals()
    throw new RebuildRefusal(known.length > 0 ? say('rebuild.noTerminal', { terminal: terminalId, known: known.join(', ') }) : say('rebuild.noTerminalYet', { terminal: terminalId }))
  }
  if (held.last.seq === 0) throw new RebuildRefusal(say('rebuild.noEntry', { terminal: terminalId }))
  if (held.textless) {
    const { first, last, count } = held.textless
    throw new RebuildRefusal(count === 1 ? say('rebuild.textlessOne', { seq: first, terminal: terminalId }) : say('rebuild.textless', { count, first, last, terminal: terminalId }))
  }
  const missing = held.archived.filter((range) => !fileOf(archives, range))
  if (missing.length > 0) {
    const named = missing.map((range) =>
      range.terminal === terminalId
        ? say('rebuild.range', { first: range.firstSeq, last: range.lastSeq, year: range.year })
        : say('rebuild.rangeUnder', { first: range.firstSeq, last: range.lastSeq, year: range.year, terminal: range.terminal }),
    )
    throw new RebuildRefusal(say('rebuild.archived', { terminal: terminalId, ranges: named.join('; ') }))
  }
  return held
}

/** What the office holds of `terminalId`, for the owner to see before confirming that its old PC is gone; refused as rebuildFromOffice refuses it. */
export async function lookAtOffice(office: OfficeAddress, terminalId: string, archiveFileNames: readonly string[] = []): Promise<HeldJournal> {
  const archives = await archiveFiles(archiveFileNames)
  const reader = await HeldJournalReader.open(office)
  try {
    return await rebuildable(reader, terminalId, archives)
  } finally {
    await reader.close()
  }
}

export interface RebuildOptions {
  /** The head office, as the counter's Settings → Head office gives it. */
  office: OfficeAddress
  terminalId: string
  /** An empty folder (made when missing): the new PC's data folder. */
  dataDir: string
  /**
   * The owner says the old counter's PC is gone for good. Decision: no rebuild without it: the rebuilt counter
   * continues the terminal, and were the old one to sell again, one of them would be refused as a fork.
   */
  oldCounterGone: true
  /** As Ledger.open's: where the journal is cut into segments. */
  segmentBytes?: number
  /** The year files (`npm run office -- export-year`) holding the terminal's archived ranges, when the office dropped some. */
  archives?: readonly string[]
}

export interface Rebuilt {
  terminal: TerminalName
  /** The journal's entries: the office's, every one. */
  entries: number
  segments: number
  /** What opening the rebuilt books found for the shop to know (as Counter shows at the top of its screens), in English. */
  notices: string[]
}

/**
 * Writes the office's entries of `terminalId` into `dataDir`'s real books (session.ts ledgerDir) as the counter's
 * journal, byte for byte: every line is checked against the one before it as it is written, and against the seq the
 * office files it under. The books are then replayed from it (and saved, as at a counter's exit), and only
 * then renamed into place, fsync'd; settings.json last gets the counter's names, from the journal's own naming, and
 * the office's address (its password, like the provider's secrets, goes to the new PC's keychain through Settings).
 * Its shipping then starts after the office's last entry: the journal is the office's, so nothing forks.
 */
export async function rebuildFromOffice(options: RebuildOptions): Promise<Rebuilt> {
  const { office, terminalId, dataDir } = options
  // Checked when running too: a caller that is not type-checked (a screen's request) must have asked the owner as well.
  if (options.oldCounterGone !== true) throw new RebuildRefusal(say('rebuild.confirmGone', { terminal: terminalId }))
  refuseUnlessEmpty(dataDir)
  const staging = path.join(dataDir, STAGING)
  try {
    const { held, segments } = await journalFromOffice(office, terminalId, staging, options.segmentBytes, options.archives)
    const ledger = await Ledger.open({ dir: staging })
    const named = ledger.read('terminal')
    const damaged = ledger.readOnly
    const notices = [...ledger.notices, ...(await ledger.close())].map((notice) => english(notice))
    if (damaged !== null) throw new RebuildRefusal(say('rebuild.booksDoNotOpen', { problem: damaged }))
    if (named === null) throw new RebuildRefusal(say('rebuild.neverNamed', { terminal: terminalId }))
    // Only the staging folder may be there: anything else appeared meanwhile, and is not replaced.
    refuseUnlessOnly(dataDir, STAGING)
    fs.renameSync(staging, ledgerDir(dataDir, 'real'))
    syncDirectory(dataDir)
    const settings: Partial<StoredSettings> = {
      shopName: named.shop,
      counterName: named.counter,
      officeHost: office.host,
      officePort: office.port,
      officeDatabase: office.database,
      officeUser: office.user,
      officeTls: office.tls,
    }
    writeFileAtomically(dataDir, 'settings.json', Buffer.from(JSON.stringify(settings, null, 2)), { mode: USER_ONLY_FILE })
    return { terminal: named, entries: held.last.seq, segments, notices }
  } catch (error) {
    // Made by journalFromOffice only when this call got that far: a second rebuild running into the same folder stopped before it.
    if (!(error instanceof StagingTaken)) fs.rmSync(staging, { recursive: true, force: true })
    throw error
  }
}

/** Another rebuild is writing into the same folder at the same time: its staging folder is left to it. */
class StagingTaken extends RebuildRefusal {}

/**
 * Writes the office's entries of `terminalId` into `into` (a folder made here, which must not exist) as a ledger's
 * journal, byte for byte, each line checked against the one before it and against the seq the office files it under;
 * refused (and nothing left in `into` to trust: the caller removes it) when the office's lines do not make the chain.
 * A restore from the office (restore.ts) uses it too.
 */
export async function journalFromOffice(
  office: OfficeAddress,
  terminalId: string,
  into: string,
  segmentBytes = SEGMENT_BYTES,
  archiveFileNames: readonly string[] = [],
): Promise<{ held: HeldJournal; segments: number }> {
  const archives = await archiveFiles(archiveFileNames)
  const reader = await HeldJournalReader.open(office)
  let copy: JournalCopy | null = null
  try {
    const held = await rebuildable(reader, terminalId, archives)
    fs.mkdirSync(path.dirname(into), { recursive: true, mode: USER_ONLY_FOLDER })
    // Not recursive: a second rebuild into the same folder at the same time finds it there and stops (and leaves it be).
    try {
      fs.mkdirSync(into)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new StagingTaken(say('rebuild.stagingTaken', { dir: into }))
      throw error
    }
    copy = new JournalCopy(into, segmentBytes)
    for await (const { seq, line } of reader.lines(held, (range) => archivedLines(fileOf(archives, range)!.file, range))) {
      const entry = copy.add(line)
      if (typeof entry === 'string') throw new RebuildRefusal(say('rebuild.doesNotVerify', { seq, terminal: terminalId, problem: entry }))
      // The chain alone would pass rows renumbered past a gap (each holding the text of the entry before it).
      if (entry.seq !== seq) throw new RebuildRefusal(say('rebuild.textOfAnother', { seq, terminal: terminalId, other: entry.seq }))
    }
    if (copy.end.seq !== held.last.seq || copy.end.hash !== held.last.hash) {
      throw new RebuildRefusal(say('rebuild.endsElsewhere', { terminal: terminalId, end: copy.end.seq, last: held.last.seq }))
    }
    copy.finish()
    return { held, segments: listSegments(path.join(into, JOURNAL_DIR)).length }
  } catch (error) {
    copy?.abandon()
    throw error
  } finally {
    await reader.close()
  }
}

/** A range's lines from its year file, each verified as read (a line that does not is refused in words, nothing rebuilt). */
async function* archivedLines(file: string, range: ArchivedRange): AsyncGenerator<string> {
  try {
    for await (const line of yearFileLines(file)) {
      if (line.terminal !== range.terminal) continue
      yield line.line
      if (line.seq === range.lastSeq) return
    }
  } catch (error) {
    if (error instanceof YearFileProblem) throw new RebuildRefusal(say('rebuild.nothingRebuilt', { problem: error.message }))
    throw error
  }
}

function refuseUnlessOnly(dataDir: string, name: string): void {
  const others = fs.readdirSync(dataDir).filter((found) => found !== name)
  if (others.length > 0) throw new RebuildRefusal(say('rebuild.folderGained', { dir: dataDir, names: others.join(', ') }))
}
