// The bars at the top in Debian's Chromium: the books notice from start-up when the journal's last
// committed line was edited, and the clock notice when the core's clock is days past the books, which
// the owner's Confirm clears. Each on screen at 1366×768, screenshotted, and axe-core clean with it shown.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { ledgerDir } from '../../electron/counter/session'
import { AHEAD_LIMIT_MS } from '../../electron/ledger/clock-sense'
import { JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import type { WebServer } from '../../electron/web/server'
import { privateKeychainService, tempDir } from '../integration/helpers'
import { launchChromium, outputDir, seriousAxeViolations, startWebApp } from './browser-rig'

const keychainService = privateKeychainService()
const topUp = (counter: CounterApp, reference: string) => counter.call('topups.add', { amount: '500', reference })
let browser: BrowserContext
let page: Page
let running: { counter: CounterApp; web: WebServer } | null = null
const folders: { remove(): void }[] = []

async function stop(): Promise<void> {
  await running?.web.close()
  await running?.counter.close()
  running = null
}

async function openCounter(url: string): Promise<void> {
  await page.goto(url)
  await page.getByTestId('number-input').waitFor()
}

beforeAll(async () => {
  browser = await launchChromium()
  page = await browser.newPage()
  page.setDefaultTimeout(10_000)
  await page.setViewportSize({ width: 1366, height: 768 })
})

afterEach(stop)

afterAll(async () => {
  await browser?.close()
  for (const folder of folders) folder.remove()
})

describe('the bars at the top', () => {
  it('shows the books notice from start-up when the journal’s last committed line was edited', async () => {
    const dataDir = tempDir('counter-notices-books-')
    folders.push(dataDir)
    running = await startWebApp(dataDir.path, keychainService)
    expect(await topUp(running.counter, 'UTR 4100 0001')).toMatchObject({ ok: true })
    await stop()
    // A clean stop leaves the last line whole and newline-ended: edited, it is damage, not a torn write.
    const segment = join(ledgerDir(dataDir.path, 'training'), JOURNAL_DIR, segmentName(1))
    const lines = readFileSync(segment, 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    const lineNumber = lines.length - 1
    lines[lineNumber - 1] = lines[lineNumber - 1].replace(/}$/, '#')
    writeFileSync(segment, lines.join('\n'))

    running = await startWebApp(dataDir.path, keychainService)
    await openCounter(running.web.url)
    const notice = page.getByTestId('books-notice')
    await expect.poll(() => notice.isVisible()).toBe(true)
    expect(await notice.textContent()).toContain('The books are read-only')
    expect(await page.getByTestId('books-read-only').textContent()).toContain(`The journal is damaged at line ${lineNumber}`)
    await page.screenshot({ path: join(outputDir, 'notice-books-read-only.png') })
    expect(await seriousAxeViolations(page)).toEqual([])
  })

  it('shows the clock notice when the core’s clock is days past the books, and Confirm clears it', async () => {
    const dataDir = tempDir('counter-notices-clock-')
    folders.push(dataDir)
    let aheadMs = 0
    running = await startWebApp(dataDir.path, keychainService, { now: () => new Date(Date.now() + aheadMs) })
    expect(await topUp(running.counter, 'UTR 4100 0002')).toMatchObject({ ok: true }) // the books' last entry: now
    aheadMs = AHEAD_LIMIT_MS + 24 * 60 * 60_000

    await openCounter(running.web.url)
    const notice = page.getByTestId('clock-notice')
    await expect.poll(() => notice.isVisible()).toBe(true)
    expect(await notice.textContent()).toContain('days past the last entry in the books')
    expect(await topUp(running.counter, 'UTR 4100 0003')).toMatchObject({ ok: false }) // stopped until confirmed
    await page.screenshot({ path: join(outputDir, 'notice-clock-ahead.png') })
    expect(await seriousAxeViolations(page)).toEqual([])

    await page.getByTestId('clock-confirm').click()
    await expect.poll(() => notice.count()).toBe(0)
    expect(await topUp(running.counter, 'UTR 4100 0004')).toMatchObject({ ok: true })
  })
})
