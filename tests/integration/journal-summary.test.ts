// What a restore reads from a ledger folder's journal without opening the books (ledger/journal-summary.ts), on real
// ledgers: the entries, last sale and last closed day; the sales one journal has beyond a copy of it, and beyond books
// that went another way since; a changed line found, with where.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyLedgerFolder } from '../../electron/ledger/backup-copy'
import { salesBeyond, summarizeJournal } from '../../electron/ledger/journal-summary'
import { Ledger } from '../../electron/ledger/ledger'
import { couponAnswer, couponIntent, rechargeIntent, rechargeOutcome, useLedgerRig } from './ledger-rig'

const rig = useLedgerRig('counter-journal-summary-')

const brief = (sales: ReturnType<typeof salesBeyond>) => sales.map(({ kind, id, whom, amountPaise, outcome }) => ({ kind, id, whom, amountPaise, outcome }))

describe('a journal summed up for a restore', () => {
  it('tells what a copy holds and which sales the books have beyond it, whether the books pass through the copy or went another way', async () => {
    const books = await rig.open()
    books.append('recharge.intent', rechargeIntent('R1', 19_900, { number: '9876500001' }))
    books.append('recharge.outcome', rechargeOutcome('R1'))
    books.append('recharge.intent', rechargeIntent('R2', 14_900, { number: '9876500002' }))
    books.append('pan.coupon.intent', couponIntent('C1', { qty: 3, expectedRatePaise: 10_700 }))
    // The provider named its own amount: that, not rate × quantity, is the sale's.
    books.append('pan.coupon.outcome', couponAnswer('C1', { amountPaise: 32_400 }))
    await rig.close(books)
    const copy = path.join(rig.root, 'copy')
    copyLedgerFolder(rig.dir, copy)

    const summary = summarizeJournal(copy)
    expect(summary).toMatchObject({ broken: null, lastDayClosed: null, lastSale: { kind: 'coupon', id: 'C1', whom: 'Asha Devi (VLE1)', amountPaise: 32_400, outcome: 'SUCCESS' } })
    expect(summary.entries).toBe(rig.journalLines().length)
    expect([...summary.saleKeys].sort()).toEqual(['coupon:C1', 'recharge:R1', 'recharge:R2'])

    // The books go on: R2's answer (a sale the copy holds, unanswered there) and two new sales, one never answered.
    const on = await rig.open()
    on.append('recharge.outcome', rechargeOutcome('R2', { outcome: 'FAILED' }))
    on.append('recharge.intent', rechargeIntent('R3', 9_900, { number: '9876500003' }))
    on.append('recharge.outcome', rechargeOutcome('R3'))
    on.append('recharge.intent', rechargeIntent('R4', 4_900, { number: '9876500004' }))
    await rig.close(on)
    expect(brief(salesBeyond(rig.dir, summary))).toEqual([
      { kind: 'recharge', id: 'R3', whom: '9876500003', amountPaise: 9_900, outcome: 'SUCCESS' },
      { kind: 'recharge', id: 'R4', whom: '9876500004', amountPaise: 4_900, outcome: 'UNKNOWN' },
    ])

    // The copy went another way after its end (sold on from it): the books no longer pass through its new end, so
    // every sale of theirs the copy has no line of is listed.
    const soldOn = await Ledger.open({ dir: copy })
    soldOn.append('recharge.intent', rechargeIntent('X1', 1_000, { number: '9876500009' }))
    expect(await soldOn.close()).toEqual([])
    const other = summarizeJournal(copy)
    expect(other.end.seq).toBeGreaterThan(summary.end.seq)
    expect(brief(salesBeyond(rig.dir, other)).map((sale) => sale.id)).toEqual(['R3', 'R4'])
  })

  it('finds a changed line, and says which', async () => {
    const books = await rig.open()
    for (const id of ['R1', 'R2', 'R3']) books.append('recharge.intent', rechargeIntent(id))
    await rig.close(books)
    const [segment] = rig.segments()
    const lines = fs.readFileSync(segment, 'utf8').split('\n')
    const changed = lines.findIndex((line) => line.includes('"R2"'))
    lines[changed] = lines[changed].replace('"amountPaise":19900', '"amountPaise":19000')
    fs.writeFileSync(segment, lines.join('\n'))
    const summary = summarizeJournal(rig.dir)
    expect(summary.broken).toMatchObject({ line: changed + 1 })
    expect(summary.entries).toBe(changed)
  })
})
