// Daily automatic backups of the ledger and settings into <dataDir>/backups/<YYYY-MM-DD>/, kept 14
// days. A backup is built in a temporary folder and renamed into place, so a half-written one never
// looks complete. The layout mirrors the data folder: restoring is copying it back.
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { copyFileDurably, syncDirectory } from '../ledger/durable-files'

export interface DailyBackupOptions {
  dataDir: string
  ledgerDir: string
  /** The shop's business day, YYYY-MM-DD: names the backup folder. */
  today: string
  keepDays?: number
  /**
   * Copies the ledger into the folder given: the ledger does it in its chores thread
   * (LedgerPort.backUpInto, ledger/backup-copy.ts), between two of its snapshots, so the copied
   * saved copy and its check pair up, and no file is copied on the thread that serves the screens.
   */
  copyLedger: (into: string) => Promise<void>
}

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/
const PARTIAL_SUFFIX = '.partial'
const DAY_MS = 86_400_000

/** Whole days from `earlier` to `later`, both YYYY-MM-DD. */
function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS)
}

/** Today's backup unless it exists already; then backups older than keepDays are removed. */
export async function runDailyBackup({ dataDir, ledgerDir, today, keepDays = 14, copyLedger }: DailyBackupOptions): Promise<{ path: string | null; pruned: string[] }> {
  if (!DAY_FOLDER.test(today)) throw new RangeError(`today must be YYYY-MM-DD, not ${today}`)
  const root = join(dataDir, 'backups')
  mkdirSync(root, { recursive: true })
  // Left by a backup cut short (power cut, crash): never complete, so never worth keeping.
  for (const name of readdirSync(root)) if (name.endsWith(PARTIAL_SUFFIX)) await rm(join(root, name), { recursive: true, force: true })

  const target = join(root, today)
  let path: string | null = null
  if (!existsSync(target)) {
    const partial = target + PARTIAL_SUFFIX
    try {
      mkdirSync(partial)
      await copyLedger(join(partial, basename(ledgerDir)))
      const settings = join(dataDir, 'settings.json')
      if (existsSync(settings)) copyFileDurably(settings, join(partial, 'settings.json'))
      syncDirectory(partial)
      renameSync(partial, target)
      syncDirectory(root)
    } catch (error) {
      await rm(partial, { recursive: true, force: true })
      throw error
    }
    path = target
  }

  const pruned: string[] = []
  for (const name of readdirSync(root)) {
    if (DAY_FOLDER.test(name) && daysBetween(name, today) >= keepDays) {
      await rm(join(root, name), { recursive: true, force: true })
      pruned.push(join(root, name))
    }
  }
  return { path, pruned }
}
