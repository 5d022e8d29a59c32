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

// Written synchronously to fd 1: once the thread that asked is gone (closed, killed, or its process
// with it), the next line fails (EPIPE) and ends this process, which has nothing of its own to lose.
const tell = (line: AuditLine) => writeFully(1, Buffer.from(`${JSON.stringify(line)}\n`))

try {
  tell({ check: checkJournal(dir, { through: Number(through), onProgress: (done, total) => tell({ progress: { done, total } }) }) })
} catch (error) {
  tell({ error: carry(error) })
}
