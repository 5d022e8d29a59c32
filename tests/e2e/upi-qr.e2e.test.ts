// The UPI QR for a sale's exact amount in Chromium (browser mode, training; issue #29 part 1): with the shop's UPI id
// set, a UPI recharge's result shows a QR, at least 240 px, that a decoder (jsQR, no code shared with the encoder)
// reads as the exact upi://pay link (the amount collected to the paisa, the order id), beside the amount and the line
// that Counter cannot see the payment; Alt+U ("UPI received") records it, read back through the core and the journal.
// The receipt's HTML, drawn by Chromium and printed to PDF, carries the same link as a QR image; a payment of a due
// taken by UPI on Dues shows its own. Without a UPI id nothing changes.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { ledgerDir } from '../../electron/counter/session'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir, valueOf } from '../integration/helpers'
import { readQrPng } from '../helpers/qr-read'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'

const UPI = { upiVpa: 'shop.ramesh@okaxis', upiPayee: 'Sharma & Sons Mobile' }
const linkFor = (orderId: string, amount: string) => `upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20%26%20Sons%20Mobile&am=${amount}&cu=INR&tn=${orderId}&tr=${orderId}`

const dataDir = tempDir('counter-e2e-upi-')
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

/** The training journal's "UPI received" lines, as the books recorded them. */
function upiLines(): unknown[] {
  const dir = join(ledgerDir(dataDir.path, 'training'), 'journal')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { type: string; data: unknown })
    .filter((line) => line.type === 'sale.upiConfirmed')
    .map((line) => line.data)
}

/** Sells a recharge by UPI on the Recharge screen, as staff do; returns the state and order id shown. */
async function sellByUpi(number: string, amount: string, collected: string): Promise<{ state: string; orderId: string }> {
  const panel = page.getByTestId('result-panel')
  const shownBefore = (await panel.count()) > 0 ? await panel.textContent() : null
  await page.getByTestId('number-input').fill(number)
  await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
  await page.getByTestId('amount-input').fill(amount)
  await page.getByTestId('pay-upi').click()
  await page.getByTestId('collected').fill(collected)
  await page.getByTestId('collected').press('Enter')
  await expect.poll(() => panel.textContent()).not.toBe(shownBefore)
  await expect.poll(() => panel.getAttribute('data-state')).not.toBe('SENDING')
  return { state: (await panel.getAttribute('data-state'))!, orderId: (await panel.getByTestId('result-order-id').textContent())!.trim() }
}

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService()))
  valueOf(await counter.call('settings.save', UPI))
  browser = await launchChromium()
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.goto(web.url)
  await page.getByTestId('number-input').waitFor()
}, 120_000)

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('the UPI QR for the exact amount', () => {
  let orderId = ''

  it('shows a UPI recharge a QR that reads as the exact upi://pay link, beside the amount; Alt+U records "UPI received"', async () => {
    const sold = await sellByUpi('9876543210', '209', '210.50')
    expect(sold.state).toBe('SUCCESS')
    orderId = sold.orderId
    const qr = page.getByTestId('upi-qr')
    await qr.waitFor()
    const box = (await qr.boundingBox())!
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(240)
    expect(readQrPng(await qr.screenshot())).toBe(linkFor(orderId, '210.50'))
    expect((await page.getByTestId('upi-amount').textContent())!.trim()).toBe('₹210.50')
    expect(await page.getByTestId('upi-cannot-see').textContent()).toContain("Counter cannot see whether the payment arrived: check that the customer's app shows it paid.")
    await page.screenshot({ path: join(outputDir, 'upi-1-qr.png') })

    await page.keyboard.press('Alt+KeyU')
    await expect.poll(() => page.getByTestId('upi-request').getAttribute('data-confirmed')).toBe('true')
    expect(await page.getByTestId('upi-confirmed').textContent()).toMatch(/UPI received, recorded at \d/)
    expect(await page.getByTestId('upi-received').count()).toBe(0)
    const sale = valueOf(await counter.call('sales.today', {})).sales.find((s) => s.orderId === orderId)!
    expect(sale).toMatchObject({ paymentMode: 'upi', collectedPaise: 210_50 })
    expect(sale.upiConfirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(upiLines()).toEqual([{ kind: 'recharge', id: orderId, by: 'owner' }])
    await page.screenshot({ path: join(outputDir, 'upi-2-received.png') })
  })

  it('puts the same link on the receipt as a QR image, in its HTML drawn by Chromium and in its PDF', async () => {
    const { html } = valueOf(await counter.call('receipt.html', { orderId }))
    const paper = await browser.newPage()
    await paper.setContent(html)
    expect(readQrPng(await paper.locator('.upi svg').screenshot())).toBe(linkFor(orderId, '210.50'))
    const pdf = join(outputDir, `upi-receipt-${orderId}.pdf`)
    writeFileSync(pdf, await paper.pdf({ width: '80mm', printBackground: false }))
    await paper.close()
    execFileSync('pdftoppm', ['-png', '-r', '200', '-singlefile', pdf, pdf.replace(/\.pdf$/, '')])
    expect(readQrPng(readFileSync(pdf.replace(/\.pdf$/, '.png')))).toBe(linkFor(orderId, '210.50'))
  })

  it('shows a payment of a due taken by UPI its QR for the amount paid; "UPI received" records it', async () => {
    const debtor = { creditName: 'Sita Devi', creditNumber: '9876500001' }
    valueOf(await counter.call('recharge.sell', { kind: 'mobile', number: '9876500001', operatorCode: 'AT', amount: '300', paymentMode: 'credit', ...debtor }))
    await page.keyboard.press('Control+d')
    await page.locator(`[data-testid=dues-row][data-number="${debtor.creditNumber}"]`).getByTestId('dues-open').click()
    await page.getByTestId('dues-amount-input').fill('120.25')
    await page.getByTestId('dues-pay-upi').click()
    await page.getByTestId('dues-pay-submit').click()
    const qr = page.getByTestId('upi-qr')
    await qr.waitFor()
    const link = readQrPng(await qr.screenshot())!
    const receiptId = new URL(link.replace('upi://', 'https://upi.invalid/')).searchParams.get('tr')!
    expect(link).toBe(linkFor(receiptId, '120.25'))
    await page.getByTestId('upi-received').click()
    await page.getByTestId('upi-confirmed').waitFor()
    expect(valueOf(await counter.call('credit.statement', { number: debtor.creditNumber })).lines.find((line) => line.kind === 'payment')?.id).toBe(receiptId)
    expect(upiLines()).toEqual([
      { kind: 'recharge', id: orderId, by: 'owner' },
      { kind: 'payment', id: receiptId, by: 'owner' },
    ])
    await page.screenshot({ path: join(outputDir, 'upi-3-due-paid.png') })
    await page.keyboard.press('F1')
  })

  it('changes nothing without a UPI id: no QR on the result or the receipt', async () => {
    valueOf(await counter.call('settings.save', { upiVpa: '', upiPayee: '' }))
    await page.reload()
    await page.getByTestId('number-input').waitFor()
    const sold = await sellByUpi('9876543211', '199', '199')
    expect(sold.state).toBe('SUCCESS')
    expect(await page.getByTestId('result-panel').getByTestId('result-order-id').count()).toBe(1)
    expect(await page.getByTestId('upi-request').count()).toBe(0)
    expect(valueOf(await counter.call('receipt.html', { orderId: sold.orderId })).html).not.toContain('<svg')
  })
})
