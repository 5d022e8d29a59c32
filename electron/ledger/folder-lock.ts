// One writer per ledger folder: the desktop app and browser mode (or two copies of either) must
// never append to the same journal at once. The lock file names its owner's process; a lock whose
// process is gone (a crash, a power cut) is taken over.
import fs from 'node:fs'
import path from 'node:path'

const LOCK_FILE = 'counter.lock'

export class LedgerInUseError extends Error {
  constructor(readonly ownerPid: number) {
    super(`This ledger is already open in another Counter (process ${ownerPid}). Close that window or browser-mode server first.`)
    this.name = 'LedgerInUseError'
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the folder's lock or throws LedgerInUseError; returns the release. */
export function lockFolder(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE)
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => fs.rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const owner = Number(fs.readFileSync(file, 'utf8'))
    // This process re-opening its own folder (a mode switch back, a test) is no second writer.
    if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw new LedgerInUseError(owner)
    fs.rmSync(file, { force: true })
  }
}
