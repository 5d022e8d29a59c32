// The office side of shipping: registers a terminal and stores a batch of its journal entries, checked, idempotently, in one transaction.
// Its refusals are said (shared/words): the counter's status bar shows them in the screen's language.
import type { ClientBase } from 'pg'
import type { JournalEntry } from '../ledger/events'
import { GENESIS, GENESIS_HASH, hashedBody, hashEntry, type ChainPoint } from '../ledger/segments'
import type { TerminalName } from '../ledger/terminal-projections'
import { say } from '../shared/words'

/** The office refused a batch: it would break a terminal's chain or contradict what the office holds. Nothing of it was stored. */
export class OfficeRefusal extends Error {
  constructor(
    readonly kind: 'fork' | 'tampered',
    message: string,
  ) {
    super(message)
    this.name = 'OfficeRefusal'
  }
}

/**
 * Creates the terminal's row when the office has none (with its names and its journal's end) and returns the last
 * entry the office holds from it. An existing row is left as it is: a counter may yet turn out to be the second
 * claimant of a forked id, and its names, contact and journal end must not pass for the holder's; once its lines
 * agree with the office's, `touchTerminal` records them. A terminal registered anew after a fork (`replaces`) is
 * created sharing the entries up to `sharedThrough` with the terminal it was, when the office holds that entry:
 * they are not stored again, and its shipping starts after them.
 */
export async function registerTerminal(client: ClientBase, terminal: TerminalName, journalEnd?: number): Promise<ChainPoint> {
  const { replaces } = terminal
  const sharedHash = replaces && replaces.sharedThrough > 0 ? (await client.query<{ hash: string | null }>('SELECT held_hash($1, $2) AS hash', [replaces.terminalId, replaces.sharedThrough])).rows[0].hash : null
  const shared = replaces && sharedHash !== null ? { seq: replaces.sharedThrough, hash: sharedHash } : GENESIS
  await client.query(
    `INSERT INTO terminals (terminal, shop, counter, last_contact, journal_end, journal_end_at, parent_terminal, parent_through, last_seq, last_hash)
     VALUES ($1, $2, $3, now(), $4, CASE WHEN $4::bigint IS NULL THEN NULL ELSE now() END, (SELECT terminal FROM terminals WHERE terminal = $5), $6, $6, $7)
     ON CONFLICT (terminal) DO NOTHING`,
    [terminal.terminalId, terminal.shop, terminal.counter, journalEnd ?? null, replaces?.terminalId ?? null, shared.seq, shared.hash],
  )
  return heldPoint(client, terminal.terminalId)
}

/** The last entry the office holds from `terminalId`. */
async function heldPoint(client: ClientBase, terminalId: string): Promise<ChainPoint> {
  const { rows } = await client.query<{ last_seq: string; last_hash: string }>('SELECT last_seq, last_hash FROM terminals WHERE terminal = $1', [terminalId])
  return { seq: Number(rows[0].last_seq), hash: rows[0].last_hash }
}

/**
 * Records that the terminal is in touch: its current names, and its journal's end when it says it (the office
 * view's backlog). Only for a counter whose lines agree with what the office holds under its id (never a refused
 * fork's claimant); returns the last entry the office holds from it.
 */
export async function touchTerminal(client: ClientBase, terminal: TerminalName, journalEnd?: number): Promise<ChainPoint> {
  await client.query(
    `UPDATE terminals SET shop = $2, counter = $3, last_contact = now(),
       journal_end = COALESCE($4, journal_end), journal_end_at = CASE WHEN $4::bigint IS NULL THEN journal_end_at ELSE now() END
     WHERE terminal = $1`,
    [terminal.terminalId, terminal.shop, terminal.counter, journalEnd ?? null],
  )
  return heldPoint(client, terminal.terminalId)
}

/** A batch's own chain: each line's hash over its contents, each linked to the one before it. */
function chainProblem(entries: readonly JournalEntry[]): string | null {
  for (const [index, entry] of entries.entries()) {
    if (hashEntry(entry.prev, entry) !== entry.hash) return say('office.entryHashDiffers', { seq: entry.seq })
    const before = entries[index - 1]
    if (before && (entry.seq !== before.seq + 1 || entry.prev !== before.hash)) return say('office.entryNotFollowing', { seq: entry.seq, before: before.seq })
  }
  return null
}

/**
 * Stores `entries` (consecutive, from one terminal) and returns the last entry the office now holds
 * from it. Decision: the office re-checks what the terminal already checked, since it is the office's
 * books that a broken chain would spoil: each hash is recomputed, and the first entry's prev must be
 * the hash stored at (terminal, seq - 1). A resent entry is a no-op (ON CONFLICT DO NOTHING); a
 * resent entry whose hash differs from the stored one is a fork, and the whole batch is refused. An entry in a range the
 * owner archived (archives.ts) is held too: compared with its archived hash, never stored again (its row is gone, so
 * ON CONFLICT would not catch it, and the roll-ups, which kept it, would count it twice).
 * The terminal's row is locked for the transaction, so two shippers of one terminal take turns.
 * `journalEnd` is the terminal's journal end as it read it with this batch (the office view's backlog).
 * Entries a terminal registered anew shares with its parent are compared, never stored again; its entry
 * right after them resolves the fork its parent's row records for it (forks.ts).
 */
