// The contract's input rules: bad counter input is refused with words a shop assistant understands.
import { describe, expect, it } from 'vitest'
import { channels, isChannel, SaveSettingsInputSchema, SellRechargeInputSchema } from '../../electron/contract'

const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '199' } as const

function firstError(input: unknown): { field: string; message: string } {
  const result = SellRechargeInputSchema.safeParse(input)
  expect(result.success).toBe(false)
  const issue = result.error!.issues[0]
  return { field: String(issue.path[0]), message: issue.message }
}

describe('recharge.sell input', () => {
  it('accepts a good mobile sale and trims it', () => {
    const parsed = SellRechargeInputSchema.parse({ ...sale, number: ' 9876543210 ', amount: ' 199.50 ' })
    expect(parsed).toMatchObject({ number: '9876543210', amount: '199.50' })
  })

  it.each([
    ['98765abcde', 'Mobile number must contain digits only'],
    ['987654321', 'Mobile number must be exactly 10 digits'],
    ['98765432101', 'Mobile number must be exactly 10 digits'],
    ['1234567890', 'Mobile number must start with 6, 7, 8 or 9'],
  ])('refuses mobile number %s', (number, message) => {
    expect(firstError({ ...sale, number })).toEqual({ field: 'number', message })
  })

  it('takes DTH subscriber ids of 6 to 15 digits', () => {
    expect(SellRechargeInputSchema.safeParse({ ...sale, kind: 'dth', operatorCode: 'TTV', number: '1234567890' }).success).toBe(true)
    expect(firstError({ ...sale, kind: 'dth', number: '12345' })).toEqual({ field: 'number', message: 'Subscriber id must be 6 to 15 digits' })
  })

  it.each([
    ['0', 'Amount must be more than ₹0'],
    ['0.00', 'Amount must be more than ₹0'],
    ['-10', 'Amount must be more than ₹0'],
    ['10.123', 'Amount must be in rupees with at most 2 decimals, like 199 or 199.50'],
    ['1,000', 'Amount must be in rupees with at most 2 decimals, like 199 or 199.50'],
    ['25000.01', 'Amount must not be more than ₹25,000'],
  ])('refuses amount %s', (amount, message) => {
    expect(firstError({ ...sale, amount })).toEqual({ field: 'amount', message })
  })

  it.each(['number', 'amount', 'operatorCode', 'kind'])('refuses a sale without %s', (field) => {
    const input: Record<string, unknown> = { ...sale }
    delete input[field]
    expect(firstError(input).field).toBe(field)
  })
})

describe('settings.save input', () => {
  it('refuses a secret key that is not hex and a bad address', () => {
    const result = SaveSettingsInputSchema.safeParse({ secretKey: 'not-hex', rechargeBaseUrl: 'ftp://x' })
    expect(result.success).toBe(false)
    expect(result.error!.issues.map((i) => i.path[0]).sort()).toEqual(['rechargeBaseUrl', 'secretKey'])
  })
  it('refuses an unknown time zone', () => {
    expect(SaveSettingsInputSchema.safeParse({ timezone: 'Mars/Olympus' }).success).toBe(false)
    expect(SaveSettingsInputSchema.safeParse({ timezone: 'Asia/Kolkata' }).success).toBe(true)
  })
})

describe('channels', () => {
  it('knows its own names and nothing else', () => {
    expect(isChannel('recharge.sell')).toBe(true)
    expect(isChannel('toString')).toBe(false)
    expect(isChannel('__proto__')).toBe(false)
    expect(Object.keys(channels).every(isChannel)).toBe(true)
  })
})
