// The copy of the books off this PC (issue #30): Settings → Backup names a folder on another disk or a removable
// drive; the real books are copied there after each day close and on "Back up now" while the counter sells, read back
// and verified before the copy counts; the status bar warns when the last verified copy is too old or cannot be made.
import { existsSync } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { version } from '../../package.json'
import type { BackupCopy, BackupStatus, HandlersFor } from '../contract'
import { CopyCheckError } from '../ledger/backup-copy'
import { writeFileAtomically } from '../ledger/durable-files'
import type { CounterContext } from './context'
import { installIdOf } from './credentials'
import { CounterError } from './errors'
import { slugOf } from './office'
import { readHintFile } from './hint-files'
import type { Session } from './session'
import { english, say, type Said } from '../shared/words'

/*
 * Decision: the layout at the target. <folder>/Counter-<shop>-<install id, 8 hex>/<YYYY-MM-DD-HHMMSS>/ is one whole copy
 * in the shop's local time: ledger/ (as the daily backup lays it out: a restore copies it back to the data folder),
 * settings.json and copy.json (when, how many journal entries, Counter's version). The last KEEP_COPIES verified copies
 * are kept. A copy is written as <stamp>.partial beside them and renamed to <stamp> only once read back and verified,
 * so a copy cut short (the drive full or pulled out, a crash) never looks complete, and the copies before it are never
 * touched: older ones are pruned only after the new one is in place. Chosen over one rolling copy written beside and
 * swapped in: the swap is two renames (the old copy aside, the new in), and a drive pulled out between them leaves no
 * copy under the expected name; separate folders need one rename, and leave a few days to go back to when a mistake is
 * noticed late. The price is room: each copy is whole (removable drives are mostly FAT32 or exFAT, without hard links),
 * about KEEP_COPIES times the books. The install id tells apart two counters (two data folders) backing up to one
 * drive, which prune only their own copies; the shop's name is for the owner reading the drive. A renamed shop, or a
 * data folder restored on a new PC (a new install id), starts a new folder and leaves the old one's copies alone.
 *
 * Decision: "another disk" is another file system: the folder's st_dev differs from the data folder's (on Windows
 * Node gives the volume's serial number). That catches the usual mistake, a folder in Documents, and keeps a folder on
 * the same disk (saved with a warning, since the owner may mean it for now) from counting as a copy off this PC. It
 * cannot tell a second partition of the same physical disk, which would die with it: the words say "another disk or a
 * USB drive".
 *
 * No secrets go to the target: they are in the keychain, which stays. settings.json is copied without the owner PIN's
 * hash and salt (its only guarded part, settings.ts): a drive that leaves the shop should not carry something to guess a
 * PIN against; a counter restored from it sets a new PIN (on a new PC it must anyway, the keychain's pepper is not there).
 */
const KEEP_COPIES = 3
const PARTIAL = '.partial'
const COPY_NAME = /^\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?$/
/** The last verified copy off this disk, in the data folder: what the status bar's warning is judged on after a restart. */
const LAST_COPY_FILE = 'offsite-copy.json'
/** A folder on a network share whose server is off can take many seconds to answer: the status bar does not wait that long. */
const LOOK_MS = 1_000
const DAY_MS = 86_400_000

/** Where the chosen folder is: there and a folder, and on the data folder's disk or not. */
type Place = { there: false } | { there: true; sameDisk: boolean }

async function placeOf(folder: string, dataDir: string): Promise<Place> {
  try {
    const [target, own] = await Promise.all([stat(folder), stat(dataDir)])
    return target.isDirectory() ? { there: true, sameDisk: target.dev === own.dev } : { there: false }
  } catch {
    return { there: false }
  }
}

