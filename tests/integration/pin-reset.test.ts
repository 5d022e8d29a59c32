// The owner PIN reset through the real core leaves a trace: dropping reset-owner-pin and restarting journals
// owner.pin.reset (when, which file, nothing of the PIN), app.status shows it until a PIN is set, across restarts,
// and the day's Z report lists it, before and after the close; books that cannot take the line keep the PIN.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import { eventually, journalOf, startRealModeRig, statusEvents, valueOf, type RealModeRig } from './helpers'

const PIN = '73915286'
const RESET_FILE = 'reset-owner-pin'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const resetLines = (r: RealModeRig) => journalOf(r).filter((line) => line.type === 'owner.pin.reset')

describe('reset-owner-pin', () => {
  it('journals the reset, shows it in the status until a PIN is set, and lists it in the Z report', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    expect(valueOf(await counter.call('app.status', {})).pinReset).toBeNull()
    const { hash, salt } = JSON.parse(readFileSync(join(rig.dataDir, 'settings.json'), 'utf8')).ownerPin.record
    const file = join(rig.dataDir, RESET_FILE)

    await rig.restart(() => writeFileSync(file, ''))
    const { businessDay } = valueOf(await rig.counter.call('app.status', {}))
    // The journal line: when (its own time), which file, the day; who was at the counter (staff: a PIN was set).
    const lines = resetLines(rig)
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line.data).toEqual({ file, businessDay, by: 'staff' })
    expect(Date.parse(line.at)).toBeGreaterThan(Date.now() - 60_000)
    // Nothing of the PIN is in the journal.
    const journal = JSON.stringify(journalOf(rig))
    for (const secret of [PIN, hash, salt]) expect(journal).not.toContain(secret)
    expect(existsSync(file)).toBe(false)
    expect(rig.logLines.join('\n')).toContain('owner PIN was forgotten')
    expect(rig.logLines.join('\n')).not.toContain(PIN)

    // The status field, and the PIN gone.
    const reset = { at: line.at, file }
    expect(valueOf(await rig.counter.call('app.status', {})).pinReset).toEqual(reset)
    expect(valueOf(await rig.counter.call('roles.status', {}))).toMatchObject({ role: 'owner', pinSet: false })

    // A restart with no file: the notice stays, and no second line is written.
    await rig.restart()
    expect(valueOf(await rig.counter.call('app.status', {})).pinReset).toEqual(reset)
    expect(resetLines(rig)).toHaveLength(1)

    // That day's Z report, every form, in English and then in Hindi.
    expect(valueOf(await rig.counter.call('day.summary', { businessDay })).pinResets).toEqual([reset])
    const report = async (format: 'csv' | 'a4' | 'receipt') => valueOf(await rig!.counter.call('day.report', { businessDay, format })).content
    const csv = await report('csv')
    expect(csv).toContain('Owner PIN resets')
    expect(csv).toContain(file)
    const a4 = await report('a4')
    expect(a4).toContain('<h2>Owner PIN resets</h2>')
    expect(a4).toContain(`<td>${file}</td>`)
    expect(await report('receipt')).toContain('Owner PIN reset')
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'hi' }))
    expect(await report('receipt')).toContain('मालिक का PIN रीसेट')
    expect(await report('csv')).toContain('मालिक के PIN का रीसेट')

    // Setting a PIN ends the notice, on the status event (sent as the PIN is set, not awaited by it) as on asking.
    const seen = statusEvents(rig.counter)
    valueOf(await rig.counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    await eventually(async () => seen.at(-1)?.pinReset === null, 'a status event without the reset')
    expect(valueOf(await rig.counter.call('app.status', {})).pinReset).toBeNull()

    // Closed, the day keeps the reset in its Z report.
    const closed = await rig.counter.call('day.close', { businessDay, openingFloat: '0', counted: { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' } })
    expect(valueOf(closed).pinResets).toEqual([reset])
    expect(await report('csv')).toContain(file)
  })

  it('keeps the PIN and the file while the books cannot take the line, and says so', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    valueOf(await rig.counter.call('topups.add', { amount: '1000', reference: 'UTR 5512 9987' }))
    const file = join(rig.dataDir, RESET_FILE)
    const segment = join(ledgerDir(rig.dataDir, 'real'), JOURNAL_DIR, segmentName(1))
    await rig.restart(() => {
      writeFileSync(file, '')
      // A damaged last line: the books open read-only.
      writeFileSync(segment, readFileSync(segment, 'utf8').replace(/}\n$/, '#\n'))
    })
    expect(valueOf(await rig.counter.call('app.status', {})).books.readOnly).toContain('read-only')
    expect(valueOf(await rig.counter.call('roles.status', {}))).toMatchObject({ role: 'staff', pinSet: true })
    expect(existsSync(file)).toBe(true)
    expect(rig.logLines.join('\n')).toContain(`${RESET_FILE} was found but the owner PIN is kept`)
    expect(valueOf(await rig.counter.call('app.status', {})).pinReset).toBeNull()
  })
})
