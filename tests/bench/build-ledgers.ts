// Builds the benchmark's ledgers fast and honestly: the shop's history written as hash-chained journal segments, replayed into snapshots by the ledger itself, closed years archived by it.
import fs from 'node:fs'
import path from 'node:path'
import { loadCatalog } from '../../electron/counter/catalog'
import { ledgerDir } from '../../electron/counter/session'
import { financialYearOf } from '../../electron/ledger/archive'
import { Ledger } from '../../electron/ledger/ledger'
import { GENESIS, hashEntry, JOURNAL_DIR, listSegments, segmentName, type ChainPoint } from '../../electron/ledger/segments'
import { syncDirectory, writeFully } from '../../electron/ledger/durable-files'
import { FIRST_DAY, ShopHistory, type AnyDraft } from './shop-history'

/** The ledger's own rotation size: a real journal starts a new segment at the first snapshot past it. */
const SEGMENT_BYTES = 32 * 1024 * 1024
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024

export interface BuiltLedger {
  sales: number
  /** A data folder as the app keeps it: the real-mode ledger lives in `ledger/` inside it. */
  dataDir: string
  ledgerDir: string
  /** The last business day: MEASURED_DAY_SALES sales, not closed yet. The ledger is as the shop left it that evening. */
  today: string
  /** Journal entries written for this size. */
  entries: number
}

/** Appends journal lines as Journal.append writes them, without an fsync per line, rotating like the ledger does. */
export class JournalWriter {
  private fd: number | null = null
  private size = 0
  private pending: string[] = []
  private pendingBytes = 0
  private last: ChainPoint = GENESIS

  constructor(private readonly journalDir: string) {
    fs.mkdirSync(journalDir, { recursive: true })
  }

  get lastSeq(): number {
    return this.last.seq
  }

  write(draft: AnyDraft): void {
    if (this.fd === null) this.resume()
    const seq = this.last.seq + 1
    const prev = this.last.hash
    const { at, type, data } = draft
    const hash = hashEntry(prev, { seq, at, type, data })
    const line = JSON.stringify({ seq, at, type, data, prev, hash }) + '\n'
    this.last = { seq, hash }
    this.pending.push(line)
    this.pendingBytes += line.length
    this.size += Buffer.byteLength(line)
    if (this.pendingBytes >= WRITE_BUFFER_BYTES) this.flush()
    if (this.size > SEGMENT_BYTES) this.rotate()
  }

  /** Everything written is on disk and the files are closed: the ledger may open the folder. */
  finish(): void {
    if (this.fd === null) return
    this.flush()
    fs.fsyncSync(this.fd)
    fs.closeSync(this.fd)
    this.fd = null
    syncDirectory(this.journalDir)
  }

  /** Continues in the newest segment, which the ledger may have started at its last snapshot. */
  private resume(): void {
    const segments = listSegments(this.journalDir)
    const newest = segments.length > 0 ? segments[segments.length - 1].file : path.join(this.journalDir, segmentName(1))
    this.fd = fs.openSync(newest, 'a')
    this.size = fs.fstatSync(this.fd).size
  }

  private flush(): void {
    if (this.pending.length === 0) return
    writeFully(this.fd!, Buffer.from(this.pending.join(''), 'utf8'))
    this.pending = []
    this.pendingBytes = 0
  }

  private rotate(): void {
    this.finish()
    this.fd = fs.openSync(path.join(this.journalDir, segmentName(this.last.seq + 1)), 'a')
    this.size = 0
  }
}

/** Opens the ledger once (it replays the journal since its last snapshot), optionally archives, and closes it (a snapshot). */
async function settle(dir: string, archiveFor?: string): Promise<void> {
  const ledger = await Ledger.open({ dir })
  try {
    if (ledger.readOnly) throw new Error(`The built ledger opened read-only: ${ledger.readOnly}`)
    if (ledger.report.problems.length > 0) throw new Error(`The built ledger reported problems: ${ledger.report.problems.join(' ')}`)
    if (archiveFor) await ledger.archiveClosedYears(archiveFor)
  } finally {
    await ledger.close()
  }
}

/**
 * One history for every size: each smaller ledger is a copy of the growing one taken on the evening
 * of its last day. At each new financial year the ledger archives the closed one, as the counter
 * does at its first start of the year.
 */
export async function buildLedgers(root: string, resourcesDir: string, sizes: number[], progress: (line: string) => void): Promise<BuiltLedger[]> {
  const catalog = loadCatalog(resourcesDir)
  const history = new ShopHistory(catalog.operators, catalog.circles, sizes)
  const workDir = path.join(root, 'building', 'ledger')
  const writer = new JournalWriter(path.join(workDir, JOURNAL_DIR))
  const built: BuiltLedger[] = []
  let year = financialYearOf(FIRST_DAY)
  const started = Date.now()
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`

  for (const day of history.days()) {
    if (day.businessDay >= year.end) {
      writer.finish()
      progress(`  ${year.name} traded (${day.salesSoFar - day.sales} sales so far, ${writer.lastSeq} entries); replaying it and archiving it… (${elapsed()})`)
      await settle(workDir, day.businessDay)
      year = financialYearOf(day.businessDay)
    }
    for (const event of day.events) writer.write(event)
    const size = sizes[built.length]
    if (day.salesSoFar === size) {
      writer.finish()
      progress(`  ${size} sales reached on ${day.businessDay}; replaying into a snapshot… (${elapsed()})`)
      await settle(workDir)
      const dataDir = path.join(root, `sales-${size}`)
      const last = built.length === sizes.length - 1
      if (last) fs.renameSync(path.dirname(workDir), dataDir)
      else fs.cpSync(path.dirname(workDir), dataDir, { recursive: true })
      built.push({ sales: size, dataDir, ledgerDir: ledgerDir(dataDir, 'real'), today: day.businessDay, entries: writer.lastSeq })
      progress(`  ${size} sales ready (${elapsed()})`)
      if (last) break
    }
    writer.write(day.close)
  }
  writer.finish()
  return built
}

/** Numbers a search looks for: the shop's regulars, whose sales span every year. */
export function regularNumbers(resourcesDir: string, sizes: number[], count: number): string[] {
  const catalog = loadCatalog(resourcesDir)
  return new ShopHistory(catalog.operators, catalog.circles, sizes).regularNumbers(count)
}
