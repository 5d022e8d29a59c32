// `npm run web`: the whole counter in a browser, for machines without a display or without the
// Electron binary. Built to out/main/web.js; prints the loopback address (with its token) to open.
//
// Decision: the page is served before the core has started. This file loads only the HTTP bridge and listens; the
// core (its schemas, the ledger's client and thread, the printers) loads after, and the browser reads and runs the
// page meanwhile, so a start costs the longer of the two instead of both. A call that comes before the core is
// ready waits for it (web/server.ts). What the first sale does not need is loaded when it is: Chromium's
// rasterizer at the first picture receipt, the training provider in training mode only.
import { resolve } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { checkWebToken, startWebServer } from './server'
import { english } from '../shared/words'
import { startupTimeline } from '../shared/startup-timeline'

async function main() {
  const mark = startupTimeline(process.env)
  mark('web: bridge loaded')
  // An empty COUNTER_WEB_TOKEN is an unset one: a new random token.
  const token = process.env.COUNTER_WEB_TOKEN || undefined
  // Refused before the ledger is opened, so a bad setting changes nothing.
  checkWebToken(token)
  // The core starts once the bridge listens, a turn of the event loop later: loading it holds this thread, and a
  // page request already waiting is served first (as between the core's own loading steps, counter/app.ts).
  let listening!: () => void
  const starting = new Promise<void>((resolve) => (listening = resolve)).then(() => nextTurn()).then(startCore)
  const web = await startWebServer({
    counter: starting,
    rendererDir: resolve(__dirname, '../renderer'),
    port: process.env.COUNTER_WEB_PORT ? Number(process.env.COUNTER_WEB_PORT) : 0,
    token,
  })
  mark('web: answering (the page; calls wait for the core)')
  listening()
  console.log(`Open this address in a browser on this computer:\n\n  ${web.url}\n\nPress Ctrl+C to stop.`)
  // A stop asked for while the core is still starting waits for it, so the books close as at any other stop.
  const stop = async () => {
    await web.close()
    const core = await starting.catch(() => null)
    if (!core) process.exit(1)
    const { closeCounter } = await import('../shutdown')
    const problems = await closeCounter(core)
    for (const problem of problems) console.error(problem)
    process.exit(problems.length > 0 ? 1 : 0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
  const counter = await starting.catch(async (error: unknown) => {
    await web.close()
    throw error
  })
  mark('web: core ready')
  const mode = counter.session().mode === 'training' ? 'TRAINING (simulated provider, no money moves)' : 'REAL'
  console.log(`Counter is running in ${mode} mode.`)
}

async function startCore() {
  const { startCounterFromEnvironment } = await import('../counter/app')
  return startCounterFromEnvironment({
    platform: 'web',
    resourcesDir: resolve(__dirname, '../../resources'),
    // No OS printers here (the browser prints); an ESC/POS printer's pictures are drawn by a headless Chromium.
    rasterizer: { rasterize: async (html, widthPx) => (await import('../printers/chromium-raster')).chromiumRasterizer().rasterize(html, widthPx) },
    startTraining: async (trainingDir) => (await import('../simulator/server')).startTrainingSimulator(trainingDir),
  })
}

main().catch((err) => {
  console.error(`Counter could not start: ${err instanceof Error ? english(err.message) : String(err)}`)
  process.exit(1)
})
