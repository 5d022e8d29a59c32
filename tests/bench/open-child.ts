// Opens one ledger in a fresh process and prints, as one JSON line, how long the open took and the memory it needed.
// Usage: node --import tsx tests/bench/open-child.ts <ledger dir>
import fs from 'node:fs'
import { Ledger } from '../../electron/ledger/ledger'
import { loadSqlJs } from '../../electron/ledger/sql-engine'
import { elapsedMs } from './stats'

export interface OpenSample {
  /** Ledger.open from the call to a ledger ready to sell: sql.js loaded, snapshot read and checked, journal tail located and replayed. */
  openMs: number
  /** Of which loading sql.js's wasm module, once per process. */
  sqlJsMs: number
  /** The process before the open (Node and the TypeScript loader), and its peak by the end of the open. */
  rssBeforeMb: number
  peakRssMb: number
  replayed: number
  problems: string[]
}

const MB = 1024 * 1024

/**
 * The process's own high-water mark since it started. Linux's VmHWM belongs to this program's
 * memory map; getrusage's maxRSS (process.resourceUsage) carries the forking parent's over exec,
 * which here is the benchmark holding a freshly built ledger.
 */
function peakRssMb(): number {
  const hwm = fs.existsSync('/proc/self/status') ? /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8')) : null
  return ((hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) * 1024) / MB
}

async function main(dir: string): Promise<void> {
  const rssBeforeMb = process.memoryUsage().rss / MB
  const started = process.hrtime.bigint()
  await loadSqlJs()
  const sqlJsMs = elapsedMs(started)
  const ledger = await Ledger.open({ dir })
  const openMs = elapsedMs(started)
  const sample: OpenSample = { openMs, sqlJsMs, rssBeforeMb, peakRssMb: peakRssMb(), replayed: ledger.report.replayed, problems: ledger.report.problems }
  await ledger.close()
  process.stdout.write(JSON.stringify(sample) + '\n')
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
