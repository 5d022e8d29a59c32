// The status bar, Today and History where room is shortest, in Debian's Chromium, English and Hindi: the bar with the
// provider and a head office set up both unreachable, as when the shop's line is down (its longest words), at 1366×768,
// 1280×720 and 1024×768, the shop's name and the mode whole and no item cut; Today's rows beside a sale's result at
// 1366×768 and 1024×768, every number whole, every operator readable and the result's ids each on one line, whole;
// History's columns beside an open receipt at 1366×768 and 1024×768, every cell readable and no sideways scroll in the
// list. Screenshots in test-output/e2e/narrow-*.png.
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import type { WebServer } from '../../electron/web/server'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { approvedAgent, eventually, privateKeychainService, realApiKey, realCredentials, realModeEnv, tempDir, valueOf } from '../integration/helpers'
import { closeRig, launchChromium, outputDir, sellOnScreen, startWebApp } from './browser-rig'

/** A shop's name as long as real ones run (the bar must show it whole). */
const SHOP = 'Shree Ganesh Mobile & Recharge Centre'
const LANGUAGES = ['en', 'hi'] as const
const BAR_SIZES = [
  { width: 1366, height: 768 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
] as const
const HISTORY_SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const

const dataDir = tempDir('counter-narrow-e2e-')
let db: TestPostgres
let provider: Simulator
let browser: BrowserContext
let counter: CounterApp
let web: WebServer
let page: Page

// What runs in the page is written as text: this Node-side file has no DOM types. Each finding is one line naming the
// element, so a failure says what was cut and by how much.
const NAME = `(element) => element.tagName.toLowerCase() + '.' + [...element.classList].join('.') + ' "' + (element.textContent ?? '').trim().replace(/\\s+/g, ' ') + '"'`
/** One box within another (half a pixel for rounding). */
const INSIDE = `(box, edge) => box.left >= edge.left - 0.5 && box.right <= edge.right + 0.5 && box.top >= edge.top - 0.5 && box.bottom <= edge.bottom + 0.5`
/** Cut text (a clipping box narrower than its content) that no title on it or around it gives whole. */
const CUT_WITHOUT_TITLE = `(element, within) => {
  if (element.scrollWidth <= element.clientWidth || getComputedStyle(element).overflowX === 'visible') return false
  const text = (element.textContent ?? '').trim().replace(/\\s+/g, ' ')
  for (let at = element; at && within.contains(at); at = at.parentElement) if ((at.getAttribute('title') ?? '').includes(text)) return false
  return true
}`

/** Everything shown in the status bar lies inside it (it clips what does not) and inside its own item (nothing overlaps its
 * neighbour), and nothing cut lacks a title with it whole. */
const STATUS_BAR_REPORT = `(() => {
  const name = ${NAME}
  const cutWithoutTitle = ${CUT_WITHOUT_TITLE}
  const inside = ${INSIDE}
  const bar = document.querySelector('.status-bar')
  const edge = bar.getBoundingClientRect()
  const found = []
  if (bar.scrollWidth > bar.clientWidth) found.push('the bar clips ' + (bar.scrollWidth - bar.clientWidth) + ' px of its items')
  for (const element of bar.querySelectorAll('*')) {
    if (element.closest('.visually-hidden, dialog')) continue
    const box = element.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) continue
    if (!inside(box, edge)) {
      found.push('outside the bar (' + Math.round(box.left) + '–' + Math.round(box.right) + ' of ' + Math.round(edge.left) + '–' + Math.round(edge.right) + '): ' + name(element))
    } else if (element.parentElement !== bar && !inside(box, element.parentElement.getBoundingClientRect())) {
      found.push('out of its ' + element.parentElement.className + ': ' + name(element))
    } else if (cutWithoutTitle(element, bar)) {
      found.push('cut (' + element.scrollWidth + ' > ' + element.clientWidth + ') with no title: ' + name(element))
    }
  }
  return found
})()`

/**
 * The bar's facts (all but its messages, which give way whole in their titles, and words only for screen readers) in a
 * box narrower than their content, title or none: "last contact 2…" is a figure nobody can read.
 */
const CUT_FACTS = `[...document.querySelectorAll('.status-bar *:not(.status-error, .status-error *, .visually-hidden)')]
  .filter((element) => element.scrollWidth > element.clientWidth)
  .map(${NAME})`

/**
 * Today's rows, each with its number, operator, amount and state (box widths, px), and the sale's ids on show beside them:
 * whether each is whole (its box as wide as its text, inside its row or panel) and how many lines each id takes.
 */
const TODAY_REPORT = `(() => {
  const inside = ${INSIDE}
  const whole = (element, within) => ({
    text: element.textContent.trim(),
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
    whole: element.scrollWidth <= element.clientWidth && inside(element.getBoundingClientRect(), within.getBoundingClientRect()),
  })
  const lines = (element) => {
    const range = document.createRange()
    range.selectNodeContents(element)
    const tops = [...range.getClientRects()].map((rect) => Math.round(rect.top))
    return new Set(tops).size
  }
  const rows = [...document.querySelectorAll('[data-testid=today-row]')].map((row) => ({
    number: whole(row.querySelector('[data-testid=today-row-number]'), row),
    operator: whole(row.querySelector('[data-testid=today-row-operator]'), row),
    amount: whole(row.querySelector('.list-amount'), row),
    state: whole(row.querySelector('[data-testid=today-row-status]'), row),
  }))
  const panel = document.querySelector('[data-testid=result-panel]')
  const ids = [...panel.querySelectorAll('[data-testid=result-order-id], [data-testid=result-fpay-id]')].map((id) => ({ ...whole(id, panel), lines: lines(id) }))
  return { rows, ids }
})()`
type Box = { text: string; scrollWidth: number; clientWidth: number; whole: boolean }

/** The shop's name and the mode: their words, and whether each is whole (not cut, inside the bar). */
const WHOLE_ITEMS = `[...document.querySelectorAll('.status-bar .shop-name, .status-bar .mode-badge')].map((element) => {
  const inside = (${INSIDE})(element.getBoundingClientRect(), document.querySelector('.status-bar').getBoundingClientRect())
  return { text: element.textContent.trim(), whole: inside && element.scrollWidth <= element.clientWidth }
})`

/**
 * History's cells that are cut or past the card, and sideways scroll in the list. The sales here are of ordinary length,
 * so nothing may be cut at all (a longer name or reference gives way to an ellipsis, with the whole in the cell's title).
 */
const HISTORY_REPORT = `(() => {
  const name = ${NAME}
  const card = document.querySelector('.history-list')
  const edge = card.getBoundingClientRect()
  const found = []
  const list = card.querySelector('.virtual-list')
  if (list.scrollWidth > list.clientWidth) found.push('the list scrolls sideways: ' + list.scrollWidth + ' > ' + list.clientWidth)
  for (const cell of card.querySelectorAll('.history-columns > *, .history-row > *, .history-row > * *')) {
    const box = cell.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) continue
    if (box.right > edge.right + 0.5 || box.left < edge.left - 0.5) found.push('past the card (' + Math.round(box.right - edge.right) + ' px): ' + name(cell))
    else if (cell.scrollWidth > cell.clientWidth && getComputedStyle(cell).overflowX !== 'visible') {
      found.push('cut (' + cell.scrollWidth + ' > ' + cell.clientWidth + '): ' + name(cell))
    }
  }
  return found
})()`

async function showIn(language: (typeof LANGUAGES)[number]): Promise<void> {
  valueOf(await counter.call('settings.save', { screenLanguage: language }))
  await page.reload()
  await page.getByTestId('status-office').waitFor()
  // The state's own words (the reason, once the office has answered, holds the word too).
  await page.getByTestId('status-office').locator('.office-state').getByText(language === 'hi' ? 'कार्यालय' : 'Office').waitFor()
  // Saving settings starts the shipper again: it tries the office once more before it says unreachable.
  await page.locator('[data-testid=status-office][data-state=unreachable]').waitFor({ timeout: 20_000 })
}

beforeAll(async () => {
  db = await startTestPostgres()
  provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey } })
  ;({ counter, web } = await startWebApp(dataDir.path, privateKeychainService(), { env: realModeEnv(provider.url) }))
  valueOf(
    await counter.call('settings.save', {
      shopName: SHOP,
      counterName: 'Counter 1',
      officeHost: '127.0.0.1',
      officePort: db.port,
      officeDatabase: db.database,
      officeUser: db.user,
      officePassword: db.password,
      officeTls: false,
    }),
  )
  // With a PIN the role shows with its Lock button: the bar's widest role.
  valueOf(await counter.call('roles.setPin', { pin: '4826', repeat: '4826' }))
  await eventually(async () => valueOf(await counter.call('app.status', {})).office?.state === 'caught-up', 'the office caught up', 20_000)
  // The office goes away and sales wait for it: "Office unreachable since 19:53 · 5 entries waiting", its longest words.
  db.stop()
  const agent = await approvedAgent(counter, 'AG2001')
  valueOf(await counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199' }))
  valueOf(await counter.call('customers.name', { number: '9876543210', name: 'Sunita Devi' }))
  valueOf(await counter.call('recharge.sell', { kind: 'dth', number: '3012345678', operatorCode: 'TTV', amount: '350' }))
  valueOf(await counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2, paymentMode: 'cash' }))
  await eventually(async () => {
    const office = valueOf(await counter.call('app.status', {})).office
    return office?.state === 'unreachable' && (office.behind ?? 0) > 0
  }, 'the office unreachable with entries waiting', 20_000)

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

