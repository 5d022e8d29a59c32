// The main thread's side of the ledger: holds the folder lock, starts the ledger thread, sends it typed requests, and mirrors the books' state.
//
// Why a thread (node worker_threads), in the desktop app as in browser mode: the ledger is one
// writer with one in-memory database, which a thread holds as well as a process would, with
// structured cloning instead of a pipe to serialise through; an Electron utility process exists only
// in the desktop app, and browser mode and the tests run the same core without Electron.
// keytar and the provider's HTTP calls stay in the main thread: the ledger thread only reads and
// writes the ledger's own folder.
import fs from 'node:fs'
import type { Worker } from 'node:worker_threads'
import type { Role } from '../contract'
import { ClockFloor } from './clock-sense'
import { lockFolder, LedgerInUseError } from './folder-lock'
import type { LedgerOptions, OpenReport } from './ledger'
import { LedgerWriteError } from './ledger-errors'
import type { JournalEntry, LedgerEventData, LedgerEventType, WrittenBy } from './events'
import { fromWire, type BooksState, type LedgerCall, type LedgerMessage, type LedgerRequest, type LedgerThreadData } from './ledger-messages'
import type { LedgerPort, LedgerProgress, WorkArgs, WorkName, WorkValue } from './ledger-port'
import type { ReadArgs, ReadName, ReadValue } from './ledger-reads'
import type { WriteArgs, WriteName, WriteValue } from './sale-writes'
import { startThread } from './threads'
import { say } from '../shared/words'

/**
 * Said of a request the thread took but never answered: a line it was writing may or may not be in
 * the journal. Callers treat it as not written (an intent is then never sent); what did reach the
 * journal shows after the restart as a sale still SENDING, which the status check settles.
 */
export const LEDGER_STOPPED = say('ledger.stopped')

/** A thread that dies this often is not restarted again: something in the folder or the machine needs a person. */
const RESTARTS_ALLOWED = 3
const RESTART_WINDOW_MS = 60_000


/** What tests reach that the core never does: the thread itself, to kill it as a crash would. */
const threads = new WeakMap<LedgerPort, () => Worker | null>()

/** The ledger thread of a port opened by openLedger, or null while it is being started again. */
export const ledgerThreadOf = (port: LedgerPort): Worker | null => threads.get(port)?.() ?? null

interface Waiting {
  resolve(value: unknown): void
  reject(error: Error): void
}

export interface ClientOptions extends Omit<LedgerOptions, 'lockHeld'> {
  /** Who is at the counter: stamped into every line appended through this port as `by` (events.ts WrittenBy). */
  by?: () => Role
}

