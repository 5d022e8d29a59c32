// `npm run rebuild -- <terminal> <dataDir> [--archive <year file>]...`: a counter whose PC is gone, rebuilt from the head office into a new data folder. Built to out/main/rebuild.js.
import pg from 'pg'
import { english } from './shared/words'
import { lookAtOffice, rebuildFromOffice, RebuildRefusal } from './counter/rebuild-from-office'
import type { HeldJournal } from './office/held-journal'
import { officeFromEnvironment } from './office/office-view'
import { unreachableWords, type OfficeAddress } from './office/shipper'

const CONFIRM = '--old-counter-gone'
const ARCHIVE = '--archive'
const USAGE = `Usage: npm run rebuild -- <terminal id> <new data folder> [${ARCHIVE} <year file>]... [${CONFIRM}]
The office database is given as for npm run office: COUNTER_OFFICE_DB_HOST, _PORT, _NAME, _USER, _PASSWORD, _TLS.
${ARCHIVE}: a year's export (npm run office -- export-year), needed once the office dropped that year; one per year.`

const when = (at: Date | null) => (at === null ? 'never' : `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`)

/** What the office holds, as the owner reads it before saying the old PC is gone. */
function describe(held: HeldJournal): string {
  const names = [held.shop, held.counter].filter((name) => name !== null).join(', ')
  const lines = [
    `The office holds ${held.terminalId}${names ? ` (${names})` : ''}: entries #1 to #${held.last.seq}, the last written ${when(held.lastAt)}; last in touch ${when(held.lastContact)}.`,
    ...held.archived.map((range) => `Entries #${range.firstSeq} to #${range.lastSeq} (${range.year}) come from the year file given for them.`),
  ]
  if (held.journalEnd !== null && held.journalEnd > held.last.seq) {
    lines.push(`Its journal last said it ended at #${held.journalEnd}: the ${held.journalEnd - held.last.seq} entries after #${held.last.seq} never reached the office, and cannot be rebuilt.`)
  }
  return lines.join('\n')
}

/** The office's own errors and its connection's (refused, not found, cut, timed out), as the driver raises them. */
const fromTheOffice = (error: unknown): boolean =>
  error instanceof pg.DatabaseError ||
  ['connect', 'getaddrinfo', 'read'].includes(String((error as NodeJS.ErrnoException | null)?.syscall)) ||
  /connection|timeout/i.test(String((error as Error | null)?.message))

/**
 * Why it stopped, in words. A refusal is the answer itself. The office's errors are said from their code alone
 * (shipper.ts unreachableWords), as the office page says them: the driver's own message could quote the settings.
 */
function problemWords(error: unknown, office: OfficeAddress): string {
  if (error instanceof RebuildRefusal) return english(error.message)
  const why = fromTheOffice(error) ? unreachableWords(error, office) : error instanceof Error ? error.message : String(error)
  return `The counter could not be rebuilt: ${english(why)}`
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const confirmed = args.includes(CONFIRM)
  const archives: string[] = []
  const positional: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === ARCHIVE) {
      const file = args[++i]
      if (!file) {
        console.error(`${ARCHIVE} takes a file: the year's export.\n${USAGE}`)
        return 1
      }
      archives.push(file)
    } else if (args[i] !== CONFIRM) positional.push(args[i])
  }
  const [terminalId, dataDir, ...rest] = positional
  if (!terminalId || !dataDir || rest.length > 0) {
    console.error(USAGE)
    return 1
  }
  const office = officeFromEnvironment(process.env)
  try {
    return await rebuild(office, terminalId, dataDir, confirmed, archives)
  } catch (error) {
    console.error(problemWords(error, office))
    return 1
  }
}

async function rebuild(office: OfficeAddress, terminalId: string, dataDir: string, confirmed: boolean, archives: string[]): Promise<number> {
  if (!confirmed) {
    console.log(describe(await lookAtOffice(office, terminalId, archives)))
    console.log(
      `\nThe rebuilt counter goes on as ${terminalId}: were the old PC to sell again, the office would refuse one of the two as a fork.\n` +
        `Once the old PC is surely gone for good, run this again with ${CONFIRM}.`,
    )
    return 1
  }
  const rebuilt = await rebuildFromOffice({ office, terminalId, dataDir, oldCounterGone: true, archives })
  console.log(`Rebuilt ${rebuilt.terminal.terminalId} (${rebuilt.terminal.shop}, ${rebuilt.terminal.counter}) into ${dataDir}: ${rebuilt.entries} entries in ${rebuilt.segments} journal file(s), the books replayed from them.`)
  for (const notice of rebuilt.notices) console.log(`The books say: ${notice}`)
  console.log(
    `Next: start Counter on this data folder (COUNTER_DATA_DIR=${dataDir}) and, in Settings, enter the provider's token, secret key and api_key and the office database's password.\n` +
      `It sends its new entries to the office after #${rebuilt.entries}.`,
  )
  return 0
}

main().then(
  (code) => process.exit(code),
  // Only a setting refused before anything connects (officeFromEnvironment) reaches here: its words are plain already.
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err))
    process.exit(1)
  },
)