// Decision: a test, not part of beforeAll, as the rig's sellOnScreen waits with expect.poll, which runs only in a test.
it('sells two recharges on screen (their ids shown beside Today), then the line that took the office takes the provider', async () => {
  expect(await sellOnScreen(page, '9812345670', '299')).toBe('SUCCESS')
  expect(await sellOnScreen(page, '7012345678', '149')).toBe('SUCCESS')
  // The PAN balance as read, with its time: the bar's widest balance.
  await page.getByTestId('pan-balance-refresh').click()
  await page.getByTestId('pan-balance-time').waitFor()
  // "Provider unreachable since 19:53", once a call finds it so.
  await provider.close()
  await counter.call('recharge.lookupOperator', { number: '9876543210' })
})

describe.each(LANGUAGES)('in %s', (language) => {
  beforeAll(() => showIn(language))

  it.each(BAR_SIZES)('the status bar at $width×$height shows the shop and the mode whole, and nothing cut without a way to read it', async (size) => {
    await page.setViewportSize(size)
    // Read, it is in the bar; where room is shortest its time may have given way altogether.
    await page.getByTestId('pan-balance-time').waitFor({ state: 'attached' })
    // The words as one reads them, and whole on hover however much of them gave way. Read at once, between the
    // shipper's tries: each try shows "trying again" for as long as the refused connection takes.
    const office = await page
      .waitForFunction(
        `(() => { const item = document.querySelector('[data-testid=status-office]'); return item?.getAttribute('data-state') === 'unreachable' ? { text: item.textContent, title: item.getAttribute('title') } : null })()`,
      )
      .then((found) => found.jsonValue() as Promise<{ text: string; title: string | null }>)
    const officeWords = language === 'hi' ? /^कार्यालय \d\d:\d\d से पहुँच से बाहर · \d+ प्रविष्टियाँ बाकी/ : /^Office unreachable since \d\d:\d\d · \d+ entries waiting/
    expect(office?.text).toMatch(officeWords)
    expect(office?.title).toMatch(officeWords)
    const providerWords = language === 'hi' ? /^प्रोवाइडर \d\d:\d\d से पहुँच से बाहर/ : /^Provider unreachable since \d\d:\d\d/
    expect((await page.getByTestId('status-connectivity').textContent())?.trim()).toMatch(providerWords)
    expect(await page.getByTestId('status-connectivity').getAttribute('title')).toMatch(providerWords)
    await page.screenshot({ path: join(outputDir, `narrow-status-bar-${language}-${size.width}x${size.height}.png`) })
    expect(await page.evaluate<string[]>(STATUS_BAR_REPORT)).toEqual([])
    expect(await page.evaluate<string[]>(CUT_FACTS)).toEqual([])
    const items = await page.evaluate<{ text: string; whole: boolean }[]>(WHOLE_ITEMS)
    expect(items).toEqual([
      { text: language === 'hi' ? 'असली' : 'REAL', whole: true },
      { text: SHOP, whole: true },
    ])
  })

  it.each(HISTORY_SIZES)('Today at $width×$height shows every number and operator whole, and the sale’s ids whole on one line', async (size) => {
    await page.setViewportSize(size)
    await page.goto(`${web.url.split('#')[0]}#/`)
    await expect.poll(() => page.getByTestId('today-row').count(), { timeout: 10_000 }).toBe(4)
    // The newest sale, made on screen: its result beside the list, with its order id and FPay id.
    await page.getByTestId('today-row').first().click()
    await page.getByTestId('result-fpay-id').waitFor()
    await page.screenshot({ path: join(outputDir, `narrow-today-${language}-${size.width}x${size.height}.png`) })
    const { rows, ids } = await page.evaluate<{ rows: { number: Box; operator: Box; amount: Box; state: Box }[]; ids: (Box & { lines: number })[] }>(TODAY_REPORT)
    const widths = (box: Box) => `${box.text} ${box.scrollWidth}/${box.clientWidth} px`
    console.log(`[narrow] Today ${language} ${size.width}×${size.height} (text/box): ${rows.map((row) => [row.number, row.operator, row.amount, row.state].map(widths).join(', ')).join('; ')}; ids ${ids.map((id) => `${widths(id)} on ${id.lines} line`).join(', ')}`)
    expect(rows.map((row) => row.number.text)).toEqual(['7012345678', '9812345670', '3012345678', '9876543210'])
    expect(rows.map((row) => row.amount.text)).toEqual(['₹149.00', '₹299.00', '₹350.00', '₹199.00'])
    for (const row of rows) expect([row.number, row.operator, row.amount, row.state].filter((box) => !box.whole)).toEqual([])
    expect(ids.map((id) => [id.whole, id.lines])).toEqual([
      [true, 1],
      [true, 1],
    ])
  })

  it.each(HISTORY_SIZES)('History at $width×$height keeps every column readable beside an open receipt', async (size) => {
    await page.setViewportSize(size)
    await page.goto(`${web.url.split('#')[0]}#/history`)
    // The list loads after the screen (over the bridge, after a language's reload): poll's default second is short of it.
    await expect.poll(() => page.getByTestId('history-row').count(), { timeout: 10_000 }).toBe(5)
    await page.getByTestId('history-row').first().click()
    await page.getByTestId('history-receipt').waitFor()
    await page.frameLocator('[data-testid=history-receipt] iframe').getByText(SHOP.split(' & ')[0]).waitFor()
    await page.screenshot({ path: join(outputDir, `narrow-history-${language}-${size.width}x${size.height}.png`) })
    expect(await page.evaluate<string[]>(HISTORY_REPORT)).toEqual([])
    // Where a longer one would be cut, its cell's title has it whole.
    const titles = await page.evaluate<boolean[]>(
      `[...document.querySelectorAll('.history-row .col-label, .history-row .col-detail, .history-row .col-reference')].map((cell) => cell.title === cell.textContent.trim())`,
    )
    expect(titles).toEqual(Array(15).fill(true))
    await page.getByTestId('history-receipt-close').click()
  })
})
