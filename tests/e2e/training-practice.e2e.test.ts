// Practising in training as a cashier would, in Debian's Chromium against the provider the launchers start: the
// banner's line names the practice inputs, and typing them gives a FAILED sale, Pending sales that Check status
// settles either way, and a sale the provider never answers. The way out of training is plain: the banner and Settings
// say in one line what to enter, Settings marks those fields required, and offers no "Forget" while there is nothing
// to forget. Screenshots land in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startTrainingSimulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir, valueOf } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, sellOnScreen, seriousAxeViolations, startWebApp } from './browser-rig'

const rig: { browser?: BrowserContext; web?: WebServer; counter?: CounterApp; dataDir: ReturnType<typeof tempDir> } = { dataDir: tempDir('counter-e2e-practice-') }
let page: Page
// A short wait for the provider, so the sale it never answers turns Pending in seconds, not the default 30.
const PROVIDER_TIMEOUT_MS = 2_000

const shot = (name: string) => page.screenshot({ path: join(outputDir, `practice-${name}.png`) })
const GO_LIVE = 'Real sales: Settings → user id, token, secret key, recharge API address → Save'
/**
 * Whether the way out of training is on the banner's one line: its words on one line, and the banner one line high
 * around them (a screen without the practice line, whose banner is that line alone).
 */
const goLiveOnBannerLine = () =>
  page.evaluate<boolean>(`(() => {
    const goLive = document.querySelector('[data-testid=training-go-live]')
    const range = document.createRange()
    range.selectNodeContents(goLive)
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
    const banner = document.querySelector('[data-testid=training-banner]').getBoundingClientRect()
    const line = goLive.getBoundingClientRect()
    return tops.size === 1 && Math.abs(line.top + line.height / 2 - (banner.top + banner.height / 2)) < 2
  })()`)
const resultState = () => page.getByTestId('result-panel').getAttribute('data-state')

beforeAll(async () => {
  ;({ counter: rig.counter, web: rig.web } = await startWebApp(rig.dataDir.path, privateKeychainService(), { startTraining: startTrainingSimulator, providerTimeoutMs: PROVIDER_TIMEOUT_MS }))
  rig.browser = await launchChromium()
  page = await rig.browser.newPage()
  await page.goto(rig.web.url)
})

afterAll(() => closeRig(rig))

describe('practising in training (Chromium)', () => {
  it('names every practice input in one line under the TRAINING banner, readable by all', async () => {
    const line = page.getByTestId('training-practice')
    await line.waitFor()
    expect(await line.textContent()).toBe(
      'Practise: ₹11 fails · ₹12 Pending, then Success · ₹13 Pending, then Failed · ₹14 no answer, then Success · 11 coupons: ₹100.00 spent elsewhere first',
    )
    expect(await seriousAxeViolations(page)).toEqual([])
    await shot('1-banner')
    // Only where sales are practised: the other screens keep the room a second banner line would take.
    await page.getByTestId('nav-history').click()
    await line.waitFor({ state: 'detached' })
    await page.getByTestId('nav-coupons').click()
    await line.waitFor()
    await page.getByTestId('nav-recharge').click()
  })

  it('₹11: the sale FAILED with the provider’s words, safe to sell again', async () => {
    expect(await sellOnScreen(page, '9812300011', '11')).toBe('FAILED')
    expect(await page.getByTestId('result-message').textContent()).toContain('Operator down')
    await shot('2-failed')
  })

  it('₹12: Pending, "do not sell again", counted in Pending; Check status settles it SUCCESS', async () => {
    expect(await sellOnScreen(page, '9812300012', '12')).toBe('UNKNOWN')
    expect((await page.getByTestId('result-panel').textContent())!.toLowerCase()).toContain('do not sell again')
    await expect.poll(() => page.getByTestId('nav-pending-count').textContent()).toBe('1')
    await shot('3-pending')
    await page.getByTestId('check-status-button').click()
    await expect.poll(resultState).toBe('SUCCESS')
    await shot('4-pending-success')
  })

  it('₹13: Pending, and Check status settles it FAILED', async () => {
    expect(await sellOnScreen(page, '9812300013', '13')).toBe('UNKNOWN')
    await page.getByTestId('check-status-button').click()
    await expect.poll(resultState).toBe('FAILED')
    expect(await page.getByTestId('result-message').textContent()).toContain('Operator down')
    await shot('5-pending-failed')
  })

  it('₹14: no answer, Pending once the counter stops waiting; Check status settles it SUCCESS', async () => {
    expect(await sellOnScreen(page, '9812300014', '14', PROVIDER_TIMEOUT_MS + 5_000)).toBe('UNKNOWN')
    expect(await page.getByTestId('result-message').textContent()).toContain('did not answer within 2 seconds')
    await page.getByTestId('check-status-button').click()
    await expect.poll(resultState).toBe('SUCCESS')
  })

  it('says on the banner, in one line at 1024×768, what to enter to take real sales; Settings says it too, marks those fields required and offers no Forget', async () => {
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.getByTestId('nav-history').click()
    expect(await page.getByTestId('training-go-live').textContent()).toBe(GO_LIVE)
    expect(await goLiveOnBannerLine()).toBe(true)
    await shot('6-go-live')

    await page.getByTestId('nav-settings').click()
    expect(await page.getByTestId('settings-go-live').textContent()).toBe(GO_LIVE)
    for (const field of ['settings-user-id', 'settings-token', 'settings-secret-key', 'settings-recharge-url']) {
      expect(await page.getByTestId(`${field}-required`).textContent()).toBe('(required)')
    }
    expect(await page.getByTestId('settings-api-key-required').count()).toBe(0)
    expect(await page.getByTestId('settings-forget').count()).toBe(0)
    // A recharge account without its token is refused, and the field says it is required.
    await page.getByTestId('settings-user-id').fill('FISPL604796')
    await page.getByTestId('settings-recharge-url').fill('https://provider.example/api')
    await page.getByTestId('settings-save').click()
    await expect.poll(() => page.getByTestId('field-error-token').textContent()).toBe('Required: enter it once; it is kept in the system keychain')
    expect(await page.getByTestId('field-error-secretKey').textContent()).toBe('Required: enter it once; it is kept in the system keychain')
    await shot('7-settings-go-live')
    // Nothing was saved: still training.
    expect(await page.getByTestId('mode-badge').getAttribute('data-mode')).toBe('training')

    // The Hindi words fit the same line.
    valueOf(await rig.counter!.call('settings.save', { screenLanguage: 'hi' }))
    await page.getByTestId('nav-history').click()
    await page.reload()
    await page.getByTestId('training-go-live').getByText('असली बिक्री').waitFor()
    expect(await goLiveOnBannerLine()).toBe(true)
    await page.getByTestId('nav-settings').click()
    expect(await page.getByTestId('settings-user-id-required').textContent()).toBe('(ज़रूरी)')
    await shot('8-go-live-hi')
  })
})
