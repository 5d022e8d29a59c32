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

/**
 * How much of a large file is written before it is flushed. Decision: 1 MiB. A disk serves one
 * flush at a time: written whole and fsync'd at the end, a 90 MB snapshot put about 90 MB in front
 * of the journal's next fsync, and a sale waited up to 150 ms for it (`npm run bench` at 1M sales;
 * the same with a bare append beside a plain 89 MB write: 154 ms). Flushed a MiB at a time, a sale
 * waits behind one MiB at most; the snapshot, which no one waits for, takes a little longer.
 */
const FLUSH_EVERY_BYTES = 1024 * 1024

/** Writes `bytes` whole and fsyncs them, flushing every FLUSH_EVERY_BYTES on the way so no other file's fsync queues behind all of them. */
export function writeDurably(fd: number, bytes: Uint8Array): void {
  for (let start = 0; start < bytes.length; start += FLUSH_EVERY_BYTES) {
    const end = Math.min(start + FLUSH_EVERY_BYTES, bytes.length)
    writeFully(fd, bytes.subarray(start, end))
    if (end < bytes.length) fs.fdatasyncSync(fd)
  }
  fs.fsyncSync(fd)
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
      writeDurably(fd, bytes)
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

/** A copy that is on disk, name included, when this returns; flushed as it goes, as writeDurably is, for the same reason. */
export function copyFileDurably(from: string, to: string): void {
  const source = fs.openSync(from, 'r')
  try {
    const target = fs.openSync(to, 'w')
    try {
      const buffer = Buffer.allocUnsafe(FLUSH_EVERY_BYTES)
      for (let read = fs.readSync(source, buffer); read > 0; read = fs.readSync(source, buffer)) {
        writeFully(target, buffer.subarray(0, read))
        fs.fdatasyncSync(target)
      }
      fs.fsyncSync(target)
    } finally {
      fs.closeSync(target)
    }
  } finally {
    fs.closeSync(source)
  }
  syncDirectory(path.dirname(to))
}
