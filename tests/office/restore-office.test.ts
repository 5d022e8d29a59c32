// Restoring a counter's books from the head office inside Counter (issue #30 part 2), against a real PostgreSQL: the
// office's lines put in place byte for byte, the sale the office never received (it was down) listed and kept in the
// books moved aside, and the counter selling on as the same terminal with the office taking its new lines (no fork).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR, listSegments } from '../../electron/ledger/segments'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, startRealModeRig, valueOf, type RealModeRig } from '../integration/helpers'
import { DEVANAGARI } from '../../electron/shared/words'
import { journalEntries, officeEntries, officeStatusNow, query } from './office-rig'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

const recharge = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '199' }) as const
/** What the office holds of the terminal; nothing before the counter's first shipping made the office's tables. */
const heldBy = (terminalId: string) => officeEntries(db, terminalId).catch(() => [])
const journalText = (ledger: string) => listSegments(join(ledger, JOURNAL_DIR)).map((segment) => readFileSync(segment.file, 'utf8')).join('')

describe('restoring the books from the head office', () => {
  test('the office lines put back byte for byte, the sale it never got listed and kept, selling on as the same terminal', { timeout: 120_000 }, async () => {
    const rig: RealModeRig = await startRealModeRig()
    try {
      const { counter } = rig
      valueOf(await counter.call('settings.save', { shopName: 'Gupta Mobile', counterName: 'Counter 1', officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false, officePassword: db.password }))
      const shipped = valueOf(await counter.call('recharge.sell', recharge('9812300001'))).orderId
      const terminalId = (await eventually(async () => (await officeStatusNow(counter))?.terminalId, 'the counter named in the office'))!
      const books = ledgerDir(rig.dataDir, 'real')
      await eventually(async () => (await heldBy(terminalId)).length === journalEntries(books).length, 'every line at the office', 30_000)
      const atOffice = journalText(books)

      // The office goes down; a sale made meanwhile never reaches it.
      db.stop()
      const unshipped = valueOf(await counter.call('recharge.sell', recharge('9812300002'))).orderId
      db.start()

      const { sources } = valueOf(await counter.call('backup.sources', {}))
      expect(sources[0]).toMatchObject({ id: 'office', kind: 'office', at: null, where: `127.0.0.1:${db.port}/${db.database}` })
      const look = valueOf(await counter.call('backup.look', { source: 'office' }))
      expect(look).toMatchObject({ problem: null, office: false, lastSale: { id: shipped } })
      expect(look.laterSales.map((sale) => [sale.id, sale.outcome])).toEqual([[unshipped, 'SUCCESS']])

      const done = valueOf(await counter.call('backup.restore', { source: 'office', confirmed: true }))
      expect(done.laterSales.map((sale) => sale.id)).toEqual([unshipped])
      // The office's lines, as the counter wrote them: what it held before the outage, byte for byte.
      expect(journalText(books).startsWith(atOffice)).toBe(true)
      expect(journalText(done.movedAside)).toContain(unshipped)
      expect(await counter.session().ledger.read('getSale', unshipped)).toBeNull()
      expect((await counter.session().ledger.read('getSale', shipped))?.state).toBe('SUCCESS')

      // Selling on as the same terminal: the office takes the new lines after its own, no fork.
      const after = valueOf(await counter.call('recharge.sell', recharge('9812300003'))).orderId
      expect(journalText(books)).toContain(after)
      await eventually(async () => (await heldBy(terminalId)).at(-1)?.hash === journalEntries(books).at(-1)?.hash, 'the new lines at the office', 30_000)
      expect((await officeEntries(db, terminalId)).length).toBe(journalEntries(books).length)
      const status = await officeStatusNow(counter)
      expect(status).toMatchObject({ terminalId, fork: null })
      expect(status?.state).not.toBe('refused')
    } finally {
      await rig.close()
    }
  })

  test("refuses an office line that does not verify in the screen's language: Hindi, with no English sentence", { timeout: 120_000 }, async () => {
    const rig: RealModeRig = await startRealModeRig()
    try {
      const { counter } = rig
      valueOf(await counter.call('settings.save', { shopName: 'Sharma Mobile', counterName: 'Counter 1', officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false, officePassword: db.password }))
      valueOf(await counter.call('recharge.sell', recharge('9812300004')))
      const terminalId = (await eventually(async () => (await officeStatusNow(counter))?.terminalId, 'the counter named in the office'))!
      const books = ledgerDir(rig.dataDir, 'real')
      await eventually(async () => (await heldBy(terminalId)).length === journalEntries(books).length, 'every line at the office', 30_000)
      // A line changed at the office after it arrived: its text no longer hashes to its hash.
      await query(db, `UPDATE entries SET body = replace(body::text, '19900', '19000')::json WHERE terminal = $1 AND body::text LIKE '%19900%'`, [terminalId])
      valueOf(await counter.call('settings.save', { screenLanguage: 'hi' }))

      const refused = await counter.call('backup.look', { source: 'office' })
      expect(refused.ok).toBe(false)
      const message = refused.ok ? '' : refused.error.message
      expect(message).toMatch(DEVANAGARI)
      // Ids, terminal names and the journal's own words aside, no three Latin words in a row.
      expect(message.replace(/[\w-]+\/[\w-]+/g, '')).not.toMatch(/[A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}/)
      expect(message).toContain(terminalId)
    } finally {
      await rig.close()
    }
  })
})
