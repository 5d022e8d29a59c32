// Files that survive a power cut: whole writes, atomic replacement (temp, fsync, rename, fsync the
// folder) and durable copies. Shared by the ledger (journal, snapshots, archives) and the core
// (settings, reports, backups).
import fs from 'node:fs'
import path from 'node:path'

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

/**
 * Replaces `dir/name` with `bytes` so that a crash at any moment leaves the old file or the new one,
 * whole. A failure (a full disk, most often) removes the temporary file before it is rethrown:
 * a leftover `.tmp` is only clutter that the next write overwrites, but it also holds disk space
 * the shop has just run out of.
 */
export function writeFileAtomically(dir: string, name: string, bytes: Uint8Array, keepPreviousAs?: string): void {
  const temporary = path.join(dir, `${name}.tmp`)
  try {
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
  } catch (error) {
    try {
      fs.rmSync(temporary, { force: true })
    } catch {
      // The write's own failure is the one worth reporting.
    }
    throw error
  }
  syncDirectory(dir)
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