export async function openLedger(options: ClientOptions): Promise<LedgerPort> {
  const { dir, now = () => new Date(), clockSense = false, by } = options
  let unlock: () => void
  try {
    fs.mkdirSync(dir, { recursive: true })
    unlock = lockFolder(dir)
  } catch (cause) {
    if (cause instanceof LedgerInUseError) throw cause
    throw new LedgerWriteError(say('ledger.folderUnwritable', { dir, error: (cause as Error).message }), { cause })
  }

  const waiting = new Map<number, Waiting>()
  const booksListeners = new Set<() => void>()
  const progressListeners = new Set<(progress: LedgerProgress) => void>()
  let nextId = 1
  let thread: Worker | null = null
  let books: BooksState = { readOnly: null, notices: [], clockFloorAt: null }
  let report: OpenReport
  /** Set once close was asked for: later calls are refused and the thread's exit is expected. */
  let closing = false
  /** Why the thread is not started again (it kept dying): every call is refused with it. */
  let down: string | null = null
  const deaths: number[] = []
  let ready: Promise<void>

  const setBooks = (next: BooksState) => {
    const changed = next.readOnly !== books.readOnly || next.notices.join('\n') !== books.notices.join('\n')
    books = next
    if (changed) for (const listener of booksListeners) listener()
  }

  /** Starts a thread and resolves once it has opened the books; rejects with why it could not. */
  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const data: LedgerThreadData = {
        dir,
        snapshotEvery: options.snapshotEvery,
        segmentBytes: options.segmentBytes,
        clockSense,
        at: now().toISOString(),
        timelineOrigin: performance.timeOrigin,
      }
      const worker = startThread('ledger-thread', data)
      let opened = false
      worker.on('message', (message: LedgerMessage) => {
        switch (message.kind) {
          case 'opened':
            opened = true
            thread = worker
            report = message.report
            setBooks(message.books)
            resolve()
            return
          case 'open-failed':
            reject(fromWire(message.error))
            return
          case 'answer': {
            setBooks(message.books)
            const request = waiting.get(message.id)
            waiting.delete(message.id)
            if (message.ok) request?.resolve(message.value)
            else request?.reject(fromWire(message.error))
            return
          }
          case 'books':
            setBooks(message.books)
            return
          case 'progress':
            for (const listener of progressListeners) listener(message.progress)
        }
      })
      worker.on('error', (error) => {
        if (!opened) reject(new LedgerWriteError(say('ledger.notStarted', { error: error.message })))
      })
      worker.on('exit', () => {
        if (thread === worker) thread = null
        if (!opened) return reject(new LedgerWriteError(say('ledger.notStartedPlain')))
        for (const request of waiting.values()) request.reject(new LedgerWriteError(LEDGER_STOPPED))
        waiting.clear()
        if (!closing) threadDied()
      })
    })

  const threadDied = () => {
    const at = Date.now()
    deaths.push(at)
    const recent = deaths.filter((death) => at - death < RESTART_WINDOW_MS)
    if (recent.length > RESTARTS_ALLOWED) {
      goDown(say('ledger.keptStopping', { count: recent.length }))
      return
    }
    ready = start().catch((error: unknown) => goDown(say('ledger.notRestarted', { error: (error as Error).message })))
  }

  const goDown = (reason: string) => {
    down = reason
    setBooks({ ...books, readOnly: reason, notices: [...books.notices, reason] })
  }

  /** Resolves to the thread's answer, which `Value` names: the call's own type, as its table (or append's and close's signature) says. */
  const request = async <Value>(call: LedgerCall): Promise<Value> => {
    const at = now().toISOString()
    if (closing) throw new LedgerWriteError(say('ledger.closed'))
    if (call.call === 'close') closing = true
    await ready
    if (down !== null || thread === null) throw new LedgerWriteError(down ?? LEDGER_STOPPED)
    const id = nextId++
    // The one cast: the answer comes back through postMessage untyped, and is what the thread's Ledger returned for this call.
    const answered = new Promise<Value>((resolve, reject) => waiting.set(id, { resolve: (value) => resolve(value as Value), reject }))
    const message: LedgerRequest = { id, at, ...call }
    thread.postMessage(message)
    return answered
  }
  const writtenBy = (): WrittenBy => (by ? { by: by() } : {})
  const work =
    <K extends WorkName>(name: K) =>
    (...args: WorkArgs[K]) =>
      request<WorkValue[K]>({ call: 'work', name, args })

  ready = start()
  try {
    await ready
  } catch (error) {
    unlock()
    throw error
  }

  const port: LedgerPort = {
    read: <K extends ReadName>(name: K, ...args: ReadArgs[K]) => request<Awaited<ReadValue[K]>>({ call: 'read', name, args }),
    auditJournal: work('auditJournal'),
    checkSavedCopy: work('checkSavedCopy'),
    archiveClosedYears: work('archiveClosedYears'),
    snapshot: work('snapshot'),
    backUpInto: work('backUpInto'),
    copyOffDisk: work('copyOffDisk'),
    get report() {
      return report
    },
    get readOnly() {
      return books.readOnly
    },
    get notices() {
      return books.notices
    },
    clockCheck: () => (clockSense ? ClockFloor.of(books.clockFloorAt).check(now()) : null),
    // The role as the write is asked for, not as it lands: a sale is its seller's even if the owner locks meanwhile.
    append: <T extends LedgerEventType>(type: T, data: LedgerEventData[T]) => {
      const stamped: LedgerEventData[T] & WrittenBy = { ...data, ...writtenBy() }
      return request<JournalEntry<T>>({ call: 'append', args: [type, stamped] })
    },
    write: <K extends WriteName>(name: K, ...args: WriteArgs[K]) => request<WriteValue[K]>({ call: 'write', name, by: writtenBy(), args }),
    onBooksChanged(listener: () => void) {
      booksListeners.add(listener)
      return () => booksListeners.delete(listener)
    },
    onProgress(listener: (progress: LedgerProgress) => void) {
      progressListeners.add(listener)
      return () => progressListeners.delete(listener)
    },
    async close(): Promise<string[]> {
      if (closing) return []
      try {
        return await request<string[]>({ call: 'close', args: [] })
      } catch (error) {
        return [(error as Error).message]
      } finally {
        await thread?.terminate()
        unlock()
      }
    },
  }
  threads.set(port, () => thread)
  return port
}
