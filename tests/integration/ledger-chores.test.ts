// The ledger's chores thread on real files and real threads: sales go on while it audits and snapshots, its replica's snapshots are what a fresh open rebuilds, and killing it loses nothing.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import initSqlJs from 'sql.js'
import { afterAll, describe, expect, it } from 'vitest'
import type { Ledger, LedgerProgress } from '../../electron/ledger/ledger'
import { runDailyBackup } from '../../electron/counter/backups'
import { checkOf, PREVIOUS_SNAPSHOT_FILE, SNAPSHOT_CHECK_FILE, SNAPSHOT_FILE, type SnapshotCheck } from '../../electron/ledger/snapshot'
import { addThreadHook } from '../../electron/ledger/threads'
import { percentile } from '../bench/stats'
import { rechargeIntent, rechargeOutcome, useLedgerRig } from './ledger-rig'
import { english } from '../../electron/shared/words'
import { rejectedInEnglish } from '../helpers/english-replies'

const rig = useLedgerRig('counter-chores-')

/** A provider message this long makes each sale's outcome line big: a journal of many megabytes from a few hundred appends. */
const LONG_MESSAGE = 'Recharge successful. '.repeat(2_500)

/** Real appends: `sales` recharges, each an intent and its outcome, ids from `first`. */
function sell(ledger: Ledger, first: number, sales: number, message = 'Recharge successful'): void {
  for (let i = first; i < first + sales; i++) {
    ledger.append('recharge.intent', rechargeIntent(`S${i}`))
    ledger.append('recharge.outcome', rechargeOutcome(`S${i}`, { message }))
  }
}

const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Sells one recharge per turn of the event loop until `until` says stop, timing each from the moment
 * it was queued: a sale queued behind work on the event loop waits for all of it.
 */
async function sellEachTurn(ledger: Ledger, first: number, until: () => boolean): Promise<{ latencies: number[]; doneAt: bigint }> {
  const latencies: number[] = []
  for (let i = first; latencies.length < 3 || !until(); i++) {
    const queued = process.hrtime.bigint()
    await nextTurn()
    sell(ledger, i, 1)
    latencies.push(ms(queued))
  }
  return { latencies, doneAt: process.hrtime.bigint() }
}

/** Every table of a snapshot file, every row in a fixed order: two files with equal dumps hold the same books. */
async function dump(file: string): Promise<Record<string, unknown[][]>> {
  const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') })
  const db = new SQL.Database(fs.readFileSync(file))
  try {
    const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0].values.map(([name]) => String(name))
    return Object.fromEntries(tables.map((table) => [table, db.exec(`SELECT * FROM ${table} ORDER BY 1, 2`)[0]?.values ?? []]))
  } finally {
    db.close()
  }
}

/** The entry the newest snapshot's check names (null for the instant it is being replaced). */
function savedSeq(): number | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(rig.dir, SNAPSHOT_CHECK_FILE), 'utf8')) as { seq: number }).seq
  } catch {
    return null
  }
}

/** Copies the ledger folder as it stands, without the named snapshot files, for a fresh open to rebuild. */
function copyWithout(names: string[]): string {
  const copy = path.join(rig.root, `copy-${fs.readdirSync(rig.root).length}`)
  fs.cpSync(rig.dir, copy, { recursive: true })
  for (const name of names) fs.rmSync(path.join(copy, name), { force: true })
  return copy
}

/** Opens `dir` fresh, checks the open was clean, and closes it: the snapshot it writes is what it rebuilt. */
async function rebuild(dir: string, expectedProblems: string[] = []): Promise<string> {
  const ledger = await rig.open({ dir })
  expect(ledger.report.problems.map(english)).toEqual(expectedProblems)
  await rig.close(ledger)
  return path.join(dir, SNAPSHOT_FILE)
}

