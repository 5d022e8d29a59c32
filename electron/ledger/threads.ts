// Starts the ledger's worker threads, and the audit's own process, from the built bundle (out/main/<name>.js) or, run from source (tests, tsx), from the .ts file.
import { spawn, type ChildProcessByStdio } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { Worker, workerData as startedWith } from 'node:worker_threads'
import { sqlWasmModule } from './sql-engine'

/** The thread entries; electron.vite.config.ts builds each as out/main/<name>.js beside index.js and web.js. */
export type ThreadName = 'ledger-thread' | 'chores-thread' | 'shipper-thread'
/** The process entries, built the same way. */
export type ProcessName = 'audit-process'

/** Where each entry's source sits, from this folder: the office's shipper is not the ledger's. */
const SOURCE_DIRS: Record<ThreadName | ProcessName, string> = {
  'ledger-thread': '.',
  'chores-thread': '.',
  'shipper-thread': '../office',
  'audit-process': '.',
}

/**
 * Tests only: a folder holding every entry bundled from the current sources (tests/helpers/child-bundle.ts), set by
 * the test run before its workers start. From source, each thread otherwise loads its sources through tsx's require
 * hook, which cost a started core more CPU than all the rest of its start.
 */
const TEST_ENTRIES = process.env.COUNTER_TEST_THREAD_ENTRIES

const builtEntry = (name: ThreadName | ProcessName) => path.join(TEST_ENTRIES || __dirname, `${name}.js`)
const sourceEntry = (name: ThreadName | ProcessName) => path.join(__dirname, SOURCE_DIRS[name], `${name}.ts`)

/**
 * A module every ledger thread loads before its own code, with its data: the seam through which the
 * fault harness's disk (tests/faults/fs-shim.ts) and the crash test's failpoints reach the ledger's
 * threads. Only tests add one; a thread passes the hooks it was started with on to the threads it starts.
 */
export interface ThreadHook {
  module: string
  data: unknown
  /** The hook patches the thread's own modules, found by their source files in require's cache (the crash test's Ledger): the thread then runs from source. */
  patchesSources?: boolean
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
  const data = { ...workerData, hooks, sqlWasm: sqlWasmModule() }
  const built = builtEntry(name)
  // A hook that patches the thread's own modules needs them as source files: that thread runs from source. The app has no hooks.
  if (!hooks.some((hook) => hook.patchesSources) && fs.existsSync(built)) return new Worker(built, { workerData: data })
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(sourceEntry(name))})`, { eval: true, workerData: data })
}

/**
 * Starts a process of this program's own: the same executable, run as plain Node. In the desktop
 * app that executable is Electron, which runs as Node when ELECTRON_RUN_AS_NODE is set (its RunAsNode
 * fuse, on unless a build turns it off; with it off, the start fails and the caller does the work
 * itself). It answers on its stdout.
 */
export function startProcess(name: ProcessName, args: readonly string[]): ChildProcessByStdio<null, Readable, null> {
  const built = builtEntry(name)
  // From source, tsx's require hook found from here, not from the working folder.
  const entry = fs.existsSync(built) ? [built] : ['--require', createRequire(__filename).resolve('tsx/cjs'), sourceEntry(name)]
  return spawn(process.execPath, [...entry, ...args], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    windowsHide: true,
  })
}

/** Called first by each thread entry: each hook module's `installInThread(data)`. */
export function runThreadHooks(): void {
  // require, not import(): the module is named at run time, and from source only tsx's require hook is in the thread.
  // A test's hook module is TypeScript; a built thread has no tsx hook of its own (the app has no hooks).
  if (hooks.some((hook) => hook.module.endsWith('.ts'))) createRequire(__filename)('tsx/cjs')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const hook of hooks) (require(hook.module) as { installInThread: (data: unknown) => void }).installInThread(hook.data)
}

/** os.constants.priority.PRIORITY_BELOW_NORMAL: nice 10 on Linux and macOS, BELOW_NORMAL_PRIORITY_CLASS on Windows. */
const BELOW_NORMAL = os.constants.priority.PRIORITY_BELOW_NORMAL

/**
 * Called by the chores thread ('thread') and the audit's process ('process'): they yield the CPU to
 * the main and ledger threads. A snapshot's export and digest, or an audit, keep a core busy for
 * seconds; on a two-core shop PC that left a sale's thread waiting its turn behind them.
 *
 * A thread can lower only itself, and on Linux only (there a thread's nice value is its own:
 * setpriority on its thread id, read from /proc/thread-self); the helper threads with which V8
 * collects its heap serve the whole process at normal priority. A process lowers all of itself:
 * on Windows and macOS the priority is the process's; on Linux each of its threads is lowered, and
 * threads it starts later inherit it. If the system refuses, the work runs at normal priority, which
 * is only slower, never wrong.
 */
export function yieldCpuToSales(scope: 'thread' | 'process'): void {
  try {
    if (process.platform === 'linux') {
      const ids = scope === 'thread' ? [path.basename(fs.readlinkSync('/proc/thread-self'))] : fs.readdirSync('/proc/self/task')
      for (const id of ids) os.setPriority(Number(id), BELOW_NORMAL)
    } else if (scope === 'process') {
      os.setPriority(BELOW_NORMAL)
    }
  } catch {
    // Normal priority: see above.
  }
}
