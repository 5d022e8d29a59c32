// The office view: its views' figures for two terminals, each terminal's backlog as the office sees it, and the read-only page over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readOnlyClientConfig } from '../../electron/office/read-only'
import { formatDay } from '../../electron/shared/dates'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually } from '../integration/helpers'
import { couponAnswer, couponIntent, rechargeIntent, rechargeOutcome } from '../integration/ledger-rig'
import { officeOf, query, ship } from './office-rig'
import { one, seedShopDay, two, type ShopDay } from './office-view-rig'

let db: TestPostgres
let shop: ShopDay
let cli: { child: ChildProcess; url: string; output: () => string } | null = null

beforeAll(async () => {
  db = await startTestPostgres()
  shop = await seedShopDay(db)
}, 60_000)

afterAll(async () => {
  cli?.child.kill()
  await shop?.close()
  db?.remove()
})

test('the views give each terminal its sales by operator and coupon type, its margins, dues and day close', async () => {
  expect(await query(db, 'SELECT terminal, operator, sales, amount_paise, unresolved FROM recharge_sales_by_day WHERE business_day = $1 ORDER BY terminal, operator', [shop.today])).toEqual([
    { terminal: one.terminalId, operator: 'Airtel', sales: '1', amount_paise: '29900', unresolved: '0' },
    { terminal: one.terminalId, operator: 'Jio', sales: '2', amount_paise: '39800', unresolved: '0' },
    { terminal: two.terminalId, operator: 'Vi', sales: '1', amount_paise: '14900', unresolved: '0' },
  ])
  expect(await query(db, 'SELECT terminal, coupon_type, sales, coupons, amount_paise, unresolved FROM coupon_sales_by_day WHERE business_day = $1 ORDER BY coupon_type', [shop.today])).toEqual([
    { terminal: two.terminalId, coupon_type: 1, sales: '1', coupons: '3', amount_paise: '32100', unresolved: '0' },
    { terminal: two.terminalId, coupon_type: 2, sales: '1', coupons: '2', amount_paise: '14400', unresolved: '0' },
  ])
  // Counter 1's two Jio sales carry no margin: unknown, not ₹0; its FAILED one earns 0.
  expect(await query(db, 'SELECT terminal, kind, earned_paise, margin_unknown FROM margins_by_day WHERE business_day = $1 ORDER BY terminal, kind', [shop.today])).toEqual([
    { terminal: one.terminalId, kind: 'recharge', earned_paise: '748', margin_unknown: '2' },
    { terminal: two.terminalId, kind: 'coupon', earned_paise: '2100', margin_unknown: '0' },
    { terminal: two.terminalId, kind: 'recharge', earned_paise: '0', margin_unknown: '1' },
  ])
  expect(await query(db, 'SELECT terminal, shop, number, name, sold_paise, paid_paise, due_paise FROM credit_dues')).toEqual([
    { terminal: one.terminalId, shop: 'Sharma Mobile', number: '9811111111', name: 'Ramesh', sold_paise: '29900', paid_paise: '10000', due_paise: '19900' },
  ])
  expect(await query(db, 'SELECT terminal, counted_paise, expected_cash_paise, cash_difference_paise, closing_pan_balance_paise FROM day_closes WHERE business_day = $1', [shop.today])).toEqual([
    { terminal: one.terminalId, counted_paise: '130000', expected_cash_paise: '129700', cash_difference_paise: '300', closing_pan_balance_paise: '562900' },
  ])
  expect(await query(db, 'SELECT terminal, last_seq, journal_end, backlog FROM terminal_backlog ORDER BY terminal')).toEqual([
    { terminal: one.terminalId, last_seq: String(shop.counter1.read('lastSeq')), journal_end: String(shop.counter1.read('lastSeq')), backlog: '0' },
    { terminal: two.terminalId, last_seq: String(shop.counter2.read('lastSeq')), journal_end: String(shop.counter2.read('lastSeq')), backlog: '0' },
  ])
})

/** GET `path` on the page's server with `headers`; the status and the body. */
function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', fail)
    req.end()
  })
}

const section = (html: string, title: string) => html.slice(html.indexOf(`<h2>${title}`), html.indexOf('<h2>', html.indexOf(`<h2>${title}`) + 4))
const rowsOf = (html: string) => html.match(/<tr><td/g)?.length ?? 0

