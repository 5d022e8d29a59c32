// The fault harness's disk: wraps the fs calls the ledger writes with, for one folder's paths only, to count
// them and to fail (ENOSPC, EIO) or SIGKILL the process at a chosen one, until "the disk is freed".
import fs from 'node:fs'
import path from 'node:path'

/** 'other' is opening a file for writing, renaming and truncating: the snapshot's and the undo's calls. */
export type FsCallClass = 'write' | 'fsync' | 'other'
export const FS_CALL_CLASSES: readonly FsCallClass[] = ['write', 'fsync', 'other']

export type FsErrno = 'ENOSPC' | 'EIO'
export type FsAction = { kind: 'errno'; code: FsErrno } | { kind: 'die' }

export interface FsTarget {
  /** 'any': the Nth call of whatever class. */
  cls: FsCallClass | 'any'
  /** 1-based, counted from the moment it is armed. */
  occurrence: number
}

export interface FsShim {
  /** Calls into the folder seen since the last reset, by class. */
  counts(): Record<FsCallClass, number>
  resetCounts(): void
  arm(target: FsTarget, action: FsAction): void
  /** The disk is freed: nothing fails any more. */
  disarm(): void
  fired(): boolean
  uninstall(): void
}

const ERRNO: Record<FsErrno, { errno: number; text: string }> = {
  ENOSPC: { errno: -28, text: 'no space left on device' },
  EIO: { errno: -5, text: 'i/o error' },
}

function errnoError(code: FsErrno, syscall: string, target: string): NodeJS.ErrnoException {
  const { errno, text } = ERRNO[code]
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${target}'`), { code, errno, syscall, path: target })
}

const writesTo = (flags: unknown) =>
  typeof flags === 'number' ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0 : typeof flags === 'string' && /[wa+]/.test(flags)

type Method = (...args: unknown[]) => unknown

/**
 * Patches the default `fs` export (the object the ledger imports) for calls under `folder`.
 * Decisions: a full disk stays full for every later write and file creation until `disarm` (a real
 * ENOSPC does not heal by itself), but fsync, truncating and renaming still work: they need no new
 * blocks once the write that wanted them has failed. An EIO fails the one call only. The process dies *before* the chosen call, so that call never happens.
 */
export function installFsShim(folder: string): FsShim {
  const root = path.resolve(folder) + path.sep
  const inside = (target: unknown) => (typeof target === 'string' || target instanceof URL) && (path.resolve(String(target)) + path.sep).startsWith(root)
  const fds = new Map<number, string>()
  const counts: Record<FsCallClass, number> = { write: 0, fsync: 0, other: 0 }
  let armed: { target: FsTarget; action: FsAction; seen: number } | null = null
  let diskFull = false
  let fired = false
  const originals = new Map<string, Method>()

  const before = (cls: FsCallClass, syscall: string, target: string, needsSpace: boolean) => {
    counts[cls] += 1
    if (diskFull && needsSpace) throw errnoError('ENOSPC', syscall, target)
    if (!armed || (armed.target.cls !== 'any' && armed.target.cls !== cls)) return
    if (++armed.seen !== armed.target.occurrence) return
    const { action } = armed
    armed = null
    fired = true
    if (action.kind === 'die') {
      process.kill(process.pid, 'SIGKILL')
      throw new Error('still alive after SIGKILL')
    }
    if (action.code === 'ENOSPC') diskFull = true
    throw errnoError(action.code, syscall, target)
  }

  const wrap = (name: string, around: (original: Method) => Method) => {
    const original = (fs as unknown as Record<string, Method>)[name]
    originals.set(name, original)
    ;(fs as unknown as Record<string, Method>)[name] = around(original)
  }

  wrap('openSync', (open) =>
    function (this: unknown, ...args: unknown[]) {
      const [target, flags] = args
      if (!inside(target)) return open.apply(this, args)
      if (writesTo(flags)) before('other', 'open', String(target), true)
      const fd = open.apply(this, args) as number
      fds.set(fd, String(target))
      return fd
    },
  )
  wrap('closeSync', (close) =>
    function (this: unknown, ...args: unknown[]) {
      fds.delete(args[0] as number)
      return close.apply(this, args)
    },
  )
  const onFd = (name: string, cls: FsCallClass, needsSpace: boolean) =>
    wrap(name, (call) =>
      function (this: unknown, ...args: unknown[]) {
        const file = fds.get(args[0] as number)
        if (file !== undefined) before(cls, name.replace(/Sync$/, ''), file, needsSpace)
        return call.apply(this, args)
      },
    )
  onFd('writeSync', 'write', true)
  onFd('fsyncSync', 'fsync', false)
  onFd('ftruncateSync', 'other', false)
  wrap('renameSync', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      if (inside(args[0]) || inside(args[1])) before('other', 'rename', String(args[0]), false)
      return rename.apply(this, args)
    },
  )

  return {
    counts: () => ({ ...counts }),
    resetCounts() {
      for (const cls of FS_CALL_CLASSES) counts[cls] = 0
    },
    arm(target, action) {
      armed = { target, action, seen: 0 }
    },
    disarm() {
      armed = null
      diskFull = false
    },
    fired: () => fired,
    uninstall() {
      for (const [name, original] of originals) (fs as unknown as Record<string, Method>)[name] = original
    },
  }
}