describe('the whole-journal audit', () => {
  it('runs beside the sales: each sale completes in a fraction of the audit, before it ends, with progress told', { timeout: 120_000 }, async () => {
    const built = await rig.open({ snapshotEvery: 1_000_000 })
    sell(built, 0, 600, LONG_MESSAGE)
    await rig.close(built)
    const journalBytes = rig.segments().reduce((sum, file) => sum + fs.statSync(file).size, 0)
    expect(journalBytes).toBeGreaterThan(30_000_000)

    const progress: LedgerProgress[] = []
    const ledger = await rig.open({ snapshotEvery: 1_000_000, onProgress: (step) => progress.push(step) })
    const started = process.hrtime.bigint()
    let auditDoneAt: bigint | null = null
    const auditing = ledger.auditJournal().then((audit) => {
      auditDoneAt = process.hrtime.bigint()
      return audit
    })
    const { latencies, doneAt } = await sellEachTurn(ledger, 600, () => progress.some((step) => step.done > 0))
    const audit = await auditing
    const auditMs = Number(auditDoneAt! - started) / 1e6

    expect(audit).toEqual({ entries: expect.any(Number), ok: true, problem: null })
    expect(audit.entries).toBeGreaterThanOrEqual(1_200)
    // The sales were made while the audit was still reading, and none waited for it.
    // (Inline, the first sale waited for the whole audit, and the audit ended before any sale.)
    expect(doneAt < auditDoneAt!).toBe(true)
    expect(Math.max(...latencies)).toBeLessThan(auditMs / 2)
    expect(percentile(latencies, 50)).toBeLessThan(auditMs / 10)
    expect(progress[0]).toEqual({ task: 'audit', done: 0, total: expect.any(Number) })
    expect(progress.at(-1)).toEqual({ task: 'audit', done: progress[0].total, total: progress[0].total })
    expect(progress.length).toBeGreaterThan(10)
    expect(progress.every((step, i) => i === 0 || step.done >= progress[i - 1].done)).toBe(true)
  })
})

/** The audit processes this test process has started and not yet reaped (Linux /proc). */
function auditProcesses(): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      return parent === process.pid && command.includes('audit-process') ? [Number(entry)] : []
    } catch {
      return [] // ended meanwhile
    }
  })
}

