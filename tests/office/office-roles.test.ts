// The office's roles and its tamper check (#25 part 8): an office owned by a plain login, set up with `npm run office -- roles`; the counters ship
// as its writer role and may not change or delete a line; the page reads as its reader role and may not write; lines changed or deleted by a superuser
// are shown on the page as tampering, by terminal and line, by the scheduled check and by "Check now" alike.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { JournalEntry } from '../../electron/ledger/events'
import { checkChains } from '../../electron/office/chain-check'
import { ingestBatch, registerTerminal, touchTerminal } from '../../electron/office/ingest'
import { CREATE_ROLES_SQL, migrateOffice, OFFICE_MIGRATIONS, OFFICE_ROLES } from '../../electron/office/migrations'
import { startOfficeServer, type OfficeServer } from '../../electron/office/office-server'
import { OfficeReader } from '../../electron/office/office-view'
import { readOnlyClientConfig } from '../../electron/office/read-only'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { journalEntries, namedLedger, officeOf, query, sell, ship } from './office-rig'
import { one, seedShopDay, two, ZONE, type ShopDay } from './office-view-rig'

/** The superuser of the test cluster: `sudo -u postgres` in the README's set-up, and a superuser changing rows. */
let db: TestPostgres
let shop: ShopDay | null = null
let server: OfficeServer | null = null
let reader: OfficeReader | null = null
const cleanups: (() => void)[] = []

const login = (user: string) => ({ user, password: randomBytes(12).toString('hex') })
const OWNER = login('office_owner')
const COUNTERS = login('shop_counters')
const PAGE = login('office_page')
const DATABASE = 'counter_office'
/** The office database as `who` logs in to it. */
const as = (who: { user: string; password: string }): TestPostgres => ({ ...db, database: DATABASE, user: who.user, password: who.password })
/** The office database as the superuser, who may do anything. */
const office = (): TestPostgres => ({ ...db, database: DATABASE })

beforeAll(async () => {
  db = await startTestPostgres()
  // The README's set-up: a plain login (no CREATEROLE) owning the office database.
  await query(db, `CREATE ROLE ${OWNER.user} LOGIN PASSWORD '${OWNER.password}'`)
  await query(db, `CREATE DATABASE ${DATABASE} OWNER ${OWNER.user}`)
}, 60_000)

afterAll(async () => {
  await server?.close()
  await reader?.close()
  await shop?.close()
  for (const cleanup of cleanups) cleanup()
  db?.remove()
})

/** `npm run office -- roles` from source, with the owner's login in its environment only; its exit code and what it printed. */
function officeRoles(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, '../../electron/office/office-cli.ts'), 'roles'], {
    env: {
      PATH: process.env.PATH, COUNTER_OFFICE_DB_HOST: db.host, COUNTER_OFFICE_DB_PORT: String(db.port), COUNTER_OFFICE_DB_NAME: DATABASE,
      COUNTER_OFFICE_DB_USER: OWNER.user, COUNTER_OFFICE_DB_PASSWORD: OWNER.password,
    },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, output })))
}

/** `sql` as `who`, refused or not: the error's code, or 'done'. */
async function attempt(who: TestPostgres, sql: string, params: unknown[] = []): Promise<string> {
  return query(who, sql, params).then(
    () => 'done',
    (error: { code?: string }) => error.code ?? 'no code',
  )
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', fail)
    req.end()
  })
}

const section = (html: string, title: string) => {
  const from = html.indexOf(`${title}</h2>`)
  return from < 0 ? '' : html.slice(from, html.indexOf('<h2', from))
}
/** Counter 1 as the page names it once its fork's copy is registered anew under the same names (test 2). */
const COUNTER_1 = `Sharma Mobile · Counter 1 (${one.terminalId})`
const salesRow = (html: string, label: string) => section(html, 'Sales by terminal').split('<tr>').find((row) => row.startsWith(`<td>${label}</td>`)) ?? ''
/** A line changed everywhere the row holds it (`from` to `to` in its text, its data read from that), its hash made again: only links can tell. */
const rehash = (client: pg.Client, terminal: string, seq: number, from: string, to: string) =>
  client.query(
    `UPDATE entries SET body = replace(body::text, $3, $4)::json, data = (replace(body::text, $3, $4)::json -> 'data')::jsonb,
       hash = encode(sha256(convert_to(prev || E'\\n' || replace(body::text, $3, $4), 'UTF8')), 'hex')
     WHERE terminal = $1 AND seq = $2`,
    [terminal, seq, from, to],
  )
