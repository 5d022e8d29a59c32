// Journal shipping to a real PostgreSQL: convergence, crashes on either side, tampering and forks refused.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listSegments } from '../../electron/ledger/segments'
import { ingestBatch, OfficeRefusal, registerTerminal } from '../../electron/office/ingest'
import { migrateOffice } from '../../electron/office/migrations'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, tempDir } from '../integration/helpers'
import { journalDirOf, journalEntries, namedLedger, officeEntries, officeOf, query, sell, ship } from './office-rig'

let db: TestPostgres
const folders: { remove(): void }[] = []
const folder = () => {
  const made = tempDir('counter-office-')
  folders.push(made)
  return made.path
}

beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => {
  db?.remove()
  for (const made of folders) made.remove()
})

/** The office holds exactly the journal: every entry once, in order, with the journal's own hashes. */
async function expectConverged(ledgerDir: string, terminal: string) {
  const journal = journalEntries(ledgerDir).map(({ seq, hash, type }) => ({ seq, hash, type }))
  expect(await officeEntries(db, terminal)).toEqual(journal)
}

const caughtUpWith = (ledgerDir: string, terminal: string) => async () => {
  const [row] = await query<{ last_seq: string }>(db, 'SELECT last_seq FROM terminals WHERE terminal = $1', [terminal]).catch(() => [])
  return row && Number(row.last_seq) === journalEntries(ledgerDir).length
}

describe('journal shipping', () => {
  test('two terminals selling at once converge in the office, every entry once and in order', async () => {
    const [dirA, dirB] = [folder(), folder()]
    const a = { terminalId: 'sharma-mobile/counter-1', shop: 'Sharma Mobile', counter: 'Counter 1' }
    const b = { terminalId: 'sharma-mobile/counter-2', shop: 'Sharma Mobile', counter: 'Counter 2' }
    const [ledgerA, ledgerB] = [await namedLedger(dirA, a), await namedLedger(dirB, b)]
    const shippers = [ship(dirA, a, officeOf(db), { batchSize: 50 }), ship(dirB, b, officeOf(db), { batchSize: 50 })]
    // Both keep selling while both ship: 40 rounds of 10 sales each, the event loop free between rounds.
    for (let round = 0; round < 40; round++) {
      sell(ledgerA, 'A', round * 10, 10)
      sell(ledgerB, 'B', round * 10, 10)
      await new Promise((done) => setTimeout(done, 5))
    }
    await eventually(caughtUpWith(dirA, a.terminalId), 'counter 1 caught up', 30_000)
    await eventually(caughtUpWith(dirB, b.terminalId), 'counter 2 caught up', 30_000)
    await Promise.all(shippers.map((s) => s.link.stop()))
    await expectConverged(dirA, a.terminalId)
    await expectConverged(dirB, b.terminalId)
    expect(shippers[0].last()).toMatchObject({ state: 'caught-up', behind: 0 })
    // The office's first view: 400 successful ₹199 sales per counter.
    const byDay = await query<{ terminal: string; sales: string; amount_paise: string }>(db, 'SELECT terminal, sales, amount_paise FROM recharge_sales_by_day ORDER BY terminal')
    expect(byDay).toEqual([
      { terminal: a.terminalId, sales: '400', amount_paise: String(400 * 19900) },
      { terminal: b.terminalId, sales: '400', amount_paise: String(400 * 19900) },
    ])
    await Promise.all([ledgerA.close(), ledgerB.close()])
  })
})
