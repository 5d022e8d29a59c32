// The ledger's chores thread as the Ledger sees it: typed requests, one answer each (progress on the way), the thread's errors carried back as errors.
import type { Worker } from 'node:worker_threads'
import { say } from '../shared/words'
import type { JournalAudit } from './audit'
import type { CopiedLedger } from './backup-copy'
import type { ChainPoint } from './segments'
import type { SnapshotCheck } from './snapshot'
import { startThread } from './threads'

/** What the chores thread does, each with what it answers. */
export interface ChoreTasks {
  /** Load the replica from ledger.sqlite, if its bytes are still what `check` says; answers whether they were. */
  seedFromFile: { request: { check: SnapshotCheck }; answer: boolean }
  /** Load the replica from an export of the live books. */
  seed: { request: { bytes: Uint8Array }; answer: null }
  /** Bring the replica to `through` from the journal and write it as ledger.sqlite with its check. */
  snapshot: { request: { through: ChainPoint }; answer: SnapshotCheck }
  /** The whole journal's hash chain; `through` is the last entry written when it was asked. */
  audit: { request: { through: number }; answer: JournalAudit }
  /** Whether ledger.sqlite and its check on disk are still exactly `check`. */
  savedCopyIs: { request: { check: SnapshotCheck }; answer: boolean }
  /** Copy the ledger (archives, ledger.sqlite and its check, journal) into a backup folder, between two snapshots. */
  copyLedger: { request: { into: string }; answer: null }
  /** The same copy into a folder off this disk, then read back from there and checked; `through` is the last entry written when it was asked. */
  copyOffDisk: { request: { into: string; through: number }; answer: CopiedLedger }
}

export type ChoreName = keyof ChoreTasks
export type ChoreRequest = { [K in ChoreName]: { id: number; task: K } & ChoreTasks[K]['request'] }[ChoreName]

/** An error as it crosses threads: its name, words, and errno code (a full disk is told apart by it). */
export interface CarriedError {
  name: string
  message: string
  code?: string
}

export type ChoreReply =
  | { id: number; progress: { done: number; total: number } }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: CarriedError }

/** The thread's start-up data. */
export interface ChoresData {
  dir: string
}

export function carry(error: unknown): CarriedError {
  const { name = 'Error', message = String(error), code } = (error ?? {}) as Partial<NodeJS.ErrnoException>
  return code === undefined ? { name, message } : { name, message, code }
}

export function uncarry({ name, message, code }: CarriedError): Error {
  return Object.assign(new Error(message), { name }, code === undefined ? {} : { code })
}

interface Waiting {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  onProgress?: (done: number, total: number) => void
}

export class Chores {
  private readonly waiting = new Map<number, Waiting>()
  private lastId = 0
  /** Set once the thread has stopped (terminated, crashed or failed to start): every later ask fails. */
  private stopped: Error | null = null

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ChoreReply) => this.answer(reply))
    worker.on('error', (error) => this.stop(error))
    worker.on('exit', (code) => this.stop(new Error(say('chores.threadExited', { code }))))
  }

  static start(dir: string): Chores {
    return new Chores(startThread('chores-thread', { dir } satisfies ChoresData))
  }

  get running(): boolean {
    return this.stopped === null
  }

  /** Sends one request; `transfer` hands buffers over rather than copying them (the sender loses them). */
  ask<K extends ChoreName>(
    task: K,
    request: ChoreTasks[K]['request'],
    { transfer = [], onProgress }: { transfer?: ArrayBuffer[]; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<ChoreTasks[K]['answer']> {
    if (this.stopped) return Promise.reject(this.stopped)
    const id = ++this.lastId
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress })
      this.worker.postMessage({ id, task, ...request }, transfer)
    })
  }

  private answer(reply: ChoreReply): void {
    const waiting = this.waiting.get(reply.id)
    if (!waiting) return
    if ('progress' in reply) return waiting.onProgress?.(reply.progress.done, reply.progress.total)
    this.waiting.delete(reply.id)
    if (reply.ok) waiting.resolve(reply.value)
    else waiting.reject(uncarry(reply.error))
  }

  private stop(why: Error): void {
    this.stopped ??= why
    for (const waiting of this.waiting.values()) waiting.reject(this.stopped)
    this.waiting.clear()
  }

  /**
   * Stops the thread at once, whatever it is doing; what it was asked fails. The Ledger's close
   * uses it once nothing is asked any more, and tests to cut a snapshot off mid-write.
   */
  async terminate(): Promise<void> {
    await this.worker.terminate()
    this.stop(new Error(say('chores.threadStopped')))
  }
}
