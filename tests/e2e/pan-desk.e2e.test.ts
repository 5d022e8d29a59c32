// The PAN agent desk as the shop uses it: browser mode in Debian's Chromium, training mode against the
// embedded simulator. An agent is created, approved and sold coupons; screenshots and the receipt PDF
// land in test-output/e2e/ for a person to look at.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { verhoeffDigit } from '../../electron/shared/verhoeff'
import type { PanControls } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, resourcesDir, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, receiptPdfText, startWebApp } from './browser-rig'
import type { Simulator } from '../../electron/simulator/server'


const AGENT_ID = 'AG1001'
const AADHAAR_BODY = '23456789012'
const AADHAAR = AADHAAR_BODY + verhoeffDigit(AADHAAR_BODY)
/** The same number with its check digit one off: a typing slip Verhoeff catches. */
const MISTYPED_AADHAAR = AADHAAR_BODY + String((Number(verhoeffDigit(AADHAAR_BODY)) + 1) % 10)
const spaced = (uid: string) => uid.replace(/(\d{4})(?=\d)/g, '$1 ')
const states: { code: string; name: string }[] = JSON.parse(readFileSync(join(resourcesDir, 'states.json'), 'utf8')).states
const maharashtra = states.find((state) => state.name === 'Maharashtra')!