export async function ingestBatch(client: ClientBase, terminalId: string, entries: readonly JournalEntry[], journalEnd?: number): Promise<ChainPoint> {
  await client.query('BEGIN')
  try {
    const held = await client.query<{ last_seq: string; last_hash: string; parent_terminal: string | null; parent_through: string }>(
      'SELECT last_seq, last_hash, parent_terminal, parent_through FROM terminals WHERE terminal = $1 FOR UPDATE',
      [terminalId],
    )
    if (held.rows.length === 0) throw new Error(`terminal ${terminalId} is not registered`)
    const acked: ChainPoint = { seq: Number(held.rows[0].last_seq), hash: held.rows[0].last_hash }
    const parent = held.rows[0].parent_terminal
    const sharedThrough = Number(held.rows[0].parent_through)
    if (entries.length === 0) {
      await client.query('COMMIT')
      return acked
    }
    const problem = chainProblem(entries)
    if (problem) throw new OfficeRefusal('tampered', say('office.refusedEntries', { terminal: terminalId, problem }))
    const first = entries[0]
    const before = first.seq === 1 ? GENESIS_HASH : (await client.query<{ hash: string | null }>('SELECT held_hash($1, $2) AS hash', [terminalId, first.seq - 1])).rows[0].hash
    if (before === null) throw new OfficeRefusal('fork', say('office.noEntryBefore', { terminal: terminalId, before: first.seq - 1, seq: first.seq }))
    if (before !== first.prev) {
      throw new OfficeRefusal('fork', say('office.fork', { terminal: terminalId, seq: first.seq, before: first.seq - 1 }))
    }
    const fresh = entries.filter((entry) => entry.seq > sharedThrough)
    // body: the text the hash covers, as a string (a jsonb object would lose its key order), kept for the tamper check (office migration 8).
    const rows = JSON.stringify(fresh.map(({ seq, at, type, data, prev, hash }) => ({ seq, at, type, data, prev, hash, body: hashedBody({ seq, at, type, data }) })))
    const inserted = await client.query<{ seq: string }>(
      `INSERT INTO entries (terminal, seq, at, type, data, prev, hash, body)
       SELECT $1, r.seq, r.at, r.type, r.data, r.prev, r.hash, r.body::json
       FROM jsonb_to_recordset($2::jsonb) AS r (seq bigint, at timestamptz, type text, data jsonb, prev text, hash text, body text)
       WHERE NOT EXISTS (SELECT FROM office_archives a WHERE a.terminal = $1 AND r.seq BETWEEN a.first_seq AND a.last_seq)
       ON CONFLICT (terminal, seq) DO NOTHING
       RETURNING seq`,
      [terminalId, rows],
    )
    if (inserted.rows.length < entries.length) {
      const stored = new Set(inserted.rows.map((row) => Number(row.seq)))
      const resent = entries.filter((entry) => !stored.has(entry.seq))
      const { rows: held } = await client.query<{ seq: string; hash: string | null }>('SELECT s AS seq, held_hash($1, s) AS hash FROM unnest($2::bigint[]) AS s', [terminalId, resent.map((entry) => entry.seq)])
      const heldHash = new Map(held.map((row) => [Number(row.seq), row.hash]))
      const differing = resent.find((entry) => heldHash.get(entry.seq) !== entry.hash)
      if (differing) {
        throw new OfficeRefusal('fork', say('office.differentEntry', { terminal: terminalId, seq: differing.seq }))
      }
    }
    const resolving = parent === null ? undefined : entries.find((entry) => entry.seq === sharedThrough + 1)
    if (resolving) {
      // Decision: a claimant that ended before the parting (claimant_hash NULL) is taken to be this one: it was
      // refused there, and this is its journal going on from there under its new id.
      await client.query(
        `UPDATE terminal_forks SET resolved_as = $1, resolved_at = now()
         WHERE terminal = $2 AND part_seq = $3 AND resolved_as IS NULL AND (claimant_hash = $4 OR claimant_hash IS NULL)`,
        [terminalId, parent, resolving.seq, resolving.hash],
      )
    }
    const last = entries[entries.length - 1]
    const next = last.seq > acked.seq ? { seq: last.seq, hash: last.hash } : acked
    await client.query(
      `UPDATE terminals SET last_seq = $2, last_hash = $3, last_contact = now(), first_hash = COALESCE(first_hash, $4),
         journal_end = COALESCE($5, journal_end), journal_end_at = CASE WHEN $5::bigint IS NULL THEN journal_end_at ELSE now() END
       WHERE terminal = $1`,
      [terminalId, next.seq, next.hash, first.seq === 1 ? first.hash : null, journalEnd ?? null],
    )
    await client.query('COMMIT')
    return next
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}
