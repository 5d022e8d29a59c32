// The books as the shop keeps them: collected money and cash/UPI at sale time, the pending queue
// settled by phone, a top-up, day close with the drawer counted by denomination, the Z report's CSV,
// the day locked, and history (found by number and order id, reprinted, virtualized over 5,000
// sales). Browser mode in Debian's Chromium against the training simulator; screenshots land in
// test-output/e2e/books-*.png for a person to look at.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { businessDayOf } from '../../electron/counter/business-day'
import { formatDay } from '../../electron/shared/dates'
import type { WebServer } from '../../electron/web/server'
import { approvedAgent, privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'
import type { Simulator } from '../../electron/simulator/server'


const SEEDED_SALES = 5_000
const seededOrderId = (index: number) => `TSEED${String(index).padStart(6, '0')}`
const AGENT_ID = 'VLE1001'

const dataDir = tempDir('counter-books-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page
/** The UPI sale with a service charge, found again in History. */
let upiOrderId = ''
let today = ''

const simulator = () => (counter.session().simulator as Simulator)
const transactions = () => simulator().requests.filter((request) => request.operation === 'transaction').length
const text = (testId: string) => page.getByTestId(testId).first().textContent().then((found) => found?.trim() ?? '')

/** A viewport screenshot with the thing that matters in view. */
async function shot(name: string, subject: Locator): Promise<void> {
  await subject.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(outputDir, `books-${name}.png`) })
}

/**
 * Sales from earlier days written straight into the ledger (intent and outcome, as the counter
 * writes them), so History has thousands of rows without thousands of provider calls.
 */
function seedHistory(businessDay: string): void {
  const { ledger } = counter.session()
  for (let index = 0; index < SEEDED_SALES; index++) {
    const orderId = seededOrderId(index)
    ledger.append('recharge.intent', {
      orderId,
      kind: 'mobile',
      number: String(7_000_000_000 + index),
      operatorCode: 'AT',
      operatorName: 'Airtel',
      circle: null,
      amountPaise: (10 + (index % 90)) * 100,
      businessDay,
      training: true,
    })
    ledger.append('recharge.outcome', {
      orderId,
      source: 'transaction',
      outcome: 'SUCCESS',
      providerStatus: 'SUCCESS',
      message: 'Recharge successful',
      fpayId: `FP${index}`,
      operatorRef: null,
    })
  }
}

/** Fills the recharge form and sells with Enter; returns the state and order id shown. */
async function sellRecharge(number: string, amount: string, payment: { collected?: string; upi?: boolean } = {}): Promise<{ state: string; orderId: string }> {
  const panel = page.getByTestId('result-panel')
  const shownBefore = (await panel.count()) > 0 ? await panel.textContent() : null
  await page.getByTestId('number-input').fill(number)
  await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
  await page.getByTestId('amount-input').fill(amount)
  if (payment.upi) await page.getByTestId('pay-upi').click()
  if (payment.collected) await page.getByTestId('collected').fill(payment.collected)
  await page.getByTestId(payment.collected ? 'collected' : 'amount-input').press('Enter')
  await expect.poll(() => panel.textContent()).not.toBe(shownBefore)
  await expect.poll(() => panel.getAttribute('data-state')).not.toBe('SENDING')
  const orderId = (await panel.getByTestId('result-order-id').textContent())!.match(/^\s*([A-Z0-9]+)\s*$/)![1]
  return { state: (await panel.getAttribute('data-state'))!, orderId }
}

