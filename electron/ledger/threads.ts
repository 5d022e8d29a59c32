// Starts the ledger's worker threads from the built bundle (out/main/<name>.js) or, run from source (tests, tsx), from the .ts file.
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'

/** The thread entries; electron.vite.config.ts builds each as out/main/<name>.js beside index.js and web.js. */
export type ThreadName = 'ledger-thread' | 'chores-thread'

/**
 * Decision: one lookup for both ways Counter runs. Bundled, this module sits in out/main/index.js
 * (or web.js) and the entries are its neighbours; from source it sits in electron/ledger/ beside
 * the .ts entries, which a worker can only load through tsx's require hook (Node 20 workers do not
 * inherit `--import tsx`).
 */
export function startThread(name: ThreadName, workerData: unknown): Worker {
  const built = path.join(__dirname, `${name}.js`)
  if (fs.existsSync(built)) return new Worker(built, { workerData })
  const source = path.join(__dirname, `${name}.ts`)
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)})`, { eval: true, workerData })
}
