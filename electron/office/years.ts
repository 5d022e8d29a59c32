// The owner's closed years: a year's entries exported to a verified file (`npm run office -- export-year`), and dropped from the office against that file (`drop-year`), the page's figures kept.
import type { ClientBase } from 'pg'
import { journalLine } from '../ledger/journal-copy'
import { GENESIS_HASH } from '../ledger/segments'
import { ARCHIVES_MIGRATION } from './archives'
import { progressTeller, rangeEntries, readYearFile, writeYearFile, type YearHeader, type YearRange } from './year-file'

/** A year could not be exported or dropped; nothing was changed (an export leaves no file). */
export class YearRefusal extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'YearRefusal'
  }
}

export interface YearOptions {
  year: number
  /** The office's time zone (COUNTER_OFFICE_TIME_ZONE): a line with no business day of its own is in the year its time falls in there. */
  timeZone: string
  file: string
  /** Told now and then on slow work: what is being done, and how far. */
  progress?: (words: string) => void
}

export interface YearDone {
  year: number
  file: string
  sha256: string
  terminals: YearRange[]
  entries: number
}

/** Lines read from the office at a time: about a megabyte. */
const PAGE_LINES = 2_000

/**
 * Each terminal's range of `year` as the office holds it now: its lines after what is already archived (or shared with
 * the terminal it was registered anew from), through the last line of the year. Decision: a line is in the year of its
 * business day where it has one (a sale's intent, a day close), as the roll-ups file it, else of its time in the
 * office's time zone; the range is every line up to the year's last, so a line of the new year written before the
 * old year's last (a late close) goes with it, and the chain stays one piece. A terminal's last line is never
 * archived: the next batch it ships links to it. `after` is where the range starts; `through` < `after`+1: nothing to archive.
 */
const RANGES_SQL = `
  WITH held AS (
    SELECT t.terminal, t.last_seq, t.journal_end,
           GREATEST(t.parent_through, COALESCE((SELECT max(a.last_seq) FROM office_archives a WHERE a.terminal = t.terminal), 0)) AS after
    FROM terminals t
  ), ranges AS (
    SELECT h.*,
           -- COALESCE: LEAST passes over a NULL, and a terminal with no line of the year would seem to have them all.
           LEAST(h.last_seq - 1, COALESCE((SELECT max(e.seq) FROM entries e WHERE e.terminal = h.terminal AND e.seq > h.after
             AND COALESCE((e.data->>'businessDay')::date, (e.at AT TIME ZONE $2)::date) < make_date($1 + 1, 1, 1)), h.after)) AS through
    FROM held h
  )
  SELECT r.terminal, r.after, r.through, r.last_seq, r.journal_end,
         (SELECT COALESCE((e.data->>'businessDay')::date, (e.at AT TIME ZONE $2)::date)::text FROM entries e WHERE e.terminal = r.terminal ORDER BY e.seq DESC LIMIT 1) AS last_day,
         (SELECT COALESCE((e.data->>'businessDay')::date, (e.at AT TIME ZONE $2)::date)::text FROM entries e WHERE e.terminal = r.terminal AND e.seq = r.after + 1) AS first_day,
         CASE WHEN r.after = 0 THEN '${GENESIS_HASH}' ELSE held_hash(r.terminal, r.after) END AS first_prev,
         (SELECT count(*) FROM entries e WHERE e.terminal = r.terminal AND e.seq > r.after AND e.seq <= r.through) AS held,
         (SELECT count(*) FROM entries e WHERE e.terminal = r.terminal AND e.seq > r.after AND e.seq <= r.through AND e.body IS NULL) AS textless
  FROM ranges r ORDER BY r.terminal`

interface OfficeRange extends YearRange {
  held: number
  textless: number
}

