// A ledger folder copied into a backup, in the chores thread (small books in the ledger's own: ledger.ts
// COPY_HERE_BYTES): closed years and rotated segments linked, the saved copy with its check, then the journal.
// A 32 MiB segment and a 90 MB snapshot copied and fsync'd on the main thread had held the counter's screens
// about a quarter of a second.
// A copy off this disk (counter/offsite-backup.ts) is then read back from its target before it is called done.
import fs from 'node:fs'
import path from 'node:path'
import { ARCHIVE_DIR } from './archive'
import { checkJournal, digestOf } from './audit'
import { copyFileDurably, syncDirectory } from './durable-files'
import { JOURNAL_DIR, listSegments, locate } from './segments'
import { checkOf, copySavedCopy, readChecks, readSnapshotFile, SNAPSHOT_CHECK_FILE, SNAPSHOT_FILE } from './snapshot'
import { say } from '../shared/words'

type OnCopied = (bytes: number) => void

const isArchive = (name: string) => name.endsWith('.sqlite')
const isSegment = (name: string) => name.endsWith('.ndjson')

/** The names of the files (not sub-folders) in `folder` that pass `keep`, sorted; none when it does not exist. */
function filesIn(folder: string, keep: (name: string) => boolean): string[] {
  if (!fs.existsSync(folder)) return []
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => entry.name)
    .sort()
}

/**
 * Backs up a file that is never written again (a rotated journal segment, an archive replaced only
 * by rename) as a hard link: fourteen daily backups of five years of journal would otherwise take
 * fourteen times its size. Across file systems, or where links are refused, it is copied.
 */
function shareDurably(from: string, to: string, onCopied?: OnCopied): void {
  try {
    fs.linkSync(from, to)
  } catch {
    return copyFileDurably(from, to, onCopied)
  }
  onCopied?.(fs.statSync(from).size)
}

/** Backs up the files of `from` whose names pass `keep`; nothing when `from` does not exist. */
function backUpFolder(from: string, to: string, keep: (name: string) => boolean, immutable: (name: string, all: string[]) => boolean, onCopied?: OnCopied): void {
  if (!fs.existsSync(from)) return
  fs.mkdirSync(to, { recursive: true })
  const names = filesIn(from, keep)
  for (const name of names) {
    const [source, target] = [path.join(from, name), path.join(to, name)]
    if (immutable(name, names)) shareDurably(source, target, onCopied)
    else copyFileDurably(source, target, onCopied)
  }
  syncDirectory(to)
}

/**
 * Copies the ledger in `dir` into `into`, durably. It runs between two snapshots (in the chores thread, or
 * in the ledger's for small books), so the copied saved copy and its check pair up.
 */
export function copyLedgerFolder(dir: string, into: string, onCopied?: OnCopied): void {
  fs.mkdirSync(into, { recursive: true })
  backUpFolder(path.join(dir, ARCHIVE_DIR), path.join(into, ARCHIVE_DIR), isArchive, () => true, onCopied)
  // The snapshot before the journal: the copied journal then reaches at least as far as the copied snapshot.
  // With its check, or a restore would not trust it and would rebuild the books from the journal.
  copySavedCopy(dir, into, onCopied)
  // Segments are named by their first entry, so the last in order is the one still being appended to.
  backUpFolder(path.join(dir, JOURNAL_DIR), path.join(into, JOURNAL_DIR), isSegment, (name, all) => name !== all.at(-1), onCopied)
  syncDirectory(into)
}

/** What a copy off this disk holds, as read back from its target. */
export interface CopiedLedger {
  /** Journal entries in the copy, their hash chain checked from the first line. */
  entries: number
  /** The entry the copied saved copy reflects (its bytes matched its check); null while the books have none yet. */
  snapshotSeq: number | null
}

/** A copy that did not read back as the books it was copied from: its words say what differs. */
export class CopyCheckError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CopyCheckError'
  }
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0)
const bytesIn = (folder: string, keep: (name: string) => boolean) => filesIn(folder, keep).reduce((sum, name) => sum + sizeOf(path.join(folder, name)), 0)

