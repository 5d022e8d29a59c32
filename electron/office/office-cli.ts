// `npm run office`: the head office's read-only page over its database. Built to out/main/office.js; prints the loopback address (with its token) to open.
import { checkLaunchToken } from '../shared/loopback-guard'
import { startOfficeServer } from './office-server'
import { OfficeReader, officeFromEnvironment } from './office-view'

/** Decision: the office's business day is the shops' own: India's (the counters write IST business days). */
const DEFAULT_TIME_ZONE = 'Asia/Kolkata'

function timeZoneFrom(text: string | undefined): string {
  const zone = text || DEFAULT_TIME_ZONE
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
  } catch {
    throw new Error(`COUNTER_OFFICE_TIME_ZONE is not a time zone this computer knows: ${zone} (for example Asia/Kolkata).`)
  }
  return zone
}

async function main() {
  // Every setting is checked before anything connects or listens, so a bad one changes nothing.
  const token = process.env.COUNTER_OFFICE_TOKEN || undefined
  checkLaunchToken(token, 'COUNTER_OFFICE_TOKEN')
  const office = officeFromEnvironment(process.env)
  const timeZone = timeZoneFrom(process.env.COUNTER_OFFICE_TIME_ZONE)
  const portText = process.env.COUNTER_OFFICE_PORT || '0'
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new Error('COUNTER_OFFICE_PORT must be a port number from 1 to 65535 (or unset for any free port).')
  const reader = new OfficeReader(office)
  const server = await startOfficeServer({ reader, timeZone, port: Number(portText), token })
  console.log(
    `Counter office view (read-only) of ${office.database} at ${office.host}:${office.port}${office.tls ? ' over TLS' : ''}.\nOpen this address in a browser on this computer:\n\n  ${server.url}\n\nPress Ctrl+C to stop.`,
  )
  const stop = async () => {
    await server.close()
    await reader.close().catch(() => undefined)
    process.exit(0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
}

main().catch((err) => {
  console.error(`The office view could not start: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
