// A network ESC/POS receipt printer set up in Settings and used at the counter, in browser mode in Debian's
// Chromium: the printer is tests/helpers/escpos-printer.ts on 127.0.0.1, and what it decodes is what came out
// on paper. Screenshots land in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { chromiumRasterizer } from '../../electron/printers/chromium-raster'
import type { WebServer } from '../../electron/web/server'
import { startFakePrinter, type FakePrinter } from '../helpers/escpos-printer'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'

const SHOP = 'Sharma Mobile Point'
const dataDir = tempDir('counter-printer-e2e-')
const keychainService = privateKeychainService()
let printer: FakePrinter
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page
let orderId = ''

/** Every receipt the page handed to the browser's print dialog: none may go there once an ESC/POS printer is set. */
const WATCH_PRINT_DIALOG = `
  window.__printed = []
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node instanceof HTMLIFrameElement && node.getAttribute('aria-hidden') === 'true') window.__printed.push(node.srcdoc)
    }
  }).observe(document, { childList: true, subtree: true })
`
const printDialogs = () => page.evaluate<string[]>('window.__printed')
const shot = (name: string, part: Page | Locator = page) => part.screenshot({ path: join(outputDir, `printer-${name}.png`) })
const notice = () => page.getByTestId('receipt-notice')

async function printWithKeys(): Promise<void> {
  await page.getByTestId('number-input').focus()
  await page.keyboard.press('Control+P')
  await expect.poll(() => page.getByTestId('receipt-print').textContent()).not.toContain('Printing')
}

beforeAll(async () => {
  printer = await startFakePrinter()
  // As browser mode starts it (electron/web/cli.ts): the Z report reaches an ESC/POS printer as a picture Chromium draws.
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService, { rasterizer: chromiumRasterizer('/usr/bin/chromium') }))
  browser = await launchChromium()
  page = await browser.newPage()
  await page.addInitScript(WATCH_PRINT_DIALOG)
  await page.goto(web.url)
})

afterAll(async () => {
  await browser?.close()
  await web?.close()
  await counter?.close()
  await printer?.close()
  dataDir.remove()
})

