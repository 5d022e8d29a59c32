// The one CSV writer every export uses (History, the Z report): RFC 4180 quoting, with text cells
// defused against spreadsheet formulas. A leaf module: it imports nothing of ours.

/** A number written as it is: signed amounts ("-3.00") must reach the spreadsheet as numbers, not text. */
export interface CsvNumber {
  readonly number: string
}

/** A cell: text (defused) or a number (as written). */
export type CsvCell = string | CsvNumber

export const csvNumber = (value: number | string): CsvNumber => ({ number: String(value) })

/**
 * Spreadsheets run a cell starting with = + - @ (or a tab or carriage return before them) as a
 * formula. Text from outside (provider references, notes, names) gets a leading apostrophe, which
 * the spreadsheet shows as plain text. Numbers are never defused: csv-stringify and papaparse
 * quote "-3" too, which turns every shortfall into text (LIBRARIES.md, "CSV").
 */
export function defuseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

function quoted(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field
}

function written(cell: CsvCell): string {
  return quoted(typeof cell === 'string' ? defuseFormula(cell) : cell.number)
}

/** Rows as one CSV document, CRLF after every row (an empty row is a blank line). */
export function csvDocument(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(written).join(',') + '\r\n').join('')
}
