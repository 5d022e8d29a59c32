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
 *
 * With `keepPreviousAs`, the file replaced is kept under that name, and the one kept before is
 * dropped. Decision: the dropped copy is not deleted but becomes the temporary file, overwritten in
 * place. Deleting a 92 MB file frees its blocks in one filesystem transaction, and on ext4 every
 * other file's fsync waits for that transaction: a sale's journal fsync waited 50–63 ms behind the
 * rename that dropped the old ledger.sqlite.prev (a bare fsync'd append beside the same renames,
 * measured here), once per snapshot. Overwriting blocks the file already owns allocates and frees
 * nothing. The price: while the new copy is written the old previous one is gone (the newest, and
 * its check, stay whole); a snapshot that fails then leaves one copy, not two, and the journal
 * behind it as always.
 *
 * With `mode`, the new file has those permissions (on Linux and macOS; Windows keeps the folder's).
 */
export function writeFileAtomically(dir: string, name: string, bytes: Uint8Array, { keepPreviousAs, mode }: { keepPreviousAs?: string; mode?: number } = {}): void {
  const temporary = path.join(dir, `${name}.tmp`)
  const current = path.join(dir, name)
  const previous = keepPreviousAs === undefined ? null : path.join(dir, keepPreviousAs)
  try {
    const recycled = previous !== null && fs.existsSync(current) && fs.existsSync(previous)
    if (recycled) fs.renameSync(previous, temporary)
    const fd = fs.openSync(temporary, recycled ? 'r+' : 'w', mode)
    try {
      // Set on the open file, before a byte of it is written, whatever the umask or a recycled file's mode.
      if (mode !== undefined && process.platform !== 'win32') fs.fchmodSync(fd, mode)
      // A recycled file longer than the new bytes keeps no tail of the old copy.
      if (recycled) fs.ftruncateSync(fd, Math.min(bytes.length, fs.fstatSync(fd).size))
      writeDurably(fd, bytes)
    } finally {
      fs.closeSync(fd)
    }
    if (previous !== null && fs.existsSync(current)) fs.renameSync(current, previous)
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

/**
 * A copy that is on disk, name included, when this returns; flushed as it goes, as writeDurably is, for the same reason.
 * `onCopied` hears each MiB as it lands: a copy to a USB stick may take minutes, and the shop is shown how far it has got.
 */
export function copyFileDurably(from: string, to: string, onCopied?: (bytes: number) => void): void {
  const source = fs.openSync(from, 'r')
  try {
    const target = fs.openSync(to, 'w')
    try {
      const buffer = Buffer.allocUnsafe(FLUSH_EVERY_BYTES)
      for (let read = fs.readSync(source, buffer); read > 0; read = fs.readSync(source, buffer)) {
        writeFully(target, buffer.subarray(0, read))
        fs.fdatasyncSync(target)
        onCopied?.(read)
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
