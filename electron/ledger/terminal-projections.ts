// How a terminal.named line changes the books: the counter's name and its office id, kept in meta, the id fixed by the first line unless a fork's way back replaces it.
import type { Database } from 'sql.js'
import type { LedgerEventData } from './events'
import { META_UPSERT, readMeta } from './meta'
import type { Projector } from './projector'
import { runCached } from './connection'

export type TerminalName = LedgerEventData['terminal.named']

const TERMINAL_KEY = 'terminal'

/** This journal's terminal as last named, or null before the shop named it. */
export function terminalOf(db: Database): TerminalName | null {
  const stored = readMeta(db, TERMINAL_KEY)
  return stored === null ? null : (JSON.parse(stored) as TerminalName)
}

export const terminalProjectors: { 'terminal.named': Projector<'terminal.named'> } = {
  'terminal.named': {
    problem: (db, { terminalId, replaces }) => {
      const named = terminalOf(db)
      if (named === null || named.terminalId === terminalId) return null
      return replaces?.terminalId === named.terminalId ? null : `this journal is already terminal ${named.terminalId} in the office; its id cannot change`
    },
    apply: (db, { data }) => {
      // A renaming after a registration anew keeps what it replaced: its shipper registers with it until the office has it.
      const replaces = data.replaces ?? (terminalOf(db)?.terminalId === data.terminalId ? terminalOf(db)?.replaces : undefined)
      const named: TerminalName = { terminalId: data.terminalId, shop: data.shop, counter: data.counter, ...(replaces ? { replaces } : {}) }
      runCached(db, META_UPSERT, [TERMINAL_KEY, JSON.stringify(named)])
    },
  },
}
