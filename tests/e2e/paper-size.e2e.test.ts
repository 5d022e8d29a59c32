// Receipts and the Z report on a page as tall as their content, in browser mode in Debian's Chromium: what
// renderer/src/browserPrint.ts hands the print dialog is rendered to a PDF by that Chromium (honouring the
// page size the html asks for, as the dialog does) and read back with pdfinfo and pdftotext.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'

const MM_PER_PT = 25.4 / 72
const dataDir = tempDir('counter-paper-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

// Every html browserPrint gives its throwaway frame (srcdoc), in order, recorded as it is set: the last one
// of a print is what the print dialog printed.
const RECORD_PRINT_FRAMES = `
  window.__printFrames = []
  const srcdoc = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'srcdoc')
  Object.defineProperty(HTMLIFrameElement.prototype, 'srcdoc', {
    ...srcdoc,
    set(html) {
      if (this.getAttribute('aria-hidden') === 'true') window.__printFrames.push(html)
      srcdoc.set.call(this, html)
    },
  })
`
const printFrames = () => page.evaluate<string[]>('window.__printFrames')

/** Presses a print button and returns the html the print dialog got, once the frame is gone again. */
async function printedBy(button: string): Promise<string> {
  const before = (await printFrames()).length
  await page.getByTestId(button).click()
  await expect.poll(async () => (await printFrames()).length, { timeout: 10_000 }).toBeGreaterThan(before)
  await expect.poll(() => page.locator('iframe[aria-hidden=true]').count(), { timeout: 10_000 }).toBe(0)
  return (await printFrames()).at(-1)!
}

interface Paper {
  pages: number
  widthMm: number
  heightMm: number
  text: string
}

/** The html as Chromium prints it when the page size is the document's own, read back from the PDF. */
async function paperOf(html: string, name: string): Promise<Paper> {
  const paper = await browser.newPage()
  await paper.setContent(html)
  const path = join(outputDir, `${name}.pdf`)
  writeFileSync(path, await paper.pdf({ preferCSSPageSize: true, printBackground: false }))
  await paper.close()
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' })
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!
  return {
    pages: Number(/Pages:\s+(\d+)/.exec(info)![1]),
    widthMm: Number(size[1]) * MM_PER_PT,
    heightMm: Number(size[2]) * MM_PER_PT,
    text: execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }),
  }
}

/** The html's own height laid out on screen at its roll width, in mm: the bottom of its body. */
async function naturalHeightMm(html: string, widthMm: number): Promise<number> {
  const screen = await browser.newPage()
  await screen.setViewportSize({ width: Math.ceil((widthMm * 96) / 25.4), height: 200 })
  await screen.setContent(html)
  const bottomPx = await screen.evaluate<number>('document.body.getBoundingClientRect().bottom')
  await screen.close()
  return (bottomPx * 25.4) / 96
}

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
  browser = await launchChromium()
  page = await browser.newPage()
  await page.addInitScript(RECORD_PRINT_FRAMES)
  await page.goto(web.url)
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('a receipt printed from the browser', () => {
  it('is one page 80 mm wide and under 120 mm tall, with order id, amount and Txn id on it', async () => {
    await page.getByTestId('number-input').fill('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('amount-input').fill('199')
    await page.getByTestId('amount-input').press('Enter')
    await expect.poll(() => page.getByTestId('result-panel').getAttribute('data-state')).toBe('SUCCESS')
    const today = await counter.call('sales.today', {})
    if (!today.ok) throw new Error(today.error.message)
    const sale = today.value.sales.find((s) => s.amountPaise === 199_00)!

    const html = await printedBy('receipt-print')
    expect(html).not.toMatch(/<script/i)
    const paper = await paperOf(html, `paper-receipt-${sale.orderId}`)
    console.log(`[paper] recharge receipt: ${paper.pages} page, ${paper.widthMm.toFixed(1)} × ${paper.heightMm.toFixed(1)} mm`)
    expect(paper.pages).toBe(1)
    expect(paper.widthMm).toBeCloseTo(80, 0)
    expect(paper.heightMm).toBeLessThan(120)
    expect(paper.text).toContain(sale.orderId)
    expect(paper.text).toContain('₹199.00')
    expect(paper.text).toContain(sale.fpayId!)
    // Nothing cut off: the last line of the receipt is on the page.
    expect(paper.text).toContain('For any query, quote the order')
  })
})

describe('the Z report printed from the browser', () => {
  it('is one page of its natural height, however long the day was', async () => {
    for (const [index, operatorCode] of ['AT', 'RJP', 'VI', 'BSNL', 'MTNL', 'BSNLSTV'].entries()) {
      const sold = await counter.call('recharge.sell', { kind: 'mobile', number: `98765000${10 + index}`, operatorCode, amount: String(50 + index * 10) })
      if (!sold.ok) throw new Error(sold.error.message)
    }
    for (let index = 0; index < 36; index++) {
      const added = await counter.call('topups.add', { amount: String(1000 + index), reference: `UTR${String(5512_0000 + index)}` })
      if (!added.ok) throw new Error(added.error.message)
    }
    await page.getByTestId('nav-day-close').click()
    await expect.poll(() => page.getByTestId('day-status').getAttribute('data-closed')).toBe('false')

    const html = await printedBy('report-print')
    expect(html).toContain('Z report')
    expect(html).not.toMatch(/<script/i)
    const paper = await paperOf(html, 'paper-z-report')
    const natural = await naturalHeightMm(html, 80)
    const lines = paper.text.split('\n').filter((line) => line.trim() !== '')
    console.log(`[paper] Z report of ${lines.length} lines: ${paper.pages} page, ${paper.widthMm.toFixed(1)} × ${paper.heightMm.toFixed(1)} mm; content ${natural.toFixed(1)} mm`)
    expect(lines.length).toBeGreaterThanOrEqual(40)
    expect(paper.pages).toBe(1)
    expect(paper.widthMm).toBeCloseTo(80, 0)
    // Within 2 mm of its content (electron/shared/paper.ts), as read back from a PDF, whose sizes are whole points (1/72 inch).
    expect(Math.abs(paper.heightMm - natural)).toBeLessThanOrEqual(2 + 25.4 / 72)
    expect(paper.text).toContain('UTR55120035') // the last top-up
    expect(paper.text).toContain('UPI collected') // the report's last line
  })
})
