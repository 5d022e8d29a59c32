// The whole-journal audit as the chores thread runs it: the check in a process of its own at low priority (audit-process.ts), the seals it earned written here; the check in this thread when that process cannot give an answer.
import readline from 'node:readline'
import { checkJournal, sealSegments, type JournalAudit, type JournalCheck } from './audit'
import { uncarry, type CarriedError } from './chores'
import { startProcess } from './threads'

/** One line of the audit process's stdout. */
export type AuditLine = { progress: { done: number; total: number } } | { check: JournalCheck } | { error: CarriedError }

type OnProgress = (done: number, total: number) => void

/**
 * Decision: the check runs in its own process, not in the chores thread. A thread can lower its own
 * priority but not that of the helper threads with which V8 collects its heap, which it shares with
 * the main thread: on two cores, an idle main thread beside a thread allocating nonstop (as an audit
 * reading every line does) waited up to 16–19 ms for a core, even with that thread at nice 10;
 * beside a whole process at nice 10 doing the same, 9–11 ms. At 1M sales (the bench's ledger,
 * 2026-11-27: five runs this way, four in the chores thread) the main loop's max over the first audit was 9.0–13.8 ms in four runs
 * of five (23.3 in one), 15.7–20.1 ms in the chores thread; over a day close, 12.7–15.0 in
 * four of five (19.4), against 15.7–20.2.
 *
 * The price: a process started per audit (tens of ms as Node; Electron run as Node starts slower),
 * and on Linux and macOS that start forks this process, which copies its page tables while its other
 * threads may wait (a main loop touching new memory every millisecond stalled 41 ms beside a start
 * with 1 GB resident, 10 ms with 50 MB). Snapshots stay in the chores thread: its replica is there,
 * and so is the fault harness that fails their writes (tests/faults/fs-shim.ts shares memory with the
 * ledger's threads). The seals are written by this thread, so the process only reads: one left
 * running after the app died has nothing to write, and ends at its next line of progress.
 */
export async function auditJournal(dir: string, through: number, onProgress?: OnProgress): Promise<JournalAudit> {
  const { audit, newSeals } = (await checkAside(dir, through, onProgress)) ?? checkJournal(dir, { through, onProgress })
  sealSegments(dir, newSeals)
  return audit
}

/**
 * The check's answer from its own process, or null when the process gave none (it could not start,
 * or died on the way): then the thread checks the journal itself, from the start, as it did before
 * there was a process. An error the check met (an unreadable journal) is thrown here, as in the thread.
 */
function checkAside(dir: string, through: number, onProgress?: OnProgress): Promise<JournalCheck | null> {
  return new Promise((resolve, reject) => {
    let answer: JournalCheck | null = null
    let failure: CarriedError | null = null
    let child: ReturnType<typeof startProcess>
    try {
      child = startProcess('audit-process', [dir, String(through)])
    } catch {
      return resolve(null)
    }
    child.once('error', () => resolve(null))
    readline.createInterface({ input: child.stdout }).on('line', (text) => {
      let line: AuditLine
      try {
        line = JSON.parse(text) as AuditLine
      } catch {
        return // Not one of the process's lines (a runtime's warning): nothing to act on.
      }
      if ('progress' in line) onProgress?.(line.progress.done, line.progress.total)
      else if ('check' in line) answer = line.check
      else failure = line.error
    })
    child.once('close', () => (failure ? reject(uncarry(failure)) : resolve(answer)))
  })
}
