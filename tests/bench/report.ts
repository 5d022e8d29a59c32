// The benchmark's printout: the machine it ran on, then one Markdown table of every measure by ledger size, with its target and whether it was met.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PACE, type CommitRun, type OurCommitRun } from './commits'
import type { CoreTimes } from './core-reads'
import type { LoopDelay } from './event-loop'
import type { LauncherStart } from './launcher-start'
import type { LoopFloor } from './loop-floor-child'
import type { OpenSample } from './open-child'
import { median, percentile } from './stats'

export interface LedgerFiles {
  snapshotBytes: number
  previousSnapshotBytes: number
  journalBytes: number
  segments: number
  archiveBytes: number
  archives: number
}

export interface SizeResult {
  sales: number
  entries: number
  today: string
  files: LedgerFiles
  opens: OpenSample[]
  core: CoreTimes
  /** Milliseconds per bare 300-byte write + fsync to a plain file: the disk's floor. */
  bare: number[]
  /** The same, paced as oursPaced is: the intent's line fsync'd, the outcome's written after the answer's pause. */
  barePaced: number[]
  /** The main event loop's delay with the main thread idle: the machine's floor for the loop rows. */
  loopFloor: LoopFloor
  ours: OurCommitRun
  /** The same sales with no snapshot asked for: what of the tail the snapshots' disk writes make. */
  oursQuiet: OurCommitRun
  oursPaced: OurCommitRun
  /** Milliseconds per sale for its two lines through a bare worker thread (the intent's fsync'd): the floor of any commit made through a thread. */
  threadHop: number[]
  naive: CommitRun | null
  better: CommitRun
  /** Browser mode's launcher on these books in real mode. */
  launcher: LauncherStart
}

const MB = 1024 * 1024

/**
 * Milliseconds to write once into 100 MiB just allocated (median of three): what the system takes to
 * hand a process fresh memory, page by page. Loading a snapshot, exporting one and growing sql.js's
 * file each take that much memory anew, so this machine's figure is part of theirs.
 */
function freshMemoryMs(): number {
  const times = [0, 1, 2].map(() => {
    const fresh = new Uint8Array(100 * MB)
    const started = performance.now()
    fresh.fill(1)
    return performance.now() - started
  })
  return times.sort((a, b) => a - b)[1]
}

/** CPU, cores, memory (and how fast fresh memory comes), Node, the file system the ledgers were written to, and the date. */
export function machineLines(workDir: string): string[] {
  const cpu = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model ?? 'unknown'
  const mounts = fs.readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' '))
  const mount = mounts.filter(([, point]) => point && workDir.startsWith(point)).sort((a, b) => b[1].length - a[1].length)[0]
  return [
    `- CPU: ${cpu}, ${os.cpus().length} cores`,
    `- RAM: ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB; the first write into 100 MiB just allocated: ${freshMemoryMs().toFixed(0)} ms`,
    `- Node ${process.version} on ${os.type()} ${os.release()}`,
    `- Storage: ${mount ? `${mount[2]} on ${mount[0]}` : 'unknown'} (${os.tmpdir()})`,
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ]
}

export function ledgerFiles(ledgerDir: string): LedgerFiles {
  const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0)
  const filesIn = (dir: string, suffix: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(suffix)).map((name) => path.join(dir, name)) : [])
  const segments = filesIn(path.join(ledgerDir, 'journal'), '.ndjson')
  const archives = filesIn(path.join(ledgerDir, 'archive'), '.sqlite')
  const total = (files: string[]) => files.reduce((sum, file) => sum + sizeOf(file), 0)
  return {
    snapshotBytes: sizeOf(path.join(ledgerDir, 'ledger.sqlite')),
    previousSnapshotBytes: sizeOf(path.join(ledgerDir, 'ledger.sqlite.prev')),
    journalBytes: total(segments),
    segments: segments.length,
    archiveBytes: total(archives),
    archives: archives.length,
  }
}

export const sizeLabel = (sales: number) => (sales >= 1_000_000 ? `${sales / 1_000_000}M` : sales >= 1000 ? `${sales / 1000}k` : String(sales))

function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)
}

