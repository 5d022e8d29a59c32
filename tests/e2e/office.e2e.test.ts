// The head office on screen: Settings names the counter and sets the office up, the status bar tells how shipping goes
// (up to date, unreachable with entries waiting), and the password never comes back to the page. Screenshots in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { privateKeychainService, realApiKey, realCredentials, realModeEnv, tempDir, valueOf } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'

const dataDir = tempDir('counter-office-e2e-')
let db: TestPostgres
let provider: Simulator
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

beforeAll(async () => {
  db = await startTestPostgres()
  provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey } })
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService(), {
    env: realModeEnv(provider.url),
  }))
  browser = await launchChromium({ bypassCSP: true })
  page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  await page.goto(web.url)
})

afterAll(async () => {
  await closeRig({ browser, web, counter, dataDir })
  await provider?.close()
  db?.remove()
})

const officeState = () => page.getByTestId('status-office').getAttribute('data-state')

describe('the head office on screen', () => {
  it('sets the office up in Settings and shows in the status bar how far shipping has got', async () => {
    await page.goto(`${web.url.split('?')[0]}#/settings`)
    await page.getByTestId('settings-shop-name').fill('Sharma Mobile')
    await page.getByTestId('settings-counter-name').fill('Counter 1')
    await page.getByTestId('settings-office-host').fill('127.0.0.1')
    await page.getByTestId('settings-office-port').fill('70000')
    await page.getByTestId('settings-office-database').fill(db.database)
    await page.getByTestId('settings-office-user').fill(db.user)
    await page.getByTestId('settings-office-password').fill(db.password)
    await page.getByTestId('settings-save').click()
    // A port out of range is refused in words, before anything is sent.
    expect(await page.getByTestId('field-error-officePort').textContent()).toBe('Ports run from 1 to 65535')
    await page.getByTestId('settings-office-port').fill(String(db.port))
    await page.getByTestId('settings-office-tls').uncheck()
    await page.getByTestId('settings-save').click()
    await page.getByTestId('settings-saved').waitFor()
    await expect.poll(officeState, { timeout: 15_000 }).toBe('caught-up')
    expect(await page.getByTestId('status-office').textContent()).toContain('Office: up to date')
    expect(await page.getByTestId('settings-office-password').inputValue()).toBe('')
    expect(await page.getByTestId('settings-office-password').getAttribute('placeholder')).toBe('saved (type to replace)')
    expect(await seriousAxeViolations(page)).toEqual([])

    db.stop()
    try {
      valueOf(await counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199' }))
      await expect.poll(officeState, { timeout: 15_000 }).toBe('unreachable')
      await expect.poll(() => page.getByTestId('status-office').textContent()).toMatch(/Office unreachable since \d\d:\d\d · \d+ entries waiting/)
      await page.screenshot({ path: join(outputDir, 'office-unreachable.png') })
    } finally {
      db.start()
    }
    await expect.poll(officeState, { timeout: 20_000 }).toBe('caught-up')
    expect(await page.content()).not.toContain(db.password)
  })
})
