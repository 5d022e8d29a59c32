// Starts the ledger's worker threads from the built bundle (out/main/<name>.js) or, run from source (tests, tsx), from the .ts file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker, workerData as startedWith } from 'node:worker_threads'

/** The thread entries; electron.vite.config.ts builds each as out/main/<name>.js beside index.js and web.js. */
export type ThreadName = 'ledger-thread' | 'chores-thread' | 'shipper-thread'

/** Where each entry's source sits, from this folder: the office's shipper is not the ledger's. */
const SOURCE_DIRS: Record<ThreadName, string> = { 'ledger-thread': '.', 'chores-thread': '.', 'shipper-thread': '../office' }

/**
 * A module every ledger thread loads before its own code, with its data: the seam through which the
 * fault harness's disk (tests/faults/fs-shim.ts) and the crash test's failpoints reach the ledger's
 * threads. Only tests add one; a thread passes the hooks it was started with on to the threads it starts.
 */
export interface ThreadHook {
  module: string
  data: unknown
}

const hooks: ThreadHook[] = [...((startedWith as { hooks?: ThreadHook[] } | null)?.hooks ?? [])]

/** Tests only: every ledger thread started from now on runs `hook` first. Returns the way to stop that. */
export function addThreadHook(hook: ThreadHook): () => void {
  hooks.push(hook)
  return () => {
    const at = hooks.indexOf(hook)
    if (at >= 0) hooks.splice(at, 1)
  }
}

/**
 * Decision: one lookup for both ways Counter runs. Bundled, this module sits in out/main/ (the
 * build keeps shared chunks there) and the entries are its neighbours; from source it sits in
 * electron/ledger/ beside the .ts entries, which a worker can only load through tsx's require hook
 * (Node 20 workers do not inherit `--import tsx`).
 */
export function startThread(name: ThreadName, workerData: object): Worker {
  const data = { ...workerData, hooks }
  const built = path.join(__dirname, `${name}.js`)
  if (fs.existsSync(built)) return new Worker(built, { workerData: data })
  const source = path.join(__dirname, SOURCE_DIRS[name], `${name}.ts`)
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)})`, { eval: true, workerData: data })
}

/** Called first by each thread entry: each hook module's `installInThread(data)`. */
export function runThreadHooks(): void {
  // require, not import(): the module is named at run time, and from source only tsx's require hook is in the thread.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const hook of hooks) (require(hook.module) as { installInThread: (data: unknown) => void }).installInThread(hook.data)
}

/**
 * Called by the chores thread: it yields the CPU to the main and ledger threads. A snapshot's export
 * and digest, or an audit, keep a core busy for seconds; on a two-core shop PC that left a sale's
 * thread waiting its turn behind them. Linux only: there a thread's nice value is its own
 * (setpriority on its thread id, read from /proc/thread-self). Elsewhere, or if the system refuses,
 * the thread runs at normal priority, which is only slower, never wrong.
 *
 * Decision: the chores stay a thread, not a process of their own at low priority, though only a
 * process can lower all of itself: a thread's nice value leaves out the helper threads with which V8
 * collects its heap, shared with the main thread. Measured here (two cores, 2026-11-27): an idle main
 * thread beside a thread allocating nonstop at nice 10 waited up to 16–18 ms for a core, beside a
 * whole process at nice 10 doing the same 9–11 ms. But on Linux starting a process forks this one,
 * and a fork copies the page tables of a process that holds the books while its other threads wait:
 * the main loop stalled 41 ms with 1 GB resident, 66 ms with 2 GB, for each start; with the audit
 * run in its own process at 1M sales, the first audit's loop max was 23 and 14 ms in two runs (15.7–20
 * without). A process started once, before the books are loaded, would avoid that, at the price of a
 * resident process per ledger and a fault harness (tests/faults/fs-shim.ts) shared across processes.
 */
export function yieldCpuToSales(): void {
  if (process.platform !== 'linux') return
  try {
    const threadId = Number(path.basename(fs.readlinkSync('/proc/thread-self')))
    os.setPriority(threadId, 10)
  } catch {
    // Normal priority: see above.
  }
}