/** What the office holds of `year`, refused in words where it cannot be archived whole: the year not over, a counter still sending it, a gap, lines without their text. */
async function officeRanges(client: ClientBase, year: number, timeZone: string): Promise<OfficeRange[]> {
  const dropped = (await client.query<{ at: Date }>('SELECT min(archived_at) AS at FROM office_archives WHERE year = $1', [year])).rows[0].at
  if (dropped) throw new YearRefusal(`${year} was already dropped from the office on ${dropped.toISOString().slice(0, 10)}: its entries are in the file exported then.`)
  type Row = { terminal: string; after: string; through: string | null; last_seq: string; journal_end: string | null; last_day: string | null; first_day: string | null; first_prev: string | null; held: string; textless: string }
  const droppedYears = new Set((await client.query<{ year: number }>('SELECT DISTINCT year FROM office_archives')).rows.map((row) => row.year))
  const { rows } = await client.query<Row>(RANGES_SQL, [year, timeZone])
  const ranges: OfficeRange[] = []
  for (const row of rows) {
    const [after, lastSeq, journalEnd] = [Number(row.after), Number(row.last_seq), row.journal_end === null ? null : Number(row.journal_end)]
    const yearOver = row.last_day !== null && row.last_day >= `${year + 1}-01-01`
    if (journalEnd !== null && journalEnd > lastSeq && !yearOver) {
      throw new YearRefusal(
        `${row.terminal} has ${journalEnd - lastSeq} entries the office does not hold yet, and its last one here is of ${row.last_day ?? 'no day'}: some of ${year} may still be on its way. Wait until the page shows it caught up (or rebuild it, if its PC is gone), then try again.`,
      )
    }
    if (row.through === null || Number(row.through) <= after) continue
    // Years in order: a year's file would otherwise carry an earlier year's lines under its name. A year already
    // dropped is not waited for: its lines that arrived late (a counter long offline) go with the next year's.
    const firstYear = Number(row.first_day?.slice(0, 4) ?? year)
    if (firstYear < year && !droppedYears.has(firstYear)) {
      throw new YearRefusal(`The office still holds ${row.terminal}'s lines of ${firstYear} (from #${after + 1}): export and drop ${firstYear} first, then ${year}.`)
    }
    if (row.first_prev === null) throw new YearRefusal(`The office holds neither entry #${after} of ${row.terminal} nor its hash: its chain cannot be followed into ${year}. The page's tamper check shows what is missing.`)
    const range = { terminal: row.terminal, firstSeq: after + 1, lastSeq: Number(row.through), firstPrev: row.first_prev, lastHash: '', held: Number(row.held), textless: Number(row.textless) }
    if (range.held !== rangeEntries(range)) {
      throw new YearRefusal(`The office holds ${range.held} of entries #${range.firstSeq} to #${range.lastSeq} of ${row.terminal}, not all ${rangeEntries(range)}: lines are missing. The page's tamper check names them; nothing can be archived until they are explained.`)
    }
    if (range.textless > 0) {
      throw new YearRefusal(`${range.textless} entries of ${row.terminal} in ${year} reached the office before it kept each line's text (office migration 8): they cannot be written out as the counter hashed them, so ${year} cannot be archived.`)
    }
    range.lastHash = (await client.query<{ hash: string }>('SELECT hash FROM entries WHERE terminal = $1 AND seq = $2', [row.terminal, range.lastSeq])).rows[0].hash
    ranges.push(range)
  }
  if (ranges.length === 0) throw new YearRefusal(`The office holds no entries of ${year} that are not archived yet: there is nothing to export or drop.`)
  return ranges
}

/** Only a year over in the office's time zone: a counter may still write lines of the current one. */
async function requireClosed(client: ClientBase, year: number, timeZone: string): Promise<void> {
  const current = Number((await client.query<{ year: number }>('SELECT extract(year FROM now() AT TIME ZONE $1)::int AS year', [timeZone])).rows[0].year)
  if (year >= current) throw new YearRefusal(`${year} is not over yet in ${timeZone} (it is ${current} there): only a closed year is exported or dropped, one before ${current}. Nothing was done.`)
}

