// `npm run bench:bridge`: 30,000 recharges sold through browser mode's HTTP bridge, four at a time: the built launcher (out/main/web.js) in its own process, in REAL mode against the simulator in this one; prints sales/s, each sale's time and the counter process's memory for each 10,000 as a Markdown table on stdout (progress on stderr).
// The memory is read every 250 ms and each third's median and max are shown: one reading swings by tens of MB with
// what is in flight when it is taken (a snapshot's export), so a reading a third could not tell growth from swing.
// "At" a mark is the median of the readings over the last tenth of its third (1,000 sales of 30,000), and the books'
// size beside it: sql.js holds the whole database in memory, in the ledger thread and again in the chores thread's
// replica, so some growth follows the books themselves.
// BRIDGE_SALES=3000 sells fewer, for a quick look (a row at each third of the run).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { startSimulator } from '../../electron/simulator/server'
import { counterEnvironment } from '../crash/real-core'
import { realApiKey, realCredentials, tempDir } from '../integration/helpers'
import { machineLines } from './report'
import { percentile } from './stats'

const SALES = Number(process.env.BRIDGE_SALES ?? 30_000)
const AT_ONCE = 4
const ROWS = 3
const MEMORY_EVERY_MS = 250
const LAUNCHER = path.resolve(__dirname, '../../out/main/web.js')

const started = Date.now()
const progress = (line: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

/** A process's resident memory in MB, as the kernel counts it (every thread of it: the core, its ledger threads, the bridge). */
function residentMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m)
  if (!line) throw new Error(`No VmRSS for process ${pid}`)
  return Math.round(Number(line[1]) / 1024)
}

interface Row {
  sales: number
  salesPerSecond: number
  p50Ms: number
  p99Ms: number
  /** The counter process's RSS over the third: the median and the max of its readings. */
  rssMedianMb: number
  rssMaxMb: number
  /** The median of the readings over the last tenth of the third: the memory at the mark. */
  rssAtMb: number
  /** The books at the mark (ledger.sqlite's pages in use), MB: the size of the database sql.js holds. */
  booksMb: number
}

/**
 * The pages ledger.sqlite's tables fill, in MB, one decimal, from the file's own header (its page size, page count and free
 * pages): the size of the books sql.js holds. The file's size alone would not do: it keeps free pages for the sales to come
 * (connection.ts keepRoomToGrow), and the snapshot, written every 500 events, trails the books a little.
 */
function booksMb(dataDir: string): number {
  const file = path.join(dataDir, 'ledger', 'ledger.sqlite')
  if (!fs.existsSync(file)) return 0
  const header = Buffer.alloc(100)
  const fd = fs.openSync(file, 'r')
  try {
    fs.readSync(fd, header, 0, 100, 0)
  } finally {
    fs.closeSync(fd)
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16)
  const usedPages = header.readUInt32BE(28) - header.readUInt32BE(36)
  return Math.round((usedPages * pageSize) / 1024 / 102.4) / 10
}

