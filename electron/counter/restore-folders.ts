// Where a restore stages the copy and sets the books aside in the data folder, and putting the books back at start
// when a restore was cut off: before the books open, so this is all a start loads of restoring (restore.ts does the rest).
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { syncDirectory } from '../ledger/durable-files'
import { ledgerDir } from './session'

export const STAGING = 'ledger.restoring'
export const ASIDE_PREFIX = 'ledger.before-restore-'
export const FROM_OFFICE = 'ledger.from-office'

/**
 * At start, before the books open: a restore cut off (a crash, the power) between moving the books aside and putting
 * the copy in their place leaves no books, and Counter would start on empty ones. The books go back where they were
 * (the restore never finished: the owner starts it again), and the copy staged for it goes.
 */
export function undoCutRestore(dataDir: string, log: (line: string) => void): void {
  const books = ledgerDir(dataDir, 'real')
  if (!existsSync(books)) {
    const aside = readdirSync(dataDir).filter((name) => name.startsWith(ASIDE_PREFIX)).sort().at(-1)
    if (aside) {
      renameSync(join(dataDir, aside), books)
      syncDirectory(dataDir)
      log(`restore: a restore was cut off before the copy was in place: the books are back from ${aside}`)
    }
  }
  for (const left of [STAGING, FROM_OFFICE]) rmSync(join(dataDir, left), { recursive: true, force: true })
}
