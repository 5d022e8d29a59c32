// Durable files for the ledger: atomic writes (the sql.js snapshot, archives), durable copies, and the fsync helpers the journal shares.
import fs from 'node:fs'
import path from 'node:path'

export const SNAPSHOT_FILE = 'ledger.sqlite'
export const PREVIOUS_SNAPSHOT_FILE = 'ledger.sqlite.prev'

/** writeSync may write less than asked; a journal line or a snapshot must land whole. */
export function writeFully(fd: number, bytes: Uint8Array): void {
  let written = 0
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written)
}

/** A rename or a new file is only durable once its directory entry is flushed too. */
export function syncDirectory(dir: string): void {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Replaces `dir/name` with `bytes` so that a crash at any moment leaves the old file or the new one, whole. */
export function writeFileAtomically(dir: string, name: string, bytes: Uint8Array, keepPreviousAs?: string): void {
  const temporary = path.join(dir, `${name}.tmp`)
  const fd = fs.openSync(temporary, 'w')
  try {
    writeFully(fd, bytes)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  const current = path.join(dir, name)
  if (keepPreviousAs !== undefined && fs.existsSync(current)) fs.renameSync(current, path.join(dir, keepPreviousAs))
  fs.renameSync(temporary, current)
  syncDirectory(dir)
}

/**
 * Replaces ledger.sqlite with `bytes` so that a crash at any moment leaves a loadable newest
 * snapshot or the previous one (kept as ledger.sqlite.prev), never a half-written file.
 */
export function writeSnapshot(dir: string, bytes: Uint8Array): void {
  writeFileAtomically(dir, SNAPSHOT_FILE, bytes, PREVIOUS_SNAPSHOT_FILE)
}

/** A copy that is on disk, name included, when this returns. */
export function copyFileDurably(from: string, to: string): void {
  fs.copyFileSync(from, to)
  const fd = fs.openSync(to, 'r+')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  syncDirectory(path.dirname(to))
}

/** The snapshot files to try on open, newest first. */
export const SNAPSHOT_FILES_NEWEST_FIRST = [SNAPSHOT_FILE, PREVIOUS_SNAPSHOT_FILE] as const

/** The bytes of one snapshot file, or null when it does not exist. */
export function readSnapshotFile(dir: string, name: string): Uint8Array | null {
  try {
    return fs.readFileSync(path.join(dir, name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
