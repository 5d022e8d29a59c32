// The owner PIN resets in the Z report: listed with time and file in every form and in both languages, a day closed
// before resets were journaled says they were not listed (never "none"), and the 80 mm roll prints them only when any.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DaySummarySchema } from '../../electron/contract'
import { zReportA4, zReportCsv, zReportReceipt } from '../../electron/counter/z-report'

const receiptCss = readFileSync(resolve(__dirname, '../../resources/receipt.css'), 'utf8')
const shop = { shopName: 'Sharma Digital Seva', shopAddress: '', receiptWidthMm: 80 as const, timezone: 'Asia/Kolkata', clock: '24h' as const }
const FILE = '/home/shop/.config/Counter/reset-owner-pin'

/** A quiet day; `pinResets` left out reads as a day closed before resets were journaled. */
const dayWith = (pinResets?: { at: string; file: string }[]) =>
  DaySummarySchema.parse({
    businessDay: '2026-11-27',
    closed: true,
    closedAt: '2026-11-27T15:30:00.000Z',
    openingPanBalance: { balancePaise: null, at: null },
    closingPanBalance: { balancePaise: null, at: null },
    recharges: [],
    coupons: [],
    topups: [],
    pending: [],
    breaks: [],
    cash: { openingFloatPaise: 0, collectedCashPaise: 0, collectedUpiPaise: 0, expectedPaise: 0, countedPaise: 0, differencePaise: 0, counted: null },
    overrideNote: null,
    ...(pinResets ? { pinResets } : {}),
  })

describe('owner PIN resets in the Z report', () => {
  const reset = dayWith([{ at: '2026-11-27T04:05:00.000Z', file: FILE }])

  it('lists each reset with its local time and the file found, in CSV, A4 and on the roll', () => {
    const csv = zReportCsv(reset, { shop, training: false })
    expect(csv).toContain('Owner PIN resets\r\nTime,File found\r\n27-11-2026 09:35:00,/home/shop/.config/Counter/reset-owner-pin\r\n')
    expect(zReportA4(reset, { shop, training: false })).toContain(`<h2>Owner PIN resets</h2>\n<table><tr><th>Time</th><th>File found</th></tr>\n<tr><td>27-11-2026 09:35:00</td><td>${FILE}</td></tr></table>`)
    const roll = zReportReceipt(reset, { shop, training: false }, receiptCss)
    expect(roll).toContain('<div class="title">Owner PIN reset</div>')
    expect(roll).toContain(`<td class="k">27-11-2026 09:35:00</td><td class="v">${FILE}</td>`)
  })

  it('speaks Hindi on a Hindi report', () => {
    const hindi = { shop: { ...shop, receiptLanguage: 'hi' as const }, training: false }
    expect(zReportCsv(reset, hindi)).toContain('मालिक के PIN का रीसेट\r\nसमय,मिली फ़ाइल\r\n')
    expect(zReportReceipt(reset, hindi, receiptCss)).toContain('<div class="title">मालिक का PIN रीसेट</div>')
  })

  it('says a day closed before resets were journaled did not list them, and prints no roll section without a reset', () => {
    const before = dayWith()
    expect(before.pinResets).toBeNull()
    expect(zReportCsv(before, { shop, training: false })).toContain('Owner PIN resets\r\nTime,File found\r\n,Not listed when this day was closed\r\n')
    expect(zReportReceipt(before, { shop, training: false }, receiptCss)).not.toContain('Owner PIN reset')
    const none = dayWith([])
    expect(zReportA4(none, { shop, training: false })).toContain('<h2>Owner PIN resets</h2>\n<p class="none">')
    expect(zReportReceipt(none, { shop, training: false }, receiptCss)).not.toContain('Owner PIN reset')
  })
})
