// Sharing a receipt on WhatsApp in Chromium (browser mode, training): Share on a recharge's and a coupon order's outcome
// and on a receipt opened from History opens wa.me in a new tab with the customer's number and the receipt as text,
// never moving the counter's own page; and History with a receipt open fits 1366×768 and 1024×768 without scrolling.
// wa.me is answered by a local stand-in: nothing leaves the machine.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import type { WebServer } from '../../electron/web/server'
import { approvedAgent, privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const
const REGULAR = { number: '9876512345', name: 'Sunita Devi' }

const dataDir = tempDir('counter-e2e-share-')
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page
/** Every wa.me address the browser asked for (the stand-in answered each). */
const whatsAppVisits: string[] = []

/** Clicks (or presses) what shares, and returns the address the new tab opened and the chat text it carries. */
async function sharedTab(share: () => Promise<void>): Promise<{ url: URL; text: string }> {
  const [tab] = await Promise.all([browser.waitForEvent('page'), share()])
  await tab.waitForURL(/^https:\/\/wa\.me\//)
  const url = new URL(tab.url())
  await tab.close()
  return { url, text: url.searchParams.get('text') ?? '' }
}

/** Inside the viewport, and nothing covers its centre. Written as text: this Node-side file has no DOM types. */
const IN_VIEW = `(element) => {
  const box = element.getBoundingClientRect()
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
  return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth && !!top && (top === element || element.contains(top))
}`
const inView = (testId: string) => page.evaluate<boolean>(`(${IN_VIEW})(document.querySelector('[data-testid=${testId}]'))`)
/** How far <main> can scroll down: 0 when the screen fits. */
const mainOverflow = () => page.evaluate<number>("(() => { const main = document.querySelector('main.screen'); return main.scrollHeight - main.clientHeight })()")

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService()))
  await approvedAgent(counter, 'AG3001')
  // A named regular, so History shows the customer's name row above the receipt.
  const sold = await counter.call('recharge.sell', { kind: 'mobile', number: REGULAR.number, operatorCode: 'VI', circle: 'MH', amount: '239' })
  if (!sold.ok) throw new Error(sold.error.message)
  const named = await counter.call('customers.name', REGULAR)
  if (!named.ok) throw new Error(named.error.message)
  browser = await launchChromium()
  await browser.route('https://wa.me/**', (route) => {
    whatsAppVisits.push(route.request().url())
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>WhatsApp stand-in</title>' })
  })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.setViewportSize(SIZES[0])
  await page.goto(web.url)
  await page.getByTestId('number-input').waitFor()
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('Share on WhatsApp', () => {
  it('a recharge: opens wa.me for its own number with the receipt as text, in a new tab; the counter stays where it is', async () => {
    await page.getByTestId('number-input').fill('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('amount-input').fill('1,999')
    await page.getByTestId('amount-input').press('Enter')
    await expect.poll(() => page.getByTestId('result-panel').getAttribute('data-state')).toBe('SUCCESS')
    const orderId = (await page.getByTestId('result-order-id').textContent())!.trim()
    const counterAt = page.url()
    const tabs = browser.pages().length

    const { url, text } = await sharedTab(() => page.getByTestId('receipt-share').click())
    expect(url.origin + url.pathname).toBe('https://wa.me/919876543210')
    for (const shown of ['Mobile recharge', `Order id: ${orderId}`, 'Mobile: 9876543210', '*Amount: ₹1,999.00*', 'Status: SUCCESSFUL', 'TRAINING — NOT A REAL SALE']) {
      expect(text).toContain(shown)
    }
    expect(page.url()).toBe(counterAt)
    expect(browser.pages().length).toBe(tabs) // the shared tab, closed; this page is still the counter's
    expect(await page.getByTestId('receipt-notice').textContent()).toContain('WhatsApp opened')
    await page.screenshot({ path: join(outputDir, 'share-1-recharge.png') })
  })

  it("a coupon order: asks for the customer's mobile, refuses a short one plainly and opens nothing, then opens wa.me for it", async () => {
    await page.keyboard.press('F2')
    await page.getByTestId('coupon-agent-input').fill('AG3001')
    await page.getByTestId('coupon-agent-option').first().waitFor()
    await page.getByTestId('coupon-agent-input').press('Enter')
    await page.getByTestId('coupon-quote').waitFor()
    await page.getByTestId('coupon-qty').press('Enter')
    const result = page.getByTestId('coupon-result')
    await expect.poll(() => result.getAttribute('data-state')).toBe('SUCCESS')
    const visitsBefore = whatsAppVisits.length
    const tabs = browser.pages().length

    await page.getByTestId('receipt-share').click()
    const mobile = page.getByTestId('share-mobile')
    await mobile.waitFor()
    expect(await page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")).toBe('share-mobile')
    expect(await page.getByTestId('share-mobile-error').count()).toBe(0)
    await mobile.fill('98765')
    await mobile.press('Enter')
    await expect.poll(() => page.getByTestId('share-mobile-error').textContent()).toBe('Mobile number must be exactly 10 digits')
    expect(browser.pages().length).toBe(tabs)
    expect(whatsAppVisits.length).toBe(visitsBefore)
    await page.screenshot({ path: join(outputDir, 'share-2-coupon-mobile.png') })

    await mobile.fill('9876500077')
    const { url, text } = await sharedTab(() => mobile.press('Enter'))
    expect(url.pathname).toBe('/919876500077')
    expect(text).toContain('PAN coupons')
    expect(text).toContain((await result.getAttribute('data-attempt-id'))!)
    expect(text).not.toContain('balance') // the shop's wallet stays off the chat
    expect(await mobile.count()).toBe(0)
    expect(page.url()).toContain('#/coupons')
  })
})

describe.each(SIZES)('History at $width×$height with a receipt open', (size) => {
  it("fits without scrolling <main>, Export and Share in view; Share sends the regular's receipt with the name", async () => {
    await page.setViewportSize(size)
    await page.keyboard.press('F10')
    const search = page.getByTestId('history-search')
    await search.fill(REGULAR.number)
    await search.press('Enter')
    await expect.poll(() => page.getByTestId('history-total').getAttribute('data-total')).toBe('1')
    // Its left end: beside an open receipt the row's middle may be cut off by the list's edge.
    await page.getByTestId('history-row').first().click({ position: { x: 20, y: 10 } })
    await page.getByTestId('history-receipt').waitFor()
    await page.getByTestId('customer-name').first().waitFor()
    await page.frameLocator('[data-testid=receipt-preview]').getByText(REGULAR.name).first().waitFor()
    await page.screenshot({ path: join(outputDir, `share-history-${size.width}x${size.height}.png`) })

    expect(await mainOverflow()).toBeLessThanOrEqual(0)
    expect(await inView('history-export')).toBe(true)
    expect(await inView('receipt-share')).toBe(true)
    expect(await inView('history-receipt-close')).toBe(true)

    const { url, text } = await sharedTab(() => page.getByTestId('receipt-share').click())
    expect(url.pathname).toBe(`/91${REGULAR.number}`)
    expect(text).toContain(`Customer: ${REGULAR.name}`)
    expect(text).toContain('*Amount: ₹239.00*')
    expect(page.url()).toContain('#/history')
  })
})
