// Money parsing and formatting: exact paise, never a float, every odd string refused.
import { describe, expect, it } from 'vitest'
import { formatPaise, MoneyFormatError, paiseToDecimal, parseRupees, tryParseRupees } from '../../electron/counter/money'

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