/** The nice value of each of a process's threads (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceOfThreads(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  })
}

/** Polls until `audit` settles, handing each audit process it sees to `look` at every poll. */
async function watchAudit<T>(audit: Promise<T>, look: (pid: number) => void): Promise<T> {
  let settled = false
  const done = audit.finally(() => (settled = true))
  // Its refusal is the caller's, once this returns; meanwhile it must not count as unhandled.
  done.catch(() => undefined)
  while (!settled) {
    for (const pid of auditProcesses()) {
      try {
        look(pid)
      } catch (error) {
        if (!(error as NodeJS.ErrnoException).code) throw error // ENOENT/ESRCH: it ended as it was read
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  return done
}

const SEALS = () => path.join(rig.dir, 'journal', 'sealed.json')

describe('the audit in its own process', () => {
  /** The first test's ledger folder as built, for the others to start from: each build took seconds of a core. */
  let builtOnce: string | null = null
  afterAll(() => {
    if (builtOnce !== null) fs.rmSync(builtOnce, { recursive: true, force: true })
  })

  /** A journal of many closed segments (about 31 MB in segments of about 2 MB), in a closed ledger folder of its own. */
  async function buildSegmentedJournal(): Promise<void> {
    if (builtOnce !== null) {
      fs.cpSync(builtOnce, rig.dir, { recursive: true })
      return
    }
    const built = await rig.open({ snapshotEvery: 40, segmentBytes: 2_000_000 })
    // A segment closes at the first snapshot after it grew past its size: snapshots run between batches.
    for (let first = 0; first < 600; first += 50) {
      sell(built, first, 50, LONG_MESSAGE)
      await built.snapshotsSettled()
    }
    await rig.close(built)
    expect(rig.segments().length).toBeGreaterThan(5)
    builtOnce = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-chores-built-'))
    fs.cpSync(rig.dir, builtOnce, { recursive: true })
  }

  it('checks the journal at below-normal priority, reading only; the ledger writes the seals and a damaged line is still found', { timeout: 120_000 }, async () => {
    await buildSegmentedJournal()
    const ledger = await rig.open({ snapshotEvery: 1_000_000 })
    /** Each audit process's threads' nice values, as last seen while it checked. */
    const nices = new Map<number, number[]>()
    const audit = await watchAudit(ledger.auditJournal(), (pid) => nices.set(pid, niceOfThreads(pid)))

    expect(audit).toEqual({ entries: 1_200, ok: true, problem: null })
    // One process, every one of its threads (V8's helpers too) lowered, gone once it answered. (On
    // Linux it would also inherit the nice of the chores thread that starts it; what counts is that
    // no thread of the work runs at normal priority, as V8's helpers of a thread in this process do.)
    expect(nices.size).toBe(1)
    const [threads] = nices.values()
    expect(threads.length).toBeGreaterThan(1)
    expect(new Set(threads)).toEqual(new Set([os.constants.priority.PRIORITY_BELOW_NORMAL]))
    expect(auditProcesses()).toEqual([])
    // Every closed segment sealed, by the ledger's side: the process has no write to make.
    const sealed = Object.keys(JSON.parse(fs.readFileSync(SEALS(), 'utf8')) as object).sort()
    expect(sealed).toEqual(rig.segments().slice(0, -1).map((file) => path.basename(file)).sort())

    // An edit in the first (sealed) segment: its digest no longer matches, its lines are read again.
    const first = rig.segments()[0]
    const bytes = fs.readFileSync(first)
    const at = bytes.indexOf('Recharge successful')
    bytes[at] = 'r'.charCodeAt(0)
    fs.writeFileSync(first, bytes)
    const damaged = await watchAudit(ledger.auditJournal(), () => undefined)
    expect(damaged.ok).toBe(false)
    expect(english(damaged.problem ?? '')).toMatch(/line \d+/i)
    expect(ledger.readOnly).not.toBeNull()
    await rig.close(ledger)
  })

  it('still answers when its process cannot start, or dies on the way: the ledger checks the journal itself', { timeout: 120_000 }, async () => {
    await buildSegmentedJournal()
    fs.rmSync(SEALS(), { force: true })

    // The process killed mid-way: the whole check again, in the chores thread.
    const progress: LedgerProgress[] = []
    const ledger = await rig.open({ snapshotEvery: 1_000_000, onProgress: (step) => progress.push(step) })
    const killed = new Set<number>()
    const afterKill = await watchAudit(ledger.auditJournal(), (pid) => {
      // Once it has begun to tell its progress: killed mid-way, not before it started.
      if (progress.length > 1 && !killed.has(pid)) {
        killed.add(pid)
        process.kill(pid, 'SIGKILL')
      }
    })
    expect(killed.size).toBe(1)
    expect(afterKill).toEqual({ entries: 1_200, ok: true, problem: null })
    expect(progress.at(-1)).toEqual({ task: 'audit', done: progress[0].total, total: progress[0].total })
    expect(fs.existsSync(SEALS())).toBe(true)
    await rig.close(ledger)

    // No process can start at all (the hook's executable is not there): no process, the same answer.
    fs.rmSync(SEALS(), { force: true })
    const removeHook = addThreadHook({ module: path.join(__dirname, 'no-own-process.ts'), data: null })
    try {
      const alone = await rig.open({ snapshotEvery: 1_000_000 })
      const seen = new Set<number>()
      expect(await watchAudit(alone.auditJournal(), (pid) => seen.add(pid))).toEqual({ entries: 1_200, ok: true, problem: null })
      expect(seen.size).toBe(0)
      expect(fs.existsSync(SEALS())).toBe(true)
      await rig.close(alone)
    } finally {
      removeHook()
    }
  })

  it('tells the disk error when the journal cannot be read, in its process as in the thread, and writes no seal', { timeout: 120_000 }, async () => {
    await buildSegmentedJournal()
    fs.rmSync(SEALS(), { force: true })
    // A closed segment that cannot be read as a file (a disk gone bad, a folder restored wrongly).
    const second = rig.segments()[1]
    fs.rmSync(second)
    fs.mkdirSync(second)

    const ledger = await rig.open({ snapshotEvery: 1_000_000 })
    const seen = new Set<number>()
    await expect(watchAudit(ledger.auditJournal(), (pid) => seen.add(pid))).rejects.toThrow(/EISDIR/)
    expect(seen.size).toBe(1)
    await rig.close(ledger)

    const removeHook = addThreadHook({ module: path.join(__dirname, 'no-own-process.ts'), data: null })
    try {
      const alone = await rig.open({ snapshotEvery: 1_000_000 })
      await expect(alone.auditJournal()).rejects.toThrow(/EISDIR/)
      await rig.close(alone)
    } finally {
      removeHook()
    }
    expect(fs.existsSync(SEALS())).toBe(false)
  })

  it('ends by itself, quietly, once no one reads it (its app gone), having written nothing', { timeout: 120_000 }, async () => {
    await buildSegmentedJournal()
    fs.rmSync(SEALS(), { force: true })
    const before = new Map(fs.readdirSync(rig.dir, { recursive: true }).map((name) => [String(name), fs.statSync(path.join(rig.dir, String(name))).mtimeMs]))
    // Started as startProcess starts it, but with its stderr kept here (the app's is shared with it) to see what it says.
    const child = spawn(process.execPath, [path.join(process.env.COUNTER_TEST_THREAD_ENTRIES!, 'audit-process.js'), rig.dir, 'Infinity'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let said = ''
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    // Its first line read, the reader goes as a dead app's would.
    await new Promise((resolve) => child.stdout.once('data', resolve))
    child.stdout.destroy()
    // A check that ran to its end would exit 0; one cut off at its next line (EPIPE) does not, and says nothing.
    expect(await exited).not.toBe(0)
    expect(said).toBe('')
    const after = new Map(fs.readdirSync(rig.dir, { recursive: true }).map((name) => [String(name), fs.statSync(path.join(rig.dir, String(name))).mtimeMs]))
    expect(after).toEqual(before)
  })
})

describe('snapshots from the replica', () => {
  it('do not delay the sales made while they are written', { timeout: 120_000 }, async () => {
    const built = await rig.open({ snapshotEvery: 1_000_000 })
    sell(built, 0, 600, LONG_MESSAGE)
    // With no replica yet, close writes its snapshot here, in the sales' thread: the inline cost.
    const closing = process.hrtime.bigint()
    await rig.close(built)
    const inlineMs = ms(closing)

    const ledger = await rig.open({ snapshotEvery: 10 })
    const snapshotsSeen = new Set([savedSeq()])
    const { latencies } = await sellEachTurn(ledger, 600, () => {
      const seq = savedSeq()
      if (seq !== null) snapshotsSeen.add(seq)
      return snapshotsSeen.size > 3
    })
    await ledger.snapshotsSettled()
    expect(ledger.notices).toEqual([])
    // Three snapshots of the whole books were written while these sales were made. Inline, one sale in
    // five (snapshotEvery 10) waited a whole snapshot; here nine in ten take a small part of one. (Not
    // the max: on a shared machine a sale's fsync alone can now and then take tens of milliseconds.)
    expect(percentile(latencies, 90)).toBeLessThan(inlineMs / 4)
  })

  it('are what a fresh open rebuilds from the journal alone', async () => {
    const ledger = await rig.open({ snapshotEvery: 3 })
    for (let i = 0; i < 10; i++) {
      ledger.append('recharge.intent', rechargeIntent(`S${i}`, 1000 + i))
      ledger.append('recharge.outcome', rechargeOutcome(`S${i}`, { outcome: 'UNKNOWN', providerStatus: null, fpayId: null, operatorRef: null }))
      if (i % 2 === 0) ledger.append('recharge.outcome', rechargeOutcome(`S${i}`, { source: 'check_status', operatorRef: null }))
      await ledger.snapshotsSettled()
    }
    expect(ledger.choresThread).not.toBeNull()
    await ledger.snapshot()
    const fromReplica = await dump(path.join(rig.dir, SNAPSHOT_FILE))
    const fromJournal = await rebuild(copyWithout([SNAPSHOT_FILE, SNAPSHOT_CHECK_FILE, PREVIOUS_SNAPSHOT_FILE, `${PREVIOUS_SNAPSHOT_FILE}.check`]))
    expect(await dump(fromJournal)).toEqual(fromReplica)
  })

  it('after archiving are what a fresh open rebuilds from the archive\'s snapshot and the journal', async () => {
    let now = Date.parse('2024-03-20T05:00:00.000Z')
    const ledger = await rig.open({ snapshotEvery: 3, now: () => new Date((now += 1000)) })
    ledger.append('recharge.intent', rechargeIntent('OLD', 19900, { businessDay: '2024-03-20' }))
    ledger.append('recharge.outcome', rechargeOutcome('OLD'))
    now = Date.parse('2024-04-02T05:00:00.000Z')
    ledger.append('recharge.intent', rechargeIntent('NEW1', 19900, { businessDay: '2024-04-02' }))
    // The third event's snapshot: the replica now holds the books, OLD's sale among them.
    await ledger.snapshotsSettled()
    expect(ledger.choresThread).not.toBeNull()

    expect(await ledger.archiveClosedYears('2024-04-02')).toEqual(['FY2023-24'])
    expect(ledger.read('getSale', 'OLD')).toBeNull()
    // Sales go on (fewer than snapshotEvery), and the replica, seeded again from the archive's snapshot, writes the next.
    ledger.append('recharge.intent', rechargeIntent('NEW2', 19900, { businessDay: '2024-04-02' }))
    ledger.append('recharge.outcome', rechargeOutcome('NEW2'))
    await ledger.snapshot()
    const fromReplica = await dump(path.join(rig.dir, SNAPSHOT_FILE))
    expect(fromReplica.sales).toHaveLength(2)
    expect(fromReplica.archive_counts.length).toBeGreaterThan(0)
    // ledger.sqlite.prev is the snapshot the archiving wrote.
    const rebuilt = await rebuild(copyWithout([SNAPSHOT_FILE, SNAPSHOT_CHECK_FILE]))
    expect(await dump(rebuilt)).toEqual(fromReplica)
  })
})

describe('the chores thread killed mid-snapshot', () => {
  it('loses nothing: no half file is trusted, sales go on, and the next snapshot starts it again', { timeout: 120_000 }, async () => {
    const built = await rig.open({ snapshotEvery: 1_000_000 })
    sell(built, 0, 300, LONG_MESSAGE)
    await rig.close(built)
    const ledger = await rig.open({ snapshotEvery: 1_000_000 })
    sell(ledger, 300, 1)
    // A first snapshot starts the thread and seeds its replica; the second is the one cut off.
    await ledger.snapshot()
    const killed = ledger.choresThread!
    sell(ledger, 301, 1)
    const saving = ledger.snapshot()
    const temporary = path.join(rig.dir, `${SNAPSHOT_FILE}.tmp`)
    for (let turns = 0; !fs.existsSync(temporary); turns++) {
      if (turns > 1_000_000) throw new Error('the snapshot never started writing')
      await nextTurn()
    }
    await killed.terminate()
    expect(await rejectedInEnglish(saving)).toMatch(/background thread/)
    expect(ledger.choresThread).toBeNull()

    // What a crash at that moment leaves: every sale there, the journal the record, nothing half-written taken for a snapshot.
    const crashed = copyWithout([])
    sell(ledger, 302, 1)
    await ledger.snapshot()
    expect(ledger.choresThread).not.toBeNull()
    expect(ledger.choresThread).not.toBe(killed)
    expect(ledger.notices).toEqual([])
    const afterCrash = await rig.open({ dir: crashed })
    expect(afterCrash.readOnly).toBeNull()
    expect(afterCrash.report.problems.map(english).filter((problem) => !/rebuilt from the previous copy/.test(problem))).toEqual([])
    expect(afterCrash.read('lastSeq')).toBe(604)
    expect(afterCrash.read('getSale', 'S301')?.state).toBe('SUCCESS')
    await rig.close(afterCrash)

    await rig.close(ledger)
    const reopened = await rig.open()
    expect(reopened.report).toEqual({ snapshotSeq: 606, replayed: 0, tornTail: false, problems: [] })
    expect(reopened.read('getSale', 'S302')?.state).toBe('SUCCESS')
  })

  it("copies today's backup in the chores thread: sales go on while a large journal is copied, and the copy is the ledger", { timeout: 120_000 }, async () => {
    const built = await rig.open({ snapshotEvery: 1_000_000 })
    sell(built, 0, 500, LONG_MESSAGE)
    await rig.close(built)
    const active = rig.segments().at(-1)!
    expect(fs.statSync(active).size).toBeGreaterThan(20_000_000)

    const ledger = await rig.open({ snapshotEvery: 1_000_000 })
    const started = process.hrtime.bigint()
    let backupDoneAt: bigint | null = null
    const backingUp = runDailyBackup({ dataDir: rig.root, ledgerDir: rig.dir, today: '2024-05-15', copyLedger: (into) => ledger.backUpInto(into) }).then((result) => {
      backupDoneAt = process.hrtime.bigint()
      return result
    })
    const { latencies } = await sellEachTurn(ledger, 500, () => backupDoneAt !== null)
    const backup = await backingUp
    const backupMs = Number(backupDoneAt! - started) / 1e6

    // Copied on this thread, the 20 MB segment held every sale queued behind it for most of the backup.
    expect(latencies.length).toBeGreaterThan(3)
    expect(Math.max(...latencies)).toBeLessThan(backupMs / 2)
    // The active segment as it was when copied: the sales made since are past its end.
    const copiedActive = fs.readFileSync(path.join(backup.path!, 'ledger', 'journal', path.basename(active)))
    expect(copiedActive.length).toBeGreaterThan(20_000_000)
    expect(fs.readFileSync(active).subarray(0, copiedActive.length).equals(copiedActive)).toBe(true)
    await rig.close(ledger)

    // The backup restores: opened on its own, it holds every sale made before it was taken.
    const restored = await rig.open({ dir: path.join(backup.path!, 'ledger') })
    expect(restored.report.problems.map(english)).toEqual([])
    expect(restored.read('getSale', 'S499')?.state).toBe('SUCCESS')
    await rig.close(restored)
  })

  it("today's backup on a full disk fails with the disk's error, and the ledger sells, snapshots and backs up as before", async () => {
    const ledger = await rig.open({ snapshotEvery: 4 })
    sell(ledger, 0, 10)
    await ledger.snapshotsSettled()
    // /dev/full takes the open and fails every write with ENOSPC: the journal's copy lands on a full disk.
    const full = path.join(rig.root, 'backup-on-full-disk')
    fs.mkdirSync(path.join(full, 'journal'), { recursive: true })
    fs.symlinkSync('/dev/full', path.join(full, 'journal', path.basename(rig.segments().at(-1)!)))
    await expect(ledger.backUpInto(full)).rejects.toThrow(/ENOSPC/)
    expect(ledger.readOnly).toBeNull()
    expect(ledger.notices).toEqual([])

    sell(ledger, 10, 10)
    await ledger.snapshot()
    const freed = path.join(rig.root, 'backup-after')
    await ledger.backUpInto(freed)
    await rig.close(ledger)
    const restored = await rig.open({ dir: freed })
    expect(restored.report.problems).toEqual([])
    expect(restored.read('getSale', 'S19')?.state).toBe('SUCCESS')
    await rig.close(restored)
  })

  it("today's backup cut off by the chores thread's death fails plainly; the next chore starts a new thread and the next backup is whole", { timeout: 120_000 }, async () => {
    const built = await rig.open({ snapshotEvery: 1_000_000 })
    sell(built, 0, 300, LONG_MESSAGE)
    await rig.close(built)
    const ledger = await rig.open({ snapshotEvery: 1_000_000 })
    // A first snapshot starts the thread and seeds its replica.
    sell(ledger, 300, 1)
    await ledger.snapshot()
    const killed = ledger.choresThread!
    const into = path.join(rig.root, 'backup-cut-off')
    const copying = ledger.backUpInto(into)
    for (let turns = 0; !fs.existsSync(path.join(into, 'journal')); turns++) {
      if (turns > 1_000_000) throw new Error('the backup never started copying the journal')
      await nextTurn()
    }
    await killed.terminate()
    expect(await rejectedInEnglish(copying)).toMatch(/background thread/)

    sell(ledger, 301, 1)
    const whole = path.join(rig.root, 'backup-whole')
    await ledger.backUpInto(whole)
    expect(ledger.choresThread).not.toBe(killed)
    await rig.close(ledger)
    const restored = await rig.open({ dir: whole })
    expect(restored.report.problems).toEqual([])
    expect(restored.read('getSale', 'S301')?.state).toBe('SUCCESS')
    await rig.close(restored)
  })

  it("copies the saved copy for today's backup between snapshots: the copied file always pairs with its check", async () => {
    const ledger = await rig.open({ snapshotEvery: 4 })
    const backups = Array.from({ length: 12 }, (_, i) => fs.mkdtempSync(path.join(rig.dir, `..${path.sep}backup-${i}-`)))
    let sold = 0
    const selling = (async () => {
      for (; sold < 120; sold += 2) {
        sell(ledger, sold, 2, LONG_MESSAGE)
        await nextTurn()
      }
    })()
    // Asked while snapshots of a few megabytes are being written one after another.
    for (const into of backups) {
      await ledger.backUpInto(into)
      await nextTurn()
    }
    await selling
    await rig.close(ledger)
    for (const into of backups) {
      const bytes = fs.readFileSync(path.join(into, SNAPSHOT_FILE))
      const check = JSON.parse(fs.readFileSync(path.join(into, SNAPSHOT_CHECK_FILE), 'utf8')) as SnapshotCheck
      expect(checkOf(bytes, [check]), `backup ${into}`).not.toBeNull()
      fs.rmSync(into, { recursive: true, force: true })
    }
  })
})