const seqOf = async (terminal: string, type: string, id: string) =>
  Number((await query<{ seq: string }>(office(), "SELECT seq FROM entries WHERE terminal = $1 AND type = $2 AND COALESCE(data->>'orderId', data->>'attemptId') = $3", [terminal, type, id]).catch(() => []))[0]?.seq)

test('npm run office -- roles: an owner who may not make roles is given the SQL for an administrator; run again after it, the roles get their grants', async () => {
  const first = await officeRoles()
  expect(first.code).toBe(1)
  expect(first.output).toContain(`${OWNER.user} may not make roles. A database administrator runs this once`)
  expect(first.output).toContain(CREATE_ROLES_SQL)
  // It migrated the office all the same, as its owner.
  expect((await query(as(OWNER), 'SELECT max(version) AS v FROM office_schema'))[0]).toEqual({ v: OFFICE_MIGRATIONS.at(-1)!.version })

  await query(db, CREATE_ROLES_SQL)
  const second = await officeRoles()
  expect(second.code).toBe(0)
  expect(second.output).toContain(`createuser --pwprompt --role=${OFFICE_ROLES.writer}`)
  expect(second.output).toContain(`createuser --pwprompt --role=${OFFICE_ROLES.reader}`)
  for (const { output } of [first, second]) expect(output).not.toContain(OWNER.password)

  // What the README has the owner do next (createuser --pwprompt --role=…), here in SQL.
  await query(db, `CREATE ROLE ${COUNTERS.user} LOGIN PASSWORD '${COUNTERS.password}' IN ROLE ${OFFICE_ROLES.writer}`)
  await query(db, `CREATE ROLE ${PAGE.user} LOGIN PASSWORD '${PAGE.password}' IN ROLE ${OFFICE_ROLES.reader}`)
}, 60_000)

