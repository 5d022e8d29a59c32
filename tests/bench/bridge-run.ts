// `npm run bench:bridge`: 30,000 recharges sold through browser mode's HTTP bridge, four at a time: the built launcher (out/main/web.js) in its own process, in REAL mode against the simulator in this one; prints sales/s, each sale's time and the counter process's memory at each 10,000 as a Markdown table on stdout (progress on stderr).
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
  rssMb: number
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
    const address = await new Promise<URL>((found, failed) => {
      lines.on('line', (line) => {
        if (line.startsWith('Counter is running in') && !line.includes('REAL')) failed(new Error(`The counter did not start in REAL mode: ${line}`))
        const url = line.match(/http:\/\/\S+/)
        if (url) found(new URL(url[0]))
      })
      void exited.then((code) => failed(new Error(`The counter stopped before answering (exit ${code})`)))
    })
    progress(`counter ${counter.pid} answering in REAL mode; ${SALES} sales, ${AT_ONCE} at a time`)
    const headers = { Authorization: `Bearer ${address.searchParams.get('token')}`, 'Content-Type': 'application/json' }
    let next = 0
    let sold = 0
    let thirdStart = Date.now()
    let thirdMs: number[] = []
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
        if (sold % Math.floor(SALES / ROWS) === 0) {
          const now = Date.now()
          rows.push({ sales: sold, salesPerSecond: Math.round((thirdMs.length * 1000) / (now - thirdStart)), p50Ms: percentile(thirdMs, 50), p99Ms: percentile(thirdMs, 99), rssMb: residentMb(counter.pid!) })
          progress(`${sold} sales: ${rows.at(-1)!.salesPerSecond}/s, counter RSS ${rows.at(-1)!.rssMb} MB`)
          thirdStart = now
          thirdMs = []
        }
      }
    }
    await Promise.all(Array.from({ length: AT_ONCE }, sell))
  } finally {
    counter.kill('SIGTERM')
    await exited
    await provider.close()
    dir.remove()
  }
  const growth = ((rows.at(-1)!.rssMb / rows[0].rssMb - 1) * 100).toFixed(0)
  console.log(`### Through the bridge: ${SALES.toLocaleString('en-IN')} recharges, ${AT_ONCE} at a time\n`)
  console.log(machine.join('\n') + '\n')
  console.log('| sales | sales/s (this third) | sale p50 | sale p99 | counter process RSS |')
  console.log('|---|---:|---:|---:|---:|')
  for (const row of rows) console.log(`| ${row.sales.toLocaleString('en-IN')} | ${row.salesPerSecond} | ${row.p50Ms.toFixed(2)} ms | ${row.p99Ms.toFixed(2)} ms | ${row.rssMb} MB |`)
  console.log(`\nThe counter process's RSS from the first third to the last: ${Number(growth) >= 0 ? '+' : ''}${growth}%.`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
