// The counter in Hindi, in Debian's Chromium at 1366×768: Settings switches the screens and, apart, the receipts
// to Hindi at once; a recharge sold in Hindi with its receipt in Hindi; a refusal of the core in Hindi beside its
// field; the next number typed at once after Ctrl+P and after Print, at 1366 and 1024 wide; every screen with no English sentence left on it; Recharge, Day close and Settings in Hindi (screenshots in test-output/e2e/), axe-core clean on Recharge;
// the Z report's A4 PDF reads in Devanagari in the bundled font; and the choice survives a restart of the core.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { loadCatalog } from '../../electron/counter/catalog'
import { dictionaries } from '../../electron/shared/words'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, resourcesDir, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, sellOnScreen, seriousAxeViolations, startWebApp } from './browser-rig'

const dataDir = tempDir('counter-hindi-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

const activeTestId = () => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")
const shot = (name: string) => page.screenshot({ path: join(outputDir, `hindi-1366x768-${name}.png`) })

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
  browser = await launchChromium({ bypassCSP: true })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.goto(web.url)
  await page.getByTestId('number-input').waitFor()
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('Counter in Hindi', () => {
  it('switches every screen to Hindi the moment Settings is saved, receipts apart', async () => {
    expect(await page.getByTestId('nav-recharge').textContent()).toContain('Recharge')
    await page.keyboard.press('Control+Comma')
    await page.getByTestId('settings-screen-language').selectOption('hi')
    await page.getByTestId('settings-receipt-language').selectOption('hi')
    await page.getByTestId('settings-save').click()
    await expect.poll(() => page.getByTestId('nav-recharge').textContent()).toContain('रिचार्ज')
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('hi')
    // The screen turns Hindi before the save has finished (the button then says it is saving).
    await expect.poll(() => page.getByTestId('settings-save').textContent()).toContain('सेव करें')
    // The way back reads in both scripts.
    expect(await page.locator('label[for=settings-screenLanguage]').textContent()).toBe('स्क्रीन की भाषा / Screen language')
    const view = await counter.call('settings.get', {})
    expect(view.ok && [view.value.screenLanguage, view.value.receiptLanguage]).toEqual(['hi', 'hi'])
    await shot('settings')
  })

  it('sells a recharge with the screens and the receipt in Hindi, drawn in the bundled font', async () => {
    await page.keyboard.press('F1')
    await page.getByTestId('number-input').fill('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.keyboard.press('Enter')
    await page.getByTestId('amount-input').fill('1,999')
    await page.keyboard.press('Enter')
    const panel = page.getByTestId('result-panel')
    await expect.poll(() => panel.getAttribute('data-state')).toBe('SUCCESS')
    expect(await panel.textContent()).toContain('रिचार्ज हो गया')
    const orderId = (await page.getByTestId('result-order-id').textContent())!.trim()
    const receipt = await counter.call('receipt.html', { orderId })
    expect(receipt.ok && receipt.value.html).toContain('मोबाइल रिचार्ज')
    expect(receipt.ok && receipt.value.html).toContain('₹1,999.00')
    // The screens' font is the bundled file, loaded because Devanagari is on screen.
    await expect.poll(() => page.evaluate<boolean>(`document.fonts.check('16px "Counter Devanagari"', 'रिचार्ज')`)).toBe(true)
    expect(await page.evaluate<boolean>("[...document.fonts].some((font) => font.family.includes('Counter Devanagari') && font.status === 'loaded')")).toBe(true)
    // The preview draws the Hindi receipt with the font inlined in it (the page's policy lets data: fonts in).
    await expect.poll(() => page.getByTestId('receipt-preview').getAttribute('srcdoc')).toContain('मोबाइल रिचार्ज')
    await page.getByTestId('receipt-preview').scrollIntoViewIfNeeded()
    await shot('recharge')
    expect(await seriousAxeViolations(page)).toEqual([])
  })

  it("shows a refusal the core makes in Hindi beside its field, selling nothing", async () => {
    const before = await counter.call('sales.today', {})
    await page.keyboard.press('F1')
    await page.getByTestId('number-input').fill('9876543211')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    await page.keyboard.press('Enter')
    await page.getByTestId('amount-input').fill('199')
    // Past the service-charge cap, a setting only the core checks: the screen lets it through, the core refuses it.
    await page.getByTestId('collected').fill('400')
    await page.getByTestId('collected').press('Enter')
    const beside = page.getByTestId('field-error-collected')
    await expect.poll(() => beside.textContent()).toBe('लिया गया पैसा ₹299.00 से ज़्यादा नहीं हो सकता: राशि और ज़्यादा से ज़्यादा ₹100.00 सर्विस चार्ज (सेटिंग्स में तय)')
    expect(await page.getByTestId('collected').getAttribute('aria-invalid')).toBe('true')
    await shot('refusal')
    expect(await counter.call('sales.today', {})).toEqual(before)
    await page.keyboard.press('Escape')
  })

  it('shows Day close in Hindi and gives the Z report as an A4 PDF in Devanagari', async () => {
    await page.keyboard.press('F9')
    await page.waitForFunction(`location.hash === '#/day-close'`)
    await expect.poll(() => page.locator('main h1').first().textContent()).toContain('दिन बंद')
    await shot('day-close')

    const { businessDay } = await counter.call('sales.today', {}).then((r) => (r.ok ? r.value : Promise.reject(new Error(r.error.message))))
    const report = await counter.call('day.report', { businessDay, format: 'a4' })
    if (!report.ok) throw new Error(report.error.message)
    const paper = await browser.newPage()
    await paper.setContent(report.value.content)
    const path = join(outputDir, 'hindi-z-report-a4.pdf')
    writeFileSync(path, await paper.pdf({ preferCSSPageSize: true, printBackground: false }))
    await paper.close()
    // pdftotext may split a word where a vowel sign is drawn before its consonant ("कै श"): these words come out whole.
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
    for (const words of ['Z रिपोर्ट', 'सारांश', 'कारोबारी दिन', 'ऑपरेटर के हिसाब से रिचार्ज', 'नकद मिला', '₹1,999.00']) expect(text).toContain(words)
    expect(execFileSync('pdffonts', [path], { encoding: 'utf8' })).toMatch(/Lohit-Devanagari/)
  })

  it("takes the next customer's number at once after Ctrl+P and after Print, at 1366×768 and at 1024×768", async () => {
    const closed = dictionaries.hi.screen.receipt.printDialogClosed
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 768 })
      await page.keyboard.press('F1')
      expect(await sellOnScreen(page, '9876543212', '199')).toBe('SUCCESS')
      await page.keyboard.press('Control+P')
      await expect.poll(() => page.getByTestId('receipt-notice').textContent()).toContain(closed)
      await page.keyboard.type('9876500001')
      expect(await page.getByTestId('number-input').inputValue()).toBe('9876500001')
      await page.keyboard.press('Control+A')
      await page.keyboard.press('Backspace')
      await page.getByTestId('receipt-print').click()
      await expect.poll(activeTestId).toBe('number-input')
      await page.keyboard.type('9876500002')
      expect(await page.getByTestId('number-input').inputValue()).toBe('9876500002')
      await page.keyboard.press('Escape')
    }
    await page.setViewportSize({ width: 1366, height: 768 })
  })

  it('leaves no English sentence on any screen in Hindi: every screen, the status bar and a service the provider does not offer', async () => {
    // Three Latin words in a row, quoted words (a provider's own) and operator names (said as they are) aside.
    const ENGLISH_WORDS = /[A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}/
    const operators = loadCatalog(resourcesDir).operators.map((operator) => operator.name)
    const wordsOf = (line: string) => operators.reduce((left, name) => left.replaceAll(name, '·'), line.replace(/"[^"]*"/g, '""'))
    const found: string[] = []
    for (const path of ['/', '/coupons', '/agents', '/pending', '/day-close', '/history', '/dues', '/drawer', '/settings', '/unavailable/payout', '/unavailable/cash-withdrawal']) {
      await page.evaluate(`location.hash = '#${path}'`)
      await page.waitForFunction(`location.hash === '#${path}'`)
      await expect.poll(() => page.locator('main').innerText()).toMatch(/\p{Script=Devanagari}/u)
      // What the staff read: the page's rendered text, its form fields (values typed or chosen) aside.
      const text = await page.evaluate<string>(`(() => {
        const aside = document.head.appendChild(document.createElement('style'))
        aside.textContent = 'input, select, textarea { display: none !important; }'
        const shown = document.body.innerText
        aside.remove()
        return shown
      })()`)
      expect(text.split('\n').length).toBeGreaterThan(10)
      for (const line of text.split('\n')) if (ENGLISH_WORDS.test(wordsOf(line))) found.push(`${path}: ${line.trim()}`)
    }
    expect(found).toEqual([])
  })

  it('keeps the languages across a restart of the core', async () => {
    await web.close()
    await counter.close()
    ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
    await page.goto(web.url)
    await expect.poll(() => page.getByTestId('nav-recharge').textContent()).toContain('रिचार्ज')
  })
})
