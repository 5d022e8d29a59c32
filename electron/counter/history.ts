// The history screen's reads: searching every sale ever made (archived years too), and the same
// search exported as a CSV file (the shared writer: provider text defused, amounts left numbers).
import type { HandlersFor, HistoryRow, ParsedInput } from '../contract'
import type { CounterContext } from './context'
import { csvDocument, csvNumber, type CsvCell } from '../shared/csv'
import { formatDay, formatExportTime } from '../shared/dates'
import { CounterError } from './errors'
import type { SaleReads } from './held-answers'
import { earnedOnce } from '../shared/margin'
import { paiseToDecimal } from '../shared/money'
import { type Language, paperWords, say } from '../shared/words'

/** Beyond this an export is a backup's job, not a spreadsheet's: the filename says when it was cut. */
const EXPORT_MAX_ROWS = 200_000
const EXPORT_PAGE_ROWS = 5_000


/** Earned only on SUCCESS (0 on FAILED, blank while unresolved or for a sale from before margins were kept). */
const earnedCell = (state: string, paise: number | null): CsvCell => {
  const earned = earnedOnce(state, paise)
  return earned === null ? '' : csvNumber(paiseToDecimal(earned))
}

type Query = ParsedInput<'history.search'>

function checkedRange(query: Query): Query {
  if (query.from && query.to && query.from > query.to) {
    throw new CounterError('invalid_input', say('history.endBeforeStart'), { to: say('history.endBeforeStartField') })
  }
  return query
}

/** Times in the shop's zone, as every export writes them (electron/shared/dates.ts); headings in the receipt language. */
export function historyCsv(rows: readonly HistoryRow[], timeZone: string, language?: Language): string {
  const w = paperWords(language).history
  const heading = [w.kind, w.id, w.time, w.businessDay, w.numberOrAgent, w.detail, w.amount, w.status, w.reference, w.margin, w.serviceCharge]
  const records = rows.map((row) => [
    row.kind,
    row.id,
    formatExportTime(row.at, timeZone),
    formatDay(row.businessDay),
    row.label,
    row.detail,
    row.amountPaise === null ? '' : csvNumber(paiseToDecimal(row.amountPaise)),
    row.state,
    row.reference ?? '',
    earnedCell(row.state, row.marginPaise),
    earnedCell(row.state, row.serviceChargePaise),
  ])
  return csvDocument([heading, ...records])
}

/**
 * The CSV of every sale the filters match, read page by page up to `maxRows` (the filename then
 * says how many of how many). Named by the days asked for, else by the days the rows span.
 * Run it where no sale is written between its pages (the handler below: one section, serial.ts).
 */
export async function historyExport(
  sales: Pick<SaleReads, 'historySearch'>,
  filters: Query,
  today: string,
  timeZone: string,
  { maxRows = EXPORT_MAX_ROWS, pageRows = EXPORT_PAGE_ROWS, language }: { maxRows?: number; pageRows?: number; language?: Language } = {},
): Promise<{ content: string; filename: string }> {
  const rows: HistoryRow[] = []
  let total = 0
  do {
    const page = await sales.historySearch({ ...filters, offset: rows.length, limit: Math.min(pageRows, maxRows - rows.length) })
    total = page.total
    if (page.rows.length === 0) break
    rows.push(...page.rows)
  } while (rows.length < Math.min(total, maxRows))

  let earliest = today
  let latest = today
  for (const { businessDay } of rows) {
    if (businessDay < earliest) earliest = businessDay
    if (businessDay > latest) latest = businessDay
  }
  const cut = rows.length < total ? `-first-${rows.length}-of-${total}` : ''
  return { content: historyCsv(rows, timeZone, language), filename: `history-${filters.from ?? earliest}-${filters.to ?? latest}${cut}.csv` }
}

export function historyHandlers(ctx: CounterContext): HandlersFor<'history.search' | 'history.exportCsv'> {
  return {
    async 'history.search'(query) {
      return ctx.answers.reads(ctx.session()).historySearch(checkedRange(query))
    },

    async 'history.exportCsv'(query) {
      const filters = checkedRange(query)
      // Decision: the pages are read as one section, so a sale booked or settled meanwhile cannot shift
      // them (a row twice, or one missed). Sales wait for the export meanwhile; it is the owner's
      // occasional job and at most EXPORT_MAX_ROWS rows.
      const { timezone, receiptLanguage } = ctx.settings.current
      return ctx.serial(() => historyExport(ctx.answers.reads(ctx.session()), filters, ctx.businessDay(ctx.now()), timezone, { language: receiptLanguage }))
    },
  }
}
