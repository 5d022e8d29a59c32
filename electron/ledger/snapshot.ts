// The sql.js snapshot files: which to try on open, reading one, and replacing the newest while keeping the previous.
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomically } from './durable-files'

export const SNAPSHOT_FILE = 'ledger.sqlite'
export const PREVIOUS_SNAPSHOT_FILE = 'ledger.sqlite.prev'

/**
 * Replaces ledger.sqlite with `bytes` so that a crash at any moment leaves a loadable newest
 * snapshot or the previous one (kept as ledger.sqlite.prev), never a half-written file.
 */
export function writeSnapshot(dir: string, bytes: Uint8Array): void {
  writeFileAtomically(dir, SNAPSHOT_FILE, bytes, PREVIOUS_SNAPSHOT_FILE)
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
