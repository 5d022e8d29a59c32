// The counter's side of the head office: names this counter in its journal, and runs the journal shipper while an office is set up.
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { OfficeStatus } from '../contract'
import { JOURNAL_DIR } from '../ledger/segments'
import type { TerminalName } from '../ledger/terminal-projections'
import { startShipperThread, type ShipperLink } from '../office/shipper-link'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { readHintFile } from './hint-files'
import { ledgerDir } from './session'
import { english, say, type Said } from '../shared/words'

/** A name as the office and the backup folder (offsite-backup.ts) write it: letters of any script and digits stay; everything else becomes '-'. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
}

/** The journal's name in the office, from the names the shop first gave (later renamings keep it: events.ts 'terminal.named'). */
export function terminalIdOf(shop: string, counter: string): string {
  return `${slugOf(shop)}/${slugOf(counter)}`
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

const readAcknowledged = (dataDir: string) =>
  readHintFile<Acknowledged>(join(dataDir, ACKNOWLEDGED_FILE), (read) => typeof read.terminalId === 'string' && Number.isSafeInteger(read.seq))

export interface OfficeShipping {
  status(): OfficeStatus | null
  /** After start and every settings save or mode switch: names the counter if its names changed, and (re)starts the shipper. */
  refresh(): Promise<void>
  /** The way back from a fork (contract/office.ts 'office.registerAnew'): a new terminal id, journaled, and the shipper restarted under it. */
  registerAnew(refusedTerminalId: string): Promise<string>
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
  const waiting = (message: Said) => show({ state: 'waiting', terminalId: null, behind: null, acknowledged: null, unreachableSince: null, message, fork: null })

  /** Only the real books are the shop's: training sales never reach the office. */
  async function nameTerminal(): Promise<TerminalName | null> {
    const { shopName, counterName } = ctx.settings.current
    const session = ctx.session()
    if (session.mode !== 'real' || !counterName) return null
    const named = await session.ledger.read('terminal')
    const shop = shopName.trim()
    if (named && named.shop === shop && named.counter === counterName) return named
    const terminal = { terminalId: named?.terminalId ?? terminalIdOf(shop, counterName), shop, counter: counterName }
    await ctx.recordWrite(() => session.ledger.append('terminal.named', terminal))
    // What a registration anew replaced stays with the id (terminal-projections.ts): the office may not have it yet.
    return named?.replaces ? { ...terminal, replaces: named.replaces } : terminal
  }

  async function stopLink() {
    const was = link
    link = null
    await was?.stop()
  }

  /** After start and every settings save or mode switch: names the counter if its names changed, and (re)starts the shipper. */
  async function refresh() {
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
    show({ state: 'connecting', terminalId: terminal.terminalId, behind: null, acknowledged: known, unreachableSince: null, message: null, fork: null })
    link = startShipperThread({ journalDir: join(ledgerDir(dataDir, 'real'), JOURNAL_DIR), terminal, office, acknowledged: known }, show)
  }

  return {
    status: () => current,
    refresh,
    /**
     * Decision: the counter that registers anew is the one the owner says is not the office's (they cannot tell
     * from here which of two is the copy; often it is the original, refused because the copy reached the office
     * first). Its new id is its names' with a random suffix, since the names are what the two share. The line says
     * which id it replaces and the last entry the office holds alike: those entries, the shared history, stay the
     * old id's in the office, held once; everything after them ships under the new id.
     */
    async registerAnew(refusedTerminalId) {
      const fork = current?.state === 'refused' && current.terminalId === refusedTerminalId ? current.fork : null
      const session = ctx.session()
      const named = session.mode === 'real' ? await session.ledger.read('terminal') : null
      if (!fork || named?.terminalId !== refusedTerminalId) throw new CounterError('not_configured', say('office.notForked'))
      const terminalId = `${terminalIdOf(named.shop, named.counter)}-${randomBytes(3).toString('hex')}`
      const replaces = { terminalId: refusedTerminalId, sharedThrough: fork.partsAt - 1 }
      await stopLink()
      await ctx.recordWrite(() => session.ledger.append('terminal.named', { terminalId, shop: named.shop, counter: named.counter, replaces }))
      log(`office: registered anew as ${terminalId} (was ${refusedTerminalId}, sharing entries up to #${replaces.sharedThrough})`)
      await refresh()
      return terminalId
    },
    stop: stopLink,
  }
}
