// Lock-race child: one racer that, on each "go <folder> <log>" line from the driver, takes the
// folder's lock, logs "+pid" and "-pid" (O_APPEND) around a short hold, releases, and answers
// "won", "refused" or "error <message>". The driver sends "go" to every racer at once.
// Usage: node --import tsx tests/faults/lock-child.ts <lock module> <hold ms>
import fs from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'

type LockFolder = (dir: string) => () => void

async function main() {
  const [modulePath, holdMs] = process.argv.slice(2)
  const { lockFolder } = (await import(pathToFileURL(modulePath).href)) as { lockFolder: LockFolder }
  const hold = new Int32Array(new SharedArrayBuffer(4))
  fs.writeSync(1, 'ready\n')
  for await (const line of createInterface({ input: process.stdin })) {
    const [, dir, log] = line.split(' ')
    let answer: string
    try {
      const release = lockFolder(dir)
      fs.appendFileSync(log, `+${process.pid}\n`)
      Atomics.wait(hold, 0, 0, Number(holdMs))
      fs.appendFileSync(log, `-${process.pid}\n`)
      release()
      answer = 'won'
    } catch (error) {
      answer = (error as Error).name === 'LedgerInUseError' ? 'refused' : `error ${(error as Error).message}`
    }
    fs.writeSync(1, `${answer}\n`)
  }
}

void main()
