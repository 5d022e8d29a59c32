// The whole-journal audit's own process: started by the chores thread (audit-runner.ts) at low priority, it reads the journal and never writes; progress and the answer go out as JSON lines on stdout.
import { checkJournal } from './audit'
import type { AuditLine } from './audit-runner'
import { carry } from './chores'
import { writeFully } from './durable-files'
import { yieldCpuToSales } from './threads'

// On Linux the process starts at the nice of the chores thread that started it; elsewhere a thread's
// priority is not handed on, so the process lowers itself.
yieldCpuToSales('process')
const [dir, through] = process.argv.slice(2)

/** How this process ends when no one reads it any more: not 0, which says the check ran to its end. */
const NO_ONE_LISTENING = 1

// Written synchronously to fd 1: once the thread that asked is gone (closed, killed, or its process
// with it), the next line fails (EPIPE) and ends this process, which has nothing of its own to lose.
// It ends quietly: a stack on the stderr it shares with the app would read as the app's own failure.
const tell = (line: AuditLine) => {
  try {
    writeFully(1, Buffer.from(`${JSON.stringify(line)}\n`))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(NO_ONE_LISTENING)
    throw error
  }
}

try {
  tell({ check: checkJournal(dir, { through: Number(through), onProgress: (done, total) => tell({ progress: { done, total } }) }) })
} catch (error) {
  tell({ error: carry(error) })
}