/** The shop's local date and time as YYYY-MM-DD-HHMMSS: a copy's folder name, which sorts in the order the copies were made (restore.ts names the books it moves aside so too). */
export function localStamp(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}-${parts.hour}${parts.minute}${parts.second}`
}

/** Flushed (and its name with it) when this returns, from the main thread without blocking it: a USB stick may take its time. */
async function syncFolder(dir: string): Promise<void> {
  // Windows cannot open a directory to flush it; NTFS journals the rename itself (as durable-files.ts syncDirectory).
  if (process.platform === 'win32') return
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** A verified copy in a backup folder: its counter's folder, its own, and when it was made (its copy.json). */
export interface CopyFound {
  home: string
  name: string
  path: string
  at: string | null
}

/**
 * Every verified copy in `folder`, newest first, of any counter: a new PC (a new install id) restores from the old
 * one's. Copies cut short (.partial) are never listed.
 */
export async function copiesIn(folder: string): Promise<CopyFound[]> {
  const found: CopyFound[] = []
  const homes = await readdir(folder).catch(() => [] as string[])
  for (const home of homes.filter((name) => name.startsWith('Counter-'))) {
    const names = await readdir(join(folder, home)).catch(() => [] as string[])
    for (const name of names.filter((candidate) => COPY_NAME.test(candidate))) {
      const path = join(folder, home, name)
      const made = readHintFile<{ at: string }>(join(path, 'copy.json'), (read) => typeof read.at === 'string')
      found.push({ home, name, path, at: made?.at ?? null })
    }
  }
  return found.sort((a, b) => (b.at ?? b.name).localeCompare(a.at ?? a.name))
}

/** A small file written beside the ledger's copy, flushed, and read back. */
async function writeBeside(dir: string, name: string, text: string): Promise<void> {
  const handle = await open(join(dir, name), 'wx')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  if ((await readFile(join(dir, name), 'utf8')) !== text) throw new CopyCheckError(say('backup.copyFile', { name }))
}

/** None yet, or unreadable: the bar says no copy is known, which the next copy mends. */
const readLastCopy = (dataDir: string) =>
  readHintFile<BackupCopy>(join(dataDir, LAST_COPY_FILE), (read) => typeof read.at === 'string' && typeof read.path === 'string' && Number.isSafeInteger(read.entries))

/** Why a copy failed, in the shop's words: a full drive, a folder gone or not writable, a copy that did not verify. */
function plainly(error: unknown, folder: string): Said {
  if (error instanceof CounterError) return error.said
  const { code, name, message } = error as NodeJS.ErrnoException
  if (code === 'ENOSPC') return say('backup.full', { folder })
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return say('backup.notWritable', { folder })
  if (name === 'CopyCheckError') return say('backup.notVerified', { problem: message })
  return say('backup.cutOff', { folder, error: code ?? english(message) })
}

export interface OffsiteBackup {
  /** What the status bar and Settings → Backup show. */
  status(): Promise<BackupStatus>
  handlers: HandlersFor<'backup.save' | 'backup.run'>
  /** A closed day's books go off the PC at once (not awaited: the close is done); a failure is shown, not thrown. */
  afterDayClose(): void
  /** Waits for a copy under way: the books it reads are about to close. */
  stop(): Promise<void>
}

export function offsiteBackup(ctx: CounterContext, dataDir: string, announce: () => void, log: (line: string) => void): OffsiteBackup {
  let lastCopy = readLastCopy(dataDir)
  let failure: { at: string; message: Said } | null = null
  let running: Promise<BackupCopy> | null = null
  /** One look at the folder at a time, so looks at a folder that does not answer never pile up. */
  let looking: { folder: string; place: Promise<Place> } | null = null

  function look(folder: string): Promise<Place> {
    if (looking?.folder !== folder) {
      const place: Promise<Place> = placeOf(folder, dataDir).finally(() => {
        if (looking?.place === place) looking = null
      })
      looking = { folder, place }
    }
    return Promise.race([looking.place, sleep(LOOK_MS, { there: false } as const, { ref: false })])
  }

  /** The one thing the status bar warns of, the most urgent first; none in training, whose books are not copied. */
  async function warning(folder: string, staleDays: number): Promise<Said | null> {
    if (ctx.session().mode !== 'real') return null
    if (!folder) return say('backup.noFolder')
    const place = await look(folder)
    if (!place.there) return say('backup.folderMissing', { folder })
    if (place.sameDisk) return say('backup.sameDisk')
    if (failure) return say('backup.failed', { problem: failure.message })
    if (!lastCopy) return say('backup.never')
    const age = ctx.now().getTime() - Date.parse(lastCopy.at)
    return age > staleDays * DAY_MS ? say('backup.stale', { days: Math.floor(age / DAY_MS) }) : null
  }

  async function status(): Promise<BackupStatus> {
    const { backupFolder: folder, backupStaleDays: staleDays } = ctx.settings.current
    return { folder, staleDays, lastCopy, running: running !== null, failure, warning: await warning(folder, staleDays) }
  }

  /** settings.json as the copy holds it: without the owner PIN (see the decision above); null before any setting was saved. */
  async function settingsToCopy(): Promise<string | null> {
    const file = join(dataDir, 'settings.json')
    if (!existsSync(file)) return null
    const { ownerPin: _pin, ...plain } = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
    return JSON.stringify(plain, null, 2)
  }

  /** Keeps the newest KEEP_COPIES verified copies of this counter; a copy that cannot be removed only costs room. */
  async function prune(home: string): Promise<void> {
    const copies = (await readdir(home)).filter((name) => COPY_NAME.test(name)).sort()
    for (const name of copies.slice(0, -KEEP_COPIES)) {
      await rm(join(home, name), { recursive: true, force: true }).catch((err: unknown) => log(`backup: could not remove the old copy ${join(home, name)} (${(err as Error).message})`))
    }
  }

  /** The copy itself: into <stamp>.partial, verified, renamed into place, then older copies pruned. */
  async function writeCopy(session: Session, folder: string, at: Date): Promise<BackupCopy & { sameDisk: boolean }> {
    const place = await placeOf(folder, dataDir)
    if (!place.there) throw new CounterError('backup_failed', say('backup.folderMissing', { folder }))
    const { shopName, timezone } = ctx.settings.current
    const home = join(folder, ['Counter', slugOf(shopName), installIdOf(dataDir).slice(0, 8)].filter(Boolean).join('-'))
    await mkdir(home, { recursive: true })
    // Left by a copy cut short (a crash, a power cut): never verified, so never worth keeping.
    for (const name of await readdir(home)) if (name.endsWith(PARTIAL)) await rm(join(home, name), { recursive: true, force: true })
    const taken = new Set(await readdir(home))
    let name = localStamp(at, timezone)
    for (let again = 2; taken.has(name); again++) name = `${localStamp(at, timezone)}-${again}`
    const partial = join(home, name + PARTIAL)
    await mkdir(partial)
    let entries: number
    try {
      const copied = await session.ledger.copyOffDisk(join(partial, 'ledger'))
      entries = copied.entries
      const settings = await settingsToCopy()
      if (settings !== null) await writeBeside(partial, 'settings.json', settings)
      await writeBeside(partial, 'copy.json', JSON.stringify({ at: at.toISOString(), shop: shopName, entries, snapshotSeq: copied.snapshotSeq, version }, null, 2))
      await syncFolder(partial)
      await rename(partial, join(home, name))
      await syncFolder(home)
    } catch (error) {
      // The copy cut short goes (it may be gone with the drive already); the copies before it were never touched.
      await rm(partial, { recursive: true, force: true }).catch(() => undefined)
      throw error
    }
    await prune(home)
    return { at: at.toISOString(), path: join(home, name), entries, sameDisk: place.sameDisk }
  }

  async function copyNow(): Promise<BackupCopy> {
    const session = ctx.session()
    if (session.mode !== 'real') throw new CounterError('not_configured', say('backup.training'))
    const folder = ctx.settings.current.backupFolder
    if (!folder) throw new CounterError('not_configured', say('backup.noFolder'))
    const at = ctx.now()
    try {
      const { sameDisk, ...copy } = await writeCopy(session, folder, at)
      failure = null
      // A copy on the books' own disk is made as asked, but it is no copy off this PC.
      if (!sameDisk) {
        lastCopy = copy
        writeFileAtomically(dataDir, LAST_COPY_FILE, Buffer.from(JSON.stringify(copy)))
      }
      log(`backup: the books were copied to ${copy.path} and verified (${copy.entries} journal entries)`)
      return copy
    } catch (err) {
      const problem = plainly(err, folder)
      failure = { at: at.toISOString(), message: problem }
      log(`backup: the copy to ${folder} failed (${english(problem)})`)
      throw new CounterError('backup_failed', problem)
    }
  }

  /** One copy at a time: asking while one runs answers with that one (a sale made meanwhile is in the next). */
  function run(): Promise<BackupCopy> {
    if (!running) {
      running = copyNow().finally(() => {
        running = null
        announce()
      })
      announce()
    }
    return running
  }

  return {
    status,
    handlers: {
      async 'backup.save'({ folder, staleDays }) {
        if (folder) {
          const refuse = (said: Said) => new CounterError('invalid_input', said, { folder: said })
          if (!isAbsolute(folder)) throw refuse(say('backup.folderWhole'))
          if (!(await placeOf(folder, dataDir)).there) throw refuse(say('backup.folderMissing', { folder }))
          // Found out now rather than at the first day close: a drive that is read-only, or a folder of another user.
          const probe = join(folder, `.counter-can-write-${process.pid}`)
          try {
            await writeFile(probe, '')
            await rm(probe)
          } catch {
            throw refuse(say('backup.notWritable', { folder }))
          }
        }
        // A failure in a folder given up is no longer what the bar should speak of.
        if (folder !== ctx.settings.current.backupFolder) failure = null
        ctx.settings.saveBackup({ backupFolder: folder, backupStaleDays: staleDays })
        announce()
        return status()
      },
      'backup.run': run,
    },
    afterDayClose() {
      if (ctx.session().mode === 'real' && ctx.settings.current.backupFolder) run().catch(() => undefined)
    },
    async stop() {
      await running?.catch(() => undefined)
    },
  }
}
