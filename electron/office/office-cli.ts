// `npm run office`: the head office's read-only page over its database, or its owner's commands: `roles` (the office's set-up), `export-year` and `drop-year` (closed years, years.ts). Built to out/main/office.js.
import pg from 'pg'
import { english } from '../shared/words'
import { checkLaunchToken } from '../shared/loopback-guard'
import { CREATE_ROLES_SQL, OFFICE_ROLES, setUpOfficeRoles } from './migrations'
import { startOfficeServer } from './office-server'
import { OfficeReader, officeFromEnvironment } from './office-view'
import { officeConnection, unreachableWords, type OfficeAddress } from './shipper'
import { dropYear, exportYear, type YearDone } from './years'

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

/** Why the roles could not be set up, in plain words: the driver's words only for a refused right (they name the object, never a setting). */
function rolesProblem(error: unknown, office: OfficeAddress): string {
  const { code, message } = error as { code?: string; message?: string }
  if (code === '42501') return `${office.user} may not change the office's tables (${message}): run this with the login that owns them, the one the office was first set up with.`
  return english(unreachableWords(error, office))
}

/** `npm run office -- roles`: with the owner's login, the office migrated and its roles granted; what the owner does next. */
async function setUpRoles() {
  const office = officeFromEnvironment(process.env)
  const client = new pg.Client({ ...officeConnection(office), connectionTimeoutMillis: 10_000 })
  client.on('error', () => undefined)
  let ready: boolean
  try {
    await client.connect()
    ready = await setUpOfficeRoles(client)
  } catch (error) {
    throw new Error(rolesProblem(error, office))
  } finally {
    await client.end().catch(() => undefined)
  }
  if (!ready) {
    console.log(
      `${office.user} may not make roles. A database administrator runs this once (for example sudo -u postgres psql):\n\n${CREATE_ROLES_SQL}\n\nThen run npm run office -- roles again, as now.`,
    )
    process.exitCode = 1
    return
  }
  console.log(
    [
      `The office database ${office.database} is up to date, and its roles have their grants.`,
      'Make a login for the counters and one for the office page, members of the roles (each asks for its password), for example:',
      '',
      `  sudo -u postgres createuser --pwprompt --role=${OFFICE_ROLES.writer} shop_counters`,
      `  sudo -u postgres createuser --pwprompt --role=${OFFICE_ROLES.reader} office_page`,
      '',
      'Each counter takes the first in Settings → Head office; npm run office takes the second (COUNTER_OFFICE_DB_USER).',
      `Keep ${office.user}, the owner, for upgrades (this command) only: with it a counter could change the office's books.`,
    ].join('\n'),
  )
}

async function startPage() {
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

/** `export-year <year> <file>` and `drop-year <year> <file>`: the arguments checked before anything connects. */
async function closedYear(command: 'export-year' | 'drop-year', args: string[]) {
  const [yearText, file, ...rest] = args
  if (!yearText || !/^\d{4}$/.test(yearText) || !file || rest.length > 0) {
    throw new Error(`give the year and the file: npm run office -- ${command} 2025 office-2025.jsonl.gz`)
  }
  const office = officeFromEnvironment(process.env)
  const timeZone = timeZoneFrom(process.env.COUNTER_OFFICE_TIME_ZONE)
  const client = new pg.Client({ ...officeConnection(office), connectionTimeoutMillis: 10_000, application_name: `counter office ${command}` })
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (error) {
    throw new Error(english(unreachableWords(error, office)))
  }
  let done: YearDone
  try {
    const options = { year: Number(yearText), timeZone, file, progress: (words: string) => console.log(words) }
    done = command === 'export-year' ? await exportYear(client, options) : await dropYear(client, options)
  } finally {
    await client.end().catch(() => undefined)
  }
  const ranges = done.terminals.map((range) => `  ${range.terminal}: #${range.firstSeq} to #${range.lastSeq}`).join('\n')
  console.log(
    command === 'export-year'
      ? `${done.year}: ${done.entries} entries written to ${done.file}, read back and verified (sha256 ${done.sha256}):\n${ranges}\nKeep it on two disks; npm run office -- drop-year ${done.year} ${done.file} then drops them from the office.`
      : `${done.year}: ${done.entries} entries dropped from the office; the page's figures for ${done.year} stay. Keep ${done.file} (sha256 ${done.sha256}): rebuilding one of these counters needs it (npm run rebuild -- --archive ${done.file}).\n${ranges}`,
  )
}

const COMMANDS: Record<string, { failed: string; run: () => Promise<void> }> = {
  roles: { failed: 'The office roles could not be set up', run: setUpRoles },
  'export-year': { failed: 'The year was not exported', run: () => closedYear('export-year', process.argv.slice(3)) },
  'drop-year': { failed: 'The year was not dropped', run: () => closedYear('drop-year', process.argv.slice(3)) },
}
const command = COMMANDS[process.argv[2] ?? ''] ?? { failed: 'The office view could not start', run: startPage }
command.run().catch((err) => {
  console.error(`${command.failed}: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
