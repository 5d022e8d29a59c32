// The crash test's ledger failpoints: set inside the ledger's own threads (through a thread hook), switched on from the child's main thread.
import fs from 'node:fs'
import path from 'node:path'
import type { Ledger } from '../../electron/ledger/ledger'
import { SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { addThreadHook } from '../../electron/ledger/threads'
import { childLine, snapshotDeathFor, type Flow, type KillPoint, type ThreadRole, type Victim } from './protocol'

export interface FailpointRun {
  flow: Flow
  killPoint: KillPoint
  repetition: number
  victim: Victim
  /** The real ledger's folder: only its snapshot files' renames are kill points. */
  ledgerDir: string
}

interface HookData extends FailpointRun {
  state: SharedArrayBuffer
}

/**
 * What the child's main thread and the ledger's threads share, slots of an Int32Array: whether the
 * armed sale has begun, which thread ended (0 none yet), how many threads hold a patched Ledger,
 * the snapshot renames seen since arming, that the provider has answered, and "end the ledger thread now".
 */
const SLOT = { armed: 0, ended: 1, ledgerThreads: 2, renames: 3, answered: 4, endNow: 5 } as const
const SLOTS = 6
const ROLES: readonly ThreadRole[] = ['ledger', 'other']
const roleCode = (role: ThreadRole) => ROLES.indexOf(role) + 1

const INTENT_EVENT: Record<Flow, string> = { recharge: 'recharge.intent', coupon: 'pan.coupon.intent' }
const OUTCOME_EVENT: Record<Flow, string> = { recharge: 'recharge.outcome', coupon: 'pan.coupon.outcome' }

type Method = (...args: unknown[]) => unknown

/** Node 20 has Atomics.waitAsync (ES2024); the project's TypeScript lib does not name it yet. */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number, timeoutMs?: number): { async: false; value: string } | { async: true; value: Promise<string> }
}).waitAsync

/** Said from whichever thread finds a failpoint unreachable; the whole run ends there, and the judge fails it on this line. */
function missed(why: string): never {
  fs.writeSync(1, childLine({ kind: 'MISSED', detail: why }) + '\n')
  process.kill(process.pid, 'SIGKILL')
  throw new Error('still alive after SIGKILL')
}

/** Replaces `owner[name]`, failing loudly when the ledger no longer has it: a moved method must not pass unnoticed. */
function wrapMethod(owner: object, name: string, label: string, around: (original: Method) => Method): void {
  const original = (owner as Record<string, unknown>)[name]
  if (typeof original !== 'function') missed(`failpoint target ${label} no longer exists`)
  ;(owner as Record<string, unknown>)[name] = around(original as Method)
}

/**
 * Run in every ledger thread (the ledger thread, the chores thread, and each started again) before
 * its own code. The Ledger's methods are patched where ledger.ts is already loaded (the thread
 * entry imports it before the hooks run); the snapshot files' renames in every thread, since the
 * snapshot may be written by the ledger thread or by its chores thread.
 */
