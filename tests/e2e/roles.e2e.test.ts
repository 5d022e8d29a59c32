// Owner and staff in Chromium (REAL mode against the simulator): the owner sets a PIN in Settings and locks; staff see
// "Owner only — unlock" in place of Save and cannot save; a wrong PIN is refused in the dialog; the owner unlocks
// with Enter, saves, and locks again; Esc cancels the dialog. Then the owner's backup off this PC: the folder set in
// Settings → Backup and "Back up now" done, with its time; and the owner's restore of that copy from Settings → Restore, the
// sale made after it listed before and after. Screenshots land in test-output/e2e/.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, realApiKey, realCredentials, realModeEnv, tempDir } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, sellOnScreen, seriousAxeViolations, startWebApp } from './browser-rig'

const PIN = '4821'
const dataDir = tempDir('counter-roles-e2e-')
const keychainService = privateKeychainService()
/** The backup drive: /dev/shm is another file system than the data folder's /tmp. */
const drive = mkdtempSync('/dev/shm/counter-roles-e2e-drive-')
let provider: Simulator
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

beforeAll(async () => {
  // Real mode: only the shop's real books are copied off the PC.
  provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey } })
  ;({ counter, web } = await startWebApp(dataDir.path, keychainService, { env: realModeEnv(provider.url) }))
  browser = await launchChromium({ bypassCSP: true })
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.goto(web.url)
})

afterAll(async () => {
  await closeRig({ browser, web, counter, dataDir })
  await provider?.close()
  rmSync(drive, { recursive: true, force: true })
})

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

  it('lets the owner set the backup folder and back up now, and shows done with the time', async () => {
    await page.goto(`${web.url.split('?')[0]}#/settings`)
    await page.getByTestId('backup-settings').waitFor()
    // Left locked by the test before: the backup's buttons are the owner's.
    expect(await role()).toBe('staff')
    expect(await page.getByTestId('backup-now').count()).toBe(0)
    await expect.poll(() => page.getByTestId('status-backup').textContent()).toContain('No copy of the books is made off this PC')
    await page.getByTestId('backup-settings').getByTestId('owner-only-unlock').first().click()
    await page.getByTestId('pin-input').pressSequentially(PIN)
    await page.keyboard.press('Enter')
    // The PIN is checked by a slow hash (scrypt).
    await expect.poll(role, { timeout: 10_000 }).toBe('owner')

    await page.getByTestId('backup-folder').fill(drive)
    expect(await page.getByTestId('backup-stale-days').inputValue()).toBe('7')
    await page.getByTestId('backup-save').click()
    await page.getByTestId('backup-saved').waitFor()
    // The status bar hears of the saved folder with the next status event: under a loaded machine, more than poll's default second.
    await expect.poll(() => page.getByTestId('status-backup').textContent(), { timeout: 10_000 }).toContain('No copy of the books off this PC yet')
    await page.getByTestId('backup-now').click()
    await expect.poll(() => page.getByTestId('backup-done').textContent(), { timeout: 10_000 }).toMatch(/^\s*Done at \d\d:\d\d: copied and checked, up to journal entry #\d+\.\s*$/)
    // The status that names the copy comes with the next status event, a moment after the answer.
    await expect.poll(() => page.getByTestId('backup-last').textContent()).toContain(drive)
    await expect.poll(() => page.getByTestId('status-backup').count()).toBe(0)
    expect(readdirSync(drive)).toHaveLength(1)
    await page.getByTestId('backup-settings').screenshot({ path: join(outputDir, 'roles-backup-done.png') })
    expect(await seriousAxeViolations(page)).toEqual([])
  })

  it('restores the copy from Settings: shows what it holds and the sale made after it, restores, and lists that sale', async () => {
    // The owner, unlocked by the test before, sells one more after the copy.
    await page.goto(web.url)
    expect(await sellOnScreen(page, '9876512345', '149')).toBe('SUCCESS')
    const later = ((await page.getByTestId('result-order-id').textContent()) ?? '').trim()
    expect(await counter.session().ledger.read('getSale', later)).toMatchObject({ state: 'SUCCESS' })

    await page.goto(`${web.url.split('?')[0]}#/settings`)
    const card = page.getByTestId('restore-books')
    await card.waitFor()
    const copy = await card.getByTestId('restore-source').locator('option', { hasText: 'Copy off this PC' }).getAttribute('value')
    await card.getByTestId('restore-source').selectOption(copy!)
    await card.getByTestId('restore-look-result').waitFor()
    expect(await card.getByTestId('restore-look-result').textContent()).toMatch(/It holds \d+ journal entries, checked\./)
    expect(await card.getByTestId('restore-later').textContent()).toContain('Sales in the books now that this copy does not hold (1)')
    expect(await card.getByTestId('restore-later-sale').textContent()).toMatch(new RegExp(`${later}.*9876512345.*₹149\\.00.*Success`))
    expect(await card.getByTestId('restore-run').isDisabled()).toBe(true)
    await card.getByTestId('restore-confirm').check()
    await card.screenshot({ path: join(outputDir, 'roles-restore-look.png') })
    expect(await seriousAxeViolations(page)).toEqual([])
    await card.getByTestId('restore-run').click()

    // The page loads afresh on the restored books: the last restore, and the sale it does not hold, listed.
    await expect.poll(() => page.getByTestId('restore-last').count(), { timeout: 10_000 }).toBe(1)
    expect(await page.getByTestId('restore-last').textContent()).toContain(`from Copy off this PC`)
    expect(await page.getByTestId('restore-last-sales').textContent()).toContain(later)
    expect(await counter.session().ledger.read('getSale', later)).toBeNull()
    expect(readdirSync(dataDir.path).filter((name) => name.startsWith('ledger.before-restore-'))).toHaveLength(1)
    await page.getByTestId('restore-books').screenshot({ path: join(outputDir, 'roles-restore-done.png') })
  })
})