beforeAll(async () => {
  // A short provider limit, so that a held request becomes UNKNOWN quickly.
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService, { providerTimeoutMs: 1_000 }))
  today = businessDayOf(new Date(), 'Asia/Kolkata')
  seedHistory(businessDayOf(new Date(Date.now() - 86_400_000), 'Asia/Kolkata'))
  await approvedAgent(counter, AGENT_ID)
  browser = await launchChromium({ acceptDownloads: true })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.goto(web.url)
}, 120_000)

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('the books in the browser (training mode)', () => {
  it('records the collected amount and cash or UPI at sale time', async () => {
    await page.getByTestId('number-input').fill('9876543210')
    await page.getByTestId('amount-input').fill('199')
    // Until edited, Collected shows the amount.
    expect(await page.getByTestId('collected').inputValue()).toBe('199')
    expect(await page.getByTestId('pay-cash').getAttribute('aria-pressed')).toBe('true')
    await page.getByTestId('collected').fill('210')
    expect(await text('service-charge')).toBe('Includes a service charge of ₹11.00')
    await page.getByTestId('pay-upi').click()
    await shot('1-payment', page.getByTestId('sell-button'))
    await page.getByTestId('number-input').press('Escape')

    const upi = await sellRecharge('9876543210', '199', { collected: '210', upi: true })
    expect(upi.state).toBe('SUCCESS')
    upiOrderId = upi.orderId
    // The next customer starts from cash and the amount again.
    expect(await page.getByTestId('pay-cash').getAttribute('aria-pressed')).toBe('true')
    expect((await sellRecharge('9123456789', '100')).state).toBe('SUCCESS')

    const sales = await counter.call('sales.today', {})
    if (!sales.ok) throw new Error(sales.error.message)
    const byId = new Map(sales.value.sales.map((sale) => [sale.orderId, sale]))
    expect(byId.get(upiOrderId)).toMatchObject({ amountPaise: 199_00, collectedPaise: 210_00, paymentMode: 'upi' })
    expect(sales.value.sales.find((sale) => sale.number === '9123456789')).toMatchObject({ collectedPaise: 100_00, paymentMode: 'cash' })
  })

  it('takes coupons paid by UPI with a service charge', async () => {
    await page.getByTestId('nav-coupons').click()
    await page.getByTestId('coupon-agent-input').fill(AGENT_ID)
    await page.getByTestId('coupon-agent-input').press('Enter')
    await page.getByTestId('coupon-qty').fill('1')
    await expect.poll(() => page.getByTestId('coupon-collected').inputValue()).toBe('107')
    await page.getByTestId('coupon-pay-upi').click()
    await page.getByTestId('coupon-collected').fill('120')
    expect(await text('coupon-service-charge')).toBe('Includes a service charge of ₹13.00')
    await shot('1b-coupon-payment', page.getByTestId('coupon-sell'))
    await page.getByTestId('coupon-collected').press('Enter')
    await expect.poll(() => page.getByTestId('coupon-result').getAttribute('data-state')).toBe('SUCCESS')
    const coupons = await counter.call('pan.coupons.list', {})
    if (!coupons.ok) throw new Error(coupons.error.message)
    expect(coupons.value.sales[0]).toMatchObject({ amountPaise: 107_00, collectedPaise: 120_00, paymentMode: 'upi' })
  })

  it('lists a sale left without an answer in Pending, checks it, and settles it by phone with a note', async () => {
    // The provider processes the order but its answer is cut off, and so are its status answers.
    simulator().setFault({ kind: 'truncatedJson', operations: ['transaction', 'check_status'] })
    await page.getByTestId('nav-recharge').click()
    const unknown = await sellRecharge('9988776655', '75')
    expect(unknown.state).toBe('UNKNOWN')
    await expect.poll(() => text('nav-pending-count')).toBe('1')

    await page.getByTestId('nav-pending').click()
    const item = page.locator(`[data-testid=pending-item][data-id="${unknown.orderId}"]`)
    await item.waitFor()
    expect(await item.getByTestId('pending-state').getAttribute('data-state')).toBe('UNKNOWN')
    await item.getByTestId('pending-check').click()
    await expect.poll(() => item.getByTestId('pending-last-checked').textContent()).not.toBe('never')
    expect(await item.getByTestId('pending-state').getAttribute('data-state')).toBe('UNKNOWN')
    await shot('2-pending', item)

    await item.getByTestId('pending-settle').click()
    await item.getByTestId('settle-outcome-SUCCESS').click()
    await item.getByTestId('settle-note').fill('Suresh')
    await item.getByTestId('settle-note').press('Enter')
    expect(await item.getByTestId('settle-error-note').textContent()).toContain('at least 10 characters')
    await item.getByTestId('settle-note').fill('Confirmed by Suresh at the provider helpline, 18:40')
    await shot('3-settle-form', item)
    await item.getByTestId('settle-note').press('Enter')
    await page.getByTestId('pending-empty').waitFor()
    expect(await text('pending-notice')).toContain(unknown.orderId)
    await page.getByTestId('nav-pending-count').waitFor({ state: 'detached' })
    const settled = await counter.call('sales.today', {})
    if (!settled.ok) throw new Error(settled.error.message)
    expect(settled.value.sales.find((sale) => sale.orderId === unknown.orderId)).toMatchObject({
      state: 'SUCCESS',
      settledNote: 'Confirmed by Suresh at the provider helpline, 18:40',
    })
  })

  it('adds a top-up of the provider wallet on the Day close screen', async () => {
    await page.getByTestId('nav-day-close').click()
    await expect.poll(() => page.getByTestId('day-status').getAttribute('data-closed')).toBe('false')
    // Training's wallet takes the top-up itself once it is entered (TrainingProvider.receiveTopUp); ₹150 leaves it
    // outside Counter: a balance break.
    simulator().pan.setBalance(simulator().pan.balancePaise() - 150_00)
    await page.getByTestId('topup-amount').fill('1000')
    await page.getByTestId('topup-reference').fill('UTR4455667788')
    await page.getByTestId('topup-note').fill('Bank transfer to the wallet')
    await page.getByTestId('topup-note').press('Enter')
    await page.getByTestId('topup-added').waitFor()
    const row = page.getByTestId('topup-row')
    expect(await row.count()).toBe(1)
    expect(await row.textContent()).toContain('UTR4455667788')
    expect(await text('topups-total')).toBe('₹1,000.00')
    // The summary read the balance again after the top-up.
    await expect.poll(() => text('balance-break-difference')).toBe('−₹150.00')
    await shot('4-topups-breaks', page.getByTestId('balance-breaks'))
  })

  it('shows the day: sales, cash and UPI collected, and the drawer difference as the count is typed', async () => {
    // Another sale left open, for the close below.
    await page.getByTestId('nav-recharge').click()
    expect((await sellRecharge('9911223344', '50')).state).toBe('UNKNOWN')
    await page.getByTestId('nav-day-close').click()
    await page.getByTestId('day-pending-row').first().waitFor()

    const total = page.getByTestId('day-recharges-total')
    expect(await total.textContent()).toMatch(/Total successful\s*3\s*₹374\.00/)
    expect(await page.locator('[data-testid=day-recharge-row][data-state=UNKNOWN]').textContent()).toContain('₹50.00')
    expect(await page.getByTestId('day-coupons').textContent()).toContain('P-Coupon')
    // Cash: 100 + 75 (settled) + 50 (still open); UPI: 210 + 120.
    expect(await text('drawer-cash-collected')).toBe('₹225.00')
    expect(await text('drawer-upi-collected')).toBe('₹330.00')
    await shot('5-day-sales', page.getByTestId('day-sales'))

    const difference = () => text('drawer-difference')
    await page.getByTestId('drawer-float').fill('500')
    expect(await text('drawer-expected')).toBe('₹725.00')
    await page.getByTestId('drawer-n500').fill('1')
    expect(await difference()).toBe('−₹225.00')
    await page.getByTestId('drawer-n200').fill('1')
    expect(await difference()).toBe('−₹25.00')
    await page.getByTestId('drawer-n10').fill('2')
    expect(await difference()).toBe('−₹5.00')
    await page.getByTestId('drawer-coins').fill('3.50')
    expect(await text('drawer-counted')).toBe('₹723.50')
    expect(await difference()).toBe('−₹1.50')
    expect(await page.getByTestId('drawer-difference').getAttribute('data-paise')).toBe('-150')
    await page.getByTestId('drawer-n50').fill('x')
    expect(await page.getByTestId('cash-drawer').textContent()).toContain('Whole notes only')
    expect(await difference()).toBe('—')
    await page.getByTestId('drawer-n50').fill('')
    expect(await difference()).toBe('−₹1.50')
    await shot('6-drawer', page.getByTestId('drawer-difference'))
  })

  it('refuses to close over an unresolved sale until the owner writes why, then closes', async () => {
    expect(await text('drawer-unresolved')).toContain('Unresolved sales: 1.')
    await page.getByTestId('drawer-coins').press('Enter')
    await page.getByTestId('close-confirm').waitFor()
    await shot('7a-confirm', page.getByTestId('close-confirm'))
    await page.getByTestId('close-confirm-yes').click()
    const noteError = page.getByTestId('drawer-error-overrideNote')
    await noteError.waitFor()
    expect(await noteError.textContent()).toContain('still unresolved')
    await expect.poll(() => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")).toBe('drawer-override-note')
    await shot('7-override-refused', noteError)
    const closure = await counter.call('day.summary', { businessDay: today })
    expect(closure.ok && closure.value.closed).toBe(false)

    await page.getByTestId('drawer-override-note').fill('Helpline closed; the ₹50 sale is settled tomorrow')
    await page.getByTestId('drawer-override-note').press('Enter')
    await page.getByTestId('close-confirm-yes').click()
    // A close checks the whole journal and reads the provider's balance first: on a busy machine that is seconds, not poll's default second.
    await expect.poll(() => page.getByTestId('day-status').getAttribute('data-closed'), { timeout: 20_000 }).toBe('true')
    expect(await text('day-closed-notice')).toContain(today.split('-').reverse().join('-')) // shown DD-MM-YYYY
    expect(await text('drawer-difference')).toBe('−₹1.50')
    expect(await text('drawer-override-shown')).toContain('Helpline closed')
    expect(await page.getByTestId('topup-form').count()).toBe(0)
    await shot('8-closed', page.getByTestId('day-status'))
    await shot('8b-closed-drawer', page.getByTestId('drawer-summary'))
  })

  it('exports the Z report as a CSV file with the day’s totals', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-csv').click()])
    expect(download.suggestedFilename()).toBe(`z-report-TRAINING-${today}.csv`)
    const csv = readFileSync((await download.path())!, 'utf8')
    expect(csv).toContain('Total successful,,,3,374\r\n')
    expect(csv).toContain('Cash collected,,225\r\n')
    expect(csv).toContain('UPI collected (not in the drawer),,330\r\n')
    expect(csv).toContain('Expected in the drawer,,725\r\n')
    expect(csv).toContain('Counted,,723.50\r\n')
    expect(csv).toContain('Difference (counted − expected),,-1.50\r\n')
    expect(csv).toContain('UTR4455667788')
    expect(await text('report-notice')).toContain(download.suggestedFilename())
  })

  it('refuses a sale on the closed day in plain words, on both sale screens, sending nothing', async () => {
    simulator().setFault(null)
    const sentBefore = transactions()
    await page.getByTestId('nav-recharge').click()
    await page.getByTestId('number-input').fill('9876501234')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('amount-input').fill('20')
    await page.getByTestId('amount-input').press('Enter')
    const refusal = page.getByTestId('day-closed-message')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain(`The books for ${formatDay(today)} are closed`)
    expect(transactions()).toBe(sentBefore)
    await shot('9-sale-refused', refusal)

    await page.getByTestId('nav-coupons').click()
    await page.getByTestId('coupon-agent-input').fill(AGENT_ID)
    await page.getByTestId('coupon-agent-input').press('Enter')
    await page.getByTestId('coupon-qty').press('Enter')
    await page.getByTestId('day-closed-message').waitFor()
    expect(await text('day-closed-message')).toContain('closed')
  })

  it('finds a sale in History by number and by order id, and reprints its receipt', async () => {
    await page.getByTestId('nav-history').click()
    const search = page.getByTestId('history-search')
    await search.fill('9876543210')
    await search.press('Enter')
    await expect.poll(() => page.getByTestId('history-total').getAttribute('data-total')).toBe('1')
    expect(await page.getByTestId('history-row').first().getAttribute('data-id')).toBe(upiOrderId)
    expect(await text('history-archives')).toContain('no closed year')

    await search.fill(upiOrderId)
    await search.press('Enter')
    await expect.poll(() => page.getByTestId('history-total').getAttribute('data-total')).toBe('1')
    const row = page.getByTestId('history-row').first()
    expect(await row.getAttribute('data-id')).toBe(upiOrderId)
    expect(await row.textContent()).toContain('₹199.00')
    await row.click()
    await page.getByTestId('history-receipt').waitFor()
    // The frame is made anew when the receipt's html comes (ReceiptPreview keys it by its html): scrolled to once it has.
    await page.frameLocator('[data-testid=receipt-preview]').getByText(upiOrderId).first().waitFor()
    await page.getByTestId('receipt-preview').scrollIntoViewIfNeeded()
    expect(await page.getByTestId('receipt-print').isEnabled()).toBe(true)
    await shot('10-history-receipt', page.getByTestId('history-receipt'))

    // The receipt scrolled <main> down, past the Export button. Clicking it straight away, Chromium hit-tests the
    // point against the layout before the scroll and the click lands in the receipt's iframe (nothing exported);
    // a person scrolls up and then clicks, and so does this.
    const exportButton = page.getByTestId('history-export')
    await exportButton.scrollIntoViewIfNeeded()
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()])
    expect(readFileSync((await download.path())!, 'utf8')).toContain(upiOrderId)
  })

  it('keeps thousands of rows virtual: few row elements, and scrolling to the end reaches the last sale', async () => {
    await page.getByTestId('history-search').press('Escape') // puts the receipt away
    await page.getByTestId('history-search').press('Escape') // clears the search
    const expected = await counter.call('history.search', {})
    if (!expected.ok) throw new Error(expected.error.message)
    expect(expected.value.total).toBeGreaterThan(SEEDED_SALES)
    await expect.poll(() => page.getByTestId('history-total').getAttribute('data-total')).toBe(String(expected.value.total))
    await page.getByTestId('history-row').first().waitFor()
    const drawnRows = () => page.locator('.virtual-row').count()
    expect(await drawnRows()).toBeLessThan(60)
    await shot('11-history', page.getByTestId('history-view'))

    const list = page.locator('.virtual-list')
    // Strings, so that this Node-side file needs no DOM types.
    await page.evaluate("document.querySelector('.virtual-list').scrollTo({ top: 1e9 })")
    const lastIndex = expected.value.total - 1
    const lastRow = page.locator(`[data-testid=history-row][data-index="${lastIndex}"]`)
    await lastRow.waitFor()
    // Newest first: the last row is the first sale ever recorded.
    expect(await lastRow.getAttribute('data-id')).toBe(seededOrderId(0))
    expect(await drawnRows()).toBeLessThan(60)
    await shot('12-history-end', lastRow)

    // The keyboard walks the list too: Home is the newest sale, Enter opens its receipt.
    await list.focus()
    await list.press('Home')
    await expect.poll(() => page.evaluate<number>("document.querySelector('.virtual-list').scrollTop")).toBe(0)
    await list.press('Enter')
    await page.getByTestId('history-receipt').waitFor()
  })
})
