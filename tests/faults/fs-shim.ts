// The fault harness's disk: wraps the fs calls the ledger writes with, for one folder's paths only, to count
// them and to fail (ENOSPC, EIO), SIGKILL the process or end the ledger thread at a chosen one, until "the disk is freed"; the ledger's threads join it through a thread hook.
import fs from 'node:fs'
import path from 'node:path'
import { isMainThread } from 'node:worker_threads'
import { addThreadHook } from '../../electron/ledger/threads'

/** 'other' is opening a file for writing, renaming and truncating: the snapshot's and the undo's calls. */
export type FsCallClass = 'write' | 'fsync' | 'other'
export const FS_CALL_CLASSES: readonly FsCallClass[] = ['write', 'fsync', 'other']

export type FsErrno = 'ENOSPC' | 'EIO'
/** 'die': SIGKILL the whole process; 'die-thread': end only the thread making the call (the ledger thread, as a crash of it would). */
export type FsAction = { kind: 'errno'; code: FsErrno } | { kind: 'die' } | { kind: 'die-thread' }

export interface FsTarget {
  /** 'any': the Nth call of whatever class. */
  cls: FsCallClass | 'any'
  /** 1-based, counted from the moment it is armed. */
  occurrence: number
}

export interface FsShim {
  /** Calls into the folder seen since the last reset, by class, from every thread. */
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
 * The shim's state, in memory every thread of the process shares: the ledger writes from its own
 * threads, and the fault must hit the Nth call whichever thread makes it. Slots of an Int32Array.
 */
const SLOT = { write: 0, fsync: 1, other: 2, armed: 3, cls: 4, occurrence: 5, action: 6, seen: 7, diskFull: 8, fired: 9 } as const
const SLOTS = 10
const CLASS_CODES: readonly (FsCallClass | 'any')[] = ['write', 'fsync', 'other', 'any']
const ACTIONS = ['ENOSPC', 'EIO', 'die', 'die-thread'] as const
const actionCode = (action: FsAction) => ACTIONS.indexOf(action.kind === 'errno' ? action.code : action.kind)

interface ShimData {
  folder: string
  state: SharedArrayBuffer
}

/**
 * Patches the default `fs` export (the object the ledger imports) of the calling thread for calls under
 * `folder`, counting and failing through the shared `state`. Decisions: a full disk stays full for every
 * later write and file creation until `disarm` (a real ENOSPC does not heal by itself), but fsync,
 * truncating and renaming still work: they need no new blocks once the write that wanted them has
 * failed. An EIO fails the one call only. The process (or thread) dies *before* the chosen call, so that
 * call never happens.
 */
function patchFs({ folder, state }: ShimData): () => void {
  const shared = new Int32Array(state)
  const root = path.resolve(folder) + path.sep
  const inside = (target: unknown) => (typeof target === 'string' || target instanceof URL) && (path.resolve(String(target)) + path.sep).startsWith(root)
  const fds = new Map<number, string>()
  const originals = new Map<string, Method>()

  const before = (cls: FsCallClass, syscall: string, target: string, needsSpace: boolean) => {
    Atomics.add(shared, SLOT[cls], 1)
    if (Atomics.load(shared, SLOT.diskFull) === 1 && needsSpace) throw errnoError('ENOSPC', syscall, target)
    if (Atomics.load(shared, SLOT.armed) !== 1) return
    const armedCls = CLASS_CODES[Atomics.load(shared, SLOT.cls)]
    if (armedCls !== 'any' && armedCls !== cls) return
    if (Atomics.add(shared, SLOT.seen, 1) + 1 !== Atomics.load(shared, SLOT.occurrence)) return
    // Only the thread whose call is the chosen one gets here, once: the count is shared.
    Atomics.store(shared, SLOT.armed, 0)
    Atomics.store(shared, SLOT.fired, 1)
    const action = ACTIONS[Atomics.load(shared, SLOT.action)]
    if (action === 'die') {
      process.kill(process.pid, 'SIGKILL')
      throw new Error('still alive after SIGKILL')
    }
    if (action === 'die-thread') {
      if (isMainThread) throw new Error('the shim was armed to end a thread, but the main thread made the call')
      process.exit(1)
    }
    if (action === 'ENOSPC') Atomics.store(shared, SLOT.diskFull, 1)
    throw errnoError(action, syscall, target)
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
  onFd('fdatasyncSync', 'fsync', false)
  onFd('ftruncateSync', 'other', false)
  wrap('renameSync', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      if (inside(args[0]) || inside(args[1])) before('other', 'rename', String(args[0]), false)
      return rename.apply(this, args)
    },
  )

  return () => {
    for (const [name, original] of originals) (fs as unknown as Record<string, Method>)[name] = original
  }
}

/** Called in each ledger thread by threads.ts (runThreadHooks): the thread's calls obey the same shared state. */
export function installInThread(data: unknown): void {
  patchFs(data as ShimData)
}

/** Installs the shim in this thread and in every ledger thread started until `uninstall`; returns its controls. */
export function installFsShim(folder: string): FsShim {
  const state = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT)
  const shared = new Int32Array(state)
  const unpatch = patchFs({ folder, state })
  const unhook = addThreadHook({ module: __filename, data: { folder, state } satisfies ShimData })
  return {
    counts: () => ({ write: Atomics.load(shared, SLOT.write), fsync: Atomics.load(shared, SLOT.fsync), other: Atomics.load(shared, SLOT.other) }),
    resetCounts() {
      for (const cls of FS_CALL_CLASSES) Atomics.store(shared, SLOT[cls], 0)
    },
    arm(target, action) {
      Atomics.store(shared, SLOT.cls, CLASS_CODES.indexOf(target.cls))
      Atomics.store(shared, SLOT.occurrence, target.occurrence)
      Atomics.store(shared, SLOT.action, actionCode(action))
      Atomics.store(shared, SLOT.seen, 0)
      Atomics.store(shared, SLOT.armed, 1)
    },
    disarm() {
      Atomics.store(shared, SLOT.armed, 0)
      Atomics.store(shared, SLOT.diskFull, 0)
    },
    fired: () => Atomics.load(shared, SLOT.fired) === 1,
    uninstall() {
      unhook()
      unpatch()
    },
  }
}