async function requireArchives(client: ClientBase): Promise<void> {
  const known = (await client.query<{ known: boolean }>("SELECT to_regclass('office_archives') IS NOT NULL AS known")).rows[0].known
  if (!known) throw new YearRefusal(`The office is not upgraded to migration ${ARCHIVES_MIGRATION.version} yet: run npm run office -- roles with the owner's login first.`)
}

/** Every line of `ranges`, in order, as the counter's journal holds it; `count` told after each. */
async function* officeLines(client: ClientBase, ranges: readonly YearRange[], count: () => void): AsyncGenerator<string> {
  for (const range of ranges) {
    let expected = range.firstSeq
    while (expected <= range.lastSeq) {
      const { rows } = await client.query<{ seq: string; prev: string; hash: string; body: string }>(
        'SELECT seq, prev, hash, body::text AS body FROM entries WHERE terminal = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq LIMIT $4',
        [range.terminal, expected, range.lastSeq, PAGE_LINES],
      )
      for (const row of rows) {
        if (Number(row.seq) !== expected) throw new YearRefusal(`Entry #${expected} of ${range.terminal} went missing from the office during the export. Nothing was exported.`)
        yield journalLine(row.body, row.prev, row.hash)
        expected++
        count()
      }
    }
  }
}

/**
 * Writes every entry of the closed `year` to `file` (year-file.ts), in one read-only snapshot, then reads the file
 * back and verifies it (every line's hash and link, each terminal's count and last hash against the office's) before
 * it says done. Needs only to read: the page's login will do.
 */
export async function exportYear(client: ClientBase, options: YearOptions): Promise<YearDone> {
  const { year, timeZone, file, progress } = options
  await requireArchives(client)
  await requireClosed(client, year, timeZone)
  let ranges: OfficeRange[]
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  try {
    ranges = await officeRanges(client, year, timeZone)
    const total = ranges.reduce((sum, range) => sum + rangeEntries(range), 0)
    const header: YearHeader = {
      format: 'counter-office-year',
      version: 1,
      year,
      timeZone,
      exportedAt: new Date().toISOString(),
      terminals: ranges.map(({ terminal, firstSeq, lastSeq, firstPrev, lastHash }) => ({ terminal, firstSeq, lastSeq, firstPrev, lastHash })),
    }
    let written = 0
    const tell = progressTeller((done) => progress?.(`${year}: ${done.toLocaleString('en-IN')} of ${total.toLocaleString('en-IN')} entries written`))
    await writeYearFile(file, header, officeLines(client, header.terminals, () => tell(++written)))
  } finally {
    await client.query('ROLLBACK').catch(() => undefined)
  }
  const verified = await readYearFile(file, (done) => progress?.(`${year}: ${done.toLocaleString('en-IN')} entries read back and verified`))
  const same = verified.header.terminals.length === ranges.length && ranges.every((range, i) => sameRange(range, verified.header.terminals[i]))
  if (!same) throw new YearRefusal(`${file} was written but does not read back as what the office holds of ${year}: the disk may be failing. Do not drop ${year} with it; export it again to another disk.`)
  return { year, file, sha256: verified.sha256, terminals: verified.header.terminals, entries: ranges.reduce((sum, range) => sum + rangeEntries(range), 0) }
}

const sameRange = (a: YearRange, b: YearRange) => a.terminal === b.terminal && a.firstSeq === b.firstSeq && a.lastSeq === b.lastSeq && a.firstPrev === b.firstPrev && a.lastHash === b.lastHash

/** Only a login that may delete entries and write archives (the office's owner); the counters' and the page's may not. */
async function requireOwner(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ may: boolean; user: string }>(
    "SELECT has_table_privilege('entries', 'DELETE') AND has_table_privilege('office_archives', 'INSERT') AND has_function_privilege('office_archive_fold(text, bigint)', 'EXECUTE') AS may, current_user AS user",
  )
  if (!rows[0].may) throw new YearRefusal(`${rows[0].user} may not drop entries from the office: run drop-year with the login that owns the office (the one npm run office -- roles takes). Nothing was dropped.`)
}