test("the counters' login ships a shop's day end to end, registering, heartbeating and recording a fork, and may not change or delete a line", async () => {
  shop = await seedShopDay(as(COUNTERS))
  const counters = as(COUNTERS)
  expect(await query(office(), 'SELECT terminal, shop, counter, last_seq, journal_end, last_contact IS NOT NULL AS heard FROM terminals ORDER BY terminal')).toEqual([
    { terminal: one.terminalId, shop: one.shop, counter: one.counter, last_seq: String(shop.counter1.read('lastSeq')), journal_end: String(shop.counter1.read('lastSeq')), heard: true },
    { terminal: two.terminalId, shop: two.shop, counter: two.counter, last_seq: String(shop.counter2.read('lastSeq')), journal_end: String(shop.counter2.read('lastSeq')), heard: true },
  ])

  // A heartbeat (the shipper's every 30 s while caught up): the same touch, as the counters' login.
  const before = (await query<{ last_contact: Date }>(office(), 'SELECT last_contact FROM terminals WHERE terminal = $1', [one.terminalId]))[0].last_contact
  const client = new pg.Client(officeOf(counters))
  await client.connect()
  try {
    await touchTerminal(client, one, shop.counter1.read('lastSeq'))
  } finally {
    await client.end()
  }
  expect((await query<{ last_contact: Date }>(office(), 'SELECT last_contact FROM terminals WHERE terminal = $1', [one.terminalId]))[0].last_contact.getTime()).toBeGreaterThan(before.getTime())

  // Refused: changing or deleting a line, emptying the books, or a terminal's column shipping never writes.
  const intent = await seqOf(one.terminalId, 'recharge.intent', 'C1-1')
  const lines = await query(office(), 'SELECT terminal, seq, data, body::text, hash FROM entries ORDER BY terminal, seq')
  expect(await attempt(counters, `UPDATE entries SET data = jsonb_set(data, '{amountPaise}', '99900') WHERE terminal = $1 AND seq = $2`, [one.terminalId, intent])).toBe('42501')
  expect(await attempt(counters, 'DELETE FROM entries WHERE terminal = $1 AND seq = $2', [one.terminalId, intent])).toBe('42501')
  expect(await attempt(counters, 'TRUNCATE entries CASCADE')).toBe('42501')
  expect(await attempt(counters, 'UPDATE terminals SET parent_through = 5 WHERE terminal = $1', [two.terminalId])).toBe('42501')
  expect(await attempt(counters, 'DELETE FROM terminals WHERE terminal = $1', [two.terminalId])).toBe('42501')
  expect(await attempt(counters, 'CREATE TABLE mine (x int)')).toBe('42501')
  expect(await query(office(), 'SELECT terminal, seq, data, body::text, hash FROM entries ORDER BY terminal, seq')).toEqual(lines)

  // A fork: a copy of counter 1's folder that sold other things reaches the office under its id; refused, recorded, seen
  // again (its record brought up to date), then registered anew, which resolves it: all as the counters' login.
  const copyDir = tempDir('counter-office-copy-')
  cleanups.push(copyDir.remove)
  const copy = await namedLedger(copyDir.path, one)
  sell(copy, 'K', 0, 3)
  const claimant = ship(copyDir.path, one, officeOf(counters))
  const seen = await eventually(async () => {
    const rows = await query<{ part_seq: string; first_seen: Date; last_seen: Date }>(office(), 'SELECT part_seq, first_seen, last_seen FROM terminal_forks WHERE terminal = $1', [one.terminalId])
    return rows.length === 1 && rows[0].last_seen > rows[0].first_seen ? rows[0] : null
  }, 'the fork recorded and seen again', 30_000)
  await claimant.link.stop()
  expect(seen.part_seq).toBe('1')
  expect(claimant.statuses.some((s) => s.state === 'refused' && s.fork?.partsAt === 1)).toBe(true)
  const renamed = { ...one, terminalId: `${one.terminalId}-c0ffee`, replaces: { terminalId: one.terminalId, sharedThrough: 0 } }
  copy.append('terminal.named', renamed)
  const anew = ship(copyDir.path, renamed, officeOf(counters))
  await eventually(async () => (await query(office(), 'SELECT 1 FROM terminal_forks WHERE resolved_as = $1', [renamed.terminalId])).length === 1, 'the fork resolved', 30_000)
  await eventually(async () => Number((await query<{ n: string }>(office(), 'SELECT count(*) AS n FROM entries WHERE terminal = $1', [renamed.terminalId]))[0].n) === copy.read('lastSeq'), 'the copy shipped anew', 30_000)
  await anew.link.stop()
  await copy.close()
}, 120_000)

test("the page's login may not write, even in a transaction it opens read-write, and the page shows the day with no tampering", async () => {
  const client = new pg.Client(readOnlyClientConfig(officeOf(as(PAGE))))
  await client.connect()
  try {
    // default_transaction_read_only is only a default: the session can turn it off. The role is what refuses.
    await client.query('BEGIN READ WRITE')
    await expect(client.query(`UPDATE entries SET data = jsonb_set(data, '{amountPaise}', '1') WHERE terminal = $1`, [one.terminalId])).rejects.toMatchObject({ code: '42501' })
    await client.query('ROLLBACK')
    await client.query('BEGIN READ WRITE')
    await expect(client.query("INSERT INTO terminals (terminal) VALUES ('page/made-up')")).rejects.toMatchObject({ code: '42501' })
    await client.query('ROLLBACK')
    await client.query('BEGIN READ WRITE')
    await expect(client.query('DELETE FROM entries')).rejects.toMatchObject({ code: '42501' })
    await client.query('ROLLBACK')
  } finally {
    await client.end()
  }

  reader = new OfficeReader(officeOf(as(PAGE)))
  server = await startOfficeServer({ reader, timeZone: ZONE, checkEveryMs: 300 })
  const html = await eventually(async () => {
    const page = await get(server!.url)
    return page.status === 200 && page.body.includes('No tampering') ? page.body : null
  }, 'the page with its first check', 30_000)
  // Counter 1: 3 recharges ₹697.00 (its FAILED one not counted), as the office view's own test has it. (Its copy, registered anew, has its name: told apart by id.)
  expect(salesRow(html, COUNTER_1)).toContain('<td class="n">3</td><td class="n">₹697.00</td>')
  const lines = Number((await query<{ n: string }>(office(), 'SELECT count(*) AS n FROM entries'))[0].n)
  expect(section(html, 'Tamper check')).toContain(`${lines} lines of 3 terminals, each hashed again and linked to the one before.`)
}, 60_000)

