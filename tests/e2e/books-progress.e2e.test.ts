// The books' long work on screen in Debian's Chromium: closing the day over a journal of months of sales, never
// audited before, shows "Checking the journal… n%" in the status bar and by the close button while the audit runs,
// with the status bar's height unchanged and axe-core clean, and nothing of it once the day is closed.
import { join } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { loadCatalog } from '../../electron/counter/catalog'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR } from '../../electron/ledger/journal'
import type { WebServer } from '../../electron/web/server'
import { SILENT_FOR_MS } from '../../renderer/src/stores/booksProgress'
import { JournalWriter } from '../bench/build-ledgers'
import { ShopHistory } from '../bench/shop-history'
import { privateKeychainService, resourcesDir, tempDir } from '../integration/helpers'
import { launchChromium, outputDir, startWebApp } from './browser-rig'

/**
 * About 600k journal lines (a year and a half of the bench's shop from April 2020): an audit of about 5 s here, so axe
 * (2.5–3.3 s) looks at the bars while they are up. The audit checks lines on their bytes: at 150k lines it took under a
 * second, and at 400k the bars were gone 3.6 s after they came, within axe's run in two runs of three.
 */
const SALES = 300_000
const keychainService = privateKeychainService()
let browser: BrowserContext
let page: Page
let running: { counter: CounterApp; web: WebServer } | null = null
const folders: { remove(): void }[] = []

/** One look at one progress bar, taken in the page. */
interface Seen {
  where: 'status bar' | 'close button' | 'elsewhere'
  label: string | null
  min: string | null
  max: string | null
  now: number
  valueText: string | null
  text: string
  statusBarHeight: number
  /** Where the status bar's last item (the business day) ends: the bar coming takes no room from it. */
  lastItemRight: number
  /** The task's name is cut short (only where there is no room for it: never by the close button). */
  nameCut: boolean
}

/** The bench's shop history written as the journal's own lines, every day closed; returns the lines and the last one's time. */
function writeShopHistory(ledger: string): { entries: number; lastAt: string } {
  const catalog = loadCatalog(resourcesDir)
  const writer = new JournalWriter(join(ledger, JOURNAL_DIR))
  let lastAt = ''
  for (const day of new ShopHistory(catalog.operators, catalog.circles, [SALES]).days()) {
    for (const event of day.events) writer.write(event)
    writer.write(day.close)
    lastAt = day.close.at
  }
  writer.finish()
  return { entries: writer.lastSeq, lastAt }
}

/**
 * Run in the page (as text: the tests are typed without the DOM's names): every bar the page shows, each time one
 * changes, with the status bar's height and last item then, into window.progressSeen; no step is missed between two looks.
 */
const WATCH_PROGRESS_BARS = `{
  const seen = []
  window.progressSeen = seen
  new MutationObserver(() => {
    const statusBar = document.querySelector('.status-bar')
    const statusBarHeight = statusBar.getBoundingClientRect().height
    const lastItemRight = statusBar.lastElementChild.getBoundingClientRect().right
    for (const bar of document.querySelectorAll('[role=progressbar]')) {
      seen.push({
        where: bar.closest('.status-bar') ? 'status bar' : bar.closest('[data-testid=close-confirm]') ? 'close button' : 'elsewhere',
        label: bar.getAttribute('aria-label'),
        min: bar.getAttribute('aria-valuemin'),
        max: bar.getAttribute('aria-valuemax'),
        now: Number(bar.getAttribute('aria-valuenow')),
        valueText: bar.getAttribute('aria-valuetext'),
        text: bar.textContent.trim(),
        nameCut: bar.children[1].scrollWidth > bar.children[1].clientWidth,
        statusBarHeight,
        lastItemRight,
      })
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] })
}`

beforeAll(async () => {
  browser = await launchChromium()
  page = await browser.newPage()
  page.setDefaultTimeout(20_000)
  await page.setViewportSize({ width: 1024, height: 768 }) // the narrower of the shop screens: the least room in the status bar
})

afterAll(async () => {
  await running?.web.close()
  await running?.counter.close()
  await browser?.close()
  for (const folder of folders) folder.remove()
})

