// Cash in and out of the drawer and the blind close (issue #29 parts 2 and 3) through the real core in REAL mode:
// bounds and bad inputs refused with nothing changed, staff's cash out over the day's limit refused and the owner's
// allowed, the journal lines, the expected drawer and the Z report with them, the same figures after a restart; a
// blind count by staff whose answers hold no expected figure nor difference, and the owner who sees both.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import type { RealModeRig } from './helpers'
import { journalOf, startRealModeRig, valueOf } from './helpers'

const PIN = '48152637'
const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const cashLines = (r: RealModeRig) => journalOf(r).filter((line) => line.type === 'drawer.cash')

/** A ₹199 cash recharge collected ₹210: the drawer's cash sales. */
async function cashSale(r: RealModeRig): Promise<void> {
  const sold = valueOf(await r.counter.call('recharge.sell', { kind: 'mobile', number: '9812345601', operatorCode: 'AT', amount: '199', collected: '210', paymentMode: 'cash' }))
  expect(sold.state).toBe('SUCCESS')
}

async function asStaff(r: RealModeRig): Promise<void> {
  valueOf(await r.counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
  valueOf(await r.counter.call('roles.lock', {}))
}

describe('cash in and out of the drawer', () => {
  it('refuses bad amounts, kinds and reasons plainly, changing nothing', async () => {
    rig = await startRealModeRig()
    const before = journalOf(rig).length
    const refusals = [
      [{ kind: 'expense', amount: '0', reason: 'Tea' }, 'amount', /more than ₹0/],
      [{ kind: 'expense', amount: '-5', reason: 'Tea' }, 'amount', /more than ₹0/],
      [{ kind: 'expense', amount: '12.345', reason: 'Tea' }, 'amount', /1 or 2 digits/],
      [{ kind: 'float', amount: '1,00,001', reason: 'Change' }, 'amount', /not be more than ₹1,00,000/],
      [{ kind: 'expense', amount: 'abc', reason: 'Tea' }, 'amount', /only digits/],
      [{ kind: 'expense', amount: '50', reason: '   ' }, 'reason', /why the cash goes/],
      [{ kind: 'expense', amount: '50', reason: 'x'.repeat(121) }, 'reason', /at most 120 characters/],
      [{ kind: 'lunch', amount: '50', reason: 'Tea' }, 'kind', /Choose what the cash is for/],
    ] as const
    for (const [input, field, message] of refusals) {
      const refused = await rig.counter.call('drawer.move', input as never)
      expect(refused, JSON.stringify(input)).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { [field]: expect.stringMatching(message) } } })
    }
    expect(journalOf(rig)).toHaveLength(before)
    expect(valueOf(await rig.counter.call('drawer.moves', {}))).toMatchObject({ moves: [], inPaise: 0, outPaise: 0, limitPaise: 500_00 })
  })

  it("refuses staff's cash out past the day's limit (owner only), lets the owner take it, and counts every movement in the drawer, the Z report and a replay", async () => {
    rig = await startRealModeRig()
    await cashSale(rig)
    await asStaff(rig)

    const float = valueOf(await rig.counter.call('drawer.move', { kind: 'float', amount: '1,000', reason: 'Change from the bank' }))
    expect(float).toMatchObject({ kind: 'float', direction: 'in', amountPaise: 1_000_00, reason: 'Change from the bank', by: 'staff' })
    expect(float.moveId).toMatch(/^DR\d{12}/)
    valueOf(await rig.counter.call('drawer.move', { kind: 'expense', amount: '300', reason: 'Tea and snacks' }))
    // ₹300 taken already: ₹250 more is past the ₹500 a day staff may take.
    const before = journalOf(rig).length
    const overLimit = await rig.counter.call('drawer.move', { kind: 'supplier', amount: '250', reason: 'Newspaper bill' })
    expect(overLimit).toMatchObject({ ok: false, error: { code: 'owner_only', message: expect.stringMatching(/^Owner only — unlock with the PIN: .*₹500\.00 .*₹300\.00 /), fields: { amount: expect.any(String) } } })
    expect(journalOf(rig)).toHaveLength(before)
    valueOf(await rig.counter.call('drawer.move', { kind: 'supplier', amount: '200', reason: 'Newspaper bill' }))

    valueOf(await rig.counter.call('roles.unlock', { pin: PIN }))
    const withdrawal = valueOf(await rig.counter.call('drawer.move', { kind: 'withdrawal', amount: '2,500', reason: 'Owner took cash home' }))
    expect(withdrawal).toMatchObject({ direction: 'out', amountPaise: 2_500_00, by: 'owner' })

    // Each id is numbered by the ledger with the seq of the line that records it, in the one request that writes it.
    for (const line of cashLines(rig)) expect(String(line.data.moveId).slice(8, 14)).toBe(String(line.seq).padStart(6, '0'))
    expect(cashLines(rig).map((line) => line.data)).toEqual([
      expect.objectContaining({ kind: 'float', amountPaise: 1_000_00, reason: 'Change from the bank', by: 'staff' }),
      expect.objectContaining({ kind: 'expense', amountPaise: 300_00, reason: 'Tea and snacks', by: 'staff' }),
      expect.objectContaining({ kind: 'supplier', amountPaise: 200_00, reason: 'Newspaper bill', by: 'staff' }),
      expect.objectContaining({ kind: 'withdrawal', amountPaise: 2_500_00, reason: 'Owner took cash home', by: 'owner' }),
    ])

    // Expected: float ₹5,000 + ₹210 cash sales + ₹1,000 in − (₹300 + ₹200 + ₹2,500) out = ₹3,210.
    const summary = valueOf(await rig.counter.call('day.summary', {}))
    expect(summary.drawerMoves).toMatchObject({ inPaise: 1_000_00, outPaise: 3_000_00 })
    expect(summary.drawerMoves!.moves.map((m) => m.kind)).toEqual(['float', 'expense', 'supplier', 'withdrawal'])
    const figures = valueOf(await rig.counter.call('drawer.moves', {}))
    expect(figures).toMatchObject({ inPaise: 1_000_00, outPaise: 3_000_00, staffOutPaise: 500_00, closed: false })

    await rig.restart()
    valueOf(await rig.counter.call('roles.unlock', { pin: PIN }))
    expect(valueOf(await rig.counter.call('drawer.moves', {}))).toEqual(figures)
    const closed = valueOf(
      await rig.counter.call('day.close', { businessDay: summary.businessDay, openingFloat: '5000', counted: { ...drawer, n500: 6, n200: 1, coins: '10' } }),
    )
    expect(closed.cash).toMatchObject({ expectedPaise: 3_210_00, countedPaise: 3_210_00, differencePaise: 0 })
    expect(closed.drawerMoves).toMatchObject({ inPaise: 1_000_00, outPaise: 3_000_00 })
    expect(journalOf(rig).find((line) => line.type === 'day.closed')!.data).toMatchObject({ expectedCashPaise: 3_210_00 })

    const csv = valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'csv' })).content
    expect(csv).toContain('Cash in and out of the drawer')
    expect(csv).toMatch(/Cash put in,,1000\r\n/)
    expect(csv).toMatch(/Cash taken out,,-3000\r\n/)
    expect(csv).toMatch(/Cash taken out,Owner's withdrawal,Owner took cash home,Owner,-2500\r\n/)
    expect(csv).toMatch(/Cash put in,Float top-up,Change from the bank,Staff,1000\r\n/)
    const receipt = valueOf(await rig.counter.call('day.report', { businessDay: summary.businessDay, format: 'receipt' })).content
    expect(receipt).toContain('Cash in / out')
    expect(receipt).toContain('Tea and snacks')

    // A closed day takes no more cash in or out, like a sale; the replay of every line gives the same figures.
    const late = await rig.counter.call('drawer.move', { kind: 'expense', amount: '10', reason: 'After the close' })
    expect(late).toMatchObject({ ok: false, error: { code: 'day_closed' } })
    const closedSummary = valueOf(await rig.counter.call('day.summary', { businessDay: summary.businessDay }))
    await rig.restart()
    expect(valueOf(await rig.counter.call('drawer.moves', {}))).toMatchObject({ ...figures, closed: true })
    // The books rebuilt from the journal alone (no saved copy): the same movements, the same closed day.
    await rig.restart(() => {
      for (const file of ['ledger.sqlite', 'ledger.sqlite.check', 'ledger.sqlite.prev', 'ledger.sqlite.prev.check']) rmSync(join(ledgerDir(rig!.dataDir, 'real'), file), { force: true })
    })
    expect(valueOf(await rig.counter.call('drawer.moves', {}))).toMatchObject({ ...figures, closed: true })
    expect(valueOf(await rig.counter.call('day.summary', { businessDay: summary.businessDay }))).toEqual(closedSummary)
  })

  it('lets the owner set the limit in Settings: ₹0 leaves every cash out to the owner, cash in stays open to staff', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', { cashOutLimit: '0' }))
    expect(valueOf(await rig.counter.call('settings.get', {}))).toMatchObject({ cashOutLimitPaise: 0, blindClose: false })
    await asStaff(rig)
    expect(await rig.counter.call('settings.save', { cashOutLimit: '5000' })).toMatchObject({ ok: false, error: { code: 'owner_only' } })
    expect(await rig.counter.call('drawer.move', { kind: 'expense', amount: '1', reason: 'Stamp' })).toMatchObject({ ok: false, error: { code: 'owner_only' } })
    expect(await rig.counter.call('drawer.move', { kind: 'float', amount: '100', reason: 'Coins' })).toMatchObject({ ok: true })
  })
})

