// The sql.js snapshot files and the checks that vouch for them: writing the newest (keeping the previous), and deciding whether one can be trusted.
//
// Why a check beside the file, and what it guards against. A snapshot is only a cache of the
// journal: the journal, hash-chained, is the record of truth and its chain is the tamper evidence.
// The check guards the cache against accidental or casual changes — a row edited with an SQLite
// tool (the file stays a valid database, so PRAGMA quick_check passes), a copy restored from
// elsewhere, a file swapped or half-replaced by a crash between the two writes below. It is not a
// defence against someone who edits the snapshot and rewrites its check too: that person could as
// well delete both, and a snapshot never outranks the journal anyway (a position the journal does
// not hold makes open ignore it). Against that threat model a sha256 of the exported bytes is
// enough and cheap: db.export() already holds them in memory, so the digest is one pass over a
// buffer (measured: 0.13–0.17 s for the 92 MB snapshot of 200k sales, against 0.8–1.2 s to open it
// and 0.9–1.9 s to export and write it), where hashing every row through sql.js would cost a query
// per row. The check also records the journal position (seq and hash) the snapshot reflects, which
// open compares with the database's own meta row.
//
// The price of distrust: an untrusted snapshot with no trusted previous copy means a replay of the
// whole journal (measured: 149 s for 200k sales, 402k entries). It is paid once by a ledger written
// before checks existed, and after an edit; the journal stays the only thing that is never guessed.
//
// A snapshot with no check whose digest matches its bytes is not trusted — a crash between the two
// files, a ledger from before checks, a deleted or edited check — and open falls back to the
// previous copy or to the journal alone. Checks are matched by digest across both check files, so
// any order in which a crash leaves the four renames still pairs every file with its own check.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { copyFileDurably, writeFileAtomically } from './durable-files'
import type { ChainPoint } from './segments'

export const SNAPSHOT_FILE = 'ledger.sqlite'
export const PREVIOUS_SNAPSHOT_FILE = 'ledger.sqlite.prev'
/** The snapshot files to try on open, newest first. */
export const SNAPSHOT_FILES_NEWEST_FIRST = [SNAPSHOT_FILE, PREVIOUS_SNAPSHOT_FILE] as const

const checkFileOf = (snapshotFile: string) => `${snapshotFile}.check`
export const SNAPSHOT_CHECK_FILE = checkFileOf(SNAPSHOT_FILE)

/** What a snapshot file must be: its length and sha256, and the journal position its tables reflect. */
export interface SnapshotCheck extends ChainPoint {
  digest: string
  bytes: number
}

const digestOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export function snapshotCheck(bytes: Uint8Array, position: ChainPoint): SnapshotCheck {
  return { seq: position.seq, hash: position.hash, digest: digestOf(bytes), bytes: bytes.length }
}

/**
 * Replaces ledger.sqlite with `bytes` and then its check, each atomically, keeping the previous
 * pair as ledger.sqlite.prev and its check. A crash at any moment leaves a newest snapshot that
 * its check vouches for, or one that open does not trust and falls back from; never a half file.
 */
export function writeSnapshot(dir: string, bytes: Uint8Array, position: ChainPoint): SnapshotCheck {
  const check = snapshotCheck(bytes, position)
  writeFileAtomically(dir, SNAPSHOT_FILE, bytes, { keepPreviousAs: PREVIOUS_SNAPSHOT_FILE })
  writeFileAtomically(dir, SNAPSHOT_CHECK_FILE, Buffer.from(JSON.stringify(check)), { keepPreviousAs: checkFileOf(PREVIOUS_SNAPSHOT_FILE) })
  return check
}

/**
 * Copies ledger.sqlite and its check into `into` (a backup). The two are a pair only while no
 * snapshot is being written: the chores thread, their one writer, makes the copy between its writes.
 */
export function copySavedCopy(dir: string, into: string, onCopied?: (bytes: number) => void): void {
  // No snapshot yet: a check alone would vouch for nothing.
  if (!fs.existsSync(path.join(dir, SNAPSHOT_FILE))) return
  for (const name of [SNAPSHOT_FILE, SNAPSHOT_CHECK_FILE]) {
    if (fs.existsSync(path.join(dir, name))) copyFileDurably(path.join(dir, name), path.join(into, name), onCopied)
  }
}

/** The bytes of one snapshot file, or null when it does not exist. */
export function readSnapshotFile(dir: string, name: string): Uint8Array | null {
  try {
    return fs.readFileSync(path.join(dir, name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function readCheck(dir: string, name: string): SnapshotCheck | null {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Partial<SnapshotCheck> | null
    const wellFormed =
      Number.isSafeInteger(value?.seq) && typeof value?.hash === 'string' && typeof value.digest === 'string' && Number.isSafeInteger(value.bytes)
    return wellFormed ? (value as SnapshotCheck) : null
  } catch {
    // Missing or unreadable: it vouches for nothing.
    return null
  }
}

/** The checks on disk (newest's, previous's); either may be missing. */
export function readChecks(dir: string): SnapshotCheck[] {
  return SNAPSHOT_FILES_NEWEST_FIRST.flatMap((name) => readCheck(dir, checkFileOf(name)) ?? [])
}

/** The check that vouches for exactly these bytes, or null. */
export function checkOf(bytes: Uint8Array, checks: readonly SnapshotCheck[]): SnapshotCheck | null {
  if (!checks.some((check) => check.bytes === bytes.length)) return null
  const digest = digestOf(bytes)
  return checks.find((check) => check.bytes === bytes.length && check.digest === digest) ?? null
}

/** Whether ledger.sqlite and its check on disk are still exactly what `written` describes. */
export function newestSnapshotIs(dir: string, written: SnapshotCheck): boolean {
  const bytes = readSnapshotFile(dir, SNAPSHOT_FILE)
  const onDisk = readCheck(dir, SNAPSHOT_CHECK_FILE)
  const same = (check: SnapshotCheck | null) =>
    check !== null && check.seq === written.seq && check.hash === written.hash && check.digest === written.digest && check.bytes === written.bytes
  return bytes !== null && same(onDisk) && same(checkOf(bytes, [written]))
}