describe('the books’ long work on screen', () => {
  it('shows the day close’s audit as it goes, then nothing once the day is closed', async () => {
    const dataDir = tempDir('counter-books-progress-')
    folders.push(dataDir)
    const { entries, lastAt } = writeShopHistory(ledgerDir(dataDir.path, 'training'))
    expect(entries).toBeGreaterThan(600_000)
    // The counter opens the next morning, its clock running on from there: the clock agrees with the books.
    const startedAt = Date.now()
    const morning = Date.parse(lastAt) + 12 * 3600_000
    running = await startWebApp(dataDir.path, keychainService, { now: () => new Date(morning + Date.now() - startedAt) })
    const openMs = Date.now() - startedAt // the first open replays the whole journal into the books: most of this test's time

    await page.goto(running.web.url)
    await page.getByTestId('number-input').waitFor()
    await page.getByTestId('nav-day-close').click()
    await page.getByTestId('cash-drawer').waitFor()
    const statusBar = page.locator('.status-bar')
    const heightBefore = (await statusBar.boundingBox())!.height
    const lastItemRight = await page.evaluate<number>("document.querySelector('.status-bar').lastElementChild.getBoundingClientRect().right")
    await page.evaluate(WATCH_PROGRESS_BARS)

    await page.getByTestId('drawer-float').fill('0')
    await page.getByTestId('drawer-coins').fill('0')
    // Sales the history left open are still unanswered if the simulator cannot settle them: the owner writes why.
    if ((await page.getByTestId('drawer-override-note').count()) > 0) await page.getByTestId('drawer-override-note').fill('Old sales of the imported history')
    await page.getByTestId('drawer-coins').press('Enter')
    await page.getByTestId('close-confirm').waitFor()
    await page.getByTestId('close-confirm-yes').click()

    // For a person to look at, then axe while the bars are still up: its passes name both of them, so it looked at them.
    await page.getByTestId('close-confirm').getByRole('progressbar', { name: 'Checking the journal' }).waitFor()
    const shownAt = Date.now()
    await page.screenshot({ path: join(outputDir, 'books-progress.png') })
    const axe = await new AxeBuilder({ page }).include('.status-bar').include('[data-testid=close-confirm]').analyze()
    const axeMs = Date.now() - shownAt
    expect(axe.violations.map((violation) => `${violation.impact} ${violation.id}`)).toEqual([])
    expect(axe.passes.find((rule) => rule.id === 'aria-progressbar-name')?.nodes.length).toBe(2)

    await expect.poll(() => page.getByTestId('day-status').getAttribute('data-closed'), { timeout: 60_000 }).toBe('true')
    const closedMs = Date.now() - shownAt
    // Gone with the audit's last word, well before the store would drop a silent task.
    await expect.poll(() => page.getByRole('progressbar').count(), { timeout: SILENT_FOR_MS / 3 }).toBe(0)
    expect((await statusBar.boundingBox())!.height).toBe(heightBefore)

    const seen = await page.evaluate<Seen[]>('window.progressSeen')
    expect(new Set(seen.map((bar) => bar.where))).toEqual(new Set(['status bar', 'close button']))
    for (const bar of seen) {
      expect(bar).toMatchObject({ label: 'Checking the journal', min: '0', max: '100', statusBarHeight: heightBefore, lastItemRight })
      expect(bar.now).toBeGreaterThanOrEqual(0)
      expect(bar.now).toBeLessThan(100)
      expect(bar.valueText).toBe(`Checking the journal… ${bar.now}%`)
      expect(bar.text).toBe(bar.valueText)
    }
    expect(seen.filter((bar) => bar.where === 'close button' && bar.nameCut)).toEqual([])
    const values = seen.filter((bar) => bar.where === 'status bar').map((bar) => bar.now)
    expect(values).toEqual([...values].sort((a, b) => a - b)) // it only goes forward
    expect(new Set(values).size).toBeGreaterThan(5) // and moves as the audit goes, not in one jump
    console.log(`books progress: ${entries} journal lines; core open ${openMs} ms; ${new Set(values).size} values shown; axe ${axeMs} ms with the bars up; closed ${closedMs} ms after they came`)
  }, 240_000) // the replay is most of it: about 22 s alone here, 36–38 s beside ledger-chores
})
