// The Z report and a sale's receipt as the ESC/POS printer's picture lays them out (at the print head's width, 48 mm of
// a 58 mm roll and 72 of an 80 mm one), measured in Chromium: every figure inside the page and on one line, on a day of
// large amounts and long labels (times, ids), and a sale's order id and Txn (FPay) id whole, in English and Hindi. A
// figure past the edge is lost from the paper; one wrapped reads as two numbers, and an id split in two as two ids.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DaySummarySchema } from '../../electron/contract'
import { atHeadWidth } from '../../electron/counter/receipt-printing'
import { rechargeReceipt, receiptHtml } from '../../electron/counter/receipts'
import { zReportReceipt } from '../../electron/counter/z-report'
import { sampleSale, sampleShop } from '../helpers/sample-sale'
import { resourcesDir } from '../integration/helpers'
import { launchChromium } from './browser-rig'

const receiptCss = readFileSync(join(resourcesDir, 'receipt.css'), 'utf8')

const summary = DaySummarySchema.parse({
  businessDay: '2026-11-27',
  closed: true,
  closedAt: '2026-11-27T16:45:10.000Z',
  openingPanBalance: { balancePaise: 1_17_400_00, at: '2026-11-26T16:40:00.000Z' },
  closingPanBalance: { balancePaise: 98_765_43, at: '2026-11-27T16:44:59.000Z' },
  recharges: [
    { operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 131, amountPaise: 1_23_456_50 },
    { operatorCode: 'BSNL', operatorName: 'BSNL Special Tariff', state: 'FAILED', count: 12, amountPaise: 12_345_00 },
  ],
  coupons: [{ type: 1, state: 'SUCCESS', orders: 120, qty: 1_050, amountPaise: 1_12_350_00 }],
  topups: [{ topupId: 'PW2611270000171AB', amountPaise: 5_00_000_00, reference: 'UTR 412345678901', note: '', at: '2026-11-27T06:00:00.000Z', businessDay: '2026-11-27' }],
  pending: [
    {
      kind: 'recharge', id: 'CN261127000012XYZ', label: '9812345678', amountPaise: 1_499_00, state: 'UNKNOWN', lastAnswer: 'No answer',
      createdAt: '2026-11-27T10:00:00.000Z', lastCheckedAt: null, nextCheckAt: null, checks: 2, checkable: true, chargePaise: null,
    },
  ],
  breaks: [
    {
      at: '2026-11-27T11:00:00.000Z', kind: 'coupon', ref: 'CP261127000020ABC', expectedPaise: 1_04_465_00, actualPaise: 1_04_265_00, differencePaise: -1_17_400_00,
      since: { at: '2026-11-27T09:00:00.000Z', couponSales: 1, couponPaise: 107_00, topupPaise: 0 },
    },
  ],
  cash: {
    openingFloatPaise: 2_000_00, collectedCashPaise: 1_96_850_00, collectedUpiPaise: 1_99_000_00, expectedPaise: 1_98_850_00,
    countedPaise: 1_98_800_00, differencePaise: -50_00, counted: { n500: 395, n200: 3, n100: 7, n50: 1, n20: 2, n10: 3, coins: '38' },
  },
  overrideNote: '',
})

/** Each figure (a row's value) and each label that is not inside the body's box, or a figure on more than one line. */
const FIGURE_REPORT = `(() => {
  const edge = document.body.getBoundingClientRect()
  const found = []
  for (const cell of document.querySelectorAll('td')) {
    const text = cell.textContent.trim()
    if (!text) continue
    const box = cell.getBoundingClientRect()
    if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5) found.push('past the edge: ' + text)
    if (!cell.classList.contains('v')) continue
    // Lines by their tops: the rupee sign, drawn from another font, sits a little higher on the same line.
    const range = document.createRange()
    range.selectNodeContents(cell)
    const halfLine = parseFloat(getComputedStyle(cell).fontSize) / 2
    const tops = [...range.getClientRects()].map((rect) => rect.top).sort((a, b) => a - b)
    const lines = tops.filter((top, at) => at === 0 || top - tops[at - 1] > halfLine).length
    if (lines > 1) found.push('wrapped over ' + lines + ' lines: ' + text)
  }
  return found
})()`

let browser: BrowserContext
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(() => browser?.close())

describe('the Z report picture', () => {
  it.each([58, 80] as const)('lays out every figure whole and inside the %i mm head', async (widthMm) => {
    const shop = { shopName: 'Sharma Mobile Point', shopAddress: '12 MG Road, Pune', receiptWidthMm: widthMm, timezone: 'Asia/Kolkata', clock: '12h' as const }
    const page = await browser.newPage()
    try {
      await page.setViewportSize({ width: { 58: 384, 80: 576 }[widthMm], height: 800 })
      await page.setContent(atHeadWidth(zReportReceipt(summary, { shop, training: false }, receiptCss), widthMm))
      const figures = await page.evaluate(`[...document.querySelectorAll('td.v')].map((cell) => cell.textContent.trim())`)
      // The measured page holds the day's large figures.
      expect(figures).toEqual(expect.arrayContaining(['₹1,17,400.00', '₹98,765.43', '₹5,00,000.00', '-₹1,17,400.00']))
      expect(await page.evaluate(FIGURE_REPORT)).toEqual([])
    } finally {
      await page.close()
    }
  })
})

describe('a sale’s receipt picture', () => {
  // Ids as long as real ones: ours (prefix, day, sequence, tail) and the provider's Txn id.
  const sale = sampleSale({ orderId: 'CN261128000022KQ0', fpayId: 'RCH560643867956SXMRM', operatorRef: 'GB5102YCRP06', customerName: 'Sunita Devi' })

  it.each([
    [58, 'en'],
    [58, 'hi'],
    [80, 'en'],
    [80, 'hi'],
  ] as const)('at %i mm (%s) keeps the order id and the Txn id whole, each on one line, and every figure inside', async (widthMm, language) => {
    const shop = sampleShop({ receiptWidthMm: widthMm, receiptLanguage: language })
    const page = await browser.newPage()
    try {
      await page.setViewportSize({ width: { 58: 384, 80: 576 }[widthMm], height: 800 })
      await page.setContent(atHeadWidth(receiptHtml(rechargeReceipt(sale, shop), shop, receiptCss), widthMm))
      const figures = await page.evaluate<string[]>(`[...document.querySelectorAll('td.v')].map((cell) => cell.textContent.trim())`)
      expect(figures).toEqual(expect.arrayContaining([sale.orderId, sale.fpayId, sale.operatorRef]))
      expect(await page.evaluate(FIGURE_REPORT)).toEqual([])
    } finally {
      await page.close()
    }
  })
})