/**
 * Drops `year`'s entries from the office, once `file` verifies as an export of exactly what the office holds of it
 * (the same terminals, ranges and every line's hash): in one transaction, with every terminal's row locked so no batch
 * lands meanwhile. Each terminal's archive (range, hashes, the file's sha256) is recorded and its lines folded into the
 * archived roll-ups before its rows go, so the page's figures for those days stay as they were (archives.ts).
 */
export async function dropYear(client: ClientBase, options: YearOptions): Promise<YearDone> {
  const { year, timeZone, file, progress } = options
  await requireArchives(client)
  await requireClosed(client, year, timeZone)
  await requireOwner(client)
  const verified = await readYearFile(file, (done) => progress?.(`${file}: ${done.toLocaleString('en-IN')} entries verified`))
  if (verified.header.year !== year) throw new YearRefusal(`${file} is the export of ${verified.header.year}, not ${year}: give ${year}'s export. Nothing was dropped.`)
  await client.query('BEGIN')
  try {
    await client.query('SELECT terminal FROM terminals ORDER BY terminal FOR UPDATE')
    const ranges = await officeRanges(client, year, timeZone)
    const inFile = new Map(verified.header.terminals.map((range) => [range.terminal, range]))
    for (const range of ranges) {
      const exported = inFile.get(range.terminal)
      if (!exported) throw new YearRefusal(`${file} holds no lines of ${range.terminal}, and the office holds its #${range.firstSeq} to #${range.lastSeq} of ${year}: export ${year} again and drop it with the new file. Nothing was dropped.`)
      if (!sameRange(range, exported)) {
        throw new YearRefusal(
          `${file} holds #${exported.firstSeq} to #${exported.lastSeq} of ${range.terminal}, and the office now holds #${range.firstSeq} to #${range.lastSeq} of ${year} (lines that arrived since the export, or another export): export ${year} again and drop it with the new file. Nothing was dropped.`,
        )
      }
      inFile.delete(range.terminal)
    }
    const extra = [...inFile.keys()]
    if (extra.length > 0) throw new YearRefusal(`${file} holds lines of ${extra.join(', ')} that the office does not hold as ${year}'s: it is not an export of this office's ${year}. Nothing was dropped.`)
    let dropped = 0
    for (const range of ranges) {
      const hashes = verified.hashes.get(range.terminal)!
      const same = await client.query<{ same: boolean }>(
        "SELECT string_agg(decode(hash, 'hex'), ''::bytea ORDER BY seq) = $4::bytea AS same FROM entries WHERE terminal = $1 AND seq BETWEEN $2 AND $3",
        [range.terminal, range.firstSeq, range.lastSeq, hashes],
      )
      if (!same.rows[0].same) throw new YearRefusal(`A line of ${range.terminal} in ${file} differs from the office's: it is not an export of this office's ${year}. Nothing was dropped.`)
      progress?.(`${year}: dropping ${range.terminal}'s #${range.firstSeq} to #${range.lastSeq}`)
      await client.query('SELECT office_archive_fold($1, $2)', [range.terminal, range.lastSeq])
      await client.query(
        'INSERT INTO office_archives (terminal, year, first_seq, last_seq, first_prev, last_hash, hashes, file_sha256) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [range.terminal, year, range.firstSeq, range.lastSeq, range.firstPrev, range.lastHash, hashes, verified.sha256],
      )
      dropped += (await client.query('DELETE FROM entries WHERE terminal = $1 AND seq BETWEEN $2 AND $3', [range.terminal, range.firstSeq, range.lastSeq])).rowCount ?? 0
    }
    await client.query('COMMIT')
    return { year, file, sha256: verified.sha256, terminals: ranges, entries: dropped }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}
