// Replaces a file so that a power cut leaves either the old or the new content, never a mix:
// write a temp file, fsync it, rename over the target, fsync the folder.
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const temp = `${path}.tmp`
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncDirectory(dirname(path))
}

export function fsyncDirectory(dir: string): void {
  // Windows cannot open a folder for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
