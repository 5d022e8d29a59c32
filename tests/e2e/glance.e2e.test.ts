// The counter at a glance (issue 13), in Debian's Chromium at the two common shop screens, 1366×768
// and 1024×768: the outcome and Print in view after a sale, one key per screen with focus inside it,
// nothing past the right edge, axe-core clean, one h1 a screen; the keystrokes of a ₹199 recharge
// counted and printed; and the traps the issue found (coupon quantity, stale operator error, grouped
// amounts, the top-up's own limit, the mid-sale return on Recharge and Coupons) replayed.
// Screenshots of every screen at both sizes land in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { formatPaise, rupeesInputPaise } from '../../electron/shared/money'
import type { WebServer } from '../../electron/web/server'
import { approvedAgent, privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'
import type { Simulator } from '../../electron/simulator/server'

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const
/** Every screen, its key, and where focus must land; the same list the help overlay shows (renderer/src/shortcuts.ts). */
const SCREENS = [
  { route: 'recharge', hash: '#/', key: 'F1' },
  { route: 'coupons', hash: '#/coupons', key: 'F2' },
  { route: 'agents', hash: '#/agents', key: 'F4' },
  { route: 'pending', hash: '#/pending', key: 'F8' },
  { route: 'day-close', hash: '#/day-close', key: 'F9' },
  { route: 'history', hash: '#/history', key: 'F10' },
  { route: 'settings', hash: '#/settings', key: 'Control+Comma' },
] as const

const dataDir = tempDir('counter-glance-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

const simulator = () => (counter.session().simulator as Simulator)
const activeTestId = () => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")

// Browser mode prints through a throwaway frame given the receipt's HTML (renderer/src/browserPrint.ts):
// record every such frame, so the test sees what went to the print dialog without a dialog.
const RECORD_PRINT_FRAMES = `
  window.__printed = []
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node instanceof HTMLIFrameElement && node.getAttribute('aria-hidden') === 'true') window.__printed.push(node.srcdoc)
    }
  }).observe(document, { childList: true, subtree: true })
`
const printed = () => page.evaluate<string[]>('window.__printed')

/** Counts every key the cashier presses. */
class Keys {
  count = 0
  async press(key: string): Promise<void> {
    this.count++
    await page.keyboard.press(key)
  }
  async type(text: string): Promise<void> {
    for (const char of text) await this.press(char)
  }
}

// What runs in the page is written as text: this Node-side file has no DOM types.

/** Inside the viewport, and the topmost thing at its centre is itself or a part of it (nothing covers it). */
const IN_VIEW_AND_UNCOVERED = `(element) => {
  const box = element.getBoundingClientRect()
  const inside = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
  return { inside, uncovered: !!top && (top === element || element.contains(top)), box: box.left + ',' + box.top + ' ' + box.width + '×' + box.height }
}`

async function expectInViewAndUncovered(selector: string, what: string): Promise<void> {
  const verdict = await page.evaluate<{ inside: boolean; uncovered: boolean; box: string }>(`(${IN_VIEW_AND_UNCOVERED})(document.querySelector(${JSON.stringify(selector)}))`)
  expect({ what, ...verdict }).toMatchObject({ what, inside: true, uncovered: true })
}

/** Elements past the right edge, a screen that scrolls sideways, and anything sticking out of its card. */
const OVERFLOW_REPORT = `(() => {
  const found = []
  const name = (element) => element.tagName.toLowerCase() + '[' + (element.getAttribute('data-testid') ?? '') + '].' + [...element.classList].join('.') + ' "' + (element.textContent ?? '').trim().slice(0, 30) + '"'
  const root = document.documentElement
  if (root.scrollWidth > root.clientWidth) found.push('page scrolls sideways: ' + root.scrollWidth + ' > ' + root.clientWidth)
  const screen = document.querySelector('main.screen')
  if (screen.scrollWidth > screen.clientWidth + 1) found.push('screen scrolls sideways: ' + screen.scrollWidth + ' > ' + screen.clientWidth)
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect()
    if (box.width > 0 && box.right > window.innerWidth + 0.5) found.push('past the right edge (' + Math.round(box.right) + '): ' + name(element))
  }
  for (const card of document.querySelectorAll('.card, .result-panel, .today-panel, .receipt, .drawer-line, .list-row')) {
    const edge = card.getBoundingClientRect().right
    for (const inner of card.querySelectorAll('*')) {
      const box = inner.getBoundingClientRect()
      if (box.width > 0 && box.right > edge + 1) found.push('out of its ' + card.className + ' (' + Math.round(box.right - edge) + ' px): ' + name(inner))
    }
  }
  return found.slice(0, 12)
})()`
const overflowReport = () => page.evaluate<string[]>(OVERFLOW_REPORT)

/** Bars whose items do not all sit on one line (an item's top below another item's bottom). */
const WRAPPED_BARS = `['.nav', '.status-bar'].filter((bar) => {
  const boxes = [...document.querySelector(bar).children].map((item) => item.getBoundingClientRect()).filter((box) => box.height > 0)
  const firstBottom = Math.min(...boxes.map((box) => box.bottom))
  return boxes.some((box) => box.top >= firstBottom)
})`
const wrappedBars = () => page.evaluate<string[]>(WRAPPED_BARS)

const focusInScreen = () => page.evaluate<boolean>("!!document.querySelector('main.screen')?.contains(document.activeElement)")

async function openScreen(key: string, hash: string): Promise<void> {
  await page.keyboard.press(key)
  await page.waitForFunction(`location.hash === ${JSON.stringify(hash)}`)
}

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
  await approvedAgent(counter, 'AG2001')
  browser = await launchChromium({ bypassCSP: true })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.addInitScript(RECORD_PRINT_FRAMES)
  await page.goto(web.url)
  await page.getByTestId('number-input').waitFor()
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe.each(SIZES)('at $width×$height', (size) => {
  const tag = `${size.width}x${size.height}`

  beforeAll(async () => {
    await page.setViewportSize(size)
    await openScreen('F1', '#/')
  })

  it('sells ₹199 from the focused number field to a printed receipt in at most 16 keys, outcome and Print in view', async () => {
    await page.keyboard.press('F1') // on Recharge: the next customer, the number field focused
    await expect.poll(activeTestId).toBe('number-input')
    const printedBefore = (await printed()).length
    const keys = new Keys()
    await keys.type('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('') // from the lookup, no key
    await keys.press('Enter') // on to the amount
    expect(await activeTestId()).toBe('amount-input')
    await keys.type('199')
    await keys.press('Enter')
    const panel = page.getByTestId('result-panel')
    await expect.poll(() => panel.getAttribute('data-state')).toBe('SUCCESS')
    const orderId = (await page.getByTestId('result-order-id').textContent())!.trim()
    expect(await activeTestId()).toBe('number-input') // the next customer can start typing at once
    await expectInViewAndUncovered('[data-testid=result-panel] .result-headline', 'outcome')
    await expectInViewAndUncovered('[data-testid=result-order-id]', 'order id')
    await expectInViewAndUncovered('[data-testid=result-next]', 'what to do next')
    await expectInViewAndUncovered('[data-testid=receipt-print]', 'Print')
    await page.screenshot({ path: join(outputDir, `glance-${tag}-recharge-outcome.png`) })

    await keys.press('Control+P')
    await expect.poll(async () => (await printed()).length).toBe(printedBefore + 1)
    const sent = (await printed()).at(-1)!
    expect(sent).toContain(orderId)
    expect(sent).toContain('₹199.00')
    await expect.poll(() => page.getByTestId('receipt-notice').textContent()).toContain('Print dialog closed')
    console.log(`[glance ${tag}] ₹199 mobile recharge, focused number field to printed receipt: ${keys.count} keys (target ≤ 16; was 26)`)
    expect(keys.count).toBeLessThanOrEqual(16)
    // The next customer's number typed at once after printing, by Ctrl+P or by the Print button: every digit lands.
    await page.keyboard.type('9876500001')
    expect(await page.getByTestId('number-input').inputValue()).toBe('9876500001')
    await page.getByTestId('receipt-print').click()
    await expect.poll(async () => (await printed()).length).toBe(printedBefore + 2)
    await expect.poll(activeTestId).toBe('number-input')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('9876500002')
    expect(await page.getByTestId('number-input').inputValue()).toBe('9876500002')
    await page.keyboard.press('Escape')
  })

  it('sells coupons with the outcome and Print in view; Ctrl+P prints that receipt', async () => {
    await openScreen('F2', '#/coupons')
    await expect.poll(activeTestId).toBe('coupon-agent-input')
    await page.keyboard.type('AG2001')
    await page.getByTestId('coupon-agent-option').first().waitFor()
    await page.keyboard.press('Enter')
    await expect.poll(activeTestId).toBe('coupon-qty')
    await page.keyboard.type('2')
    await page.getByTestId('coupon-quote').waitFor()
    const printedBefore = (await printed()).length
    await page.keyboard.press('Enter')
    const result = page.getByTestId('coupon-result')
    await expect.poll(() => result.getAttribute('data-state')).toBe('SUCCESS')
    await expectInViewAndUncovered('[data-testid=coupon-result] .result-headline', 'coupon outcome')
    await expectInViewAndUncovered('[data-testid=coupon-result-next]', 'what to do next')
    await expectInViewAndUncovered('[data-testid=receipt-print]', 'Print')
    await page.screenshot({ path: join(outputDir, `glance-${tag}-coupon-outcome.png`) })
    await page.keyboard.press('Control+P')
    await expect.poll(async () => (await printed()).length).toBe(printedBefore + 1)
    expect((await printed()).at(-1)).toContain((await result.getAttribute('data-attempt-id'))!)
  })

  it.each(SCREENS)('$route: reached by $key with focus inside; one h1; nothing off the right edge; axe clean', async (screen) => {
    await openScreen(screen.key, screen.hash)
    await expect.poll(focusInScreen, { timeout: 3000 }).toBe(true)
    await page.waitForTimeout(300) // lists and figures that load after the screen opens
    const link = page.getByTestId(`nav-${screen.route}`)
    expect(await link.getAttribute('aria-keyshortcuts')).toBe(screen.key.replace('Comma', ','))
    expect(await link.textContent()).toContain(screen.key.replace('Control+Comma', 'Ctrl+,'))
    await page.screenshot({ path: join(outputDir, `glance-${tag}-${screen.route}.png`) })
    expect(await page.locator('h1').count()).toBe(1)
    expect(await overflowReport()).toEqual([])
    expect(await wrappedBars()).toEqual([])
    expect(await seriousAxeViolations(page)).toEqual([])
  }, 60_000)

  it('opens the list of every key on "?" and closes it with Esc, focus back where it was', async () => {
    await openScreen('F9', '#/day-close')
    await page.locator('body').press('?')
    const help = page.getByTestId('keys-help')
    await expect.poll(() => help.isVisible()).toBe(true)
    for (const key of ['F1', 'F2', 'F4', 'F8', 'F9', 'F10', 'Ctrl+,', 'Ctrl+P']) expect(await help.textContent()).toContain(key)
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.screenshot({ path: join(outputDir, `glance-${tag}-keys-help.png`) })
    await page.keyboard.press('Escape')
    await expect.poll(() => help.isVisible()).toBe(false)
  })
})

describe('traps the issue found', () => {
  beforeAll(async () => {
    await page.setViewportSize(SIZES[0])
  })

  it('coupon quantity: the prefilled 1 is replaced by what is typed, and a large order asks once before it goes', async () => {
    await openScreen('F2', '#/coupons')
    await page.keyboard.press('F2') // the next order: a clean form
    await page.keyboard.type('AG2001')
    await page.getByTestId('coupon-agent-option').first().waitFor()
    await page.keyboard.press('Enter')
    await expect.poll(activeTestId).toBe('coupon-qty')
    await page.keyboard.type('5')
    expect(await page.getByTestId('coupon-qty').inputValue()).toBe('5') // was "15"

    await page.keyboard.press('Backspace')
    await page.keyboard.type('15')
    await page.getByTestId('coupon-quote').waitFor()
    const before = simulator().requests.length
    await page.keyboard.press('Enter')
    const confirm = page.getByTestId('coupon-confirm')
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain('15 coupons')
    expect(simulator().requests.length).toBe(before) // nothing went to the provider
    await page.keyboard.press('Enter') // asked once: the same order, Enter again, goes
    await expect.poll(() => page.getByTestId('coupon-result').getAttribute('data-state')).toBe('SUCCESS')
    expect(await page.getByTestId('coupon-result').textContent()).toContain('× 15')
    expect(await confirm.count()).toBe(0)
  })

  it('a large order the balance cannot pay is not asked about: Enter goes to the counter, which refuses it whole', async () => {
    await openScreen('F2', '#/coupons')
    await page.keyboard.press('F2')
    await page.keyboard.type('AG2001')
    await page.getByTestId('coupon-agent-option').first().waitFor()
    await page.keyboard.press('Enter')
    await expect.poll(activeTestId).toBe('coupon-qty')
    await page.keyboard.press('Backspace')
    // 50, the most one order may hold: at ₹107 each more than the practice wallet's ₹5,000.
    await page.keyboard.type('50')
    await page.getByTestId('coupon-quote-short').waitFor({ timeout: 10_000 })
    const couponOrders = () => simulator().requests.filter((request) => request.operation === 'coupon_req').length
    const sold = couponOrders()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('coupon-error-qty').count(), { timeout: 10_000 }).toBe(1)
    expect(await page.getByTestId('coupon-confirm').count()).toBe(0)
    expect(couponOrders()).toBe(sold) // refused by the counter, before the provider
  })

  it('the "Choose an operator" message goes once the lookup fills the operator', async () => {
    await openScreen('F1', '#/')
    await page.keyboard.press('F1')
    await page.getByTestId('number-input').fill('98765')
    await page.getByTestId('amount-input').fill('10')
    await page.getByTestId('amount-input').press('Enter')
    await page.getByTestId('field-error-operator').waitFor()
    await page.getByTestId('number-input').fill('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    expect(await page.getByTestId('field-error-operator').count()).toBe(0)
    expect(await page.getByTestId('field-error-number').count()).toBe(0)
  })

  it('a number one digit short is said at its own Enter, and focus stays on it', async () => {
    await openScreen('F1', '#/')
    await page.keyboard.press('F1')
    await page.getByTestId('number-input').fill('987654321')
    await page.getByTestId('number-input').press('Enter')
    await page.getByTestId('field-error-number').waitFor()
    expect(await activeTestId()).toBe('number-input')
    await page.getByTestId('number-input').fill('9876543210')
    await page.getByTestId('number-input').press('Enter')
    await expect.poll(activeTestId).toBe('amount-input')
    expect(await page.getByTestId('field-error-number').count()).toBe(0)
  })

  it('amounts typed with Indian grouping: "1,999" sells ₹1,999.00', async () => {
    await openScreen('F1', '#/')
    await page.keyboard.press('F1')
    await page.keyboard.type('9876500022')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.keyboard.press('Enter')
    await page.keyboard.type('1,999')
    await page.keyboard.press('Enter')
    const panel = page.getByTestId('result-panel')
    await expect.poll(() => panel.getAttribute('data-state')).toBe('SUCCESS')
    expect(await panel.textContent()).toContain('₹1,999.00')
    expect(await page.getByTestId('field-error-amount').count()).toBe(0)
    // The provider was asked for ₹1,999 (the order carries plain rupees).
    expect(simulator().orderBook().recharges.filter((order) => order.number === '9876500022')).toMatchObject([{ amount: '1999', state: 'SUCCESS' }])
  })

  it('a top-up has its own limit: ₹1,00,000 is taken, "10,00,001" is refused with the top-up limit, not the recharge one', async () => {
    await openScreen('F9', '#/day-close')
    const rows = page.getByTestId('topup-row')
    const before = await rows.count()
    await page.getByTestId('topup-amount').fill('10,00,001')
    await page.getByTestId('topup-reference').fill('UTR 7788 0001')
    await page.getByTestId('topup-reference').press('Enter')
    const error = page.getByTestId('topup-error-amount')
    await error.waitFor()
    expect(await error.textContent()).toBe('Amount must not be more than ₹10,00,000')
    expect(await rows.count()).toBe(before)

    await page.getByTestId('topup-amount').fill('1,00,000')
    await page.getByTestId('topup-reference').press('Enter')
    await page.getByTestId('topup-added').waitFor()
    expect(await page.getByTestId('topup-added').textContent()).toContain('₹1,00,000.00')
    expect(await rows.count()).toBe(before + 1)
    expect(await error.count()).toBe(0)
  })

  it('coming back to Recharge mid-sale shows that sale sending, then its outcome; the form is free again', async () => {
    await page.keyboard.press('F1')
    simulator().setFault({ kind: 'slow', delayMs: 2500, times: 1 })
    await page.getByTestId('number-input').fill('9876500011')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('amount-input').fill('149')
    await page.getByTestId('amount-input').press('Enter')
    await openScreen('F8', '#/pending')
    await openScreen('F1', '#/')
    const panel = page.getByTestId('result-panel')
    expect(await panel.getAttribute('data-state')).toBe('SENDING')
    expect(await page.getByTestId('sending-sale').textContent()).toMatch(/₹149[\s\S]*9876500011/)
    expect(await page.getByTestId('number-input').inputValue()).toBe('9876500011') // not a blank locked form
    await page.screenshot({ path: join(outputDir, 'glance-mid-sale-return.png') })
    await expect.poll(() => panel.getAttribute('data-state'), { timeout: 8000 }).toBe('SUCCESS')
    expect(await page.getByTestId('result-panel').textContent()).toContain('9876500011')
    expect(await page.getByTestId('number-input').inputValue()).toBe('')
    expect(await page.getByTestId('number-input').getAttribute('readonly')).toBeNull()
  })

  it('coming back to Coupons mid-order shows that order sending, then its outcome; the form is free again', async () => {
    await openScreen('F2', '#/coupons')
    await page.keyboard.press('F2') // the next order: a clean form
    simulator().setFault({ kind: 'slow', delayMs: 2500, times: 1, operations: ['coupon_req'] })
    await page.keyboard.type('AG2001')
    await page.getByTestId('coupon-agent-option').first().waitFor()
    await page.keyboard.press('Enter')
    await page.keyboard.type('3')
    // The quote for 3 (it follows the typing): three times the rate it shows.
    const quoted = async () => {
      const rate = /₹([\d,.]+)/.exec((await page.getByTestId('coupon-quote-rate').textContent()) ?? '')?.[1] ?? ''
      return { amount: (await page.getByTestId('coupon-quote-amount').textContent())?.trim(), threeTimesRate: formatPaise(3 * rupeesInputPaise(rate)!) }
    }
    await expect.poll(async () => { const quote = await quoted(); return quote.amount === quote.threeTimesRate }).toBe(true)
    const amount = (await quoted()).amount!
    await page.keyboard.press('Enter')
    await openScreen('F8', '#/pending')
    await openScreen('F2', '#/coupons')
    const result = page.getByTestId('coupon-result')
    expect(await result.getAttribute('data-state')).toBe('SENDING')
    const sending = (await result.textContent())!
    for (const shown of ['Sending…', amount, 'AG2001', '× 3']) expect(sending).toContain(shown)
    expect(await page.getByTestId('coupon-agent-input').inputValue()).toContain('AG2001') // not a blank locked form
    expect(await page.getByTestId('coupon-qty').inputValue()).toBe('3')
    expect(await page.getByTestId('coupon-sell').textContent()).toContain('Sending…')
    await page.screenshot({ path: join(outputDir, 'glance-mid-order-return.png') })
    await expect.poll(() => result.getAttribute('data-state'), { timeout: 8000 }).toBe('SUCCESS')
    expect(await result.textContent()).toContain('× 3')
    expect(await page.getByTestId('coupon-agent-input').inputValue()).toBe('')
    expect(await page.getByTestId('coupon-qty').inputValue()).toBe('1')
    expect(await page.getByTestId('coupon-agent-input').getAttribute('readonly')).toBeNull()
  })
})
