// The main loop while a thread of this process starts a bare process and waits for its end, as the chores thread starts the audit's: the floor of a process start at this process's size.
// Why: on Linux a start forks the whole process first, copying its page tables while the kernel holds its memory map; a main
// thread that touches new memory meanwhile waits for it. The more resident memory (the books in sql.js), the longer.
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { withLoopDelay, type LoopDelay } from './event-loop'

export interface ProcessStartFloor {
  loop: LoopDelay
  /** This process's resident memory when the starts began. */
  residentBytes: number
}

const STARTS = 3

// The program's own executable run as plain Node, as threads.ts startProcess runs it, with nothing to do. The thread
// says it is up and waits to be told to start: its own start (a new isolate, its modules) is not what is measured,
// as the chores thread is already running when the audit starts its process.
const STARTING_THREAD = `
  const { parentPort } = require('node:worker_threads')
  const { spawn } = require('node:child_process')
  let left = ${STARTS}
  const next = () => spawn(process.execPath, ['-e', '0'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'ignore' }).once('exit', () => (--left > 0 ? next() : process.exit(0)))
  parentPort.once('message', next)
  parentPort.postMessage('up')
`

export async function processStartFloor(): Promise<ProcessStartFloor> {
  const thread = new Worker(STARTING_THREAD, { eval: true })
  const ended = new Promise((resolve, reject) => {
    thread.once('error', reject)
    thread.once('exit', resolve)
  })
  await Promise.race([once(thread, 'message'), ended])
  const residentBytes = process.memoryUsage().rss
  const { delay: loop } = await withLoopDelay(() => {
    thread.postMessage('start')
    return ended
  })
  return { loop, residentBytes }
}