test('a line changed by a superuser, one changed with its hash made again, and one deleted are shown as tampering by terminal and line; the scheduled check finds what Check now finds', async () => {
  const superuser = new pg.Client(officeOf(office()))
  await superuser.connect()
  const [edited, rehashed, deleted] = [await seqOf(one.terminalId, 'recharge.intent', 'C1-1'), await seqOf(two.terminalId, 'recharge.intent', 'C2-R1'), await seqOf(two.terminalId, 'pan.coupon.intent', 'C2-1')]
  try {
    // The amount changed where the views read it, as the page's totals show.
    await superuser.query(`UPDATE entries SET data = jsonb_set(data, '{amountPaise}', '99900') WHERE terminal = $1 AND seq = $2`, [one.terminalId, edited])
    // Changed everywhere the row holds it, its hash made again from its new text: only the next line's link tells.
    await rehash(superuser, two.terminalId, rehashed, '"amountPaise":14900', '"amountPaise":1490')
    await superuser.query('DELETE FROM entries WHERE terminal = $1 AND seq = $2', [two.terminalId, deleted])
  } finally {
    await superuser.end()
  }
  const findings = [
    `<td>${COUNTER_1}</td><td>#${edited}</td><td>changed at the office: it no longer matches what the counter hashed</td>`,
    `<td>Sharma Mobile · Counter 2</td><td>#${rehashed + 1}</td><td>does not follow #${rehashed} as the counter wrote them: one of the two was changed at the office (its hash made again)</td>`,
    `<td>Sharma Mobile · Counter 2</td><td>#${deleted}</td><td>deleted at the office: received from the counter, no longer held</td>`,
  ]
  const tampering = (html: string) => section(html, 'Tampering: lines changed or deleted at the office')

  // The scheduled check, with no one asking: the page shows its findings.
  const scheduled = await eventually(async () => {
    const html = (await get(server!.url)).body
    return tampering(html).includes(findings[0]) ? html : null
  }, 'the scheduled check to find the changes', 30_000)
  for (const finding of findings) expect(tampering(scheduled)).toContain(finding)
  expect(tampering(scheduled)).toContain('3 findings')
  // The figures include the change (₹697.00 before); the section above them says they cannot be trusted.
  expect(salesRow(scheduled, COUNTER_1)).toContain('<td class="n">3</td><td class="n">₹1,497.00</td>')

  // Check now: the same findings.
  const asked = (await get(`${server!.url}&check=now`)).body
  const table = (html: string) => tampering(html).slice(tampering(html).indexOf('<table>'), tampering(html).indexOf('</table>'))
  expect(table(asked)).toBe(table(scheduled))
  expect((await reader!.checkChains()).problems).toEqual([
    { terminal: one.terminalId, seq: BigInt(edited), through: BigInt(edited), kind: 'edited' },
    { terminal: two.terminalId, seq: BigInt(deleted), through: BigInt(deleted), kind: 'missing' },
    { terminal: two.terminalId, seq: BigInt(rehashed + 1), through: BigInt(rehashed + 1), kind: 'unlinked' },
  ].sort((a, b) => a.terminal.localeCompare(b.terminal) || Number(a.seq - b.seq)))
  expect(asked).not.toContain(PAGE.password)
}, 60_000)

