// A thread hook (electron/ledger/threads.ts addThreadHook): in the ledger's threads this program's executable is not there, so no process of its own starts, as in a packaged app whose RunAsNode fuse is off.
export function installInThread(): void {
  process.execPath = '/nonexistent/counter'
}
