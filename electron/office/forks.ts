// Forks: where a journal parts from what the office holds under its terminal id, and the office's record of it.
import type { ClientBase } from 'pg'
import { listSegments, locate, readChainPoints, type ReadStart } from '../ledger/segments'
import type { TerminalName } from '../ledger/terminal-projections'
import { JournalEnd } from './journal-reader'

/** Where a journal parts from the office's entries of its terminal id. */
export interface Parting {
  /** The last entry both hold alike (0: none); this journal's entries after it are not in the office under this id. */
  sharedThrough: number
  /** The first entry where they differ: sharedThrough + 1. */
  seq: number
  /** The office's entry there. */
  officeHash: string
  /** This journal's entry there; null when it ends before (every entry it has is held, and its next one will differ). */
  claimantHash: string | null
}

/** Thrown by the visitor to end readChainPoints' pass at its first line; caught right there. */
class FirstRead extends Error {}

/** The hash of the first entry after `start`, or null when the journal ends there. */
function hashAfter(journalDir: string, start: ReadStart): string | null {
  let found: string | null = null
  try {
    readChainPoints(listSegments(journalDir), start, (point) => {
      found = point.hash
      throw new FirstRead()
    })
  } catch (error) {
    if (!(error instanceof FirstRead)) throw error
  }
  return found
}

/**
 * Where the journal in `journalDir` parts from the office's entries under `terminalId`; null when it holds every one
 * of them (no fork). Decision: a binary search over seq, asking the office for one hash
 * and the journal to find it (segments.ts locate) at each step: the hash chain makes "both hold entry s alike" true
 * up to the parting and false from it on, so some twenty steps find it in a journal of a million lines, where
 * comparing every entry would read the whole journal and fetch every hash the office holds.
 */
export async function findParting(client: ClientBase, terminalId: string, journalDir: string): Promise<Parting | null> {
  const officeLast = Number((await client.query<{ last_seq: string }>('SELECT last_seq FROM terminals WHERE terminal = $1', [terminalId])).rows[0]?.last_seq ?? 0)
  const heldAt = async (seq: number) => (await client.query<{ hash: string | null }>('SELECT held_hash($1, $2) AS hash', [terminalId, seq])).rows[0].hash
  const shares = async (seq: number) => {
    const hash = await heldAt(seq)
    return hash !== null && locate(listSegments(journalDir), { seq, hash }).found
  }
  let low = 0
  let high = Math.min(officeLast, new JournalEnd(journalDir).lastSeq())
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (await shares(middle)) low = middle
    else high = middle - 1
  }
  const seq = low + 1
  if (seq > officeLast) return null
  const officeHash = await heldAt(seq)
  if (officeHash === null) return null
  const before = low === 0 ? null : await heldAt(low)
  const start = locate(listSegments(journalDir), { seq: low, hash: before ?? '' })
  return { sharedThrough: low, seq, officeHash, claimantHash: start.found ? hashAfter(journalDir, start.start) : null }
}

/**
 * Records (or, seen again, brings up to date) that `claimant` was refused under its terminal id at `parting`: the
 * office page shows both claimants and where they part until the claimant is registered anew (ingest.ts resolves it).
 */
export async function recordFork(client: ClientBase, claimant: TerminalName, parting: Parting, journalEnd: number): Promise<void> {
  await client.query(
    `INSERT INTO terminal_forks (terminal, part_seq, office_hash, claimant_hash, claimant_shop, claimant_counter, claimant_journal_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (terminal, part_seq, (COALESCE(claimant_hash, ''))) DO UPDATE SET last_seen = now(),
       claimant_shop = excluded.claimant_shop, claimant_counter = excluded.claimant_counter, claimant_journal_end = excluded.claimant_journal_end`,
    [claimant.terminalId, parting.seq, parting.officeHash, parting.claimantHash, claimant.shop, claimant.counter, journalEnd],
  )
}