/** `npm run office` as built, started on this database with the password only in its environment. */
async function startCli(): Promise<NonNullable<typeof cli>> {
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, '../../electron/office/office-cli.ts')], {
    env: {
      PATH: process.env.PATH, COUNTER_OFFICE_DB_HOST: db.host, COUNTER_OFFICE_DB_PORT: String(db.port), COUNTER_OFFICE_DB_NAME: db.database,
      COUNTER_OFFICE_DB_USER: db.user, COUNTER_OFFICE_DB_PASSWORD: db.password,
    },
  })
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = await eventually(async () => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(output)?.[0], 'the office view to print its address', 20_000)
  return { child, url, output: () => output }
}

test('the page shows today across terminals, backlogs, the unexplained break only and the day close; refuses callers without the token', async () => {
  cli = await startCli()
  const { origin, pathname, search } = new URL(cli.url)
  const page = `${pathname}${search}`
  expect((await get(origin, '/')).status).toBe(401)
  expect((await get(origin, '/?token=not-the-token-but-long-enough')).status).toBe(401)
  expect((await get(origin, page, { Host: `evil.example:${new URL(origin).port}` })).status).toBe(403)
  expect((await get(origin, page, { Origin: 'http://evil.example' })).status).toBe(403)

  const shown = await get(origin, page)
  expect(shown.status).toBe(200)
  const html = shown.body
  const terminals = section(html, 'Terminals')
  expect(terminals).toContain('Sharma Mobile · Counter 1')
  expect(terminals).toContain('Sharma Mobile · Counter 2')
  expect(terminals.match(/up to date/g)).toHaveLength(2)
  // Counter 1: 3 recharges ₹697.00 (the FAILED one not counted); counter 2: 1 recharge ₹149.00 and 5 coupons ₹465.00.
  const sales = section(html, 'Sales by terminal')
  expect(sales).toContain('<td>Sharma Mobile · Counter 1</td><td class="n">3</td><td class="n">₹697.00</td><td class="n">0</td><td class="n">₹0.00</td><td class="n">₹7.48 (+2 without a recorded margin)</td>')
  expect(sales).toContain('<td>Sharma Mobile · Counter 2</td><td class="n">1</td><td class="n">₹149.00</td><td class="n">5</td><td class="n">₹465.00</td><td class="n">₹21.00 (+1 without a recorded margin)</td>')
  expect(section(html, 'PAN coupons by type')).toContain('<td>P-Coupon</td><td class="n">1</td><td class="n">3</td><td class="n">₹321.00</td>')
  expect(section(html, 'PAN coupons by type')).toContain('<td>E-Coupon</td><td class="n">1</td><td class="n">2</td><td class="n">₹144.00</td>')
  // One break: ₹50 at counter 1's last read. Counter 1's ₹321 "outside debit" is counter 2's coupon: not listed.
  const breaks = section(html, 'PAN balance breaks')
  expect(rowsOf(breaks)).toBe(1)
  expect(breaks).toContain('<td class="n">₹5,629.00</td><td class="n">₹5,679.00</td><td class="n">-₹50.00</td>')
  expect(breaks).not.toContain('321')
  const closes = section(html, 'Day closes')
  expect(rowsOf(closes)).toBe(1)
  expect(closes).toContain('<td class="n">₹1,300.00</td><td class="n">₹1,297.00</td><td class="n">₹3.00</td><td class="n">₹5,629.00</td>')
  expect(html).toContain('Not closed: Sharma Mobile · Counter 2.')
  // What needs the owner's eye, at the top of the page and counted in its title: the break and the drawer out at close.
  const alerts = [...html.matchAll(/<li class="bad" data-alert="(\w+)">([^<]*)<\/li>/g)].map((found) => ({ kind: found[1], words: found[2] }))
  expect(alerts).toContainEqual({ kind: 'break', words: expect.stringMatching(/^Sharma Mobile · Counter 1: the PAN balance moved by -₹50\.00 that no counter/) })
  expect(alerts).toContainEqual({ kind: 'drawer', words: `Sharma Mobile · Counter 1: ${formatDay(shop.today)} was closed with the drawer ₹3.00 over` })
  expect(html.indexOf('Needs attention')).toBeLessThan(html.indexOf('<h2>Terminals'))
  expect(html).toContain(`<title>(${alerts.length}) Counter office`)
  expect(section(html, 'Credit dues')).toContain('<td>Ramesh</td><td>9811111111</td><td>Sharma Mobile · Counter 1</td><td class="n">₹199.00</td>')
  // The shop's total under its counters' rows.
  expect(sales).toContain('<td>Sharma Mobile: all counters</td><td class="n">4</td><td class="n">₹846.00</td><td class="n">5</td><td class="n">₹465.00</td><td class="n">₹28.48 (+3 without a recorded margin)</td>')
  // Each table as CSV, figures as plain numbers; a range of days sums them (the day before sold nothing).
  const csv = await get(origin, `${page}&csv=sales`)
  expect(csv.status).toBe(200)
  expect(csv.body.split('\r\n').slice(0, 2)).toEqual(['Terminal,Recharges,Recharge amount,Coupons,Coupon amount,Earned,Unresolved', 'Sharma Mobile · Counter 1,3,697.00,0,0.00,7.48,0'])
  expect((await get(origin, `${page}&csv=nothing`)).status).toBe(404)
  const before = new Date(Date.parse(`${shop.today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  const range = (await get(origin, `${page}&day=${before}&to=${shop.today}`)).body
  expect(range).toContain(`Counter head office — ${formatDay(before)} to ${formatDay(shop.today)}`)
  expect(section(range, 'Sales by terminal')).toContain('<td>Sharma Mobile: all counters</td><td class="n">4</td><td class="n">₹846.00</td>')
  expect((await get(origin, `${page}&day=${shop.today}&to=${before}`)).status).toBe(400)
  expect(html).not.toContain(db.password)
  expect(cli.output()).not.toContain(db.password)
  // It reloads itself only when asked; another day is asked by the form's YYYY-MM-DD, and a day that is not one is refused plainly.
  expect(html).not.toContain('http-equiv="refresh"')
  expect((await get(origin, `${page}&refresh=on`)).body).toContain(`<meta http-equiv="refresh" content="30; url=${page.replace(/&/g, '&amp;')}&amp;refresh=on">`)
  expect(section((await get(origin, `${page}&day=2025-03-14`)).body, 'Sales by terminal')).toContain('No sales on this day.')
  const notADay = await get(origin, `${page}&day=2025-02-30`)
  expect([notADay.status, notADay.body.includes('That day is not a calendar date')]).toEqual([400, true])
}, 60_000)

test("a terminal whose shipper has said its journal's end but not sent all of it is shown behind by the difference", async () => {
  // Four more lines at counter 2; the office's entries table is held, so its shipper can report its end but not insert.
  shop.recharge(shop.counter2, 'C2-R2', 14900, 'Vi', 'SUCCESS')
  shop.recharge(shop.counter2, 'C2-R3', 14900, 'Vi', 'SUCCESS')
  const holder = new pg.Client(officeOf(db))
  await holder.connect()
  await holder.query('BEGIN')
  await holder.query('LOCK TABLE entries IN EXCLUSIVE MODE')
  const shipper = ship(shop.dir2, two, officeOf(db))
  try {
    await eventually(async () => {
      const rows = await query<{ journal_end: string }>(db, 'SELECT journal_end FROM terminals WHERE terminal = $1', [two.terminalId])
      return Number(rows[0].journal_end) === shop.counter2.read('lastSeq')
    }, 'counter 2 to report its end')
    const { origin, pathname, search } = new URL(cli!.url)
    const html = (await get(origin, pathname + search)).body
    const terminals = section(html, 'Terminals')
    expect(terminals).toContain('behind 4 entries')
    expect(terminals.match(/up to date/g)).toHaveLength(1)
  } finally {
    await holder.query('COMMIT')
    await holder.end()
  }
  await eventually(async () => (await query<{ backlog: string }>(db, 'SELECT backlog FROM terminal_backlog WHERE terminal = $1', [two.terminalId]))[0].backlog === '0', 'counter 2 caught up')
  await shipper.link.stop()
}, 60_000)

test("the page's connection cannot write", async () => {
  const client = new pg.Client(readOnlyClientConfig(officeOf(db)))
  await client.connect()
  try {
    await expect(client.query("UPDATE terminals SET shop = 'x'")).rejects.toMatchObject({ code: '25006' })
    await expect(client.query("INSERT INTO office_schema (version, name) VALUES (99, 'x')")).rejects.toMatchObject({ code: '25006' })
  } finally {
    await client.end()
  }
  expect((await query(db, "SELECT count(*) AS n FROM terminals WHERE shop = 'x'"))[0]).toEqual({ n: '0' })
})

test('with the database down the page says so plainly, and shows the day again once it is back', async () => {
  const { origin, pathname, search } = new URL(cli!.url)
  db.stop()
  try {
    const down = await get(origin, pathname + search)
    expect(down.status).toBe(503)
    expect(down.body).toContain(`The office database at 127.0.0.1:${db.port} refused the connection (is it running?).`)
    expect(down.body).not.toMatch(/Error|at \S+ \(|ECONNREFUSED/)
    expect(down.body).not.toContain(db.password)
  } finally {
    db.start()
  }
  await eventually(async () => (await get(origin, pathname + search)).status === 200, 'the page back')
  expect(cli!.child.exitCode).toBeNull()
  expect(cli!.output()).not.toContain(db.password)
}, 60_000)

test("the office counts earned, a coupon's amount and what was collected as the counter's own day summary does", async () => {
  // A day of counter 2's with service charges, a coupon paid above its charge, and one settled by phone.
  const day = '2026-01-15'
  const counter = shop.counter2
  const margin = (marginPaise: number) => ({ rate: { kind: 'fixed' as const, paise: marginPaise }, marginPaise })
  counter.append('recharge.intent', rechargeIntent('D-R1', 19900, { businessDay: day, training: false, collectedPaise: 21000, margin: margin(500) }))
  counter.append('recharge.outcome', rechargeOutcome('D-R1'))
  counter.append('pan.coupon.intent', couponIntent('D-C1', { businessDay: day, training: false, collectedPaise: 35000, margin: margin(1500) }))
  counter.append('pan.coupon.outcome', couponAnswer('D-C1', { oldBalPaise: 9_000_00, newBalPaise: 8_679_00 }))
  counter.append('pan.coupon.intent', couponIntent('D-C2', { businessDay: day, training: false, qty: 1, margin: margin(500) }))
  counter.append('sale.settled', { kind: 'coupon', id: 'D-C2', outcome: 'SUCCESS', note: 'Confirmed by the helpline, 12:10', chargedPaise: 10500 })
  const shipper = ship(shop.dir2, two, officeOf(db))
  await eventually(async () => Number((await query<{ n: string }>(db, 'SELECT max(seq) AS n FROM entries WHERE terminal = $1', [two.terminalId]))[0].n) === counter.read('lastSeq'), 'the day shipped')
  await shipper.link.stop()

  const own = counter.read('dayTotals', day)
  // The counter: earned ₹5 + ₹11 service on the recharge, ₹15 + ₹29 on the coupon paid ₹350 for ₹321, ₹5 on the one settled by phone.
  expect(own.earnings.total).toMatchObject({ marginPaise: 2500, serviceChargePaise: 4000, earnedPaise: 6500 })
  const earned = await query<{ earned_paise: string }>(db, 'SELECT earned_paise FROM margins_by_day WHERE business_day = $1 AND terminal = $2', [day, two.terminalId])
  expect(earned.reduce((sum, row) => sum + Number(row.earned_paise), 0)).toBe(own.earnings.total.earnedPaise)
  // A coupon's amount is what the provider charged (₹321, and ₹105 confirmed by phone), not what was collected.
  const coupons = await query<{ amount_paise: string }>(db, 'SELECT amount_paise FROM coupon_sales_by_day WHERE business_day = $1 AND terminal = $2', [day, two.terminalId])
  expect(coupons.reduce((sum, row) => sum + Number(row.amount_paise), 0)).toBe(own.coupons.filter((c) => c.state === 'SUCCESS').reduce((sum, c) => sum + c.amountPaise, 0))
  expect(coupons.reduce((sum, row) => sum + Number(row.amount_paise), 0)).toBe(32100 + 10500)
  expect(await query(db, 'SELECT attempt_id, amount_paise, collected_paise FROM coupon_sales WHERE business_day = $1 ORDER BY attempt_id', [day])).toEqual([
    { attempt_id: 'D-C1', amount_paise: '32100', collected_paise: '35000' },
    { attempt_id: 'D-C2', amount_paise: '10500', collected_paise: '10500' },
  ])
})
