// A benchmark's temporary folder: made before it runs, removed when it ends, fails, or is stopped with Ctrl+C.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Runs `work` in a fresh folder under the system's temp folder named from `prefix`; a failure is printed and sets the exit code. */
export function runInScratchFolder(prefix: string, work: (root: string) => Promise<void>): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const removeRoot = () => fs.rmSync(root, { recursive: true, force: true })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      removeRoot()
      process.exit(130)
    })
  }
  work(root)
    .catch((error: unknown) => {
      console.error(error)
      process.exitCode = 1
    })
    .finally(removeRoot)
}
