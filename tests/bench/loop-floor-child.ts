// The main event loop's floor on this machine: its delay while the main thread does nothing at all, alone and beside one
// thread that allocates nonstop, in a fresh process; prints the two as one JSON line.
// Usage: node --import tsx tests/bench/loop-floor-child.ts
// Why: the ledger's threads allocate while they work, and V8 collects each thread's heap with helper threads shared by the
// whole process. On two cores those helpers and the working thread can keep an idle main thread waiting for a core; what
// the loop shows then is the machine's, not work on the main thread. The bench prints it beside the windows it measures,
// as it prints the bare fsync'd append beside the commits.
import { Worker } from 'node:worker_threads'
import { withLoopDelay, type LoopDelay } from './event-loop'

export interface LoopFloor {
  alone: LoopDelay
  besideAllocating: LoopDelay
}

/** As long as the first audit's window at 1M, roughly: a longer window sees a longer worst case. */
const WINDOW_MS = 5_000

// Short-lived objects and strings with a few survivors, as a thread reading and checking journal lines makes them.
const ALLOCATING_THREAD = `
  const { workerData } = require('node:worker_threads')
  const end = Date.now() + workerData
  let kept = []
  for (let i = 0; Date.now() < end; i++) {
    kept.push({ seq: i, line: 'line ' + i })
    if (kept.length > 100000) kept = []
  }
`

async function main(): Promise<LoopFloor> {
  // Beside the thread first: a fresh process's own heap is compacted once about 8 s after its start
  // (V8's memory reducer), and that pause belongs to neither window's question; the GC column shows where it fell.
  const { delay: besideAllocating } = await withLoopDelay(
    () =>
      new Promise((resolve, reject) => {
        const thread = new Worker(ALLOCATING_THREAD, { eval: true, workerData: WINDOW_MS })
        thread.once('error', reject)
        thread.once('exit', resolve)
      }),
  )
  const { delay: alone } = await withLoopDelay(() => new Promise((resolve) => setTimeout(resolve, WINDOW_MS)))
  return { alone, besideAllocating }
}

main().then(
  (floor) => process.stdout.write(`${JSON.stringify(floor)}\n`),
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