/** What copyLedgerFolder will copy, in bytes (the journal may grow a little meanwhile). */
export function bytesToCopy(dir: string): number {
  return bytesIn(path.join(dir, ARCHIVE_DIR), isArchive) + sizeOf(path.join(dir, SNAPSHOT_FILE)) + sizeOf(path.join(dir, SNAPSHOT_CHECK_FILE)) + bytesIn(path.join(dir, JOURNAL_DIR), isSegment)
}

/** Progress is told about a hundred times over a whole copy, not per MiB. */
const PROGRESS_STEPS = 100

/**
 * Copies the ledger in `dir` into `into` as copyLedgerFolder does (the chores thread, between two snapshots), then reads
 * the copy back from `into` and checks it, telling `onProgress` in bytes (copied, then read back) as it goes; throws
 * CopyCheckError when the copy is not the books. `through`: the last entry written when the copy was asked for, which
 * the copy must hold.
 *
 * What is checked, and why it is enough. The journal, the record of truth, by its own hash chain from the first line:
 * any changed, lost or doubled line breaks it, and a copy that stops before `through` is short. The saved copy by its
 * check (its sha256), and the check's entry found in the copied journal, so the two agree. A closed year's archive has
 * no chain or check of its own, so its copy is compared with the original's sha256. Decision: the copy is read back
 * through the file system, which may answer from memory what it has just written; the flushes (fsync) are what make
 * the drive hold it. Reading past the cache has no portable way in Node (no O_DIRECT), and a drive that acknowledges a
 * flush it did not make would fool any check made by this PC.
 */
export function copyLedgerOffDisk(dir: string, into: string, through: number, onProgress: (done: number, total: number) => void): CopiedLedger {
  const total = 2 * bytesToCopy(dir)
  let told = -1
  const tell = (done: number) => {
    const step = Math.min(PROGRESS_STEPS - 1, Math.floor((done * PROGRESS_STEPS) / Math.max(total, 1)))
    if (step === told) return
    told = step
    onProgress(Math.min(done, total - 1), total)
  }
  try {
    let copied = 0
    copyLedgerFolder(dir, into, (bytes) => tell((copied += bytes)))
    return checkCopy(dir, into, through, (read) => tell(copied + read))
  } finally {
    // Over, done or not: the screen's progress bar goes at once.
    onProgress(total, total)
  }
}

/** Reads the copy in `into` back and checks it against the books in `dir` (copyLedgerOffDisk says what, and why), telling `onRead` the bytes read so far. */
function checkCopy(dir: string, into: string, through: number, onRead: OnCopied): CopiedLedger {
  const { audit } = checkJournal(into, { through, onProgress: (done) => onRead(done) })
  if (!audit.ok) throw new CopyCheckError(say('backup.copyBroken', { problem: audit.problem ?? '' }))
  if (audit.entries < through) throw new CopyCheckError(say('backup.copyShort', { entries: audit.entries, through }))

  let read = bytesIn(path.join(into, JOURNAL_DIR), isSegment)
  for (const name of filesIn(path.join(dir, ARCHIVE_DIR), isArchive)) {
    const [original, copy] = [path.join(dir, ARCHIVE_DIR, name), path.join(into, ARCHIVE_DIR, name)]
    if (!fs.existsSync(copy) || digestOf(copy) !== digestOf(original)) throw new CopyCheckError(say('backup.copyArchive', { name }))
    onRead((read += sizeOf(copy)))
  }

  const bytes = readSnapshotFile(into, SNAPSHOT_FILE)
  if (bytes === null) {
    if (fs.existsSync(path.join(dir, SNAPSHOT_FILE))) throw new CopyCheckError(say('backup.copyNoSavedCopy'))
    return { entries: audit.entries, snapshotSeq: null }
  }
  const check = checkOf(bytes, readChecks(into))
  if (check === null) throw new CopyCheckError(say('backup.copySavedCopy'))
  if (!locate(listSegments(path.join(into, JOURNAL_DIR)), check).found) throw new CopyCheckError(say('backup.copySavedCopyAhead', { seq: check.seq }))
  return { entries: audit.entries, snapshotSeq: check.seq }
}
