// One writer per ledger folder: the desktop app and browser mode (or two copies of either) must
// never append to the same journal at once. The lock file names its owner; a lock whose process is
// gone (a crash, a power cut) is taken over.
//
// The protocol (every step is one atomic file-system call on one folder of one machine):
// - `counter.lock` holds "<pid> <nonce>", with a nonce new at every take: a lock's content never
//   comes back once it has been replaced.
// - Take: write that content to a temp file of our own, then link it to `counter.lock`. link fails
//   with EEXIST when the lock exists, so of any number of racers exactly one creates it, and it
//   appears with its owner already in it (never empty, never half written).
// - Stale takeover: a lock whose pid is dead (or one an older Counter left: a bare pid, or empty)
//   is replaced only by the racer holding its takeover marker, `counter.lock.takeover-<sha of the
//   stale content>`, itself created by link with its creator's "<pid> <nonce>". The holder re-reads
//   the lock and only if it still holds that stale content renames it aside and links its own
//   (EEXIST there means a fresh racer won the gap: it is the owner). A racer that finds the marker
//   held by a live process waits a little and retries. A marker whose creator died is not deleted
//   (a delete could race with a new creator and leave two holders): the next marker's name is the
//   sha of the dead one's content, so everyone who finds it moves on to the same name.
// - A marker is removed by its creator, or swept by the owner, only once the lock no longer holds
//   its stale content; as that content never returns, a slow racer that creates the marker late
//   re-reads, sees another content and backs off.
// - Release removes the lock only if it still holds our content.
// The window that remains: "dead" is judged by pid. A dead owner's pid reused by an unrelated
// process makes the lock look held (Counter then says the folder is in use; never two owners),
// but a folder shared between machines (a network drive) would see the other machine's pids as
// dead: not supported. An older Counter creates its lock empty and writes its pid after, and its
// contents can recur, so racing a Counter from before this protocol keeps the old window.
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const LOCK_FILE = 'counter.lock'
const TEMP_PREFIX = `${LOCK_FILE}.tmp-`
const MARKER_PREFIX = `${LOCK_FILE}.takeover-`
const ASIDE_PREFIX = `${LOCK_FILE}.stale-`
/** How long a start waits on another start's takeover before saying the folder is in use. */
const PATIENCE_MS = 10_000

export class LedgerInUseError extends Error {
  constructor(readonly ownerPid: number) {
    super(`This ledger is already open in another Counter (process ${ownerPid}). Close that window or browser-mode server first.`)
    this.name = 'LedgerInUseError'
  }
}

function alive(pid: number): boolean {
  // This process re-opening its own folder (a mode switch back, a test), or a crashed Counter's pid
  // reused by this one, is no second writer: lockFolder is synchronous, so no take of ours is under way.
  if (pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid a lock or marker names; 0 for an empty or unreadable one (an older Counter's, caught mid-write). */
function ownerOf(content: string): number {
  const pid = Number(content.split(' ')[0])
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 0
}

/** The marker whose creator may replace a lock holding `stale`, or take over from a marker holding it. */
export const takeoverMarkerName = (stale: string) => MARKER_PREFIX + createHash('sha256').update(stale).digest('hex').slice(0, 32)

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** link() that says whether it made the name (false: the name exists). */
function linkExclusive(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') {
      throw new Error(`the disk holding ${path.dirname(to)} does not support hard links (FAT-formatted drives do not); keep Counter's data folder on the computer's own disk`)
    }
    throw error
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * Takes the folder's lock or throws LedgerInUseError; returns the release. `patienceMs` bounds the
 * wait on another start's takeover (tests shorten it).
 */
export function lockFolder(dir: string, { patienceMs = PATIENCE_MS } = {}): () => void {
  const lock = path.join(dir, LOCK_FILE)
  const nonce = randomBytes(16).toString('hex')
  const mine = `${process.pid} ${nonce}`
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${nonce}`)
  fs.writeFileSync(temp, mine, { flag: 'wx' })
  try {
    const deadline = Date.now() + patienceMs
    for (;;) {
      if (linkExclusive(temp, lock)) break
      const stale = readOrNull(lock)
      if (stale === null) continue // released between the link and the read
      const owner = ownerOf(stale)
      if (alive(owner)) throw new LedgerInUseError(owner)
      const blocker = takeOver(dir, lock, stale, temp)
      if (blocker === 'taken') break
      if (blocker !== 'retry') {
        if (Date.now() > deadline) throw new LedgerInUseError(blocker)
        pause(5 + Math.random() * 20)
      }
    }
  } finally {
    fs.rmSync(temp, { force: true })
  }
  sweep(dir)
  return () => {
    if (readOrNull(lock) === mine) fs.rmSync(lock, { force: true })
  }
}

/**
 * Replaces the stale lock with ours if this start wins its takeover marker. Returns 'taken', 'retry'
 * (the lock changed: look again), or the pid of the live start that holds the marker.
 */
function takeOver(dir: string, lock: string, stale: string, temp: string): 'taken' | 'retry' | number {
  let marker = path.join(dir, takeoverMarkerName(stale))
  for (;;) {
    if (linkExclusive(temp, marker)) break
    const holder = readOrNull(marker)
    if (holder === null) return 'retry' // its creator finished: the lock has moved on
    const pid = ownerOf(holder)
    if (alive(pid)) return pid
    marker = path.join(dir, takeoverMarkerName(holder))
  }
  // A failure past this point leaves the marker in place: removed while the lock still held the
  // stale content, it could let two racers (one on it, one on the name after it) both replace the lock.
  if (readOrNull(lock) !== stale) {
    fs.rmSync(marker, { force: true })
    return 'retry'
  }
  const aside = path.join(dir, ASIDE_PREFIX + path.basename(temp).slice(TEMP_PREFIX.length))
  fs.renameSync(lock, aside)
  fs.rmSync(marker, { force: true })
  fs.rmSync(aside, { force: true })
  return linkExclusive(temp, lock) ? 'taken' : 'retry'
}

/**
 * Clears what crashed starts left: every marker and set-aside lock (they are about contents the lock
 * no longer holds, as we own it now) and the temp files of dead processes.
 */
function sweep(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const leftOver =
      name.startsWith(MARKER_PREFIX) || name.startsWith(ASIDE_PREFIX) || (name.startsWith(TEMP_PREFIX) && !alive(ownerOf(name.slice(TEMP_PREFIX.length).replace('-', ' '))))
    if (leftOver) fs.rmSync(path.join(dir, name), { force: true })
  }
}
