// Searching every sale ever made as one list, newest first: the active database, then the archived years, opened one at a time only when needed (a search by number reads their indexes instead).
import type { Database, ParamsObject, SqlJsStatic } from 'sql.js'
import type { HistoryRow, SaleState } from '../contract'
import type { SaleKind } from './events'
import { listArchives, readArchive, type ArchiveFile } from './archive'
import { ARM_SELECT, historyRowFromRow, newestFirst } from './history-rows'
import { readNumberIndex, writeNumberIndex, type NoIndexAnswer } from './number-index'
import { selectAll } from './reads'
import { namesOf, numbersNamedLike } from './customer-reads'

export interface HistoryQuery {
  text?: string
  from?: string
  to?: string
  state?: SaleState
  kind?: SaleKind
  offset: number
  limit: number
  /** Filled by searchHistory, not the caller: the numbers (a JSON array) whose customer name matches a text search. */
  named?: string
}

export interface HistoryPage {
  rows: HistoryRow[]
  total: number
  /** The archives (closed financial years) the search covered. */
  archives: string[]
}

/** Which of a database's rows a query means: `since`/`before` split the active year from the archived ones. */
interface Band {
  since?: string
  before?: string
}

const TEXT_COLUMNS: Record<SaleKind, string[]> = {
  recharge: ['number', 'order_id', 'fpay_id', 'operator_ref'],
  coupon: ['attempt_id', 'order_id', 'vle_id', 'vle_name'],
}

const DIGITS = /^\d+$/

/**
 * What the search text matches. Our order ids, provider references and agents all carry letters,
 * so a run of digits is the start of a mobile number or subscriber id: a range on the number index
 * (']' follows every digit in byte order), not a scan of the year. Other text matches any part of
 * any of the sale's names, without regard to case.
 */
function textCondition(kind: SaleKind, text: string): string {
  if (DIGITS.test(text)) return kind === 'recharge' ? '(number >= :digits AND number < :digitsEnd)' : `(${TEXT_COLUMNS.coupon.map((column) => `instr(${column}, :digits) > 0`).join(' OR ')})`
  // A customer's name lives in the active books only (archives hold sales): its numbers are bound, so archived years match too.
  const named = kind === 'recharge' ? ' OR number IN (SELECT value FROM json_each(:named))' : ''
  return `(${TEXT_COLUMNS[kind].map((column) => `${column} LIKE :text ESCAPE '\\'`).join(' OR ')}${named})`
}

const digitsEnd = (digits: string): string => `${digits}]`

/** TEXT_COLUMNS.coupon under the names ARM_SELECT gives them. */
const COUPON_ARM_TEXT = ['id', 'reference', 'a', 'b']

/**
 * armWhere's conditions for a digit search, on a row of ARM_SELECT's columns read from an archive's
 * index of numbers (no band: an archive holds its own year only). Kept beside textCondition: the
 * two must say the same.
 */
function indexRowMatches(row: ParamsObject, query: HistoryQuery, digits: string): boolean {
  const text =
    row.kind === 'recharge'
      ? String(row.a) >= digits && String(row.a) < digitsEnd(digits)
      : COUPON_ARM_TEXT.some((column) => row[column] !== null && String(row[column]).includes(digits))
  const day = String(row.business_day)
  return text && (!query.state || row.state === query.state) && (!query.from || day >= query.from) && (!query.to || day <= query.to)
}

