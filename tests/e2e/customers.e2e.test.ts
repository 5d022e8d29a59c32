// Customers at the counter in Chromium (browser mode, training): a regular found by typing four digits and picked with the keyboard, Alt+R filling the last recharge for the staff to confirm, the name on the result, in Today and in History; the listbox checked by axe.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import type { Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'

const dataDir = tempDir('counter-e2e-customers-')
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

const transactions = () => (counter.session().simulator as Simulator).requests.filter((request) => request.operation === 'transaction')

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService()))
  // A regular, sold to and named before today's visit, and another number sharing the first digits.
  for (const [number, operatorCode, circle, amount] of [
    ['9876512345', 'VI', 'MH', '239'],
    ['9876599999', 'AT', 'DL', '99'],
  ] as const) {
    const sold = await counter.call('recharge.sell', { kind: 'mobile', number, operatorCode, circle, amount })
    if (!sold.ok) throw new Error(sold.error.message)
  }
  const named = await counter.call('customers.name', { number: '9876512345', name: 'Sunita Devi' })
  if (!named.ok) throw new Error(named.error.message)
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(web.url)
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

describe('customers in the browser', () => {
  it('offers known numbers for four typed digits in a listbox the keyboard drives, and picking fills number and operator', async () => {
    const numberField = page.getByTestId('number-input')
    await numberField.click()
    await numberField.pressSequentially('987')
    expect(await page.getByTestId('customer-suggestions').count()).toBe(0)
    await numberField.press('6')
    await page.getByTestId('customer-suggestions').waitFor()
    const options = page.getByTestId('customer-suggestion')
    expect(await options.count()).toBe(2)
    expect(await options.nth(1).textContent()).toContain('Sunita Devi')
    expect(await numberField.getAttribute('aria-expanded')).toBe('true')
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.screenshot({ path: join(outputDir, 'customers-1-suggestions.png') })

    await numberField.press('ArrowDown')
    await numberField.press('ArrowDown')
    const active = await numberField.getAttribute('aria-activedescendant')
    expect(await page.locator(`#${active}`).getAttribute('data-number')).toBe('9876512345')
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true')
    await numberField.press('Enter')
    expect(await page.getByTestId('customer-suggestions').count()).toBe(0)
    expect(await numberField.inputValue()).toBe('9876512345')
    expect(await page.getByTestId('operator-select').inputValue()).toBe('VI')
    expect(await page.getByTestId('circle-select').inputValue()).toBe('MH')
    // Enter picked; it did not sell.
    expect(transactions()).toHaveLength(2)
    await expect.poll(() => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''")).toBe('amount-input')
  })

  it('Esc closes the list and leaves what was typed', async () => {
    await page.keyboard.press('Escape') // clears the form
    const numberField = page.getByTestId('number-input')
    await numberField.pressSequentially('98765')
    await page.getByTestId('customer-suggestions').waitFor()
    await numberField.press('Escape')
    expect(await page.getByTestId('customer-suggestions').count()).toBe(0)
    expect(await numberField.inputValue()).toBe('98765')
    await numberField.press('Escape') // now the form's: clears it
    expect(await numberField.inputValue()).toBe('')
  })

  it('Alt+R fills the last recharge and waits; Enter then sells it, and the name shows on the result, in Today and in History', async () => {
    const numberField = page.getByTestId('number-input')
    await numberField.fill('9876512345')
    await page.keyboard.press('Alt+R')
    await expect.poll(() => page.getByTestId('amount-input').inputValue()).toBe('239')
    expect(await page.getByTestId('operator-select').inputValue()).toBe('VI')
    expect(await page.getByTestId('circle-select').inputValue()).toBe('MH')
    expect(await page.getByTestId('repeat-note').textContent()).toContain('₹239.00')
    await page.screenshot({ path: join(outputDir, 'customers-2-repeat-filled.png') })
    // Shown, not sold: nothing reaches the provider until the staff confirm.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(transactions()).toHaveLength(2)

    await page.getByTestId('amount-input').press('Enter')
    const panel = page.getByTestId('result-panel')
    await expect.poll(() => panel.getAttribute('data-state')).toBe('SUCCESS')
    expect(transactions()).toHaveLength(3)
    expect(transactions()[2].fields).toMatchObject({ number: '9876512345', amount: '239', operator_code: 'VI' })
    expect(await page.getByTestId('result-customer').textContent()).toBe('Sunita Devi')
    await expect.poll(() => page.getByTestId('today-row-customer').count()).toBe(2)
    const receipt = page.frameLocator('[data-testid=receipt-preview]')
    await expect.poll(async () => (await receipt.locator('body').textContent()) ?? '').toContain('Sunita Devi')

    await page.keyboard.press('F10')
    await page.getByTestId('history-search').fill('sunita')
    await page.getByTestId('history-search').press('Enter')
    await expect.poll(() => page.getByTestId('history-row').count()).toBe(2)
    expect(await page.getByTestId('history-row-customer').first().textContent()).toContain('Sunita Devi')
    await page.screenshot({ path: join(outputDir, 'customers-3-history-by-name.png') })
  })

  it('renames from History and forgets: the name goes, the sales stay', async () => {
    await page.getByTestId('history-row').first().click()
    await page.getByTestId('customer-name-edit').click()
    await page.getByTestId('customer-name-input').fill('Sunita 2')
    await page.getByTestId('customer-name-save').click()
    await page.getByTestId('customer-name-error').waitFor()
    expect(await page.getByTestId('customer-name-error').textContent()).toContain('only letters')
    await page.getByTestId('customer-name-input').fill('सुनीता देवी')
    await page.getByTestId('customer-name-save').click()
    await expect.poll(() => page.getByTestId('customer-name-shown').textContent()).toBe('सुनीता देवी')
    await expect.poll(() => page.getByTestId('history-row-customer').first().textContent()).toContain('सुनीता देवी')

    await page.getByTestId('customer-forget').click()
    await page.getByTestId('customer-forget-yes').click()
    await expect.poll(() => page.getByTestId('history-row-customer').count()).toBe(0)
    expect(await page.getByTestId('history-row').count()).toBe(2)
    const listed = await counter.call('history.search', { text: '9876512345' })
    expect(listed.ok && listed.value.rows.map((row) => row.customerName)).toEqual([null, null])
  })
})