const p50p99 = (samples: number[]) => `${ms(median(samples))} / ${ms(percentile(samples, 99))}`
const ratio = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)}×`
const megabytes = (bytes: number) => (bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)
const mark = (met: boolean | null) => (met === null ? '' : met ? '✓' : '✗')
const maxP999 = (delay: LoopDelay) => `${ms(delay.maxMs)} / ${ms(delay.p999Ms)} (GC ${ms(delay.longestGcMs)})`
/** Issue #8's bound on blocking the main thread: one frame at 60 Hz. */
const FRAME_MS = 16

interface Row {
  measure: string
  cells: string[]
  target?: string
  met?: boolean | null
}

/** The machine, the table, then the notes on how it was measured. */
export function renderReport(machine: string[], results: SizeResult[], notes: string[], fresh: LauncherStart): string {
  const largest = results[results.length - 1]
  const at100k = results.find((result) => result.sales === 100_000)
  const oursP50 = (result: SizeResult) => median(result.ours.perSale)
  const naiveRatio = (result: SizeResult) => (result.naive ? median(result.naive.perSale) / oursP50(result) : null)
  const betterRatio = (result: SizeResult) => oursP50(result) / median(result.better.perSale)
  const each = (cell: (result: SizeResult) => string) => results.map(cell)
  const onlyLargest = (cell: string) => results.map((result) => (result === largest ? cell : ''))
  const onlyFirst = (cell: string) => results.map((_, index) => (index === 0 ? cell : ''))
  const atLargest = (value: (result: SizeResult) => number, limit: number) => value(largest) <= limit
  const medianOf = (pick: (core: CoreTimes) => number[]) => (result: SizeResult) => median(pick(result.core))
  const L = sizeLabel(largest.sales)
  const floorRatio = (result: SizeResult) => oursP50(result) / median(result.bare)
  const tailRatiosOf = (samples: number[]) => [percentile(samples, 99.9) / median(samples), Math.max(...samples) / median(samples)]
  const tailRatios = (result: SizeResult) => tailRatiosOf(result.ours.perSale)
  const p999max = (samples: number[]) => `${ms(percentile(samples, 99.9))} / ${ms(Math.max(...samples))}`
  const loopRow = (during: string, pick: (result: SizeResult) => LoopDelay): Row => ({
    measure: `Main event loop delay during ${during}, max / p99.9 ms (the main thread's own longest GC pause)`,
    cells: each((r) => maxP999(pick(r))),
    target: `≤ ${FRAME_MS} ms at ${L}`,
    met: pick(largest).maxMs <= FRAME_MS,
  })

  const rows: Row[] = [
    { measure: 'Journal entries in the ledger', cells: each((r) => r.entries.toLocaleString('en-US')) },
    { measure: 'Bare fsync’d 300-byte append to a plain file (2,000 times), p50 / p99 ms', cells: each((r) => p50p99(r.bare)) },
    { measure: '… p99.9 / max ms', cells: each((r) => p999max(r.bare)) },
    { measure: 'The bare append’s own p99.9 and max ÷ its p50', cells: each((r) => tailRatiosOf(r.bare).map(ratio).join(' / ')) },
    { measure: 'Durable sale commit, ours (intent fsync’d, its outcome by the next fsync), p50 / p99 ms', cells: each((r) => p50p99(r.ours.perSale)), target: 'p50 ≤ 1 ms', met: results.every((r) => oursP50(r) <= 1) },
    { measure: '… p99.9 / max ms', cells: each((r) => p999max(r.ours.perSale)) },
    { measure: 'Commit ÷ bare append (p50)', cells: each((r) => ratio(floorRatio(r))), target: '≤ 3×', met: results.every((r) => floorRatio(r) <= 3) },
    { measure: 'The thread hop’s floor: the sale’s two lines as messages to a bare worker thread, appended there as JSON (the intent’s fsync’d), no database, p50 / p99 ms', cells: each((r) => p50p99(r.threadHop)) },
    { measure: 'Commit ÷ the thread hop’s floor (p50)', cells: each((r) => ratio(oursP50(r) / median(r.threadHop))) },
    {
      measure: 'Commit p99.9 and max ÷ its p50',
      cells: each((r) => tailRatios(r).map(ratio).join(' / ')),
      target: `both ≤ 2× at ${L}`,
      met: tailRatios(largest).every((value) => value <= 2),
    },
    { measure: 'The same 2,000 sales with no snapshot running, p50 / p99.9 / max ms', cells: each((r) => `${ms(median(r.oursQuiet.perSale))} / ${p999max(r.oursQuiet.perSale)}`) },
    { measure: '… p99.9 and max ÷ its p50', cells: each((r) => tailRatiosOf(r.oursQuiet.perSale).map(ratio).join(' / ')) },
    {
      measure: `${results[0].oursPaced.perSale.length} sales paced as at a counter (answer in ${PACE.answerMs} ms, next sale ${PACE.betweenMs} ms later; snapshots running), p50 / p99.9 / max ms`,
      cells: each((r) => `${ms(median(r.oursPaced.perSale))} / ${p999max(r.oursPaced.perSale)}`),
    },
    { measure: '… bare appends paced the same way (the intent’s line fsync’d, the outcome’s written after the answer), p50 / p99.9 / max ms', cells: each((r) => `${ms(median(r.barePaced))} / ${p999max(r.barePaced)}`) },
    { measure: '… paced commit ÷ paced bare append: p50; p99.9; max', cells: each((r) => [median(r.oursPaced.perSale) / median(r.barePaced), percentile(r.oursPaced.perSale, 99.9) / percentile(r.barePaced, 99.9), Math.max(...r.oursPaced.perSale) / Math.max(...r.barePaced)].map(ratio).join('; ')) },
    loopRow('2,000 sales', (r) => r.ours.loop),
    {
      measure: `Flatness: our p50 at ${L} ÷ at ${sizeLabel(results[0].sales)}`,
      cells: onlyLargest(ratio(oursP50(largest) / oursP50(results[0]))),
      target: '≤ 1.5×',
      met: oursP50(largest) / oursP50(results[0]) <= 1.5,
    },
    { measure: 'Same sale, sql.js + whole-database export per sale, p50 / p99 ms', cells: each((r) => (r.naive ? p50p99(r.naive.perSale) : '—')) },
    {
      measure: 'Export per sale ÷ ours (p50)',
      cells: each((r) => { const value = naiveRatio(r); return value === null ? '—' : ratio(value) }),
      target: '≥ 50× at 100k',
      met: at100k ? naiveRatio(at100k)! >= 50 : null,
    },
    { measure: 'Same sale, better-sqlite3 (WAL, synchronous=FULL), p50 / p99 ms', cells: each((r) => p50p99(r.better.perSale)) },
    { measure: 'Ours ÷ better-sqlite3 (p50)', cells: each((r) => ratio(betterRatio(r))), target: '≤ 2×', met: results.every((r) => betterRatio(r) <= 2) },
    { measure: 'Snapshot, off the sale path (export + atomic write, every 500 events), ms', cells: each((r) => ms(median(r.ours.snapshotMs))) },
    { measure: 'Open in a fresh process (median of 5), ms', cells: each((r) => ms(median(r.opens.map((o) => o.openMs)))), target: `≤ 1500 ms at ${L}`, met: atLargest((r) => median(r.opens.map((o) => o.openMs)), 1500) },
    { measure: 'Peak RSS of that process, MB', cells: each((r) => median(r.opens.map((o) => o.peakRssMb)).toFixed(0)), target: `≤ 500 MB at ${L}`, met: atLargest((r) => median(r.opens.map((o) => o.peakRssMb)), 500) },
    { measure: '… RSS of that process before the open (Node and tsx), MB', cells: each((r) => median(r.opens.map((o) => o.rssBeforeMb)).toFixed(0)) },
    {
      measure: `Browser mode from spawn, fresh folder (training, ${fresh.runs} runs): the page answered / the first call (app.status) answered / the Recharge screen ready in Chromium (number field focused), median ms`,
      cells: onlyFirst(`${ms(median(fresh.pageMs))} / ${ms(median(fresh.firstCallMs))} / ${ms(median(fresh.readyMs))}`),
      target: 'page ≤ 300 ms',
      met: median(fresh.pageMs) <= 300,
    },
    {
      measure: `Browser mode from spawn on these books (real mode, ${results[0].launcher.runs} runs): the page / the first call answered / the screen ready, median ms`,
      cells: each((r) => `${ms(median(r.launcher.pageMs))} / ${ms(median(r.launcher.firstCallMs))} / ${ms(median(r.launcher.readyMs))}`),
      target: `ready ≤ 1000 ms at ${L}`,
      met: median(largest.launcher.readyMs) <= 1000,
    },
    { measure: 'Counter start, real mode, until it answers (open, handlers), ms', cells: each((r) => ms(r.core.startMs)) },
    { measure: '… then the archiving check and today’s backup, done after it answers, ms', cells: each((r) => ms(r.core.housekeepingMs)) },
    { measure: 'Day summary of a 500-sale day (`day.summary`, median of 5), ms', cells: each((r) => ms(medianOf((c) => c.daySummaryMs)(r))), target: `≤ 50 ms at ${L}`, met: atLargest(medianOf((c) => c.daySummaryMs), 50) },
    { measure: '… of which the ledger’s reads (totals, credit, balance facts, unresolved, through its thread), ms', cells: each((r) => ms(medianOf((c) => c.daySummaryLedgerMs)(r))) },
    { measure: 'First whole-journal audit (reads every line, seals closed segments), once, ms', cells: each((r) => ms(r.core.firstAuditMs)) },
    { measure: 'Day close (`day.close`: summary, audit with sealed segments, journal line, snapshot), once, ms', cells: each((r) => ms(r.core.dayCloseMs)) },
    loopRow('day close', (r) => r.core.dayCloseLoop),
    loopRow('first audit', (r) => r.core.firstAuditLoop),
    { measure: 'The loop’s floor: the main thread idle beside one thread allocating nonstop (5 s), max / p99.9 ms (its own longest GC pause)', cells: each((r) => maxP999(r.loopFloor.besideAllocating)) },
    { measure: '… the main thread idle alone (5 s), max / p99.9 ms (its own longest GC pause)', cells: each((r) => maxP999(r.loopFloor.alone)) },
    {
      measure: 'The floor of a process start: the loop while a thread of the counter’s process starts three bare ones in turn (as the audit starts its own), just before the first audit, max / p99.9 ms (its own longest GC pause); the process’s resident memory then',
      cells: each((r) => `${maxP999(r.core.processStart.loop)}; ${megabytes(r.core.processStart.residentBytes)} MB`),
    },
    { measure: 'History, first page of 100 (`history.search`, median of 5), ms', cells: each((r) => ms(medianOf((c) => c.historyFirstPageMs)(r))), target: `≤ 50 ms at ${L}`, met: atLargest(medianOf((c) => c.historyFirstPageMs), 50) },
    { measure: 'Search by a number, current financial year (5 numbers, each once), ms', cells: each((r) => ms(medianOf((c) => c.searchThisYearMs)(r))), target: `≤ 50 ms at ${L}`, met: atLargest(medianOf((c) => c.searchThisYearMs), 50) },
    { measure: 'Search by a number, all years (5 numbers, each once), ms', cells: each((r) => ms(medianOf((c) => c.searchAllYearsMs)(r))), target: `≤ 50 ms at ${L}`, met: atLargest(medianOf((c) => c.searchAllYearsMs), 50) },
    { measure: '… sales found per number (median) / archives covered', cells: each((r) => `${r.core.searchFound} / ${r.core.searchArchives.length}`) },
    { measure: 'Snapshot file (ledger.sqlite), MB', cells: each((r) => megabytes(r.files.snapshotBytes)) },
    { measure: 'Journal, MB (segments)', cells: each((r) => `${megabytes(r.files.journalBytes)} (${r.files.segments})`) },
    { measure: 'Archives, MB (closed years)', cells: each((r) => `${megabytes(r.files.archiveBytes)} (${r.files.archives})`) },
  ]

  const header = ['Measure', ...results.map((r) => `${sizeLabel(r.sales)} sales`), 'Target', 'Met']
  const table = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((row) => `| ${[row.measure, ...row.cells, row.target ?? '', mark(row.met ?? null)].join(' | ')} |`),
  ]
  return ['## Ledger benchmark (`npm run bench`)', '', ...machine, '', ...table, '', ...timelines(results, fresh), '', notes.join('\n\n'), ''].join('\n')
}

/** Browser mode's start-up timeline (COUNTER_STARTUP_TIMELINE=1): each step's median ms since the process began, fresh and per size. */
function timelines(results: SizeResult[], fresh: LauncherStart): string[] {
  const columns = [{ label: 'fresh folder (training)', start: fresh }, ...results.map((r) => ({ label: `${sizeLabel(r.sales)} sales (real)`, start: r.launcher }))]
  // In the order they came at the largest size, then any step only the smaller ones had.
  const steps = [...new Set(columns.toReversed().flatMap((column) => column.start.timeline.map((entry) => entry.step)))]
  const header = ['Start-up step (browser mode), median ms since the process began', ...columns.map((column) => column.label)]
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...steps.map((step) => `| ${[step, ...columns.map((column) => { const found = column.start.timeline.find((entry) => entry.step === step); return found ? ms(found.ms) : '—' })].join(' | ')} |`),
  ]
}
