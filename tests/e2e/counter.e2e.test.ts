// The counter as a shop assistant uses it: browser mode in Debian's Chromium, training mode, real
// clicks and keys. Screenshots and receipt PDFs land in test-output/e2e/ for a person to look at.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { launchChromium, outputDir, receiptPdfText, sellOnScreen, startWebApp } from './browser-rig'
import type { Simulator } from '../../electron/simulator/server'

const dataDir = tempDir('counter-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

async function startApp(): Promise<void> {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
}

async function stopApp(): Promise<void> {
  await web.close()
  await counter.close()
}

const sell = (number: string, amount: string) => sellOnScreen(page, number, amount)

const shot = (name: string) => page.screenshot({ path: join(outputDir, `${name}.png`) })

beforeAll(async () => {
  await startApp()
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(web.url)
})

afterAll(async () => {
  await browser?.close()
  await stopApp()
  dataDir.remove()
})

describe('recharge counter in the browser (training mode)', () => {
  it('says TRAINING on the screen', async () => {
    await expect.poll(() => page.getByTestId('mode-badge').textContent()).toContain('TRAINING')
    expect(await page.getByTestId('training-banner').isVisible()).toBe(true)
  })

  it('refuses a bad number next to the field and sends nothing', async () => {
    await page.getByTestId('number-input').fill('98765')
    await page.getByTestId('amount-input').fill('10')
    await page.getByTestId('amount-input').press('Enter')
    await page.getByTestId('field-error-number').waitFor()
    expect((counter.session().simulator as Simulator).requests.filter((r) => r.operation === 'transaction')).toHaveLength(0)
  })

  it('sells a recharge, shows it in Today, and keeps it after a restart', async () => {
    expect(await sell('9876543210', '199')).toBe('SUCCESS')
    expect(await page.getByTestId('result-fpay-id').textContent()).toMatch(/RCH/)
    await page.getByTestId('today-row').first().waitFor()
    expect(await page.getByTestId('today-row').count()).toBe(1)
    const receipt = page.frameLocator('[data-testid=receipt-preview]')
    await receipt.getByText('TRAINING — NOT A REAL SALE').first().waitFor()
    expect(await receipt.locator('body').textContent()).toContain('₹199.00')
    await shot('1-sale-success')
    await page.getByTestId('receipt-preview').scrollIntoViewIfNeeded()
    await shot('1-receipt-preview')

    await stopApp()
    await startApp()
    await page.goto(web.url)
    await page.getByTestId('today-row').first().waitFor()
    expect(await page.getByTestId('today-row').count()).toBe(1)
    expect((await page.getByTestId('today-row-status').first().textContent())!.toLowerCase()).toContain('success')
  })

  it('shows a FAILED sale with the provider message, safe to retry', async () => {
    (counter.session().simulator as Simulator).setFault({ kind: 'failed', times: 1 })
    expect(await sell('9123456789', '50')).toBe('FAILED')
    expect(await page.getByTestId('result-message').textContent()).toContain('Operator down')
    await shot('2-sale-failed')
  })

  it('shows Pending with "do not sell again", then Check status settles it', async () => {
    (counter.session().simulator as Simulator).setFault({ kind: 'pendingThenSuccess', times: 1 })
    expect(await sell('9988776655', '75')).toBe('UNKNOWN')
    expect((await page.getByTestId('result-panel').textContent())!.toLowerCase()).toContain('do not sell again')
    await shot('3-sale-pending')
    await page.getByTestId('check-status-button').click()
    await expect.poll(() => page.getByTestId('result-panel').getAttribute('data-state')).toBe('SUCCESS')
    await shot('4-pending-settled')
  })

  it('renders the receipt to a PDF that carries order id, amount and fpay_id', async () => {
    const today = await counter.call('sales.today', {})
    if (!today.ok) throw new Error(today.error.message)
    const sale = today.value.sales.find((s) => s.amountPaise === 19900)!
    await page.getByTestId('receipt-preview').waitFor()
    const text = await receiptPdfText(browser, counter, sale.orderId)
    expect(text).toContain(sale.orderId)
    expect(text).toContain('₹199.00')
    expect(text).toContain(sale.fpayId!)
    expect(text).toContain('TRAINING')
  })
})