describe('an ESC/POS network printer, set up in Settings and printing at the counter (browser mode)', () => {
  it('sets the printer up in Settings (refusing a missing or bad address) and prints a test page with the ruler and the shop header', async () => {
    await page.getByTestId('nav-settings').click()
    await expect.poll(() => page.getByTestId('settings-shop-name').inputValue()).not.toBe('')
    // The browser has no list of the OS's printers: it says the Print dialog picks one.
    expect(await page.getByTestId('settings-printer-browser').textContent()).toContain('Print dialog')
    expect(await page.getByTestId('settings-printer-test').count()).toBe(0)

    await page.getByTestId('settings-shop-name').fill(SHOP)
    await page.getByTestId('settings-printer-kind-escpos').check()
    const address = page.getByTestId('settings-printer-address')
    expect(await page.locator('#settings-printerAddress-hint').textContent()).toContain('\\\\PC\\Printer')
    // No address: the form asks for one and saves nothing.
    await page.getByTestId('settings-printer-test').click()
    expect(await page.getByTestId('field-error-printerAddress').textContent()).toContain('address')
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('settings-printerAddress')
    await address.fill('192.168.1.50:99999')
    await page.getByTestId('settings-save').click()
    expect(await page.getByTestId('field-error-printerAddress').textContent()).toContain('not a port number')
    const unsaved = await counter.call('settings.get', {})
    expect(unsaved.ok && unsaved.value.printerKind).toBe('system')

    await address.fill(printer.address)
    await page.getByTestId('settings-openDrawerOnCash').check()
    await page.getByTestId('settings-printer-test').click()
    const outcome = page.getByTestId('settings-printer-outcome')
    await expect.poll(() => outcome.textContent()).toContain(printer.address)
    expect(await outcome.getAttribute('role')).toBe('status')
    const saved = await counter.call('settings.get', {})
    if (!saved.ok) throw new Error(saved.error.message)
    expect(saved.value).toMatchObject({ printerKind: 'escpos', printerAddress: printer.address, openDrawerOnCash: true, printAsImage: false, shopName: SHOP })

    const testPage = printer.decoded()
    expect(testPage.lines.join('\n')).toContain(SHOP)
    // The ruler: units across the 80 mm roll's 48 columns, the tens above them.
    expect(testPage.lines).toContain('1234567890'.repeat(5).slice(0, 48))
    expect(testPage.lines).toContain(' '.repeat(9) + '1' + ' '.repeat(9) + '2' + ' '.repeat(9) + '3' + ' '.repeat(9) + '4')
    expect(testPage.cuts).toBe(1)
    expect(testPage.drawerKicks).toBe(0)
    await shot('1-settings-test-page', page.getByTestId('printer-settings'))
  })

  it("reads the printer's state: good news as a status, a problem as an alert; the section passes axe", async () => {
    const outcome = page.getByTestId('settings-printer-outcome')
    await page.getByTestId('settings-printer-check').click()
    await expect.poll(() => outcome.getAttribute('data-state')).toBe('ready')
    expect(await outcome.getAttribute('role')).toBe('status')
    printer.status = 'paper-out'
    await page.getByTestId('settings-printer-check').click()
    await expect.poll(() => outcome.getAttribute('data-state')).toBe('no-paper')
    expect(await outcome.getAttribute('role')).toBe('alert')
    expect(await outcome.textContent()).toContain('Out of paper')
    await shot('2-settings-no-paper', page.getByTestId('printer-settings'))
    expect(await seriousAxeViolations(page)).toEqual([])
    printer.status = 'ready'
    printer.clear()
  })

  it('prints a cash sale on Ctrl+P to the printer, not the dialog: order id, amount, one drawer kick, and says so', async () => {
    await page.getByTestId('nav-recharge').click()
    await page.getByTestId('number-input').fill('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('amount-input').fill('199')
    await page.getByTestId('amount-input').press('Enter')
    await expect.poll(() => page.getByTestId('result-panel').getAttribute('data-state')).toBe('SUCCESS')
    orderId = (await page.getByTestId('result-order-id').textContent())!.trim()
    await page.getByTestId('receipt-print').waitFor()
    await expect.poll(() => page.getByTestId('receipt-print').isEnabled()).toBe(true)

    await printWithKeys()
    await expect.poll(() => notice().textContent()).toContain(printer.address)
    expect(await notice().textContent()).toContain('cash drawer opened')
    expect(await notice().getAttribute('role')).toBe('status')
    const receipt = printer.decoded()
    const text = receipt.lines.join('\n')
    expect(text).toContain(orderId)
    expect(text).toContain('199.00')
    expect(text).toContain(SHOP)
    expect(receipt.drawerKicks).toBe(1)
    expect(receipt.cuts).toBe(1)
    expect(await printDialogs()).toEqual([])
    await shot('3-printed-drawer-opened')
  })

  it('says where to look when the printer is off, keeps the sale and Print; reprints on Ctrl+P once it is back, without a second drawer kick', async () => {
    const { port } = printer
    await printer.close()
    await printWithKeys()
    await expect.poll(() => notice().getAttribute('role')).toBe('alert')
    const problem = (await notice().textContent())!
    expect(problem).toContain(printer.address)
    expect(problem.toLowerCase()).toMatch(/switched on|cable|network|check/)
    expect(await page.getByTestId('receipt-print').isEnabled()).toBe(true)
    expect(await page.getByTestId('today-row').count()).toBe(1)
    const today = await counter.call('sales.today', {})
    expect(today.ok && today.value.sales.map((sale) => [sale.orderId, sale.state])).toEqual([[orderId, 'SUCCESS']])
    await shot('4-printer-off')
    expect(await seriousAxeViolations(page)).toEqual([])

    printer = await startFakePrinter({ port })
    await printWithKeys()
    await expect.poll(() => notice().getAttribute('role')).toBe('status')
    expect(await notice().textContent()).toContain(printer.address)
    expect(await notice().textContent()).not.toContain('drawer')
    const reprint = printer.decoded()
    expect(reprint.lines.join('\n')).toContain(orderId)
    expect(reprint.drawerKicks).toBe(0)
    expect(reprint.cuts).toBe(1)
    expect(await printDialogs()).toEqual([])
    await shot('5-reprinted')
  })

  it('prints the Z report on Day close to the same printer', async () => {
    printer.clear()
    await page.getByTestId('nav-day-close').click()
    await page.getByTestId('report-print').click()
    const report = page.getByTestId('report-notice')
    await expect.poll(() => report.textContent()).toContain(printer.address)
    expect(await report.getAttribute('role')).toBe('status')
    // A report's tables are too wide for the roll's text columns: it prints as a picture of the whole width.
    const printed = printer.decoded()
    expect(printed.images.map((image) => image.width)).toEqual([576])
    expect(printed.images[0].height).toBeGreaterThan(400)
    expect(printed.cuts).toBe(1)
    expect(printed.drawerKicks).toBe(0)
    expect(await printDialogs()).toEqual([])
    await shot('6-z-report-printed')
  })
})
