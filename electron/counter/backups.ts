// Daily automatic backups of the ledger and settings into <dataDir>/backups/<YYYY-MM-DD>/, kept 14
// days. A backup is built in a temporary folder and renamed into place, so a half-written one never
// looks complete. The layout mirrors the data folder: restoring is copying it back.
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fsyncDirectory } from './atomic-write'

export interface DailyBackupOptions {
  dataDir: string
  ledgerDir: string
  /** The shop's business day, YYYY-MM-DD: names the backup folder. */
  today: string
  keepDays?: number
}

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/
const PARTIAL_SUFFIX = '.partial'
const DAY_MS = 86_400_000

/** Whole days from `earlier` to `later`, both YYYY-MM-DD. */
function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS)
}

function copyDurably(from: string, to: string): void {
  copyFileSync(from, to)
  const fd = openSync(to, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Copies the files (not sub-folders) of `from` whose names pass `keep`; nothing when `from` does not exist. */
function copyFolderFiles(from: string, to: string, keep: (name: string) => boolean = () => true): void {
  if (!existsSync(from)) return
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isFile() && keep(entry.name)) copyDurably(join(from, entry.name), join(to, entry.name))
  }
  fsyncDirectory(to)
}

function copyLedger(ledgerDir: string, into: string): void {
  mkdirSync(into, { recursive: true })
  copyFolderFiles(join(ledgerDir, 'archive'), join(into, 'archive'), (name) => name.endsWith('.sqlite'))
  // The snapshot before the journal: the copied journal then reaches at least as far as the copied snapshot.
  const snapshot = join(ledgerDir, 'ledger.sqlite')
  if (existsSync(snapshot)) copyDurably(snapshot, join(into, 'ledger.sqlite'))
  copyFolderFiles(join(ledgerDir, 'journal'), join(into, 'journal'), (name) => name.endsWith('.ndjson'))
  fsyncDirectory(into)
}

/** Today's backup unless it exists already; then backups older than keepDays are removed. */
export function runDailyBackup({ dataDir, ledgerDir, today, keepDays = 14 }: DailyBackupOptions): { path: string | null; pruned: string[] } {
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
      copyLedger(ledgerDir, join(partial, basename(ledgerDir)))
      const settings = join(dataDir, 'settings.json')
      if (existsSync(settings)) copyDurably(settings, join(partial, 'settings.json'))
      fsyncDirectory(partial)
      renameSync(partial, target)
      fsyncDirectory(root)
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
