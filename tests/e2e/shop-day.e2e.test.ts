// A whole shop day in Chromium at 1366×768 (issue #10's flow), in English and then in Hindi: the owner sets a PIN and
// commission rates; staff find a regular by four digits, sell on credit (the regular's name filled in), in cash and by
// UPI, take part of the due by UPI, and are refused Settings and the day close; the owner unlocks, takes part of the due
// in cash with its receipt, and closes the day with cash, UPI and credit apart and staff's payment listed apart, marked
// for the bank statement; the Z report says the same and who sold. Figures are asserted in
// exact rupees; each step's screenshot lands in test-output/e2e/shop-day-<language>-*.png.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { businessDayOf } from '../../electron/counter/business-day'
import type { Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'

const PIN = '5082'
const REGULAR = { number: '9876512345', name: 'Sunita Devi' }
const DRAWER_FLOAT = '500'
/**
 * What the screens wait on (a sale, a payment, the day close's whole-journal check) may take seconds on a busy
 * machine: expect.poll gives up after 1 s unless told, and a test that gave up closes the core under a close.
 */
const poll: typeof expect.poll = (read, options) => expect.poll(read, { timeout: 15_000, ...options })

/** What each language must show, literally: headings and labels on screen, words on the receipt and the Z report. */
const WORDS = {
  en: {
    navRecharge: 'Recharge',
    ownerOnly: 'Owner only — unlock',
    duesTitle: 'Dues (udhaar)',
    dayCloseTitle: 'Day close',
    creditTitle: 'Credit (udhaar)',
    earningsTitle: 'Earnings (successful sales)',
    staffPaymentsTitle: 'Payments taken by staff',
    checkBank: 'Check against the bank statement',
    paidNotice: 'Payment of ₹100.00 recorded; still due ₹159.00.',
    paymentReceipt: ['PAYMENT RECEIVED (UDHAAR)', 'Paid ₹100.00', 'Still due ₹159.00', REGULAR.name],
    zReport: [
      'Z REPORT',
      'Airtel Successful ×2 ₹448.00',
      'Vi (Vodafone Idea) Successful ×1 ₹100.00',
      'Total ×3 ₹548.00 Margin ₹13.96 Service charges +₹10.00 Earned +₹23.96',
      'SALES BY WHO SOLD Staff ×3 ₹548.00',
      'Opening float ₹500.00 Cash collected ₹110.00 Dues paid in cash ₹100.00 Expected ₹710.00 Counted ₹710.00 Difference ₹0.00 UPI collected ₹149.00',
      'CREDIT (UDHAAR) Sales on credit ×1 ₹299.00 Dues paid, cash ₹100.00 Dues paid, UPI ₹40.00 Outstanding at close ₹159.00',
      'DUES PAID TO STAFF',
      'UPI Check against the bank statement',
    ],
  },
  hi: {
    navRecharge: 'रिचार्ज',
    ownerOnly: 'सिर्फ़ मालिक — अनलॉक करें',
    duesTitle: 'उधार खाता',
    dayCloseTitle: 'दिन बंद',
    creditTitle: 'उधार',
    earningsTitle: 'कमाई (सफल बिक्री)',
    staffPaymentsTitle: 'स्टाफ़ द्वारा लिए गए भुगतान',
    checkBank: 'बैंक स्टेटमेंट से मिलाएँ',
    paidNotice: '₹100.00 का भुगतान दर्ज हुआ; अभी बाकी ₹159.00।',
    paymentReceipt: ['उधार का भुगतान मिला', 'भुगतान ₹100.00', 'अभी बाकी ₹159.00', REGULAR.name],
    zReport: [
      'Z रिपोर्ट',
      'Airtel सफल ×2 ₹448.00',
      'Vi (Vodafone Idea) सफल ×1 ₹100.00',
      'कुल ×3 ₹548.00 मार्जिन ₹13.96 सर्विस चार्ज +₹10.00 कमाई +₹23.96',
      'किसने बेचा स्टाफ़ ×3 ₹548.00',
      'शुरुआती नकद ₹500.00 नकद मिला ₹110.00 उधार की वसूली, नकद ₹100.00 होना चाहिए ₹710.00 गिना गया ₹710.00 अंतर ₹0.00 UPI से मिला ₹149.00',
      'उधार उधार बिक्री ×1 ₹299.00 उधार वसूली, नकद ₹100.00 उधार वसूली, UPI ₹40.00 बंद पर बाकी उधार ₹159.00',
      'स्टाफ़ ने ली वसूली',
      'UPI बैंक स्टेटमेंट से मिलाएँ',
    ],
  },
} as const
type Language = keyof typeof WORDS

interface Rig {
  dataDir: ReturnType<typeof tempDir>
  counter?: CounterApp
  web?: WebServer
  browser?: BrowserContext
}
let rig: Rig | undefined
afterEach(async () => {
  if (rig) await closeRig(rig)
  rig = undefined
})

/** Text as laid out (cells apart), every run of white space one space. */
const shownText = async (where: Locator) => (await where.innerText()).replace(/\s+/g, ' ')

/** The regular: a recharge yesterday, named by the shop, as the ledger journals them. */
function seedRegular(counter: CounterApp): void {
  const { ledger } = counter.session()
  const orderId = 'TREGULAR0001'
  ledger.append('recharge.intent', {
    orderId,
    kind: 'mobile',
    number: REGULAR.number,
    operatorCode: 'AT',
    operatorName: 'Airtel',
    circle: 'DL',
    amountPaise: 239_00,
    businessDay: businessDayOf(new Date(Date.now() - 86_400_000), 'Asia/Kolkata'),
    training: true,
  })
  ledger.append('recharge.outcome', { orderId, source: 'transaction', outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: 'Recharge successful', fpayId: 'FP1', operatorRef: null })
  ledger.append('customer.named', REGULAR)
}

/** The whole day, on one fresh counter, with screens and paper in `language`. */
async function shopDay(language: Language): Promise<void> {
  const words = WORDS[language]
  rig = { dataDir: tempDir(`counter-shop-day-${language}-`) }
  ;({ counter: rig.counter, web: rig.web } = await startWebApp(rig.dataDir.path, privateKeychainService()))
  const counter = rig.counter!
  seedRegular(counter)
  rig.browser = await launchChromium()
  const page: Page = await rig.browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.goto(rig.web!.url)
  await page.getByTestId('number-input').waitFor()

  let step = 0
  const shot = async (name: string, subject?: Locator) => {
    await subject?.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(outputDir, `shop-day-${language}-${String(++step).padStart(2, '0')}-${name}.png`) })
  }
  const text = async (testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim()
  const role = () => page.getByTestId('role').getAttribute('data-role')
  const transactions = () => (counter.session().simulator as Simulator).requests.filter((request) => request.operation === 'transaction')

  // ---- The owner, before opening: language, commission rates, the PIN; then the counter is handed to staff.
  await page.keyboard.press('Control+Comma')
  if (language === 'hi') {
    await page.getByTestId('settings-screen-language').selectOption('hi')
    await page.getByTestId('settings-receipt-language').selectOption('hi')
    await page.getByTestId('settings-save').click()
    await poll(() => page.getByTestId('nav-recharge').textContent()).toContain(words.navRecharge)
  }
  await page.getByTestId('rate-kind-AT').selectOption('percent')
  await page.getByTestId('rate-value-AT').fill('2')
  await page.getByTestId('rate-kind-VI').selectOption('fixed')
  await page.getByTestId('rate-value-VI').fill('5')
  await page.getByTestId('rates-save').click()
  await page.getByTestId('rates-saved').waitFor()
  await page.getByTestId('owner-pin-pin').fill(PIN)
  await page.getByTestId('owner-pin-repeat').fill(PIN)
  await page.getByTestId('owner-pin-submit').click()
  await page.getByTestId('owner-pin-saved').waitFor()
  await shot('owner-settings', page.getByTestId('owner-pin-settings'))
  await page.getByTestId('role-lock').click()
  await poll(role).toBe('staff')

  // ---- Staff: the regular found by four digits and picked from the list; on credit, their name is already there.
  await page.keyboard.press('F1')
  const numberField = page.getByTestId('number-input')
  await numberField.click()
  await numberField.pressSequentially(REGULAR.number.slice(0, 4))
  await page.getByTestId('customer-suggestions').waitFor()
  expect(await page.getByTestId('customer-suggestion').count()).toBe(1)
  expect(await page.getByTestId('customer-suggestion').textContent()).toContain(REGULAR.name)
  await shot('staff-finds-regular')
  await numberField.press('ArrowDown')
  await numberField.press('Enter')
  expect(await numberField.inputValue()).toBe(REGULAR.number)
  expect(await page.getByTestId('operator-select').inputValue()).toBe('AT')
  await page.getByTestId('amount-input').fill('299')
  await page.getByTestId('pay-credit').click()
  expect(await page.getByTestId('credit-name').inputValue()).toBe(REGULAR.name)
  expect(await page.getByTestId('credit-number').inputValue()).toBe(REGULAR.number)
  await shot('staff-credit-sale', page.getByTestId('sell-button'))
  const panel = page.getByTestId('result-panel')
  const sell = async () => {
    const before = transactions().length
    await page.getByTestId('sell-button').click()
    await poll(() => transactions().length).toBe(before + 1)
    await poll(() => panel.getAttribute('data-state')).toBe('SUCCESS')
  }
  await sell()
  expect(await page.getByTestId('result-customer').textContent()).toBe(REGULAR.name)

  // A cash sale with a ₹10 service charge, and a UPI sale.
  const fillSale = async (number: string, operatorCode: string, amount: string) => {
    await numberField.fill(number)
    await poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.getByTestId('operator-select').selectOption(operatorCode)
    await page.getByTestId('amount-input').fill(amount)
  }
  await fillSale('9123456789', 'VI', '100')
  await page.getByTestId('collected').fill('110')
  await sell()
  await fillSale('9988776655', 'AT', '149')
  await page.getByTestId('pay-upi').click()
  await sell()
  expect(transactions().map((request) => [request.fields.number, request.fields.amount])).toEqual([
    [REGULAR.number, '299'],
    ['9123456789', '100'],
    ['9988776655', '149'],
  ])
  await shot('staff-three-sales', panel)
  // Staff take ₹40 of the due by UPI (through the core, as the Dues screen would send it): the owner sees it at day close.
  const staffPayment = await counter.call('credit.pay', { number: REGULAR.number, amount: '40', mode: 'upi' })
  if (!staffPayment.ok) throw new Error(staffPayment.error.message)

  // ---- Staff may not change Settings or close the day: the owner's PIN is asked, and the core refuses them anyway.
  await page.keyboard.press('Control+Comma')
  await page.getByTestId('owner-only-unlock').first().waitFor()
  expect(await page.getByTestId('settings-save').count()).toBe(0)
  expect(await text('owner-only-unlock')).toBe(words.ownerOnly)
  expect(await counter.call('settings.save', { shopName: 'Staff Shop' })).toMatchObject({ ok: false, error: { code: 'owner_only' } })
  await page.keyboard.press('F9')
  await page.getByTestId('cash-drawer').waitFor()
  expect(await page.getByTestId('close-day').count()).toBe(0)
  expect(await page.getByTestId('cash-drawer').getByTestId('owner-only-unlock').textContent()).toContain(words.ownerOnly)
  const today = businessDayOf(new Date(), 'Asia/Kolkata')
  const closeInput = { businessDay: today, openingFloat: DRAWER_FLOAT, counted: { n500: 1, n200: 1, n100: 0, n50: 0, n20: 0, n10: 1, coins: '' } }
  expect(await counter.call('day.close', closeInput)).toMatchObject({ ok: false, error: { code: 'owner_only' } })
  await shot('staff-refused-day-close', page.getByTestId('cash-drawer').getByTestId('owner-only-unlock'))

  // ---- The owner unlocks and takes part of the due in cash; its receipt is on show to print.
  await page.getByTestId('role-unlock').click()
  await page.getByTestId('pin-input').pressSequentially(PIN)
  await page.keyboard.press('Enter')
  await poll(role).toBe('owner')
  await page.keyboard.press('Control+d')
  await poll(() => page.locator('main h1').first().textContent()).toBe(words.duesTitle)
  const due = page.locator(`[data-testid=dues-row][data-number="${REGULAR.number}"]`)
  expect(await due.textContent()).toContain(REGULAR.name)
  expect(await due.getByTestId('dues-amount').getAttribute('data-paise')).toBe('25900')
  expect(await text('dues-total')).toContain('₹259.00')
  await shot('owner-dues', due)
  await due.getByTestId('dues-open').click()
  await page.getByTestId('dues-amount-input').fill('100')
  await page.getByTestId('dues-pay-cash').click()
  await page.getByTestId('dues-note').fill('Part payment')
  await page.getByTestId('dues-pay-submit').click()
  await poll(() => text('dues-notice')).toBe(words.paidNotice)
  await poll(() => page.getByTestId('statement-due').getAttribute('data-paise')).toBe('15900')
  const receipt = page.frameLocator('[data-testid=receipt-preview]').locator('body')
  await poll(() => shownText(receipt)).toContain(words.paymentReceipt[0])
  const receiptText = await shownText(receipt)
  for (const shown of words.paymentReceipt) expect(receiptText).toContain(shown)
  await shot('owner-payment-receipt', page.getByTestId('receipt-preview'))

  // ---- Day close: cash, UPI and credit apart; the drawer expects the float, cash sales and dues paid in cash.
  await page.keyboard.press('F9')
  await poll(() => page.locator('main h1').first().textContent()).toBe(words.dayCloseTitle)
  await poll(() => page.getByTestId('day-status').getAttribute('data-closed')).toBe('false')
  // The books as staff last saw them stay on show until they are read again, with the payment.
  await poll(() => text('drawer-dues-cash')).toBe('₹100.00')
  expect(await shownText(page.getByTestId('day-recharges-total'))).toMatch(/ 3 ₹548\.00( |$)/)
  expect(await text('drawer-cash-collected')).toBe('₹110.00')
  expect(await text('drawer-upi-collected')).toBe('₹149.00')
  expect(await page.getByTestId('day-credit').locator('h2').textContent()).toBe(words.creditTitle)
  expect(await page.getByTestId('day-credit-sales').getAttribute('data-count')).toBe('1')
  expect(await text('day-credit-sales')).toBe('₹299.00')
  expect(await text('day-credit-paid-cash')).toBe('₹100.00')
  expect(await text('day-credit-paid-upi')).toBe('₹40.00')
  expect(await text('day-credit-outstanding')).toBe('₹159.00')
  // Staff's payment apart, marked for the owner to find in the bank statement; the owner's own is not listed.
  expect(await page.getByTestId('day-staff-payments').locator('h2').textContent()).toBe(words.staffPaymentsTitle)
  const staffRow = page.getByTestId('staff-payment')
  expect(await staffRow.count()).toBe(1)
  expect(await staffRow.getAttribute('data-receipt')).toBe(staffPayment.value.receiptId)
  for (const shown of [REGULAR.number, REGULAR.name, '₹40.00']) expect(await staffRow.textContent()).toContain(shown)
  expect(await text('staff-payment-check')).toBe(words.checkBank)
  // Earned: 2% of ₹299 and ₹149 (₹5.98 + ₹2.98), ₹5 fixed on the VI sale, ₹10 service charge.
  expect(await page.getByTestId('day-earnings').locator('h2').textContent()).toBe(words.earningsTitle)
  expect(await text('day-earnings-earned')).toBe('₹23.96')
  await shot('day-close-figures', page.getByTestId('day-credit'))

  await page.getByTestId('drawer-float').fill(DRAWER_FLOAT)
  expect(await text('drawer-expected')).toBe('₹710.00')
  await page.getByTestId('drawer-n500').fill('1')
  await page.getByTestId('drawer-n200').fill('1')
  await page.getByTestId('drawer-n10').fill('1')
  expect(await text('drawer-counted')).toBe('₹710.00')
  expect(await page.getByTestId('drawer-difference').getAttribute('data-paise')).toBe('0')
  await shot('day-close-drawer', page.getByTestId('cash-drawer'))
  await page.getByTestId('close-day').click()
  await page.getByTestId('close-confirm-yes').click()
  await poll(() => page.getByTestId('day-status').getAttribute('data-closed')).toBe('true')
  await shot('day-closed', page.getByTestId('day-status'))

  // ---- The Z report (80 mm, the receipt language): the same figures, and who sold.
  const report = await counter.call('day.report', { businessDay: today, format: 'receipt' })
  if (!report.ok) throw new Error(report.error.message)
  const paper = await rig.browser.newPage()
  await paper.setContent(report.value.content)
  const reportText = await shownText(paper.locator('body'))
  const pdfPath = join(outputDir, `shop-day-${language}-z-report.pdf`)
  writeFileSync(pdfPath, await paper.pdf({ width: '80mm', printBackground: false }))
  await paper.close()
  for (const line of words.zReport) expect(reportText).toContain(line)
  // The printed PDF holds the figures too.
  const pdfText = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
  for (const figure of ['₹548.00', '₹299.00', '₹159.00', '₹710.00', '₹23.96']) expect(pdfText).toContain(figure)
}

describe('a shop day at 1366×768', () => {
  it('in English: credit to a regular found by four digits, cash and UPI, a part payment, day close and Z report', () => shopDay('en'), 120_000)
  it('in Hindi, screens and receipts: the same day and the same figures', () => shopDay('hi'), 120_000)
})
