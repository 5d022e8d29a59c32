// A ledger folder copied into a backup, in the chores thread: closed years and rotated segments
// linked, the saved copy with its check, then the journal. A 32 MiB segment and a 90 MB snapshot
// copied and fsync'd on the main thread had held the counter's screens about a quarter of a second.
import fs from 'node:fs'
import path from 'node:path'
import { ARCHIVE_DIR } from './archive'
import { copyFileDurably, syncDirectory } from './durable-files'
import { JOURNAL_DIR } from './segments'
import { copySavedCopy } from './snapshot'

/**
 * Backs up a file that is never written again (a rotated journal segment, an archive replaced only
 * by rename) as a hard link: fourteen daily backups of five years of journal would otherwise take
 * fourteen times its size. Across file systems, or where links are refused, it is copied.
 */
function shareDurably(from: string, to: string): void {
  try {
    fs.linkSync(from, to)
  } catch {
    copyFileDurably(from, to)
  }
}

/** Backs up the files (not sub-folders) of `from` whose names pass `keep`; nothing when `from` does not exist. */
function backUpFolder(from: string, to: string, keep: (name: string) => boolean, immutable: (name: string, all: string[]) => boolean): void {
  if (!fs.existsSync(from)) return
  fs.mkdirSync(to, { recursive: true })
  const names = fs
    .readdirSync(from, { withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => entry.name)
    .sort()
  for (const name of names) (immutable(name, names) ? shareDurably : copyFileDurably)(path.join(from, name), path.join(to, name))
  syncDirectory(to)
}

/**
 * Copies the ledger in `dir` into `into`, durably. The chores thread runs it between two of its
 * snapshots, so the copied saved copy and its check pair up.
 */
export function copyLedgerFolder(dir: string, into: string): void {
  fs.mkdirSync(into, { recursive: true })
  backUpFolder(path.join(dir, ARCHIVE_DIR), path.join(into, ARCHIVE_DIR), (name) => name.endsWith('.sqlite'), () => true)
  // The snapshot before the journal: the copied journal then reaches at least as far as the copied snapshot.
  // With its check, or a restore would not trust it and would rebuild the books from the journal.
  copySavedCopy(dir, into)
  // Segments are named by their first entry, so the last in order is the one still being appended to.
  backUpFolder(path.join(dir, JOURNAL_DIR), path.join(into, JOURNAL_DIR), (name) => name.endsWith('.ndjson'), (name, all) => name !== all.at(-1))
  syncDirectory(into)
}