export function installInThread(data: unknown): void {
  const { state, flow, killPoint, repetition, victim, ledgerDir } = data as HookData
  const shared = new Int32Array(state)
  const snapshotDeath = snapshotDeathFor(repetition)
  /** Whether this thread has appended: the ledger thread, where a death leaves the sale's call unanswered. */
  let appendsHere = false
  const at = (point: KillPoint) => Atomics.load(shared, SLOT.armed) === 1 && killPoint === point

  /** The process (SIGKILL) or only this thread (process.exit in a worker ends the worker), once per run. */
  const die = () => {
    if (Atomics.compareExchange(shared, SLOT.ended, 0, roleCode(appendsHere ? 'ledger' : 'other')) !== 0) return
    Atomics.notify(shared, SLOT.ended)
    if (victim === 'process') {
      process.kill(process.pid, 'SIGKILL')
      throw new Error('still alive after SIGKILL')
    }
    process.exit(1)
  }

  const ledgerModule = require.cache[require.resolve('../../electron/ledger/ledger')]
  if (ledgerModule) patchLedger((ledgerModule.exports as { Ledger: typeof Ledger }).Ledger)

  function patchLedger(LedgerClass: typeof Ledger): void {
    Atomics.add(shared, SLOT.ledgerThreads, 1)
    /** The armed intent forces the snapshot a periodic one would be, and answers only once it ended: the death is then before the sale's answer. */
    const snapshotAfter = async (ledger: Ledger, entry: unknown) => {
      const error = await Promise.resolve()
        .then(() => ledger.snapshot())
        .then(() => null, (failed: unknown) => failed)
      // Reached only when the snapshot was written by another thread that has ended (the chores thread).
      if (Atomics.load(shared, SLOT.ended) === 0) {
        missed(`the periodic snapshot ${error ? `failed (${String(error)})` : 'finished'} without reaching its rename #${snapshotDeath.renameNumber}`)
      }
      return entry
    }
    // appendThen is every append's path (Ledger.append calls it; the ledger thread answers from its `recorded`).
    wrapMethod(LedgerClass.prototype, 'appendThen', 'Ledger.prototype.appendThen', (appendThen) =>
      function (this: Ledger, ...args: unknown[]) {
        appendsHere = true
        const [type, data, recorded] = args as [string, unknown, (entry: unknown) => void]
        const isIntent = type === INTENT_EVENT[flow]
        if (isIntent && at('before-intent')) die()
        // The provider answered; its outcome is the next line the core writes.
        if (at('after-answer') && Atomics.load(shared, SLOT.answered) === 1) die()
        const forcesSnapshot = isIntent && at('mid-snapshot') && snapshotDeath.trigger === 'periodic'
        // The line is in the journal and not yet answered: a death here leaves the sale's call unanswered.
        const onRecorded = (entry: unknown) => {
          if (isIntent && at('after-intent')) die()
          if (type === OUTCOME_EVENT[flow] && at('after-outcome')) die()
          if (forcesSnapshot) void snapshotAfter(this, entry).then(() => recorded(entry))
          else recorded(entry)
        }
        return appendThen.call(this, type, data, onRecorded)
      },
    )
    if (killPoint === 'in-flight' && victim === 'thread') {
      // The order is at the provider and the ledger thread is idle: it ends when the main thread says so.
      const waiting = waitAsync(shared, SLOT.endNow, 0)
      const endIfLedger = () => appendsHere && die()
      if (waiting.async) void waiting.value.then(endIfLedger)
      else endIfLedger()
    }
  }

  // The snapshot writes a temp file, then renames; dying before rename #N leaves the files a power cut would.
  const isSnapshotFile = (file: unknown) => typeof file === 'string' && path.dirname(path.resolve(file)) === ledgerDir && path.basename(file).startsWith(SNAPSHOT_FILE)
  const beforeRename = (from: unknown, to: unknown) => {
    if (!at('mid-snapshot') || !(isSnapshotFile(from) || isSnapshotFile(to))) return
    if (Atomics.add(shared, SLOT.renames, 1) + 1 === snapshotDeath.renameNumber) die()
  }
  wrapMethod(fs, 'renameSync', 'fs.renameSync', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      beforeRename(args[0], args[1])
      return rename.apply(this, args)
    },
  )
  wrapMethod(fs.promises, 'rename', 'fs.promises.rename', (rename) =>
    function (this: unknown, ...args: unknown[]) {
      beforeRename(args[0], args[1])
      return rename.apply(this, args)
    },
  )
}

export interface LedgerFailpoints {
  /** How many threads hold a patched Ledger: 0 means the failpoints cannot reach the ledger. */
  ledgerThreads(): number
  /** From now on the second sale's kill point acts. */
  arm(): void
  /** After the provider's answer: the ledger thread ends at the core's next append (the thread victim). */
  providerAnswered(): void
  /** The ledger thread ends now, whatever it is doing (the thread victim, in flight). */
  endLedgerThread(): void
  /** Which thread ended, waiting up to `ms` for one to; null if none did. */
  ended(ms: number): Promise<ThreadRole | null>
}

/** Every ledger thread the core starts from now on carries the failpoints; returns the main thread's switches. */
export function installLedgerFailpoints(run: FailpointRun): LedgerFailpoints {
  const state = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT)
  const shared = new Int32Array(state)
  addThreadHook({ module: __filename, data: { ...run, ledgerDir: path.resolve(run.ledgerDir), state } satisfies HookData, patchesSources: true })
  return {
    ledgerThreads: () => Atomics.load(shared, SLOT.ledgerThreads),
    arm: () => Atomics.store(shared, SLOT.armed, 1),
    providerAnswered: () => Atomics.store(shared, SLOT.answered, 1),
    endLedgerThread() {
      Atomics.store(shared, SLOT.endNow, 1)
      Atomics.notify(shared, SLOT.endNow)
    },
    async ended(ms) {
      const waiting = waitAsync(shared, SLOT.ended, 0, ms)
      if (waiting.async) await waiting.value
      const code = Atomics.load(shared, SLOT.ended)
      return code === 0 ? null : ROLES[code - 1]
    },
  }
}
