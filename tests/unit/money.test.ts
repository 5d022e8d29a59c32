// Money parsing and formatting: exact paise, never a float, every odd string refused.
import { describe, expect, it } from 'vitest'
import { formatPaise, MoneyFormatError, paiseToDecimal, parseRupees, readRupeesInput, tryParseRupees } from '../../electron/shared/money'
import { english } from '../../electron/shared/words'

describe('parseRupees', () => {
  it.each([
    ['107', 10700],
    ['107.5', 10750],
    ['107.50', 10750],
    ['0.01', 1],
    ['0', 0],
    [' 199 ', 19900],
    ['5000.00', 500000],
    ['-3.05', -305],
    ['1234567890123.99', 123456789012399],
  ])('%s is %d paise', (text, paise) => {
    expect(parseRupees(text)).toBe(paise)
  })

  it('is exact where floats are not (0.29 * 100 = 28.999999999999996)', () => {
    expect(parseRupees('0.29')).toBe(29)
    expect(parseRupees('1.15')).toBe(115)
    expect(parseRupees('4.35')).toBe(435)
  })

  it.each(['', '1.234', '1,000', '1e3', '₹100', 'abc', '.5', '5.', '--1', '0x10', 'NaN', 'Infinity', '12345678901234'])(
    'refuses %j',
    (text) => {
      expect(() => parseRupees(text)).toThrow(MoneyFormatError)
      expect(tryParseRupees(text)).toBeNull()
    },
  )
})

describe('paiseToDecimal', () => {
  it.each([
    [19900, '199'],
    [19950, '199.50'],
    [19905, '199.05'],
    [1, '0.01'],
    [0, '0'],
    [-305, '-3.05'],
  ])('%d paise is %s', (paise, text) => {
    expect(paiseToDecimal(paise)).toBe(text)
    expect(parseRupees(text)).toBe(paise)
  })

  it('refuses a fraction of a paisa', () => {
    expect(() => paiseToDecimal(10.5)).toThrow(RangeError)
  })
})

describe('formatPaise', () => {
  it('uses rupees with Indian digit grouping', () => {
    expect(formatPaise(123456789)).toBe('₹12,34,567.89')
    expect(formatPaise(19900)).toBe('₹199.00')
    expect(formatPaise(5)).toBe('₹0.05')
  })
})

describe('readRupeesInput (amounts as typed at the counter)', () => {
  it.each([
    ['1,999', 1_999_00],
    ['1,00,000', 1_00_000_00],
    ['10,00,000.50', 10_00_000_50],
    ['100,000', 1_00_000_00],
    [' 199.5 ', 199_50],
    ['0', 0],
  ])('%j is %d paise', (text, paise) => {
    expect(readRupeesInput(text)).toEqual({ paise })
  })

  it.each([
    ['', 'Enter an amount'],
    ['-10', 'Amount must be more than ₹0'],
    ['₹199', 'Amount may have only digits, commas and a dot, like 1,999 or 199.50'],
    ['1 999', 'Amount may have only digits, commas and a dot, like 1,999 or 199.50'],
    ['199,50', 'Use a dot for paise, like 199.50 (commas only group digits, like 1,999)'],
    ['1,0000', 'Commas must group digits as in 1,999 or 1,00,000: check where they go'],
    ['1,00,00', 'Commas must group digits as in 1,999 or 1,00,000: check where they go'],
    [',500', 'Amount must start with a digit, like 1,999 or 199.50'],
    ['1.2.3', 'Amount may have only one dot, before the paise, like 1,999 or 199.50'],
    ['1,999.5,0', 'Commas go before the dot, like 1,999.50'],
    ['10.123', 'Paise take 1 or 2 digits after the dot, like 199.50'],
    ['5.', 'Paise take 1 or 2 digits after the dot, like 199.50'],
    ['12345678901234', 'Amount is far too large: check the digits'],
  ])('refuses %j: %s', (text, problem) => {
    expect(english(readRupeesInput(text).problem!)).toEqual(problem)
  })
})
