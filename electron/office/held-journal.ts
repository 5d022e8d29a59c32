// What the office holds of one terminal's journal, read in one read-only snapshot: how far it reaches, and its lines' exact text in order (a counter rebuilt from the office).
import type pg from 'pg'
import { postgresClient } from './pg-client'
import { journalLine } from '../ledger/journal-copy'
import type { ChainPoint } from '../ledger/segments'
import { readOnlyClientConfig } from './read-only'
import type { OfficeAddress } from './shipper'

export interface HeldJournal {
  terminalId: string
  shop: string | null
  counter: string | null
  /** The last entry the office holds under the id (a terminal registered anew holds its first ones under its parent's). */
  last: ChainPoint
  /** When the terminal wrote the last of its own entries the office holds; null when it holds none of its own. */
  lastAt: Date | null
  lastContact: Date | null
  /** The journal's end as the terminal last reported it (its entries past `last` never reached the office); null when it never did. */
  journalEnd: number | null
  /**
   * Entries the office holds without the text their hash covers: received before office migration 8 (or by an office
   * not yet migrated to it), when only their parsed form was kept; null when every entry has its text.
   */
  textless: { first: number; last: number; count: number } | null
  /**
   * Ranges the owner archived to a year's file and dropped from the office (office migration 10, years.ts), oldest
   * first: their lines are only in that file now. Each is under the terminal whose rows held them (a parent's, for
   * what a terminal registered anew shares with it).
   */
  archived: ArchivedRange[]
}

export interface ArchivedRange {
  terminal: string
  year: number
  firstSeq: number
  lastSeq: number
  lastHash: string
}

/** An archived range's lines, in order, as its year's file holds them (the caller reads the file). */
export type ArchivedLines = (range: ArchivedRange) => AsyncIterable<string>

/** A line as the office holds it: the journal line its kept text makes, and the seq the office files it under. */
export interface HeldLine {
  seq: number
  line: string
}

/** Which terminal's rows hold entries (after, through]: the terminal's own, then its parents' for what it shares with them. */
interface Holder {
  terminal: string
  after: number
  through: number
}

/** Lines read at a time: about a megabyte. */
const PAGE_LINES = 2_000

/**
 * One connection in one read-only REPEATABLE READ transaction, so the summary and the lines agree whatever a counter
 * ships meanwhile. Decision: read-only in the server too (read-only.ts): a rebuild must never change the office.
 */
export class HeldJournalReader {
  private constructor(private readonly client: pg.Client) {}