const dataDir = tempDir('counter-pan-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page
/** The coupon sale the receipt test prints. */
let soldAttemptId = ''

const simulator = () => (counter.session().simulator as Simulator)
const panSim = (): PanControls => simulator().pan
const panRequests = (operation: string) => simulator().requests.filter((request) => request.operation === operation)
const balanceShown = () => page.getByTestId('pan-balance').textContent().then((text) => text?.trim())
// A string, so that this Node-side file needs no DOM types; it does not wait for something to have focus.
const activeTestId = () => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")

/** A viewport screenshot with the thing that matters in view. */
async function shot(name: string, subject: Locator): Promise<void> {
  await subject.scrollIntoViewIfNeeded()
  await page.screenshot({ path: join(outputDir, `pan-${name}.png`) })
}

/** Clicks a button that disables itself while the core answers, and waits for the answer (which may take the button away). */
async function clickAndSettle(button: Locator): Promise<void> {
  await button.click()
  // evaluateAll does not wait for the button to exist, so a button that went away counts as settled.
  await expect.poll(() => button.evaluateAll((found) => found.every((element) => !element.hasAttribute('disabled')))).toBe(true)
}

async function fillAgentForm(uid: string, vleId = AGENT_ID): Promise<void> {
  const input = (field: string) => page.getByTestId(`agent-input-${field}`)
  await input('vleId').fill(vleId)
  await input('name').fill('Ravi Kumar')
  await input('mobile').fill('9876543210')
  await input('email').fill('ravi.kumar@example.in')
  await input('shop').fill('Ravi Xerox and Online Services')
  await input('location').fill('Shivaji Nagar, Pune')
  await input('stateCode').selectOption({ label: `${maharashtra.name} (${maharashtra.code})` })
  await input('pin').fill('411005')
  await input('uid').fill('')
  await input('uid').pressSequentially(spaced(uid))
  await input('pan').fill('')
  await input('pan').pressSequentially('abcpk1234q')
}

/** Picks the agent by typing part of its name, then sells; returns the new order's state. */
async function sellCoupons(qty: number): Promise<string> {
  const result = page.getByTestId('coupon-result')
  const shownBefore = (await result.count()) > 0 ? await result.getAttribute('data-attempt-id') : null
  await page.getByTestId('coupon-agent-input').fill('ravi')
  await page.getByTestId('coupon-agent-option').first().waitFor()
  await page.getByTestId('coupon-agent-input').press('Enter')
  expect(await activeTestId()).toBe('coupon-qty')
  await page.getByTestId('coupon-qty').fill(String(qty))
  await page.getByTestId('coupon-quote').waitFor()
  await page.getByTestId('coupon-qty').press('Enter')
  await expect.poll(() => result.getAttribute('data-attempt-id')).not.toBe(shownBefore)
  await expect.poll(() => result.getAttribute('data-state')).not.toBe('SENDING')
  return (await result.getAttribute('data-state'))!
}

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
  browser = await launchChromium()
  page = await browser.newPage()
  // Well inside the test's own limit, so a step that never happens is named in the failure.
  page.setDefaultTimeout(10_000)
  await page.goto(web.url)
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('PAN agent desk in the browser (training mode)', () => {
  it('shows the PAN balance read at start in the status bar', async () => {
    await expect.poll(balanceShown).toBe('₹5,000.00')
    expect(await page.getByTestId('pan-balance-time').textContent()).toMatch(/at \d\d:\d\d/)
  })

  it('refuses a mistyped Aadhaar next to the field, sending nothing', async () => {
    await page.getByTestId('nav-agents').click()
    await page.getByTestId('agent-new').click()
    await expect.poll(activeTestId).toBe('agent-input-vleId')
    await fillAgentForm(MISTYPED_AADHAAR)
    expect(await page.getByTestId('agent-input-pan').inputValue()).toBe('ABCPK1234Q')
    await page.getByTestId('agent-input-pan').press('Enter')
    const error = page.getByTestId('agent-error-uid')
    await error.waitFor()
    expect(await error.textContent()).toContain('mistyped')
    expect(await activeTestId()).toBe('agent-input-uid')
    expect(panRequests('add_vle')).toHaveLength(0)
    await shot('1-aadhaar-mistyped', error)
  })

  it('creates the agent through the form: PENDING, Aadhaar shown masked', async () => {
    const uid = page.getByTestId('agent-input-uid')
    await uid.fill('')
    await uid.pressSequentially(spaced(AADHAAR))
    await uid.press('Enter')
    const detail = page.getByTestId('agent-detail')
    await detail.waitFor()
    expect(await page.getByTestId('agent-detail-status').getAttribute('data-status')).toBe('PENDING')
    expect(await page.getByTestId('agent-detail-uid').textContent()).toBe(`XXXX XXXX ${AADHAAR.slice(-4)}`)
    expect(await page.getByTestId('agent-detail-stateCode').textContent()).toBe(`${maharashtra.name} (${maharashtra.code})`)
    const row = page.locator(`[data-testid=agent-row][data-vle-id=${AGENT_ID}]`)
    expect(await row.getByTestId('agent-row-status').getAttribute('data-status')).toBe('PENDING')
    expect(panRequests('add_vle')[0].fields.vle_uid).toBe(AADHAAR)
    await shot('2-agent-pending', detail)
  })

  it('shows a taken agent id next to its field and a provider refusal in plain words', async () => {
    await page.getByTestId('agent-new').click()
    await fillAgentForm(AADHAAR)
    await page.getByTestId('agent-input-pan').press('Enter')
    expect(await page.getByTestId('agent-error-vleId').textContent()).toContain('already taken')

    simulator().setFault({ kind: 'failed', operations: ['add_vle'], times: 1 })
    await page.getByTestId('agent-input-vleId').fill('AG1002')
    await page.getByTestId('agent-input-vleId').press('Enter')
    expect(await page.getByTestId('agent-form-error').textContent()).toContain('The provider did not create this agent: Service temporarily unavailable')
    const refused = page.locator('[data-testid=agent-row][data-vle-id=AG1002]')
    expect(await refused.getByTestId('agent-row-status').textContent()).toBe('Not created')
    await shot('3-agent-refused', page.getByTestId('agent-form-error'))

    // Esc clears the form, a second Esc closes it.
    await page.getByTestId('agent-input-vleId').press('Escape')
    expect(await page.getByTestId('agent-input-vleId').inputValue()).toBe('')
    await page.getByTestId('agent-input-vleId').press('Escape')
    await page.getByTestId('agent-form').waitFor({ state: 'detached' })
    await page.locator(`[data-testid=agent-row][data-vle-id=${AGENT_ID}] button`).first().click()
  })

  it('refreshes the agent until the provider approves it', async () => {
    const row = page.locator(`[data-testid=agent-row][data-vle-id=${AGENT_ID}]`)
    const status = () => row.getByTestId('agent-row-status').getAttribute('data-status')
    for (let attempt = 0; attempt < 5 && (await status()) !== 'APPROVED'; attempt++) {
      await clickAndSettle(row.getByTestId('agent-row-refresh'))
    }
    expect(await status()).toBe('APPROVED')
    expect(await page.getByTestId('agent-detail-status').getAttribute('data-status')).toBe('APPROVED')
  })

  it('takes a password reset from PENDING to APPROVED with Check', async () => {
    await clickAndSettle(page.getByTestId('reset-request'))
    const reset = page.getByTestId('reset-row').first()
    const status = () => reset.getByTestId('reset-status').getAttribute('data-status')
    expect(await status()).toBe('PENDING')
    for (let attempt = 0; attempt < 5 && (await status()) !== 'APPROVED'; attempt++) {
      await clickAndSettle(reset.getByTestId('reset-check'))
    }
    expect(await status()).toBe('APPROVED')
    expect(await reset.getByTestId('reset-message').textContent()).toContain('completed')
    await shot('4-reset-approved', reset)
  })

  it('sells 3 P-coupons and the balance drops by 3 × the rate charged', async () => {
    await page.getByTestId('nav-coupons').click()
    await expect.poll(activeTestId).toBe('coupon-agent-input')
    // Before any sale of the type, the quote uses the shop's default rate.
    await page.getByTestId('coupon-qty').fill('3')
    await page.getByTestId('coupon-agent-input').fill('RAVI')
    await page.getByTestId('coupon-agent-option').first().click()
    await expect.poll(() => page.getByTestId('coupon-quote-amount').textContent()).toBe('₹321.00')
    expect(await page.getByTestId('coupon-quote-rate').getAttribute('data-source')).toBe('default')
    expect(await page.getByTestId('coupon-quote-balance').textContent()).toContain('₹5,000.00')
    await shot('5-coupon-quote', page.getByTestId('coupon-quote'))
    await page.getByTestId('coupon-agent-input').press('Escape') // clears the form for the real sale below

    expect(await sellCoupons(3)).toBe('SUCCESS')
    const figure = (key: string) => page.getByTestId(`coupon-result-${key}`).textContent()
    expect(await figure('orderId')).toMatch(/^UTI\d+$/)
    expect(await figure('qty')).toBe('3')
    expect(await figure('rate')).toBe('₹107.00')
    expect(await figure('amount')).toBe('₹321.00')
    expect(await figure('oldBal')).toBe('₹5,000.00')
    expect(await figure('newBal')).toBe('₹4,679.00')
    expect(await page.getByTestId('coupon-problems').count()).toBe(0)
    await expect.poll(balanceShown).toBe('₹4,679.00')
    expect(panSim().balancePaise()).toBe(4_679_00)
    const order = page.getByTestId('coupon-order-row').first()
    expect(await order.getByTestId('coupon-order-status').getAttribute('data-state')).toBe('SUCCESS')
    soldAttemptId = (await order.getAttribute('data-attempt-id'))!
    await shot('6-coupons-sold', page.getByTestId('coupon-result'))
    // Chromium does not lay out a sandboxed frame while it is off screen: bring it into view first.
    await page.getByTestId('receipt-preview').scrollIntoViewIfNeeded()
    await page.frameLocator('[data-testid=receipt-preview]').getByText('PAN coupons').waitFor()
    await shot('7-coupon-receipt', page.getByTestId('receipt-preview'))
  })

  it('renders the coupon receipt to a PDF with order id, qty, amount, old and new balance', async () => {
    const sales = await counter.call('pan.coupons.list', {})
    if (!sales.ok) throw new Error(sales.error.message)
    const sale = sales.value.sales.find((listed) => listed.attemptId === soldAttemptId)!
    const text = await receiptPdfText(browser, counter, soldAttemptId)
    expect(text).toContain(sale.orderId!)
    expect(text).toMatch(/Qty\s+3/)
    expect(text).toMatch(/Amount\s+₹321\.00/)
    expect(text).toMatch(/Old balance\s+₹5,000\.00/)
    expect(text).toMatch(/New balance\s+₹4,679\.00/)
    expect(text).toContain('TRAINING')
  })

  it('shows the provider refusing a sale the balance cannot cover, and the balance as the provider has it', async () => {
    // Money left the wallet elsewhere: Counter still believes ₹4,679.00, so only the provider can refuse.
    panSim().setBalance(150_00)
    expect(await sellCoupons(2)).toBe('FAILED')
    expect(await page.getByTestId('coupon-result-message').textContent()).toContain('Insufficient balance')
    await expect.poll(balanceShown).toBe('₹150.00')
    expect(panSim().balancePaise()).toBe(150_00)
    const order = page.getByTestId('coupon-order-row').first()
    expect(await order.getByTestId('coupon-order-status').getAttribute('data-state')).toBe('FAILED')
    await shot('8-insufficient-balance', page.getByTestId('coupon-result'))
  })

  it('warns before sending when the known balance is short, and the core refuses locally', async () => {
    const requestsBefore = panRequests('coupon_req').length
    await page.getByTestId('coupon-qty').fill('5')
    await page.getByTestId('coupon-quote-short').waitFor()
    await page.getByTestId('coupon-qty').press('Enter')
    await expect.poll(() => page.getByTestId('coupon-error-qty').textContent()).toContain('Not enough balance')
    expect(panRequests('coupon_req')).toHaveLength(requestsBefore)
    await shot('9-balance-short', page.getByTestId('coupon-quote-short'))
  })

  it('keeps an unanswered order unconfirmed: do not order again, refresh the balance, compare with the history', async () => {
    simulator().setFault({ kind: 'http500', operations: ['coupon_req'], times: 1 })
    expect(await sellCoupons(1)).toBe('UNKNOWN')
    const result = page.getByTestId('coupon-result')
    expect(await result.textContent()).toContain('do not order again')
    expect(await page.getByTestId('coupon-unconfirmed-advice').textContent()).toContain('coupon history')
    expect(await page.getByTestId('coupon-agent-input').inputValue()).toBe('') // a second Enter cannot resend it
    await clickAndSettle(page.getByTestId('coupon-result-refresh-balance'))
    expect(await page.getByTestId('coupon-result-balance').textContent()).toContain(await balanceShown())
    const order = page.getByTestId('coupon-order-row').first()
    expect(await order.getByTestId('coupon-order-status').getAttribute('data-state')).toBe('UNKNOWN')
    await clickAndSettle(order.getByTestId('coupon-order-check'))
    expect(await order.getByTestId('coupon-order-error').textContent()).toContain('never named an order')
    await shot('10-unconfirmed', result)
  })

  it('settles the unanswered order by phone in Pending with the charge the provider confirms, filled in as expected', async () => {
    const [unconfirmed] = (await counter.call('pending.list', {}).then((listed) => (listed.ok ? listed.value.items : []))).filter((item) => item.kind === 'coupon')
    await page.getByTestId('nav-pending').click()
    const item = page.locator(`[data-testid=pending-item][data-id="${unconfirmed.id}"]`)
    await item.getByTestId('pending-settle').click()
    await item.getByTestId('settle-charged').waitFor({ state: 'detached' }) // asked only for a coupon done
    await item.getByTestId('settle-outcome-SUCCESS').click()
    expect(await item.getByTestId('settle-charged').inputValue()).toBe('107')
    await item.getByTestId('settle-charged').fill('1O7')
    await item.getByTestId('settle-note').fill('Confirmed by Suresh at the provider helpline, 18:40')
    await item.getByTestId('settle-note').press('Enter')
    await item.getByTestId('settle-error-charged').waitFor()
    expect(await activeTestId()).toBe('settle-charged')
    await item.getByTestId('settle-charged').fill('107')
    await shot('10b-settle-charge', item)
    await item.getByTestId('settle-charged').press('Enter')
    await page.getByTestId('pending-empty').waitFor()
    const sales = await counter.call('pan.coupons.list', {})
    if (!sales.ok) throw new Error(sales.error.message)
    expect(sales.value.sales.find((sale) => sale.attemptId === unconfirmed.id)).toMatchObject({ state: 'SUCCESS', amountPaise: 107_00 })
  })

  it('saves the PAN settings; the coupon form and the provider calls follow them', async () => {
    await page.getByTestId('nav-settings').click()
    // The screen reloads the settings when it opens and then resets the form: type after that.
    await expect.poll(() => page.getByTestId('settings-coupon-max-qty').inputValue()).toBe('50')
    await page.getByTestId('settings-coupon-max-qty').fill('five')
    await page.getByTestId('settings-coupon-max-qty').press('Enter')
    expect(await page.getByTestId('field-error-couponMaxQty').textContent()).toBe('Enter a whole number')
    await page.getByTestId('settings-coupon-max-qty').fill('5')
    await page.getByTestId('settings-pan-method-GET').check()
    await page.getByTestId('settings-p-coupon-rate').fill('110')
    await page.getByTestId('settings-save').click()
    await page.getByTestId('settings-saved').waitFor()
    const saved = await counter.call('settings.get', {})
    if (!saved.ok) throw new Error(saved.error.message)
    expect(saved.value).toMatchObject({ couponMaxQty: 5, panRequestMethod: 'GET', couponDefaultRatesPaise: { p: 110_00, e: 72_00 } })
    await shot('11-settings', page.getByTestId('settings-p-coupon-rate'))

    await page.getByTestId('nav-coupons').click()
    expect(await page.getByTestId('coupon-form').textContent()).toContain('1 to 5')
    await page.getByTestId('coupon-agent-input').fill('AG1001')
    await page.getByTestId('coupon-agent-input').press('Enter')
    await page.getByTestId('coupon-qty').fill('6')
    await page.getByTestId('coupon-qty').press('Enter')
    expect(await page.getByTestId('coupon-error-qty').textContent()).toBe('At most 5 coupons in one order')

    await clickAndSettle(page.getByTestId('pan-balance-refresh'))
    expect(panRequests('balance').at(-1)!.method).toBe('GET')
  })

  it('opens a named-only service with its one line of why', async () => {
    await page.getByTestId('nav-more').click() // the services the provider lacks fold under one item
    await page.getByTestId('nav-unavailable-payout').click()
    expect(await page.getByTestId('unavailable-why').textContent()).toContain('no paths or fields')
    await shot('12-unavailable', page.getByTestId('unavailable-view'))
  })
})
