// `npm run web`: the whole counter in a browser, for machines without a display or without the
// Electron binary. Built to out/main/web.js; prints the loopback address (with its token) to open.
import { resolve } from 'node:path'
import { startCounterFromEnvironment } from '../counter/app'
import { chromiumRasterizer } from '../printers/chromium-raster'
import { closeCounter } from '../shutdown'
import { startTrainingSimulator } from '../simulator/server'
import { checkWebToken, startWebServer } from './server'
import { english } from '../shared/words'
import { startupTimeline } from '../counter/startup-timeline'

async function main() {
  const mark = startupTimeline(process.env)
  mark('web: modules loaded')
  // An empty COUNTER_WEB_TOKEN is an unset one: a new random token.
  const token = process.env.COUNTER_WEB_TOKEN || undefined
  // Refused before the ledger is opened, so a bad setting changes nothing.
  checkWebToken(token)
  const counter = await startCounterFromEnvironment({
    platform: 'web',
    resourcesDir: resolve(__dirname, '../../resources'),
    // No OS printers here (the browser prints); an ESC/POS printer's pictures are drawn by a headless Chromium.
    rasterizer: chromiumRasterizer(),
    startTraining: startTrainingSimulator,
  })
  const web = await startWebServer({
    counter,
    rendererDir: resolve(__dirname, '../renderer'),
    port: process.env.COUNTER_WEB_PORT ? Number(process.env.COUNTER_WEB_PORT) : 0,
    token,
  })
  mark('web: answering')
  const mode = counter.session().mode === 'training' ? 'TRAINING (simulated provider, no money moves)' : 'REAL'
  console.log(`Counter is running in ${mode} mode.\nOpen this address in a browser on this computer:\n\n  ${web.url}\n\nPress Ctrl+C to stop.`)
  const stop = async () => {
    await web.close()
    const problems = await closeCounter(counter)
    for (const problem of problems) console.error(problem)
    process.exit(problems.length > 0 ? 1 : 0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
}

main().catch((err) => {
  console.error(`Counter could not start: ${err instanceof Error ? english(err.message) : String(err)}`)
  process.exit(1)
})
