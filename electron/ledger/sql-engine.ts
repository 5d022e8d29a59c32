// sql.js for the ledger: its wasm compiled once per process and handed to every thread started from it, so no thread compiles it again.
import fs from 'node:fs'
import { workerData } from 'node:worker_threads'
import initSqlJs, { type SqlJsStatic } from 'sql.js'

/** A compiled WebAssembly module: it crosses to a thread by reference, in the thread's start-up data. */
export type CompiledWasm = object

/** The part of Node's WebAssembly global used here; @types/node 20 does not declare it. */
const wasm = (globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => CompiledWasm; Instance: new (module: CompiledWasm, imports: unknown) => never }
}).WebAssembly

/**
 * Decision: compile in the process, instantiate in each thread. A thread given the compiled module
 * shares the code V8 has made of it; a thread that compiles its own spends about a third of a second
 * of CPU on it (measured on the 2-core test machine: 400 ms of CPU for a thread that opens sql.js,
 * 70 ms given the module). The ledger and chores threads start at every counter start, so this is
 * start-up time the shop feels.
 */
let compiled: CompiledWasm | null = null

/** This process's compiled sql.js wasm: the one this thread was started with, else compiled here once. */
export function sqlWasmModule(): CompiledWasm {
  const inherited: unknown = (workerData as { sqlWasm?: unknown } | null)?.sqlWasm
  compiled ??= inherited instanceof wasm.Module ? inherited : new wasm.Module(fs.readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')))
  return compiled
}

let sqlJs: Promise<SqlJsStatic> | null = null

/** One sql.js instance per thread, made from the process's compiled wasm. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({
    // Synchronous: Node instantiates a module of any size at once, and a throw here rejects initSqlJs.
    instantiateWasm(imports, receive) {
      receive(new wasm.Instance(sqlWasmModule(), imports))
      return undefined
    },
  }).catch((error: unknown) => {
    sqlJs = null
    throw error
  })
  return sqlJs
}
