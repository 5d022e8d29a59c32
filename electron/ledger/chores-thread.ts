// The chores thread's entry: snapshots from its replica, whole-journal audits, saved-copy checks and backups, one request at a time, so no sale waits on them.
import { parentPort, workerData } from 'node:worker_threads'
import { auditJournal } from './audit-runner'
import { copyLedgerFolder, copyLedgerOffDisk } from './backup-copy'
import { carry, type ChoreReply, type ChoreRequest, type ChoresData, type ChoreTasks } from './chores'
import { loadSqlJs } from './sql-engine'
import { Replica } from './replica'
import { newestSnapshotIs } from './snapshot'
import { runThreadHooks, yieldCpuToSales } from './threads'

runThreadHooks()
yieldCpuToSales('thread')
const { dir } = workerData as ChoresData
const port = parentPort!
let replicaMade: Promise<Replica> | null = null
/** The replica, made at the first seed or snapshot: a thread started for an audit or a backup never loads sql.js. */
const replica = () => (replicaMade ??= loadSqlJs().then((SQL) => new Replica(SQL, dir)))

const reply = (message: ChoreReply) => port.postMessage(message)

async function perform(request: ChoreRequest): Promise<ChoreTasks[ChoreRequest['task']]['answer']> {
  switch (request.task) {
    case 'seedFromFile':
      return (await replica()).seedFromFile(request.check)
    case 'seed':
      ;(await replica()).seed(request.bytes)
      return null
    case 'snapshot':
      return (await replica()).snapshot(request.through)
    case 'audit':
      return auditJournal(dir, request.through, (done, total) => reply({ id: request.id, progress: { done, total } }))
    case 'savedCopyIs':
      return newestSnapshotIs(dir, request.check)
    case 'copyLedger':
      copyLedgerFolder(dir, request.into)
      return null
    case 'copyOffDisk':
      return copyLedgerOffDisk(dir, request.into, request.through, (done, total) => reply({ id: request.id, progress: { done, total } }))
  }
}

// One at a time, in the order asked: the snapshot files have one writer, and a snapshot asked after a seed follows it.
let previous: Promise<unknown> = Promise.resolve()
port.on('message', (request: ChoreRequest) => {
  previous = previous.then(async () => {
    try {
      reply({ id: request.id, ok: true, value: await perform(request) })
    } catch (error) {
      reply({ id: request.id, ok: false, error: carry(error) })
    }
  })
})
