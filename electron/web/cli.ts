// `npm run web`: the whole counter in a browser, for machines without a display or without the
// Electron binary. Built to out/main/web.js; prints the loopback address (with its token) to open.
import { resolve } from 'node:path'
import { startCounterFromEnvironment } from '../counter/app'
import { startWebServer } from './server'

async function main() {
  const counter = await startCounterFromEnvironment({ platform: 'web', resourcesDir: resolve(__dirname, '../../resources') })
  const web = await startWebServer({
    counter,
    rendererDir: resolve(__dirname, '../renderer'),
    port: process.env.COUNTER_WEB_PORT ? Number(process.env.COUNTER_WEB_PORT) : 0,
    token: process.env.COUNTER_WEB_TOKEN,
  })
  const mode = counter.session().mode === 'training' ? 'TRAINING (simulated provider, no money moves)' : 'REAL'
  console.log(`Counter is running in ${mode} mode.\nOpen this address in a browser on this computer:\n\n  ${web.url}\n\nPress Ctrl+C to stop.`)
  const stop = async () => {
    await web.close()
    await counter.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
}

main().catch((err) => {
  console.error(`Counter could not start: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
