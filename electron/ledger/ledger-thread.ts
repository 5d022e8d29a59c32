// The ledger thread's entry: one Ledger, answering the main thread's requests in the order they come; the provider, keytar and the UI stay out.
import { parentPort, workerData } from 'node:worker_threads'
import { Ledger } from './ledger'
import { LEDGER_WORK, type WorkArgs, type WorkName } from './ledger-port'
import type { ReadArgs, ReadName } from './ledger-reads'
import type { WrittenBy } from './events'
import { LEDGER_WRITES, type WriteArgs, type WriteName } from './sale-writes'
import { toWire, type BooksState, type LedgerMessage, type LedgerRequest, type LedgerThreadData } from './ledger-messages'
import { runThreadHooks } from './threads'
import { startupTimeline } from '../shared/startup-timeline'

runThreadHooks()
const port = parentPort!
const data = workerData as LedgerThreadData
const mark = startupTimeline(process.env, data.timelineOrigin)
mark('ledger thread: code loaded')
/** The main thread's clock as of the request being answered (see LedgerRequest). */
let clock = data.at
const send = (message: LedgerMessage) => port.postMessage(message)

async function main(): Promise<void> {
  let ledger: Ledger
  try {
    ledger = await Ledger.open({
      dir: data.dir,
      snapshotEvery: data.snapshotEvery,
      segmentBytes: data.segmentBytes,
      clockSense: data.clockSense,
      lockHeld: true,
      now: () => new Date(clock),
      onProgress: (progress) => send({ kind: 'progress', progress }),
      mark,
    })
  } catch (error) {
    send({ kind: 'open-failed', error: toWire(error) })
    return
  }
  const books = (): BooksState => ({ readOnly: ledger.readOnly, notices: ledger.notices, clockFloorAt: ledger.clockFloorAt })
  ledger.onBooksChanged(() => send({ kind: 'books', books: books() }))

  const answerOk = (request: LedgerRequest, value: unknown) => send({ kind: 'answer', id: request.id, ok: true, value, books: books() })
  const answerError = (request: LedgerRequest, error: unknown) => send({ kind: 'answer', id: request.id, ok: false, error: toWire(error), books: books() })

  /** Answered once the line is in the journal, before the tables take it (Ledger.appendThen says why that is safe). */
  const append = (request: Extract<LedgerRequest, { call: 'append' }>) => {
    let answered = false
    try {
      ledger.appendThen(...request.args, (entry) => {
        answered = true
        answerOk(request, entry)
      })
    } catch (error) {
      // Recorded but not applied: the ledger turned read-only, and onBooksChanged has told the main thread.
      if (!answered) answerError(request, error)
    }
  }

  // Generic in the name: TypeScript ties a name to its own arguments only through a type parameter (microsoft/TypeScript#47109).
  const read = <K extends ReadName>(name: K, args: ReadArgs[K]) => ledger.read(name, ...args)
  const work = <K extends WorkName>(name: K, args: WorkArgs[K]) => LEDGER_WORK[name](ledger, ...args)
  const write = <K extends WriteName>(name: K, by: WrittenBy, args: WriteArgs[K]) => LEDGER_WRITES[name](ledger, by, ...args)

  const answer = async (request: Exclude<LedgerRequest, { call: 'append' }>): Promise<unknown> => {
    switch (request.call) {
      case 'read':
        return read(request.name, request.args)
      case 'work':
        return work(request.name, request.args)
      case 'write':
        return write(request.name, request.by, request.args)
      case 'close':
        return ledger.close()
    }
  }

  port.on('message', (request: LedgerRequest) => {
    clock = request.at
    if (request.call === 'append') return append(request)
    // Synchronous calls answer before the next message is read, so writes keep the order they were sent in;
    // the long ones (audit, saved-copy check, snapshot, close) run in the chores thread meanwhile.
    answer(request).then(
      (value) => {
        answerOk(request, value)
        if (request.call === 'close') port.close()
      },
      (error: unknown) => answerError(request, error),
    )
  })
  mark('ledger thread: answering')
  send({ kind: 'opened', report: ledger.report, books: books() })
}

void main()
