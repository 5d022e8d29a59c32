// Daily automatic backups of the ledger and settings into <dataDir>/backups/<YYYY-MM-DD>/, kept 14
// days. A backup is built in a temporary folder and renamed into place, so a half-written one never
// looks complete. The layout mirrors the data folder: restoring is copying it back.
import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { copyFileDurably, syncDirectory } from '../ledger/durable-files'

export interface DailyBackupOptions {
  dataDir: string
  ledgerDir: string
  /** The shop's business day, YYYY-MM-DD: names the backup folder. */
  today: string
  keepDays?: number
  /**
   * Copies the ledger's saved copy and its check into the folder given: the ledger does it
   * (LedgerPort.backUpSavedCopy), between two of its snapshots, so the two copied files pair up.
   */
  copySavedCopy: (into: string) => Promise<void>
}

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/
const PARTIAL_SUFFIX = '.partial'
const DAY_MS = 86_400_000

/** Whole days from `earlier` to `later`, both YYYY-MM-DD. */
function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS)
}

/**
 * Backs up a file that is never written again (a rotated journal segment, an archive replaced only
 * by rename) as a hard link: fourteen daily backups of five years of journal would otherwise take
 * fourteen times its size. Across file systems, or where links are refused, it is copied.
 */
function shareDurably(from: string, to: string): void {
  try {
    linkSync(from, to)
  } catch {
    copyFileDurably(from, to)
  }
}

/** Backs up the files (not sub-folders) of `from` whose names pass `keep`; nothing when `from` does not exist. */
function backUpFolder(from: string, to: string, keep: (name: string) => boolean, immutable: (name: string, all: string[]) => boolean): void {
  if (!existsSync(from)) return
  mkdirSync(to, { recursive: true })
  const names = readdirSync(from, { withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => entry.name)
    .sort()
  for (const name of names) (immutable(name, names) ? shareDurably : copyFileDurably)(join(from, name), join(to, name))
  syncDirectory(to)
}

async function copyLedger(ledgerDir: string, into: string, copySavedCopy: (into: string) => Promise<void>): Promise<void> {
  mkdirSync(into, { recursive: true })
  backUpFolder(join(ledgerDir, 'archive'), join(into, 'archive'), (name) => name.endsWith('.sqlite'), () => true)
  // The snapshot before the journal: the copied journal then reaches at least as far as the copied snapshot.
  // With its check, or a restore would not trust it and would rebuild the books from the journal.
  await copySavedCopy(into)
  // Segments are named by their first entry, so the last in order is the one still being appended to.
  backUpFolder(join(ledgerDir, 'journal'), join(into, 'journal'), (name) => name.endsWith('.ndjson'), (name, all) => name !== all.at(-1))
  syncDirectory(into)
}

/** Today's backup unless it exists already; then backups older than keepDays are removed. */
export async function runDailyBackup({ dataDir, ledgerDir, today, keepDays = 14, copySavedCopy }: DailyBackupOptions): Promise<{ path: string | null; pruned: string[] }> {
  if (!DAY_FOLDER.test(today)) throw new RangeError(`today must be YYYY-MM-DD, not ${today}`)
  const root = join(dataDir, 'backups')
  mkdirSync(root, { recursive: true })
  // Left by a backup cut short (power cut, crash): never complete, so never worth keeping.
  for (const name of readdirSync(root)) if (name.endsWith(PARTIAL_SUFFIX)) rmSync(join(root, name), { recursive: true, force: true })

  const target = join(root, today)
  let path: string | null = null
  if (!existsSync(target)) {
    const partial = target + PARTIAL_SUFFIX
    try {
      mkdirSync(partial)
      await copyLedger(ledgerDir, join(partial, basename(ledgerDir)), copySavedCopy)
      const settings = join(dataDir, 'settings.json')
      if (existsSync(settings)) copyFileDurably(settings, join(partial, 'settings.json'))
      syncDirectory(partial)
      renameSync(partial, target)
      syncDirectory(root)
    } catch (error) {
      rmSync(partial, { recursive: true, force: true })
      throw error
    }
    path = target
  }

  const pruned: string[] = []
  for (const name of readdirSync(root)) {
    if (DAY_FOLDER.test(name) && daysBetween(name, today) >= keepDays) {
      rmSync(join(root, name), { recursive: true, force: true })
      pruned.push(join(root, name))
    }
  }
  return { path, pruned }
}
