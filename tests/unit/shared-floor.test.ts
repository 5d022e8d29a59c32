// The shared bottom floor: the one CSV writer (formula defusing in text only) and the one date/time formatter.
import { describe, expect, it } from 'vitest'
import { csvDocument, csvNumber, defuseFormula } from '../../electron/shared/csv'
import { formatDate, formatDateTime, formatDay, formatExportTime, formatTime, readDay } from '../../electron/shared/dates'

describe('csvDocument', () => {
  it('defuses every formula-leading text cell and leaves others alone', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(defuseFormula(`${lead}1+1`)).toBe(`'${lead}1+1`)
    expect(defuseFormula('UTR 1234')).toBe('UTR 1234')
    expect(defuseFormula('')).toBe('')
  })

  it('keeps signed amounts numbers, quotes per RFC 4180 and ends rows with CRLF', () => {
    const csv = csvDocument([['=cmd|" /C calc"!A0', csvNumber('-3.00'), csvNumber(12)], [], ['a,b', 'say "hi"', 'two\nlines']])
    expect(csv).toBe(`"'=cmd|"" /C calc""!A0",-3.00,12\r\n\r\n"a,b","say ""hi""","two\nlines"\r\n`)
  })
})

describe('dates', () => {
  const at = '2025-03-04T09:05:07Z' // 14:35:07 in Asia/Kolkata
  const india = { timeZone: 'Asia/Kolkata' }

  it('writes DD-MM-YYYY and the shop clock, 24- or 12-hour', () => {
    expect(formatDate(at, india)).toBe('04-03-2025')
    expect(formatTime(at, india)).toBe('14:35')
    expect(formatTime(at, { ...india, clock: '12h' })).toBe('2:35 pm')
    expect(formatDateTime(at, { ...india, clock: '12h' }, { seconds: true })).toBe('04-03-2025 2:35:07 pm')
    expect(formatDateTime('2025-03-03T18:40:00Z', { ...india, clock: '12h' })).toBe('04-03-2025 12:10 am')
    expect(formatExportTime(at, 'Asia/Kolkata')).toBe('04-03-2025 14:35:07')
  })

  it('gives nothing for text that is not a time, and survives an unknown zone', () => {
    expect(formatDateTime('not a time', india)).toBe('')
    expect(formatDate(at, { timeZone: 'Mars/Olympus' })).toMatch(/^\d\d-\d\d-2025$/)
  })

  it('reads and writes days as staff type them', () => {
    expect(formatDay('2025-03-04')).toBe('04-03-2025')
    // The PAN provider's own order date reads as every other day on the screens and the receipt.
    expect(formatDay('27-Nov-2026')).toBe('27-11-2026')
    expect(formatDay('4-mar-2025')).toBe('04-03-2025')
    expect(formatDay('27-Noz-2026')).toBe('27-Noz-2026')
    expect(readDay('04-03-2025')).toBe('2025-03-04')
    expect(readDay(' 4/3/2025 ')).toBe('2025-03-04')
    expect(readDay('31-02-2025')).toBeNull()
    expect(readDay('2025-03-04')).toBeNull()
    expect(readDay('03-04')).toBeNull()
  })
})