  static async open(office: OfficeAddress): Promise<HeldJournalReader> {
    const client = await postgresClient({ ...readOnlyClientConfig(office), application_name: 'counter rebuild' })
    // A connection lost while idle is noticed by the next query; this keeps it from ending the process meanwhile.
    client.on('error', () => undefined)
    await client.connect()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    } catch (error) {
      await client.end().catch(() => undefined)
      throw error
    }
    return new HeldJournalReader(client)
  }

  /** Every terminal id the office holds, for a refusal to name the right one. */
  async terminals(): Promise<string[]> {
    if (!(await this.hasTable('terminals'))) return []
    return (await this.client.query<{ terminal: string }>('SELECT terminal FROM terminals ORDER BY terminal')).rows.map((row) => row.terminal)
  }

  /** What the office holds of `terminalId`; null when it holds no such terminal. */
  async held(terminalId: string): Promise<HeldJournal | null> {
    if (!(await this.hasTable('terminals'))) return null
    // SELECT *: an office migrated by older counters lacks the later columns (journal_end came with migration 4).
    const { rows } = await this.client.query<Record<string, unknown>>('SELECT * FROM terminals WHERE terminal = $1', [terminalId])
    if (rows.length === 0) return null
    const row = rows[0]
    const last = { seq: Number(row.last_seq), hash: String(row.last_hash) }
    const lastAt = (await this.client.query<{ at: Date }>('SELECT at FROM entries WHERE terminal = $1 ORDER BY seq DESC LIMIT 1', [terminalId])).rows[0]?.at ?? null
    // Looked up by the column, not the migration's number: what is read is the column.
    const keepsText = (await this.client.query<{ found: boolean }>("SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'entries'::regclass AND attname = 'body' AND NOT attisdropped) AS found")).rows[0].found
    let textless: HeldJournal['textless'] = last.seq > 0 ? { first: 1, last: last.seq, count: last.seq } : null
    if (keepsText) {
      const found = { first: Infinity, last: 0, count: 0 }
      for (const holder of await this.holders(terminalId, last.seq)) {
        const { rows: counted } = await this.client.query<{ count: string; first: string | null; last: string | null }>(
          'SELECT count(*) AS count, min(seq) AS first, max(seq) AS last FROM entries WHERE terminal = $1 AND seq > $2 AND seq <= $3 AND body IS NULL',
          [holder.terminal, holder.after, holder.through],
        )
        if (Number(counted[0].count) === 0) continue
        found.count += Number(counted[0].count)
        found.first = Math.min(found.first, Number(counted[0].first))
        found.last = Math.max(found.last, Number(counted[0].last))
      }
      textless = found.count > 0 ? found : null
    }
    return {
      terminalId,
      shop: row.shop === null ? null : String(row.shop),
      counter: row.counter === null ? null : String(row.counter),
      last,
      lastAt,
      lastContact: (row.last_contact as Date | null) ?? null,
      journalEnd: row.journal_end === undefined || row.journal_end === null ? null : Number(row.journal_end),
      textless,
      archived: await this.archived(terminalId, last.seq),
    }
  }

  /**
   * Every line of `journal` (which `held` read, none of them textless), from the first, in order: its archived ranges'
   * from `archivedLines`, the rest from the office.
   */
  async *lines(journal: HeldJournal, archivedLines: ArchivedLines): AsyncGenerator<HeldLine> {
    for (const holder of await this.holders(journal.terminalId, journal.last.seq)) {
      for (const range of journal.archived.filter((archived) => archived.terminal === holder.terminal && archived.lastSeq > holder.after && archived.firstSeq <= holder.through)) {
        let seq = range.firstSeq
        // A parent's archive may reach past what the terminal shares with it: only the holder's part is this journal's.
        for await (const line of archivedLines(range)) {
          if (seq > holder.after && seq <= holder.through) yield { seq, line }
          seq++
        }
      }
      for (let after = holder.after; after < holder.through; ) {
        // body::text: the driver would parse a json column, and it is its text that is wanted, exactly as kept.
        const { rows } = await this.client.query<{ seq: string; prev: string; hash: string; body: string }>(
          'SELECT seq, prev, hash, body::text AS body FROM entries WHERE terminal = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4',
          [holder.terminal, after, holder.through, PAGE_LINES],
        )
        // Fewer rows than the range holds is a gap: the caller's chain check names the entry missing.
        if (rows.length === 0) break
        for (const row of rows) yield { seq: Number(row.seq), line: journalLine(row.body, row.prev, row.hash) }
        after = Number(rows[rows.length - 1].seq)
      }
    }
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined)
    await this.client.end().catch(() => undefined)
  }

  /** The archived ranges of the rows holding entries 1 to `through`; none before office migration 10. */
  private async archived(terminalId: string, through: number): Promise<ArchivedRange[]> {
    if (!(await this.hasTable('office_archives'))) return []
    const ranges: ArchivedRange[] = []
    for (const holder of await this.holders(terminalId, through)) {
      const { rows } = await this.client.query<{ year: number; first_seq: string; last_seq: string; last_hash: string }>(
        'SELECT year, first_seq, last_seq, last_hash FROM office_archives WHERE terminal = $1 AND last_seq > $2 AND first_seq <= $3 ORDER BY first_seq',
        [holder.terminal, holder.after, holder.through],
      )
      for (const row of rows) ranges.push({ terminal: holder.terminal, year: row.year, firstSeq: Number(row.first_seq), lastSeq: Number(row.last_seq), lastHash: row.last_hash })
    }
    return ranges
  }

  private async hasTable(name: string): Promise<boolean> {
    return (await this.client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name])).rows[0].found
  }

  /**
   * The rows holding entries 1 to `through`, oldest first. A terminal registered anew after a fork holds its entries
   * after parent_through; those up to it are its parent's (held once, office migration 7), and so on up: as held_hash
   * finds them.
   */
  private async holders(terminalId: string, through: number): Promise<Holder[]> {
    const { rows } = await this.client.query<{ terminal: string; after: string; through: string }>(
      `WITH RECURSIVE holders (terminal, parent, after, through) AS (
         SELECT terminal, parent_terminal, parent_through, $2::bigint FROM terminals WHERE terminal = $1
         UNION ALL
         SELECT p.terminal, p.parent_terminal, p.parent_through, h.after
         FROM holders h JOIN terminals p ON p.terminal = h.parent
         WHERE h.after > 0
       )
       SELECT terminal, after, through FROM holders WHERE through > after ORDER BY after`,
      [terminalId, through],
    )
    return rows.map((row) => ({ terminal: row.terminal, after: Number(row.after), through: Number(row.through) }))
  }
}
