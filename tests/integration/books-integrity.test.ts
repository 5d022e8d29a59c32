// The books prove themselves through the whole core in REAL mode against the simulator: a committed
// journal line that no longer parses turns the books read-only from the first app.status (never cut
// off as a torn write), and an edited ledger.sqlite is caught at start and at day close and rebuilt
// from the journal.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import { startRealModeRig, statusEvents, type RealModeRig, valueOf } from './helpers'
import { editSnapshot } from './ledger-rig'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }
const sale101 = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '101' } as const
/** The tester's edit: still a valid database, and the ₹101 sale now reads ₹1,100 FAILED. */
const makeItFailed = (orderId: string) => (dir: string) =>
  editSnapshot(dir, (db) => db.run("UPDATE sales SET amount_paise = 110000, state = 'FAILED' WHERE order_id = ?", [orderId]))

describe('a committed last journal line that no longer parses', () => {
  it('makes the books read-only from start, named by file and line in app.status; the line is kept and its seq never reused', async () => {
    rig = await startRealModeRig()
    const segment = join(ledgerDir(rig.dataDir, 'real'), JOURNAL_DIR, segmentName(1))
    // The balance read at start goes first, so the top-up is the last line.
    await vi.waitFor(() => expect(readFileSync(segment, 'utf8')).toContain('"type":"pan.balance.read"'))
    valueOf(await rig.counter.call('topups.add', { amount: '1000', reference: 'UTR 5512 9987', note: 'NEFT' }))
    let lineNumber = 0
    let edited = ''
    await rig.restart(() => {
      const lines = readFileSync(segment, 'utf8').split('\n')
      lineNumber = lines.length - 1
      // A clean stop: the top-up is the last line, whole and newline-ended.
      expect(JSON.parse(lines[lineNumber - 1])).toMatchObject({ seq: lineNumber, type: 'pan.topup' })
      expect(lines[lineNumber]).toBe('')
      lines[lineNumber - 1] = lines[lineNumber - 1].replace(/}$/, '#')
      edited = lines.join('\n')
      writeFileSync(segment, edited)
    })

    const { books } = valueOf(await rig.counter.call('app.status', {}))
    const damage = `The journal is damaged at line ${lineNumber}: it is not a journal line (in ${segmentName(1)}).`
    expect(books.readOnly).toBe(`${damage} The ledger is read-only until this is looked into.`)
    expect(books.notices).toContain(damage)
    expect(await rig.counter.call('topups.add', { amount: '500', reference: 'UTR 5512 9988' })).toMatchObject({
      ok: false,
      error: { code: 'ledger_unavailable' },
    })
    await rig.restart()
    // Nothing was cut off or appended: the evidence is as the tester left it.
    expect(readFileSync(segment, 'utf8')).toBe(edited)
    expect(valueOf(await rig.counter.call('app.status', {})).books.readOnly).toBe(`${damage} The ledger is read-only until this is looked into.`)
  })
})

describe('an edited ledger.sqlite', () => {
  it('is caught at start and the sale rebuilt from the journal as it was sold', async () => {
    rig = await startRealModeRig()
    const sold = valueOf(await rig.counter.call('recharge.sell', sale101))
    expect(sold).toMatchObject({ state: 'SUCCESS', amountPaise: 101_00 })
    const dir = ledgerDir(rig.dataDir, 'real')
    await rig.restart(() => makeItFailed(sold.orderId)(dir))

    const { sales } = valueOf(await rig.counter.call('sales.today', {}))
    expect(sales.find((sale) => sale.orderId === sold.orderId)).toMatchObject({ state: 'SUCCESS', amountPaise: 101_00 })
    const { books } = valueOf(await rig.counter.call('app.status', {}))
    expect(books.readOnly).toBeNull()
    expect(books.notices[0]).toMatch(/^The saved copy ledger\.sqlite did not match its check and was rebuilt from (the journal|the previous copy ledger\.sqlite\.prev and the journal)\.$/)
  })

  it('while Counter runs is caught at day close, written again from memory, and said so', async () => {
    rig = await startRealModeRig()
    const sold = valueOf(await rig.counter.call('recharge.sell', sale101))
    await rig.restart()
    // The start's archive check writes the saved copy after the counter answers: the edit comes after it.
    await rig.counter.housekeeping()
    const seen = statusEvents(rig.counter)
    await makeItFailed(sold.orderId)(ledgerDir(rig.dataDir, 'real'))

    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    valueOf(await rig.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer }))
    const notice = 'The saved copy ledger.sqlite was changed on disk while Counter ran; it was written again from the books in memory.'
    expect(valueOf(await rig.counter.call('app.status', {})).books.notices).toContain(notice)
    expect(seen.some((status) => status.books.notices.includes(notice))).toBe(true)

    await rig.restart()
    const { books } = valueOf(await rig.counter.call('app.status', {}))
    expect(books).toEqual({ readOnly: null, notices: [] })
    const { sales } = valueOf(await rig.counter.call('sales.today', {}))
    expect(sales.find((sale) => sale.orderId === sold.orderId)).toMatchObject({ state: 'SUCCESS', amountPaise: 101_00 })
  })
})