async function main(): Promise<void> {
  if (!fs.existsSync(LAUNCHER)) throw new Error('The launcher is not built: run `npm run build` (npm run bench:bridge does it first).')
  const dir = tempDir('counter-bridge-')
  const provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey, approveAfterChecks: 0 } })
  const counter = spawn(process.execPath, [LAUNCHER], { env: { ...process.env, ...counterEnvironment(provider.url, dir.path) }, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<number | null>((done) => counter.once('exit', done))
  const rows: Row[] = []
  const machine = machineLines(dir.path)
  try {
    const lines = createInterface({ input: counter.stdout })
    // The address comes first (the page is served while the core starts), then the mode once the core answers.
    const address = await new Promise<URL>((found, failed) => {
      let url: URL | null = null
      lines.on('line', (line) => {
        const printed = line.match(/http:\/\/\S+/)
        if (printed) url = new URL(printed[0])
        if (!line.startsWith('Counter is running in')) return
        if (!line.includes('REAL')) failed(new Error(`The counter did not start in REAL mode: ${line}`))
        else if (url) found(url)
        else failed(new Error('The counter said it was running before it printed its address'))
      })
      void exited.then((code) => failed(new Error(`The counter stopped before answering (exit ${code})`)))
    })
    progress(`counter ${counter.pid} answering in REAL mode; ${SALES} sales, ${AT_ONCE} at a time`)
    const headers = { Authorization: `Bearer ${address.searchParams.get('token')}`, 'Content-Type': 'application/json' }
    let next = 0
    let sold = 0
    let thirdStart = Date.now()
    let thirdMs: number[] = []
    let thirdRss: number[] = []
    /** The readings taken once the third had the last tenth of its sales left. */
    let lateRss: number[] = []
    const perThird = Math.floor(SALES / ROWS)
    const reading = setInterval(() => {
      const megabytes = residentMb(counter.pid!)
      thirdRss.push(megabytes)
      if (sold % perThird >= perThird * 0.9) lateRss.push(megabytes)
    }, MEMORY_EVERY_MS)
    const sell = async (): Promise<void> => {
      for (let i = next++; i < SALES; i = next++) {
        // Ten digits from 6000000000 up: every sale a number of its own, as a day's customers are.
        const number = String(6_000_000_000 + i)
        const began = process.hrtime.bigint()
        const answer = await fetch(`${address.origin}/api/recharge.sell`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'mobile', number, operatorCode: 'AT', amount: '10' }),
        })
        const body = (await answer.json()) as { ok: boolean; value?: { state: string } }
        if (!body.ok || body.value?.state !== 'SUCCESS') throw new Error(`Sale ${i} was not a success: ${JSON.stringify(body)}`)
        thirdMs.push(Number(process.hrtime.bigint() - began) / 1e6)
        sold += 1
        if (sold % perThird === 0) {
          const now = Date.now()
          const atMark = residentMb(counter.pid!)
          thirdRss.push(atMark)
          lateRss.push(atMark)
          rows.push({
            sales: sold,
            salesPerSecond: Math.round((thirdMs.length * 1000) / (now - thirdStart)),
            p50Ms: percentile(thirdMs, 50),
            p99Ms: percentile(thirdMs, 99),
            rssMedianMb: Math.round(percentile(thirdRss, 50)),
            rssMaxMb: Math.max(...thirdRss),
            rssAtMb: Math.round(percentile(lateRss, 50)),
            booksMb: booksMb(dir.path),
          })
          const row = rows.at(-1)!
          progress(`${sold} sales: ${row.salesPerSecond}/s, counter RSS median ${row.rssMedianMb} MB, max ${row.rssMaxMb} MB, at the mark ${row.rssAtMb} MB; books ${row.booksMb} MB`)
          thirdStart = now
          thirdMs = []
          thirdRss = []
          lateRss = []
        }
      }
    }
    await Promise.all(Array.from({ length: AT_ONCE }, sell)).finally(() => clearInterval(reading))
    // A run whose books went wrong on the way (a snapshot that failed, read-only books) measured something else: say so.
    const status = (await (await fetch(`${address.origin}/api/app.status`, { method: 'POST', headers, body: '{}' })).json()) as { value: { books: { readOnly: string | null; notices: string[] } } }
    const { readOnly, notices } = status.value.books
    if (readOnly !== null || notices.length > 0) throw new Error(`The books ended with notices: ${JSON.stringify({ readOnly, notices })}`)
  } finally {
    counter.kill('SIGTERM')
    await exited
    await provider.close()
    dir.remove()
  }
  const growth = (last: number, first: number) => { const percent = Math.round((last / first - 1) * 100); return `${percent >= 0 ? '+' : ''}${percent}%` }
  console.log(`### Through the bridge: ${SALES.toLocaleString('en-IN')} recharges, ${AT_ONCE} at a time, on a fresh folder\n`)
  console.log(machine.join('\n') + '\n')
  console.log(`| sales | sales/s (this third) | sale p50 | sale p99 | counter process RSS over the third (every ${MEMORY_EVERY_MS} ms): median / max | RSS at the mark (median of the third's last tenth) | the books (ledger.sqlite's pages in use) |`)
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const row of rows) {
    console.log(`| ${row.sales.toLocaleString('en-IN')} | ${row.salesPerSecond} | ${row.p50Ms.toFixed(2)} ms | ${row.p99Ms.toFixed(2)} ms | ${row.rssMedianMb} / ${row.rssMaxMb} MB | ${row.rssAtMb} MB | ${row.booksMb} MB |`)
  }
  const [first, last] = [rows[0], rows.at(-1)!]
  console.log(
    `\nThe counter process's RSS from the first third to the last: ${growth(last.rssMedianMb, first.rssMedianMb)} by the medians, ${growth(last.rssMaxMb, first.rssMaxMb)} by the max; ` +
      `from the first mark to the last: ${growth(last.rssAtMb, first.rssAtMb)} (${last.rssAtMb - first.rssAtMb} MB), while the books grew ${(last.booksMb - first.booksMb).toFixed(1)} MB.`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
