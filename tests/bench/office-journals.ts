// Builds the office benchmark's terminals: real hash-chained journals (the ledger's line format, written by the bench's JournalWriter), one per terminal, and one backlog terminal the ledger itself opens.
import path from 'node:path'
import { loadCatalog } from '../../electron/counter/catalog'
import { Ledger } from '../../electron/ledger/ledger'
import { JOURNAL_DIR } from '../../electron/ledger/segments'
import type { TerminalName } from '../../electron/ledger/terminal-projections'
import { JournalWriter } from './build-ledgers'
import { ShopHistory, type AnyDraft } from './shop-history'

export interface BuiltTerminal {
  terminal: TerminalName
  /** The ledger's folder; its journal is `journal/` inside it. */
  ledgerDir: string
  journalDir: string
  /** Journal entries written: the seq of its last line. */
  entries: number
  /** The business day after its last one: where the bench's own sales go. */
  nextDay: string
}

/** The first `count` events of the benchmark shop's history (tests/bench/shop-history.ts): recharges, coupons, balance reads, top-ups, closes. */
export function shopEvents(resourcesDir: string, count: number): AnyDraft[] {
  const catalog = loadCatalog(resourcesDir)
  const history = new ShopHistory(catalog.operators, catalog.circles, [1_000_000])
  const events: AnyDraft[] = []
  for (const day of history.days()) {
    for (const event of [...day.events, day.close]) {
      if (events.length === count) return events
      events.push(event)
    }
  }
  return events
}

const nextDayOf = (at: string) => new Date(Date.parse(at.slice(0, 10) + 'T00:00:00Z') + 86_400_000).toISOString().slice(0, 10)

/**
 * One terminal's journal in `root`/<name>/journal: its `terminal.named` line first (as Settings
 * writes it), then `events`. Each terminal's chain is its own from that first line on, so no two
 * terminals share a hash even where their events are alike.
 */
export function writeTerminal(root: string, name: string, events: readonly AnyDraft[]): BuiltTerminal {
  const terminal: TerminalName = { terminalId: `bench-shop/${name}`, shop: 'Bench Shop', counter: name }
  const ledgerDir = path.join(root, name)
  const journalDir = path.join(ledgerDir, JOURNAL_DIR)
  const writer = new JournalWriter(journalDir)
  writer.write({ at: events[0]?.at ?? new Date().toISOString(), type: 'terminal.named', data: terminal })
  for (const event of events) writer.write(event)
  writer.finish()
  return { terminal, ledgerDir, journalDir, entries: writer.lastSeq, nextDay: nextDayOf(events.at(-1)?.at ?? new Date().toISOString()) }
}

/** The backlog terminal is sold on by the real ledger: it replays its journal into a snapshot once, as a counter opened on it would. */
export async function settleLedger(ledgerDir: string): Promise<void> {
  const ledger = await Ledger.open({ dir: ledgerDir })
  try {
    if (ledger.readOnly) throw new Error(`The backlog ledger opened read-only: ${ledger.readOnly}`)
    if (ledger.report.problems.length > 0) throw new Error(`The backlog ledger reported problems: ${ledger.report.problems.join(' ')}`)
  } finally {
    await ledger.close()
  }
}
