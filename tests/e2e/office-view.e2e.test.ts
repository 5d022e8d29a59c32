// The office view in Debian's Chromium: a shop's day across two counters, readable, no serious accessibility findings. Screenshot in test-output/e2e/.
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startOfficeServer, type OfficeServer } from '../../electron/office/office-server'
import { OfficeReader } from '../../electron/office/office-view'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { officeOf } from '../office/office-rig'
import { seedShopDay, ZONE, type ShopDay } from '../office/office-view-rig'
import { launchChromium, outputDir, seriousAxeViolations } from './browser-rig'

let db: TestPostgres
let shop: ShopDay
let reader: OfficeReader
let server: OfficeServer
let browser: BrowserContext

beforeAll(async () => {
  db = await startTestPostgres()
  shop = await seedShopDay(db)
  reader = new OfficeReader(officeOf(db))
  server = await startOfficeServer({ reader, timeZone: ZONE })
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await reader?.close()
  await shop?.close()
  db?.remove()
})

test("the office page shows the day's terminals, sales, the unexplained break and the day close", async () => {
  const page = await browser.newPage()
  await page.goto(server.url)
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('(today)')
  const terminals = page.locator('table').first()
  await expect.poll(() => terminals.locator('tbody tr').count()).toBe(2)
  expect(await terminals.textContent()).toContain('up to date')
  expect(await page.getByRole('heading', { name: 'PAN balance breaks no terminal explains' }).isVisible()).toBe(true)
  expect(await page.textContent('body')).toContain('-₹50.00')
  expect(await seriousAxeViolations(page)).toEqual([])
  await page.screenshot({ path: join(outputDir, 'office-view.png'), fullPage: true })
}, 60_000)
