// Restoring the books inside Counter (issue #30), owner only: from a daily backup, a copy off this PC, or the head
// office. The owner sees what the copy holds and which sales the books have beyond it; the books it replaces are moved
// aside whole, never deleted, and the sales beyond it stay listed (Settings → Backup) until the next restore.
import { existsSync, renameSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { HandlersFor, LaterSale, RestoreDone, RestoreLook, RestoreSource } from '../contract'
import { copyLedgerFolder } from '../ledger/backup-copy'
import { syncDirectory, writeFileAtomically } from '../ledger/durable-files'
import { salesBeyond, summarizeJournal, type JournalSummary } from '../ledger/journal-summary'
import { say, type Said } from '../shared/words'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { readHintFile } from './hint-files'
import { copiesIn, localStamp } from './offsite-backup'
import { journalFromOffice } from './rebuild-from-office'
import { ledgerDir } from './session'
import { ASIDE_PREFIX, FROM_OFFICE, STAGING } from './restore-folders'

/*
 * Decision: what a restore replaces, and how. Only the real books (the data folder's ledger/): settings, the keychain
 * and training stay as they are (a copy's settings.json is beside its ledger/ for the owner to read). The copy is first
 * put together in <data folder>/ledger.restoring and read back (its hash chain from the first line, ending where the
 * copy chosen ends); only then are the books closed, moved aside to ledger.before-restore-<local date and time>, the
 * copy renamed into their place (two renames on one disk) and opened. Should they not open, the two renames are undone
 * and the books as they were are opened again; a power cut between the renames is undone at the next start
 * (undoCutRestore). The copy is checked twice: when the owner looks (what it holds) and as
 * it is put in place, so a drive that changed in between is caught.
 *
 * Decision: the sales the books have beyond the copy are every recharge and coupon order whose journal lines the copy
 * lacks (when the books' journal passes through the copy's last line, those begun after it), with their last word.
 * They matter because the provider may have booked them: the owner settles them from this list, and the books moved
 * aside keep every line of them. Other lines beyond the copy (top-ups, a day close) are in the moved-aside books too.
 *
 * Decision: with a head office, restoring an older copy makes the books go another way than the lines the office holds
 * under this counter's id: the office refuses the first line that differs, and Settings → Head office offers to
 * register the counter anew (office.ts), as for any copy of a counter's books. Restoring from the office itself never
 * does: its lines are the office's own.
 *
 * Decision: the journals are read on the main thread, every line of the copy (as the day close's audit reads the
 * books): a restore is the owner's, done with the counter not selling, and the screens wait for it.
 */
const LAST_RESTORE_FILE = 'last-restore.json'
const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/

export interface RestoreDeps {
  dataDir: string
  /** Whether a copy off this PC is under way: the books it reads must not be swapped meanwhile. */
  backupRunning(): Promise<boolean>
  /**
   * Closes the real books (when open), runs `swap`, and opens them again; when they do not open, runs `undo` and opens
   * the books as they were (app.ts).
   */
  reopenBooks(swap: () => void, undo: () => void): Promise<void>
  log(line: string): void
}

/** Where a source's ledger folder is, once found: for the office, written into the data folder first. */
interface Found {
  source: RestoreSource
  ledger: string
}

const laterSaleOf = (sale: LaterSale): LaterSale => ({ kind: sale.kind, id: sale.id, at: sale.at, businessDay: sale.businessDay, whom: sale.whom, amountPaise: sale.amountPaise, outcome: sale.outcome })

export function restoreHandlers(ctx: CounterContext, { dataDir, backupRunning, reopenBooks, log }: RestoreDeps): HandlersFor<'backup.sources' | 'backup.look' | 'backup.restore'> {
  const books = ledgerDir(dataDir, 'real')
  const readLastRestore = () => readHintFile<RestoreDone>(join(dataDir, LAST_RESTORE_FILE), (read) => typeof read.at === 'string' && Array.isArray(read.laterSales))

  async function dailySources(): Promise<RestoreSource[]> {
    const root = join(dataDir, 'backups')
    const days = (await readdir(root).catch(() => [] as string[])).filter((name) => DAY_FOLDER.test(name) && existsSync(join(root, name, 'ledger')))
    return days.map((day) => ({ id: `daily:${day}`, kind: 'daily', at: `${day}`, where: join(root, day) }))
  }

  async function offsiteSources(): Promise<RestoreSource[]> {
    const folder = ctx.settings.current.backupFolder
    if (!folder) return []
    return (await copiesIn(folder)).map((copy) => ({ id: `offsite:${copy.home}/${copy.name}`, kind: 'offsite', at: copy.at, where: copy.path }))
  }

  function officeSource(): RestoreSource[] {
    const { officeHost, officePort, officeDatabase } = ctx.settings.current
    return officeHost ? [{ id: 'office', kind: 'office', at: null, where: `${officeHost}:${officePort}/${officeDatabase}` }] : []
  }

  async function sources(): Promise<RestoreSource[]> {
    const daily = (await dailySources()).sort((a, b) => b.id.localeCompare(a.id))
    return [...officeSource(), ...(await offsiteSources()), ...daily]
  }

  /** The source the id names, from the core's own list: never a path the screens chose. */
  async function find(id: string): Promise<Found> {
    const source = (await sources()).find((candidate) => candidate.id === id)
    if (!source) throw new CounterError('invalid_input', say('restore.sourceUnknown'), { source: say('restore.sourceUnknown') })
    if (source.kind !== 'office') {
      const ledger = join(source.where, 'ledger')
      if (!existsSync(ledger)) throw new CounterError('not_found', say('restore.notThere', { where: source.where }))
      return { source, ledger }
    }
    return { source, ledger: await fetchFromOffice() }
  }

  /** The office's lines of this counter, written as a journal into the data folder (replacing the last fetch). */
  async function fetchFromOffice(): Promise<string> {
    const office = await ctx.settings.officeConfig()
    // Only the real books have a terminal at the office; training's are never shipped.
    const session = ctx.session()
    const named = office && session.mode === 'real' ? await session.ledger.read('terminal') : null
    if (!office || !named) throw new CounterError('not_configured', say('restore.noOffice'))
    const into = join(dataDir, FROM_OFFICE)
    rmSync(into, { recursive: true, force: true })
    try {
      await journalFromOffice(office, named.terminalId, into)
    } catch (error) {
      rmSync(into, { recursive: true, force: true })
      throw new CounterError('restore_failed', say('restore.officeRefused', { problem: error instanceof Error ? error.message : String(error) }))
    }
    return into
  }

  function summaryOf(found: Found): JournalSummary & { problem: Said | null } {
    const summary = summarizeJournal(found.ledger)
    const problem = summary.broken ? say('restore.broken', { line: summary.broken.line, problem: summary.broken.reason }) : summary.entries === 0 ? say('restore.empty') : null
    return { ...summary, problem }
  }

  async function look(id: string): Promise<{ found: Found; summary: ReturnType<typeof summaryOf>; look: RestoreLook }> {
    const found = await find(id)
    const summary = summaryOf(found)
    const laterSales = summary.problem === null && existsSync(books) ? salesBeyond(books, summary).map(laterSaleOf) : []
    return {
      found,
      summary,
      look: {
        source: found.source,
        entries: summary.entries,
        lastSale: summary.lastSale && laterSaleOf(summary.lastSale),
        lastDayClosed: summary.lastDayClosed,
        laterSales,
        problem: summary.problem,
        office: Boolean(ctx.settings.current.officeHost) && found.source.kind !== 'office',
      },
    }
  }

  /** The moved-aside folder's name: the shop's local date and time, made unique. */
  function asideName(at: Date): string {
    const stamp = localStamp(at, ctx.settings.current.timezone)
    let name = ASIDE_PREFIX + stamp
    for (let again = 2; existsSync(join(dataDir, name)); again++) name = `${ASIDE_PREFIX}${stamp}-${again}`
    return name
  }

  async function restore(id: string): Promise<RestoreDone> {
    if (await backupRunning()) throw new CounterError('restore_failed', say('restore.backupRunning'))
    const { found, summary, look: seen } = await look(id)
    if (summary.problem !== null) throw new CounterError('invalid_input', summary.problem)
    const staging = join(dataDir, STAGING)
    // Left by a restore cut short (a crash, the power): never in use, so never worth keeping.
    rmSync(staging, { recursive: true, force: true })
    try {
      copyLedgerFolder(found.ledger, staging)
      const put = summarizeJournal(staging)
      if (put.broken !== null || put.end.seq !== summary.end.seq || put.end.hash !== summary.end.hash) throw new CounterError('restore_failed', say('restore.copyDiffers'))
    } catch (error) {
      rmSync(staging, { recursive: true, force: true })
      if (error instanceof CounterError) throw error
      throw new CounterError('restore_failed', say('restore.failed', { problem: error instanceof Error ? error.message : String(error) }))
    }
    const at = ctx.now()
    const aside = join(dataDir, asideName(at))
    const hadBooks = existsSync(books)
    await reopenBooks(
      () => {
        if (hadBooks) renameSync(books, aside)
        renameSync(staging, books)
        syncDirectory(dataDir)
      },
      () => {
        renameSync(books, staging)
        if (hadBooks) renameSync(aside, books)
        syncDirectory(dataDir)
      },
    )
    if (found.source.kind === 'office') rmSync(found.ledger, { recursive: true, force: true })
    const done: RestoreDone = { at: at.toISOString(), source: found.source, entries: summary.entries, movedAside: hadBooks ? aside : '', laterSales: seen.laterSales }
    writeFileAtomically(dataDir, LAST_RESTORE_FILE, Buffer.from(JSON.stringify(done, null, 2)))
    log(`restore: the books were restored from ${found.source.where} (${summary.entries} journal entries); the books before it are in ${aside}, with ${seen.laterSales.length} sales the copy does not hold`)
    return done
  }

  return {
    async 'backup.sources'() {
      return { sources: await sources(), lastRestore: readLastRestore() }
    },
    async 'backup.look'({ source }) {
      return (await look(source)).look
    },
    async 'backup.restore'({ source }) {
      return restore(source)
    },
  }
}
