// Times browser mode's start as a shop sees it: the built launcher (out/main/web.js) spawned on a data folder, from
// the spawn until the page is answered, until its first contract call (app.status) is, and until Debian's Chromium,
// already open and sent to the address once it answers, shows the Recharge screen with the number field focused; with
// the start-up timeline it prints (COUNTER_STARTUP_TIMELINE=1), each step's median over the runs.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { HEADLESS_CHROMIUM_FLAGS } from '../../electron/printers/chromium-raster'
import { median } from './stats'

const LAUNCHER = path.resolve(__dirname, '../../out/main/web.js')
const TOKEN = 'bench-start-token-0123456789abcdef'

export interface LauncherStart {
  runs: number
  /** From spawn until GET / is answered (the page: the browser reads and runs it while the core starts). */
  pageMs: number[]
  /** From spawn until the first app.status, sent as soon as the page is answered, is answered by the core. */
  firstCallMs: number[]
  /** From spawn until Chromium shows the counter ready to sell: the Recharge screen's number field focused. */
  readyMs: number[]
  /** Each timeline step with its median ms since the process began, in the order they came in the first run. */
  timeline: Array<{ step: string; ms: number }>
}

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs the launcher `runs` times, on `dataDirOf(run)` (each run stops cleanly before the next); env adds to the bench's own. */
export async function launcherStarts(dataDirOf: (run: number) => string, env: Record<string, string>, runs: number): Promise<LauncherStart> {
  if (!fs.existsSync(LAUNCHER)) throw new Error('The launcher is not built: run `npm run build` (npm run bench does it first).')
  const pageMs: number[] = []
  const firstCallMs: number[] = []
  const readyMs: number[] = []
  const steps = new Map<string, number[]>()
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: HEADLESS_CHROMIUM_FLAGS })
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } })
      const tab = await context.newPage()
      // The browser stands open and idle, as at the shop, before the launcher starts.
      await sleep(1_000)
      const port = await freePort()
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('COUNTER_')))
      const began = performance.now()
      const child = spawn(process.execPath, [LAUNCHER], {
        env: { ...clean, ...env, COUNTER_DATA_DIR: dataDirOf(run), COUNTER_WEB_PORT: String(port), COUNTER_WEB_TOKEN: TOKEN, COUNTER_STARTUP_TIMELINE: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const exited = once(child, 'exit')
      try {
        const origin = `http://127.0.0.1:${port}`
        // Asked every 2 ms until something listens: a refused connection costs well under that.
        for (;;) {
          const page = await fetch(`${origin}/`).catch(() => null)
          if (page?.ok) {
            await page.text()
            break
          }
          if (child.exitCode !== null) throw new Error(`The launcher stopped before answering: ${stderr}`)
          await sleep(2)
        }
        pageMs.push(performance.now() - began)
        // The browser opens the address once it answers, as a shop's does once the launcher has printed it.
        const shown = showsCounter(tab, `${origin}/?token=${TOKEN}`, began)
        const status = await fetch(`${origin}/api/app.status`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: '{}' })
        const answer = (await status.json()) as { ok: boolean }
        if (!answer.ok) throw new Error(`app.status was refused: ${JSON.stringify(answer)}`)
        firstCallMs.push(performance.now() - began)
        readyMs.push(await shown)
        await context.close()
        // The steps after the answer (the backup, the office) are in the timeline too: wait for the last of them.
        await waitFor(() => stderr.includes('(after the counter answers)') && stderr.split('after the counter answers').length > 2, 30_000)
      } finally {
        // Stopped as the shop stops it, also when a run failed: no launcher is left behind.
        child.kill('SIGTERM')
        await exited
      }
      for (const [, ms, step] of stderr.matchAll(/^startup +(\d+) ms {2}(.+)$/gm)) {
        // One row per step whatever the books: the lines and sizes each run names are the books', not the step's.
        const key = step.replace(/ \((snapshot at line \d+, \d+ lines replayed|\d+ MB)\)/, '').trim()
        steps.set(key, [...(steps.get(key) ?? []), Number(ms)])
      }
    }
  } finally {
    await browser.close()
  }
  const timeline = [...steps].map(([step, ms]) => ({ step, ms: median(ms) })).sort((a, b) => a.ms - b.ms)
  return { runs, pageMs, firstCallMs, readyMs, timeline }
}

type Tab = Awaited<ReturnType<Browser['newPage']>>

/** Ms from `began` until the tab, sent to `url`, shows the number field focused. */
async function showsCounter(tab: Tab, url: string, began: number): Promise<number> {
  await tab.goto(url, { waitUntil: 'commit' })
  await tab.locator('[data-testid="number-input"]:focus').waitFor({ timeout: 30_000 })
  return performance.now() - began
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!done() && Date.now() < until) await sleep(10)
}