describe('blind close', () => {
  it("keeps the expected drawer and the difference out of every answer to staff; the owner sees both once the count is saved", async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', { blindClose: true }))
    await cashSale(rig)
    valueOf(await rig.counter.call('drawer.move', { kind: 'expense', amount: '37.50', reason: 'Courier' }))
    await asStaff(rig)
    const { businessDay } = valueOf(await rig.counter.call('app.status', {}))
    // Expected: ₹1,234 float + ₹210 − ₹37.50 = ₹1,406.50; counted ₹1,400: ₹6.50 short.
    const expected = 1_406_50
    const staffSummary = valueOf(await rig.counter.call('day.summary', {}))
    expect(staffSummary.cash).toMatchObject({ blind: true, expectedPaise: null, differencePaise: null })

    const saved = await rig.counter.call('drawer.saveCount', { businessDay, openingFloat: '1234', counted: { ...drawer, n500: 2, n200: 2 } })
    const count = valueOf(saved)
    expect(count).toMatchObject({ countedPaise: 1_400_00, openingFloatPaise: 1_234_00, by: 'staff' })
    expect(count).not.toHaveProperty('expectedPaise')
    expect(count).not.toHaveProperty('differencePaise')
    // Nowhere in the answers to staff: neither the expected figure nor the difference, in any key.
    const staffAfter = valueOf(await rig.counter.call('day.summary', {}))
    for (const answer of [saved, staffAfter, await rig.counter.call('day.report', { businessDay, format: 'csv' })]) {
      const text = JSON.stringify(answer)
      expect(text).not.toMatch(/"expectedPaise":\d/)
      expect(text).not.toMatch(/"differencePaise":-?\d/)
      expect(text).not.toContain(String(expected))
      expect(text).not.toContain('1406.50')
      expect(text).not.toContain('-650')
    }
    expect(staffAfter.drawerCount).toMatchObject({ countedPaise: 1_400_00, by: 'staff' })
    expect(journalOf(rig).filter((line) => line.type === 'drawer.counted').map((line) => line.data)).toEqual([
      expect.objectContaining({ businessDay, openingFloatPaise: 1_234_00, countedPaise: 1_400_00, by: 'staff' }),
    ])
    // Staff may count, never close.
    expect(await rig.counter.call('day.close', { businessDay, openingFloat: '1234', counted: { ...drawer, n500: 2, n200: 2 } })).toMatchObject({ ok: false, error: { code: 'owner_only' } })

    valueOf(await rig.counter.call('roles.unlock', { pin: PIN }))
    const ownerView = valueOf(await rig.counter.call('day.summary', {}))
    expect(ownerView.cash.blind).toBe(false)
    expect(ownerView.drawerCount).toMatchObject({ countedPaise: 1_400_00, expectedPaise: expected, differencePaise: -6_50, by: 'staff' })
    const closed = valueOf(await rig.counter.call('day.close', { businessDay, openingFloat: '1234', counted: { ...drawer, n500: 2, n200: 2 } }))
    expect(closed.cash).toMatchObject({ expectedPaise: expected, countedPaise: 1_400_00, differencePaise: -6_50 })
    const ownerCsv = valueOf(await rig.counter.call('day.report', { businessDay, format: 'csv' })).content
    expect(ownerCsv).toContain('1406.50')
    expect(ownerCsv).toContain('-6.50')

    // The closed day, read by staff again: still blind.
    valueOf(await rig.counter.call('roles.lock', {}))
    const staffClosed = await rig.counter.call('day.summary', { businessDay })
    expect(valueOf(staffClosed).cash).toMatchObject({ blind: true, expectedPaise: null, differencePaise: null, countedPaise: 1_400_00 })
    expect(JSON.stringify(staffClosed)).not.toContain(String(expected))
    const staffCsv = valueOf(await rig.counter.call('day.report', { businessDay, format: 'csv' })).content
    expect(staffCsv).not.toContain('1406.50')
    expect(staffCsv).toContain('Not shown to staff (blind close)')
  })

  it('shows staff the expected drawer when the blind close is off, and refuses a count on a closed day', async () => {
    rig = await startRealModeRig()
    await cashSale(rig)
    await asStaff(rig)
    const { businessDay } = valueOf(await rig.counter.call('app.status', {}))
    const count = valueOf(await rig.counter.call('drawer.saveCount', { businessDay, openingFloat: '100', counted: { ...drawer, n100: 3 } }))
    expect(count).toMatchObject({ countedPaise: 300_00, expectedPaise: 310_00, differencePaise: -10_00 })
    expect(await rig.counter.call('drawer.saveCount', { businessDay, openingFloat: '100', counted: { ...drawer, n100: -1 } })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    valueOf(await rig.counter.call('roles.unlock', { pin: PIN }))
    valueOf(await rig.counter.call('day.close', { businessDay, openingFloat: '100', counted: { ...drawer, n100: 3 } }))
    const before = journalOf(rig).length
    expect(await rig.counter.call('drawer.saveCount', { businessDay, openingFloat: '100', counted: { ...drawer, n100: 3 } })).toMatchObject({ ok: false, error: { code: 'day_closed' } })
    expect(journalOf(rig)).toHaveLength(before)
  })
})
