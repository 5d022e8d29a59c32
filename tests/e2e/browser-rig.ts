// What every end-to-end suite shares: the core and its browser bridge in training mode, Debian's
// Chromium driven by playwright-core, and a receipt printed to PDF and read back as text.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { startCounter, type CounterApp, type CounterOptions } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { HEADLESS_CHROMIUM_FLAGS } from '../../electron/printers/chromium-raster'
import { startWebServer, type WebServer } from '../../electron/web/server'
import { resourcesDir } from '../integration/helpers'
import { startSimulator } from '../../electron/simulator/server'

const rendererDir = resolve(__dirname, '../../out/renderer')
/** Screenshots and PDFs, for a person to look at. */
export const outputDir = resolve(__dirname, '../../test-output/e2e')


/** The core (training mode, its own data folder) behind the browser bridge serving the built screens. */
export async function startWebApp(
  dataDir: string,
  keychainService: string,
  options: Partial<CounterOptions> = {},
): Promise<{ counter: CounterApp; web: WebServer }> {
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error('The renderer is not built: run `npm run build` (npm test does it first).')
  const counter = await startCounter({ dataDir, resourcesDir, platform: 'web', secrets: keychainSecrets(keychainService), env: {}, startTraining: () => startSimulator(), ...options })
  return { counter, web: await startWebServer({ counter, rendererDir }) }
}

/** Ends what a file's beforeAll started, whichever of it did start: the browser, the bridge, the core, then the data folder. */
export async function closeRig(rig: { browser?: BrowserContext; web?: WebServer; counter?: CounterApp; dataDir: { remove(): void } }): Promise<void> {
  await rig.browser?.close()
  await rig.web?.close()
  await rig.counter?.close()
  rig.dataDir.remove()
}

/** This worker's Chromium, started by the first file that asks and ended by Playwright when the worker exits. */
let workerChromium: Promise<Browser> | undefined

/**
 * A fresh browser for one file: a new context (its own storage, cookies, tabs and downloads) in this worker's
 * Debian Chromium. Decision: one Chromium a worker, not one a file. A launch took 1.6 s of the two cores' time for
 * each of twenty files, a context takes milliseconds, and a context shares nothing with the one before it.
 */
export async function launchChromium(options: { acceptDownloads?: boolean; bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  mkdirSync(outputDir, { recursive: true })
  // A launch that failed or a Chromium that died is started again, not reported to every later file.
  let chromiumNow = await workerChromium?.catch(() => undefined)
  if (!chromiumNow?.isConnected()) {
    workerChromium = chromium.launch({ executablePath: '/usr/bin/chromium', args: HEADLESS_CHROMIUM_FLAGS })
    chromiumNow = await workerChromium
  }
  return chromiumNow.newContext({ viewport: { width: 1280, height: 860 }, ...options })
}

/**
 * Sells a recharge on the Recharge screen as staff do (number, the operator looked up, amount, Enter); returns the
 * state shown once sent. `answerWithinMs`: how long the sale may show Sending (the counter's provider timeout, for a
 * provider that never answers).
 */
export async function sellOnScreen(page: Page, number: string, amount: string, answerWithinMs = 1_000): Promise<string> {
  await page.getByTestId('number-input').fill(number)
  // The operator arrives from fetch_operator; wait for it rather than racing it.
  await expect.poll(() => page.getByTestId('operator-select').inputValue()).not.toBe('')
  await page.getByTestId('amount-input').fill(amount)
  await page.getByTestId('amount-input').press('Enter')
  const panel = page.getByTestId('result-panel')
  await panel.waitFor()
  await expect.poll(() => panel.getAttribute('data-state'), { timeout: answerWithinMs }).not.toBe('SENDING')
  return (await panel.getAttribute('data-state'))!
}

/** The sale's receipt as the printer gets it: rendered by Chromium to an 80 mm PDF, read back with pdftotext. */
export async function receiptPdfText(browser: BrowserContext, counter: CounterApp, orderId: string): Promise<string> {
  const receipt = await counter.call('receipt.html', { orderId })
  if (!receipt.ok) throw new Error(receipt.error.message)
  const paper = await browser.newPage()
  await paper.setContent(receipt.value.html)
  const pdfPath = join(outputDir, `receipt-${orderId}.pdf`)
  writeFileSync(pdfPath, await paper.pdf({ width: '80mm', printBackground: false }))
  await paper.close()
  return execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
}

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // The receipt preview is the printed paper, framed with sandbox="" (no scripts): axe cannot run inside
  // it and waits for it until it times out; the page around it is checked in full.
  const results = await new AxeBuilder({ page }).options({ iframes: false }).exclude('[data-testid=receipt-preview]').analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`)
}
