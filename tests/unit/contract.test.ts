// The contract's input rules: bad counter input is refused with words a shop assistant understands.
import { describe, expect, it } from 'vitest'
import {
  appChannels,
  backupChannels,
  restoreChannels,
  booksChannels,
  channels,
  CloseDayInputSchema,
  creditChannels,
  drawerChannels,
  events,
  historyChannels,
  isChannel,
  marginChannels,
  officeChannels,
  ownerOnlyChannels,
  panChannels,
  pendingChannels,
  printerChannels,
  rolesChannels,
  customerChannels,
  rechargeChannels,
  salesChannels,
  SaveSettingsInputSchema,
  SellRechargeInputSchema,
  settingsChannels,
} from '../../electron/contract'
import { mergeDomains } from '../../electron/contract/channel'
import type { Channel, Handlers } from '../../electron/contract'
import { dispatch } from '../../electron/counter/dispatch'
import { CounterError } from '../../electron/counter/errors'
import { english, say } from '../../electron/shared/words'

const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '199' } as const

function firstError(input: unknown): { field: string; message: string } {
  const result = SellRechargeInputSchema.safeParse(input)
  expect(result.success).toBe(false)
  const issue = result.error!.issues[0]
  return { field: String(issue.path[0]), message: english(issue.message) }
}

describe('recharge.sell input', () => {
  it('accepts a good mobile sale and trims it', () => {
    const parsed = SellRechargeInputSchema.parse({ ...sale, number: ' 9876543210 ', amount: ' 199.50 ' })
    expect(parsed).toMatchObject({ number: '9876543210', amount: 199_50 })
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
    ['10.123', 'Paise take 1 or 2 digits after the dot, like 199.50'],
    ['1,0000', 'Commas must group digits as in 1,999 or 1,00,000: check where they go'],
    ['25000.01', 'Amount must not be more than ₹25,000'],
    ['25,000.01', 'Amount must not be more than ₹25,000'],
  ])('refuses amount %s', (amount, message) => {
    expect(firstError({ ...sale, amount })).toEqual({ field: 'amount', message })
  })

  it.each(['number', 'amount', 'operatorCode', 'kind'])('refuses a sale without %s', (field) => {
    const input: Record<string, unknown> = { ...sale }
    delete input[field]
    expect(firstError(input).field).toBe(field)
  })
})

describe('money inputs: Indian grouping, and each its own bound', () => {
  const issue = (schema: { safeParse(input: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown) =>
    schema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${english(i.message)}`)

  it('takes "1,999" as an amount and passes it on as exact paise, read once', () => {
    expect(SellRechargeInputSchema.parse({ ...sale, amount: '1,999', collected: '2,009.50' })).toMatchObject({ amount: 1999_00, collected: 2009_50 })
    expect(SellRechargeInputSchema.parse({ ...sale, collected: ' ' }).collected).toBeNull()
  })

  it('bounds a top-up by its own ₹10,00,000, not the ₹25,000 of a recharge', () => {
    const topup = channels['topups.add'].input
    expect(topup.parse({ amount: '1,00,000', reference: 'UTR 1' }).amount).toBe(1_00_000_00)
    expect(issue(topup, { amount: '10,00,001', reference: 'UTR 1' })).toEqual(['amount: Amount must not be more than ₹10,00,000'])
  })

  it('bounds what a close counts: notes, coins and the opening float', () => {
    const close = { businessDay: '2026-11-23', openingFloat: '0', counted: { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' } }
    expect(CloseDayInputSchema.parse(close)).toMatchObject({ openingFloat: 0, counted: { coins: null } })
    expect(CloseDayInputSchema.parse({ ...close, counted: { ...close.counted, n10: 10_000, coins: '1,234.50' } }).counted.coins).toBe(1234_50)
    expect(issue(CloseDayInputSchema, { ...close, counted: { ...close.counted, n200: 10_001 } })).toEqual(['counted.n200: At most 10,000 notes of one kind'])
    expect(issue(CloseDayInputSchema, { ...close, counted: { ...close.counted, coins: '50,000.01' } })).toEqual(['counted.coins: Amount must not be more than ₹50,000'])
    expect(issue(CloseDayInputSchema, { ...close, openingFloat: '2,00,000' })).toEqual(['openingFloat: Amount must not be more than ₹1,00,000'])
  })

  it('bounds the service-charge cap and allows ₹0', () => {
    expect(SaveSettingsInputSchema.parse({ serviceChargeCap: '0' }).serviceChargeCap).toBe(0)
    expect(issue(SaveSettingsInputSchema, { serviceChargeCap: '1,000.01' })).toEqual(['serviceChargeCap: Amount must not be more than ₹1,000'])
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

  it('are every domain\'s channels, each named by one domain only', () => {
    const domains = [appChannels, rechargeChannels, salesChannels, settingsChannels, panChannels, pendingChannels, booksChannels, historyChannels, printerChannels, marginChannels, creditChannels, rolesChannels, customerChannels, officeChannels, drawerChannels, backupChannels, restoreChannels]
    expect(Object.keys(channels)).toEqual(domains.flatMap((domain) => Object.keys(domain)))
    // A spread would keep only the later of two domains' "day.close"; the merge refuses it instead.
    expect(() => mergeDomains({ 'day.close': 1 }, { 'day.close': 2 })).toThrow('Two parts of the contract both define "day.close"')
  })

  it('keeps the way back from a fork to the owner, and takes only a terminal id for it', async () => {
    expect(ownerOnlyChannels.has('office.registerAnew')).toBe(true)
    // Through the dispatch every transport uses: refused to staff before its handler runs or its input is read.
    const registered: unknown[] = []
    const handlers = { 'office.registerAnew': async (input: unknown) => (registered.push(input), { terminalId: 'new' }) } as unknown as Handlers
    const staff = { refusal: (channel: Channel) => (ownerOnlyChannels.has(channel) ? new CounterError('owner_only', say('owner.only', { what: say('owner.doThis') })) : null) }
    expect(await dispatch(handlers, 'office.registerAnew', { terminalId: 'sharma-mobile/counter-1' }, () => undefined, staff)).toMatchObject({ ok: false, error: { code: 'owner_only' } })
    expect(registered).toEqual([])
    expect(await dispatch(handlers, 'office.registerAnew', {}, () => undefined)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await dispatch(handlers, 'office.registerAnew', { terminalId: 'sharma-mobile/counter-1' }, () => undefined)).toEqual({ ok: true, value: { terminalId: 'new' } })
  })

  it('carries the ledger\'s progress through a long audit, archive or copy off the PC', () => {
    expect(events['books.progress'].parse({ task: 'audit', done: 500, total: 1_000_000 })).toEqual({ task: 'audit', done: 500, total: 1_000_000 })
    expect(events['books.progress'].parse({ task: 'backup', done: 1, total: 2 })).toEqual({ task: 'backup', done: 1, total: 2 })
    expect(events['books.progress'].safeParse({ task: 'export', done: 1, total: 2 }).success).toBe(false)
  })
})
