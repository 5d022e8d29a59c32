// Owner and staff in Chromium: the owner sets a PIN in Settings and locks; staff see "Owner only —
// unlock" in place of Save and cannot save; a wrong PIN is refused in the dialog; the owner unlocks
// with Enter, saves, and locks again; Esc cancels the dialog. Screenshots land in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'

const PIN = '4821'
const dataDir = tempDir('counter-roles-e2e-')
const keychainService = privateKeychainService()
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

beforeAll(async () => {
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService))
  browser = await launchChromium({ bypassCSP: true })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.goto(web.url)
})

afterAll(() => closeRig({ browser, web, counter, dataDir }))

const role = () => page.getByTestId('role').getAttribute('data-role')
const shopName = async () => {
  const view = await counter.call('settings.get', {})
  return view.ok ? view.value.shopName : view.error.message
}

describe('owner and staff on screen', () => {
  it('sets the PIN in Settings, keeps Settings changes from staff, and lets the owner unlock, save and lock', async () => {
    await page.goto(`${web.url.split('?')[0]}#/settings`)
    await expect.poll(() => page.getByTestId('role').textContent()).toContain('no PIN set')
    await page.getByTestId('owner-pin-pin').fill('48a21')
    expect(await page.getByTestId('owner-pin-pin').inputValue()).toBe('4821')
    await page.getByTestId('owner-pin-repeat').fill(PIN)
    await page.getByTestId('owner-pin-submit').click()
    await page.getByTestId('owner-pin-saved').waitFor()
    expect(await role()).toBe('owner')

    await page.getByTestId('role-lock').click()
    await expect.poll(role).toBe('staff')
    // Staff: Save is shown as owner-only, never hidden; the core refuses it anyway.
    await page.getByTestId('settings-shop-name').fill('Staff Renamed It')
    expect(await page.getByTestId('settings-save').count()).toBe(0)
    // Enter in the form saves nothing (without Save the form has no submit button), and says why beside the button.
    expect(await page.getByTestId('owner-only-said').count()).toBe(0)
    await page.getByTestId('settings-shop-name').press('Enter')
    expect(await page.getByTestId('owner-only-said').first().textContent()).toBe('Owner only — unlock with the PIN')
    await page.screenshot({ path: join(outputDir, 'roles-staff-settings.png') })
    expect(await seriousAxeViolations(page)).toEqual([])
    expect(await shopName()).toBe('My Shop')

    // The dialog: Esc cancels, a wrong PIN is refused in words, Enter submits.
    await page.getByTestId('owner-only-unlock').first().click()
    await page.getByTestId('pin-dialog').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('pin-dialog').isVisible()).toBe(false)
    expect(await role()).toBe('staff')

    await page.getByTestId('owner-only-unlock').first().click()
    await page.getByTestId('pin-input').pressSequentially('1111')
    await page.keyboard.press('Enter')
    // A PIN check is slow by design (scrypt, one at a time): beside another Chromium file it can take over poll's default second.
    await expect.poll(() => page.getByTestId('pin-error').textContent(), { timeout: 10_000 }).toContain('That PIN is wrong')
    expect(await page.getByTestId('pin-input').getAttribute('type')).toBe('password')
    await page.screenshot({ path: join(outputDir, 'roles-pin-dialog.png') })
    await page.getByTestId('pin-input').pressSequentially(PIN)
    await page.keyboard.press('Enter')
    await expect.poll(role, { timeout: 10_000 }).toBe('owner')
    // Focus lands on the owner's own button where "Owner only" stood, not on the page: Enter now saves.
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? null")).toBe('settings-save')

    await page.getByTestId('settings-shop-name').fill('Owner Renamed It')
    await page.getByTestId('settings-save').click()
    await page.getByTestId('settings-saved').waitFor()
    expect(await shopName()).toBe('Owner Renamed It')

    await page.getByTestId('role-lock').click()
    await expect.poll(role).toBe('staff')
    await page.getByTestId('owner-only-unlock').first().waitFor()
  })
})
