// The counter's side of the head office: names this counter in its journal, and runs the journal shipper while an office is set up.
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { OfficeStatus } from '../contract'
import { JOURNAL_DIR } from '../ledger/segments'
import type { TerminalName } from '../ledger/terminal-projections'
import { startShipperThread, type ShipperLink } from '../office/shipper-link'
import type { CounterContext } from './context'
import { ledgerDir } from './session'
import { english, say, type Said } from '../shared/error-words'

/**
 * The journal's name in the office, from the names the shop first gave (later renamings keep it:
 * events.ts 'terminal.named'). Letters of any script stay; everything else becomes '-'.
 */
export function terminalIdOf(shop: string, counter: string): string {
  const slug = (name: string) =>
    name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
  return `${slug(shop)}/${slug(counter)}`
}

/** Status updates while a backlog ships come per batch; the status bar needs them no oftener than this. */
const ANNOUNCE_MS = 1_000

/**
 * The last entry the office acknowledged, as last heard: so that after a restart with the office
 * away the bar can still say how far behind it is. A hint only, never where sending starts (the
 * office's own answer is), hence written without fsync and ignored when unreadable.
 */
const ACKNOWLEDGED_FILE = 'office-acknowledged.json'

interface Acknowledged {
  terminalId: string
  seq: number
}

function readAcknowledged(dataDir: string): Acknowledged | null {
  try {
    const read = JSON.parse(readFileSync(join(dataDir, ACKNOWLEDGED_FILE), 'utf8')) as Acknowledged
    return typeof read.terminalId === 'string' && Number.isSafeInteger(read.seq) ? read : null
  } catch {
    return null
  }
}

export interface OfficeShipping {
  status(): OfficeStatus | null
  /** After start and every settings save or mode switch: names the counter if its names changed, and (re)starts the shipper. */
  refresh(): Promise<void>
  stop(): Promise<void>
}

export function officeShipping(ctx: CounterContext, dataDir: string, announce: () => void, log: (line: string) => void): OfficeShipping {
  let link: ShipperLink | null = null
  let current: OfficeStatus | null = null
  let announced = 0
  let acknowledged = readAcknowledged(dataDir)
  const show = (next: OfficeStatus | null) => {
    const changed = next?.state !== current?.state || next?.message !== current?.message
    current = next
    if (changed || Date.now() - announced >= ANNOUNCE_MS) {
      announced = Date.now()
      announce()
      remember(next)
    }
  }
  const remember = (next: OfficeStatus | null) => {
    if (!next?.terminalId || next.acknowledged === null) return
    if (acknowledged?.terminalId === next.terminalId && acknowledged.seq === next.acknowledged) return
    acknowledged = { terminalId: next.terminalId, seq: next.acknowledged }
    writeFile(join(dataDir, ACKNOWLEDGED_FILE), JSON.stringify(acknowledged)).catch((err: unknown) => log(`office: could not note the acknowledged entry (${err instanceof Error ? err.message : String(err)})`))
  }
  const waiting = (message: Said) => show({ state: 'waiting', terminalId: null, behind: null, acknowledged: null, unreachableSince: null, message })

  /** Only the real books are the shop's: training sales never reach the office. */
  async function nameTerminal(): Promise<TerminalName | null> {
    const { shopName, counterName } = ctx.settings.current
    const session = ctx.session()
    if (session.mode !== 'real' || !counterName) return null
    const named = await session.ledger.terminal()
    const shop = shopName.trim()
    if (named && named.shop === shop && named.counter === counterName) return named
    const terminal = { terminalId: named?.terminalId ?? terminalIdOf(shop, counterName), shop, counter: counterName }
    await ctx.recordWrite(() => session.ledger.append('terminal.named', terminal))
    return terminal
  }

  async function stopLink() {
    const was = link
    link = null
    await was?.stop()
  }

  return {
    status: () => current,
    async refresh() {
      await stopLink()
      let terminal: TerminalName | null
      try {
        terminal = await nameTerminal()
      } catch (err) {
        log(`office: naming this counter in the journal failed (${err instanceof Error ? english(err.message) : String(err)})`)
        terminal = null
      }
      const office = await ctx.settings.officeConfig()
      if (!ctx.settings.current.officeHost) return show(null)
      if (ctx.session().mode !== 'real') return waiting(say('office.trainingNotSent'))
      if (!office) return waiting(say('office.passwordMissing'))
      if (!terminal) return waiting(say('office.nameCounter'))
      const known = acknowledged?.terminalId === terminal.terminalId ? acknowledged.seq : null
      show({ state: 'connecting', terminalId: terminal.terminalId, behind: null, acknowledged: known, unreachableSince: null, message: null })
      link = startShipperThread({ journalDir: join(ledgerDir(dataDir, 'real'), JOURNAL_DIR), terminal, office, acknowledged: known }, show)
    },
    stop: stopLink,
  }
}