test('lines received before migration 8 have no text: a deleted one is found, an UPDATE of one must give it a text, and the page says what could not be checked', async () => {
  // An office at migration 7 holding counter 2's first lines as it stored them then, brought to migration 8, then shipped to.
  await query(db, 'CREATE DATABASE before_eight')
  const older = new pg.Client({ ...officeOf(db), database: 'before_eight' })
  await older.connect()
  try {
    await older.query('CREATE TABLE office_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    for (const migration of OFFICE_MIGRATIONS.filter((m) => m.version <= 7)) {
      await older.query(migration.sql)
      await older.query('INSERT INTO office_schema (version, name) VALUES ($1, $2)', [migration.version, migration.name])
    }
    const lines = journalEntries(shop!.dir2)
    const old: JournalEntry[] = lines.slice(0, 4)
    await older.query("INSERT INTO terminals (terminal, shop, counter, last_seq, last_hash) VALUES ($1, $2, $3, $4, $5)", [two.terminalId, two.shop, two.counter, old.length, old.at(-1)!.hash])
    await older.query(
      `INSERT INTO entries (terminal, seq, at, type, data, prev, hash)
       SELECT $1, r.seq, r.at, r.type, r.data, r.prev, r.hash FROM jsonb_to_recordset($2::jsonb) AS r (seq bigint, at timestamptz, type text, data jsonb, prev text, hash text)`,
      [two.terminalId, JSON.stringify(old)],
    )
    await migrateOffice(older)
    await registerTerminal(older, two)
    await ingestBatch(older, two.terminalId, lines.slice(old.length))
    expect(await checkChains(older)).toMatchObject({ entries: BigInt(lines.length), textless: 4n, problems: [], problemCount: 0 })

    // An old line's amount cannot be changed without giving it a text (which the check would then hash); a deleted one is found.
    await expect(older.query(`UPDATE entries SET data = jsonb_set(data, '{amountPaise}', '1') WHERE terminal = $1 AND seq = 2`, [two.terminalId])).rejects.toMatchObject({ code: '23514' })
    await older.query('DELETE FROM entries WHERE terminal = $1 AND seq = 3', [two.terminalId])
    // The last line changed with its hash made again: no line after it links to it, the end the office acknowledged tells.
    const last = lines.at(-1)!
    await rehash(older, two.terminalId, last.seq, `"at":"${last.at}"`, `"at":"${new Date(Date.parse(last.at) + 1000).toISOString()}"`)
    await older.query(`UPDATE entries SET at = at + interval '1 second' WHERE terminal = $1 AND seq = $2`, [two.terminalId, last.seq])
    expect((await checkChains(older)).problems).toEqual([
      { terminal: two.terminalId, seq: 3n, through: 3n, kind: 'missing' },
      { terminal: two.terminalId, seq: BigInt(last.seq), through: BigInt(last.seq), kind: 'end' },
    ])
    // Deleted at the end: the lines the office acknowledged and no longer holds.
    await older.query('DELETE FROM entries WHERE terminal = $1 AND seq >= $2', [two.terminalId, last.seq - 1])
    expect((await checkChains(older)).problems).toEqual([
      { terminal: two.terminalId, seq: 3n, through: 3n, kind: 'missing' },
      { terminal: two.terminalId, seq: BigInt(last.seq - 1), through: BigInt(last.seq), kind: 'missing' },
    ])
  } finally {
    await older.end()
  }
  const page = new OfficeReader({ ...officeOf(db), database: 'before_eight' })
  const pageServer = await startOfficeServer({ reader: page, timeZone: ZONE })
  try {
    const html = await eventually(async () => {
      const body = (await get(`${pageServer.url}&check=now`)).body
      return body.includes('Tampering') ? body : null
    }, 'the check of the older office', 30_000)
    expect(html).toContain('3 lines were received before the office kept each line’s text (office migration 8): checked for deletions only, an edit to one cannot be seen.')
  } finally {
    await pageServer.close()
    await page.close()
  }
}, 60_000)