function armWhere(kind: SaleKind, query: HistoryQuery, band: Band): string {
  const conditions = [
    query.state && 'state = :state',
    query.from && 'business_day >= :from',
    query.to && 'business_day <= :to',
    band.since && 'business_day >= :since',
    band.before && 'business_day < :before',
    query.text && textCondition(kind, query.text),
  ].filter(Boolean)
  return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''
}

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (special) => `\\${special}`)}%`

function bindings(query: HistoryQuery, band: Band): ParamsObject {
  const text = query.text ? likePattern(query.text) : null
  return {
    ':state': query.state ?? null,
    ':from': query.from ?? null,
    ':to': query.to ?? null,
    ':since': band.since ?? null,
    ':before': band.before ?? null,
    ':text': text,
    ':digits': query.text ?? null,
    ':digitsEnd': query.text ? digitsEnd(query.text) : null,
    ':named': query.named ?? '[]',
  }
}

const kindsOf = (query: HistoryQuery): SaleKind[] => (query.kind ? [query.kind] : ['recharge', 'coupon'])

function countRows(db: Database, query: HistoryQuery, band: Band): number {
  const counts = kindsOf(query).map((kind) => `(SELECT count(*) FROM ${kind === 'recharge' ? 'sales' : 'coupon_sales'}${armWhere(kind, query, band)})`)
  return Number(db.exec(`SELECT ${counts.join(' + ')}`, bindings(query, band))[0].values[0][0])
}

/**
 * The rows from `offset` on, newest first; with `counted`, each also carries how many rows match in
 * all (a text search reads every row anyway, so it counts in the same pass).
 */
function selectRows(db: Database, query: HistoryQuery, band: Band, offset: number, limit: number, counted = false): { row: HistoryRow; total: number }[] {
  const arms = kindsOf(query).map((kind) => ARM_SELECT[kind] + armWhere(kind, query, band)).join(' UNION ALL ')
  const sql = counted
    ? `SELECT *, count(*) OVER () AS total FROM (${arms}) ORDER BY at DESC, id DESC LIMIT :limit OFFSET :offset`
    : `${arms} ORDER BY at DESC, id DESC LIMIT :limit OFFSET :offset`
  return selectAll(db, sql, { ...bindings(query, band), ':limit': limit, ':offset': offset }, (row) => ({ row: historyRowFromRow(row), total: Number(row.total) }))
}

/** Every matching row, sorted here: without an ORDER BY, SQLite finds a few rows by day instead of walking all by time. */
function selectFew(db: Database, query: HistoryQuery, band: Band): HistoryRow[] {
  const arms = kindsOf(query).map((kind) => ARM_SELECT[kind] + armWhere(kind, query, band)).join(' UNION ALL ')
  return selectAll(db, arms, bindings(query, band), historyRowFromRow).sort(newestFirst)
}

/** One page and the number of rows matching in all: in one pass for a text search, else a count by index and the page. */
function pageOf(db: Database, query: HistoryQuery, band: Band, offset: number, limit: number): { rows: HistoryRow[]; total: number } {
  if (query.text) {
    const found = selectRows(db, query, band, offset, limit, true)
    if (found.length > 0) return { rows: found.map(({ row }) => row), total: found[0].total }
  }
  const total = countRows(db, query, band)
  const rows = offset < total && !query.text ? selectRows(db, query, band, offset, limit).map(({ row }) => row) : []
  return { rows, total }
}

/** Counts are small; the cap only keeps a long-running app's searches from piling up. */
const MAX_CACHED_COUNTS = 1000

const lastDayOf = (archive: ArchiveFile): string => `${archive.end.slice(0, 4)}-03-31`

const digitSearch = (query: HistoryQuery): query is HistoryQuery & { text: string } => query.text !== undefined && DIGITS.test(query.text)

/**
 * A digit search's rows in `archive`, newest first, served by the archive's index of numbers
 * (number-index.ts) without opening the archive; else why the archive must answer.
 */
function indexedRows(dir: string, archive: ArchiveFile, query: HistoryQuery & { text: string }): HistoryRow[] | NoIndexAnswer {
  const candidates = readNumberIndex(dir, archive, query.text, digitsEnd(query.text), kindsOf(query))
  return Array.isArray(candidates) ? candidates.filter((row) => indexRowMatches(row, query, query.text)).map(historyRowFromRow).sort(newestFirst) : candidates
}

/**
 * Builds `archive`'s index of numbers from the archive a digit search had to open: an archive of an
 * older Counter (which wrote none) or one whose index failed its check. Decision: the cost lands on
 * that first search, once per archive, not on start-up (measured at 1M sales on a busy 2-core
 * machine: 3 s a year, 13 s for four; archiving pays the same for each year it writes). A write
 * that fails (a full disk) costs only speed: this search answers from the archive, and the next
 * one tries again.
 */
function rebuildIndex(dir: string, archiveDb: Database, archive: ArchiveFile): void {
  try {
    writeNumberIndex(dir, archiveDb, archive)
  } catch {
    // See above: the index is derived from the archive, which still answers.
  }
}

/**
 * Searches `db` and the archives in `dir`. The active year's rows come first; the older rows still
 * in `db` (sales waiting for an answer) are merged into the archived years by time. Archives are
 * counted from the counts kept at archiving when the query asks for whole years, else opened
 * (and their counts remembered in `countCache`, keyed by file version and query). A search by
 * digits reads each archive's index of numbers instead, and builds a missing or untrusted one
 * when `mayWriteIndex` (not while the ledger is read-only: its files stay as found).
 */
export function searchHistory(SQL: SqlJsStatic, db: Database, dir: string, query: HistoryQuery, countCache: Map<string, number>, mayWriteIndex: boolean): HistoryPage {
  const named = query.text && !DIGITS.test(query.text) ? numbersNamedLike(db, likePattern(query.text)) : undefined
  const page = searchAll(SQL, db, dir, { ...query, named }, countCache, mayWriteIndex)
  const names = namesOf(db, [...new Set(page.rows.filter((row) => row.kind === 'recharge').map((row) => row.label))])
  for (const row of page.rows) if (row.kind === 'recharge') row.customerName = names.get(row.label) ?? null
  return page
}

function searchAll(SQL: SqlJsStatic, db: Database, dir: string, query: HistoryQuery, countCache: Map<string, number>, mayWriteIndex: boolean): HistoryPage {
  const all = listArchives(dir)
  const archives = all.filter((archive) => (!query.from || query.from < archive.end) && (!query.to || query.to >= archive.start))
  const active: Band = all.length > 0 ? { since: all[0].end } : {}
  const { offset, limit } = query
  const { rows, total: activeCount } = pageOf(db, query, active, offset, limit)
  if (all.length === 0) return { rows, total: activeCount, archives: [] }

  const leftovers = selectFew(db, query, { before: all[0].end })
  // Positions wanted in the older part of the list; with leftovers to merge in, it is read from its top.
  const wantedStart = Math.max(0, offset - activeCount)
  const wantedEnd = offset + limit - activeCount
  const readFrom = leftovers.length > 0 ? 0 : wantedStart
  const older: HistoryRow[] = []
  let first = 0
  for (const archive of archives) {
    const wanted = (known: number) => ({ from: Math.max(readFrom, first), to: Math.min(wantedEnd, first + known) })
    const indexed = digitSearch(query) ? indexedRows(dir, archive, query) : null
    if (Array.isArray(indexed)) {
      const { from, to } = wanted(indexed.length)
      if (from < to) older.push(...indexed.slice(from - first, to - first))
      first += indexed.length
      continue
    }
    const cacheKey = `${archive.file}|${archive.bytes}|${archive.modifiedMs}|${JSON.stringify({ ...query, offset: 0, limit: 0 })}`
    let count = keptCount(db, archive, query) ?? countCache.get(cacheKey) ?? null
    if (count === null || wanted(count).from < wanted(count).to) {
      readArchive(SQL, archive.file, (archiveDb) => {
        if (indexed === 'untrusted' && mayWriteIndex) rebuildIndex(dir, archiveDb, archive)
        count ??= countRows(archiveDb, query, {})
        if (countCache.size >= MAX_CACHED_COUNTS) countCache.clear()
        countCache.set(cacheKey, count)
        const { from, to } = wanted(count)
        if (from < to) older.push(...selectRows(archiveDb, query, {}, from - first, to - from).map(({ row }) => row))
      })
    }
    first += count!
  }
  const page = leftovers.length > 0 ? [...older, ...leftovers].sort(newestFirst).slice(wantedStart, Math.max(wantedStart, wantedEnd)) : older
  rows.push(...page)
  return { rows, total: activeCount + leftovers.length + first, archives: archives.map((archive) => archive.name) }
}

/** An archive's count from what archiving recorded, when the query covers whole years and the file is unchanged. */
function keptCount(db: Database, archive: ArchiveFile, query: HistoryQuery): number | null {
  const wholeYear = !query.text && (!query.from || query.from <= archive.start) && (!query.to || query.to >= lastDayOf(archive))
  if (!wholeYear) return null
  const kept = db.exec(
    `SELECT max(archive_bytes), sum(CASE WHEN (:kind IS NULL OR kind = :kind) AND (:state IS NULL OR state = :state) THEN row_count ELSE 0 END)
     FROM archive_counts WHERE archive = :archive`,
    { ':archive': archive.name, ':kind': query.kind ?? null, ':state': query.state ?? null },
  )[0]?.values[0]
  return kept && Number(kept[0]) === archive.bytes ? Number(kept[1]) : null
}
