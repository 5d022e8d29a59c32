// The provider out of reach and back, on screen in Debian's Chromium (REAL mode against the simulator): the status bar
// says since when and the operator lookup says to choose the operator, in English and Hindi, and both clear by
// themselves at the first lookup answered. Screenshots in test-output/e2e/provider-down-*.png.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, providerBackAt, realApiKey, realCredentials, realModeEnv, tempDir, valueOf } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, startWebApp } from './browser-rig'

const dataDir = tempDir('counter-provider-down-e2e-')
let provider: Simulator
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

beforeAll(async () => {
  provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey } })
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService(), { env: realModeEnv(provider.url) }))
  browser = await launchChromium()
  page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  await page.goto(web.url)
})

afterAll(async () => {
  await closeRig({ browser, web, counter, dataDir })
  await provider?.close()
})

const bar = () => page.getByTestId('status-connectivity')
const barState = () => bar().getAttribute('data-connectivity')
const lookupWords = () => page.getByTestId('lookup-failed').textContent()
const shot = (name: string) => page.screenshot({ path: join(outputDir, `provider-down-${name}.png`) })

/** A number typed afresh: the lookup runs for it even if the field held it already. */
async function typeNumber(number: string): Promise<void> {
  await page.getByTestId('number-input').fill('')
  await page.getByTestId('number-input').fill(number)
}

async function showIn(language: 'en' | 'hi'): Promise<void> {
  valueOf(await counter.call('settings.save', { screenLanguage: language }))
  await page.reload()
  await page.getByTestId('number-input').waitFor()
}

describe('the provider out of reach, on screen', () => {
  it('the bar says since when and the lookup says to choose the operator; both clear once the provider answers', async () => {
    // The start's PAN balance read reached it.
    await expect.poll(barState).toBe('online')

    await provider.close()
    await typeNumber('9876543210')
    await expect.poll(lookupWords).toBe('The provider cannot be reached: choose the operator yourself.')
    expect(await page.getByTestId('operator-select').inputValue()).toBe('')
    await expect.poll(barState).toBe('offline')
    expect(await bar().textContent()).toMatch(/^\s*Provider unreachable since \d\d:\d\d\s+last contact \d\d:\d\d\s*$/)
    expect(await bar().getAttribute('title')).toMatch(/^Provider unreachable since \d\d:\d\d, last contact \d\d:\d\d$/)
    // The operator can still be chosen by hand: nothing waits on the provider.
    await page.getByTestId('operator-select').selectOption('AT')
    expect(await page.getByTestId('operator-select').inputValue()).toBe('AT')
    await shot('en')

    await showIn('hi')
    await expect.poll(() => bar().textContent()).toMatch(/प्रोवाइडर \d\d:\d\d से पहुँच से बाहर/)
    await typeNumber('7012345678')
    await expect.poll(lookupWords).toBe('प्रोवाइडर पहुँच से बाहर है: ऑपरेटर खुद चुनें।')
    await shot('hi')
    await showIn('en')

    provider = await providerBackAt(provider.url)
    await typeNumber('9876543210')
    await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
    expect(await page.getByTestId('lookup-failed').count()).toBe(0)
    await expect.poll(barState).toBe('online')
    expect(await bar().textContent()).toMatch(/^\s*Online\s+last contact \d\d:\d\d\s*$/)
    await shot('back')
  })
})
