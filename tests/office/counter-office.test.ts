// The counter with a head office: its name in the journal, office settings and their refusals, the status bar's "behind", sales never waiting on the office, the password kept to the keychain.
import { readFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { startTestPostgres, type TestPostgres } from '../helpers/postgres'
import { eventually, journalOf, startRealModeRig, statusEvents, valueOf, type RealModeRig } from '../integration/helpers'
import { journalEntries, officeEntries, officeStatusNow } from './office-rig'

let db: TestPostgres
beforeAll(async () => {
  db = await startTestPostgres()
})
afterAll(() => db?.remove())

const sale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199' } as const
const officeFields = () => ({ officeHost: '127.0.0.1', officePort: db.port, officeDatabase: db.database, officeUser: db.user, officeTls: false })

async function sellTimed(rig: RealModeRig, count: number): Promise<number[]> {
  const took: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const sold = valueOf(await rig.counter.call('recharge.sell', { ...sale, number: `98765432${String(10 + i)}` }))
    took.push(performance.now() - started)
    expect(sold.state).toBe('SUCCESS')
  }
  return took
}

describe('the counter and its head office', () => {
  test('named in the journal, ships its sales, shows how far behind it is while the office is down, then catches up', async () => {
    const rig = await startRealModeRig()
    const seen = statusEvents(rig.counter)
    try {
      valueOf(await rig.counter.call('settings.save', { shopName: 'Sharma Mobile', counterName: 'Counter 1', ...officeFields(), officePassword: db.password }))
      const terminalId = 'sharma-mobile/counter-1'
      expect(journalOf(rig).filter((line) => line.type === 'terminal.named')).toMatchObject([
        { type: 'terminal.named', data: { terminalId, shop: 'Sharma Mobile', counter: 'Counter 1', by: 'owner' } },
      ])
      await sellTimed(rig, 3)
      const journal = ledgerDir(rig.dataDir, 'real')
      // Until the shipper's first connection the office has no tables yet.
      const shippedAll = async () => (await officeEntries(db, terminalId).catch(() => [])).length === journalEntries(journal).length
      await eventually(shippedAll, 'shipped')
      expect((await officeStatusNow(rig.counter))?.state).toBe('caught-up')

      // Renamed: a new line, the same id in the office.
      valueOf(await rig.counter.call('settings.save', { counterName: 'Front desk' }))
      expect(journalOf(rig).filter((line) => line.type === 'terminal.named').map((line) => line.data.terminalId)).toEqual([terminalId, terminalId])

      // The office goes down: sales go on, the bar says how far behind and since when.
      db.stop()
      try {
        await sellTimed(rig, 4)
        const away = await eventually(async () => {
          const office = await officeStatusNow(rig.counter)
          return office?.state === 'unreachable' && (office.behind ?? 0) >= 8 ? office : null
        }, 'unreachable and behind')
        expect(away.message).toMatch(/refused the connection|closed the connection/)
        expect(away.unreachableSince).not.toBeNull()
        // The bar hears of it by an event, at the shipper's next report: not necessarily before the status read above.
        await eventually(() => Promise.resolve(seen.some((status) => status.office?.state === 'unreachable' && (status.office.behind ?? 0) >= 8)), 'the status bar told it is 8 behind')
        // Closed for the night and opened with the office still away: the bar still knows how far behind.
        await rig.restart()
        await sellTimed(rig, 1)
        await eventually(async () => {
          const office = await officeStatusNow(rig.counter)
          return office?.state === 'unreachable' && (office.behind ?? 0) >= away.behind! + 2
        }, 'behind after a restart')
      } finally {
        db.start()
      }
      await eventually(shippedAll, 'caught up after the office came back', 20_000)
      await eventually(async () => (await officeStatusNow(rig.counter))?.behind === 0, 'nothing behind')
    } finally {
      await rig.close()
    }
  })

  test('an office that takes the connection and never answers does not hold up a sale', async () => {
    const held: Socket[] = []
    const stall = createServer((socket) => held.push(socket))
    await new Promise<void>((done) => stall.listen(0, '127.0.0.1', done))
    const rig = await startRealModeRig()
    try {
      // A baseline with no office set up, then the same sales with the shipper stuck mid-connection.
      const alone = await sellTimed(rig, 5)
      valueOf(await rig.counter.call('settings.save', { shopName: 'Sharma Mobile', counterName: 'Counter 2', ...officeFields(), officePort: (stall.address() as { port: number }).port, officePassword: db.password }))
      await eventually(() => Promise.resolve(held.length > 0), 'the shipper connected to the stalling office')
      const stalled = await sellTimed(rig, 5)
      expect((await officeStatusNow(rig.counter))?.state).toBe('connecting')
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
      // Not waiting on the office: a connect stuck for its 15 s timeout would show up here whole.
      expect(Math.max(...stalled)).toBeLessThan(1_000)
      expect(median(stalled)).toBeLessThan(median(alone) * 3 + 50)
    } finally {
      await rig.close()
      for (const socket of held) socket.destroy()
      stall.close()
    }
  })

  test('office settings that do not fit together are refused in plain words, and nothing is saved', async () => {
    const rig = await startRealModeRig()
    try {
      const refusal = async (input: Record<string, unknown>) => {
        const result = await rig.counter.dispatch('settings.save', input)
        if (result.ok) throw new Error('expected a refusal')
        return result.error
      }
      expect((await refusal({ counterName: 'Counter 1', ...officeFields(), officeHost: 'office.example.in', officePassword: 'x' })).fields).toEqual({
        officeTls: 'The journal goes to another computer only encrypted (TLS); "no TLS" is for an office database on this computer',
      })
      expect((await refusal({ ...officeFields(), officePassword: 'x' })).fields).toMatchObject({ counterName: expect.stringMatching(/Name this counter/) })
      expect((await refusal({ counterName: 'Counter 1', ...officeFields() })).fields).toMatchObject({ officePassword: 'Enter it once; it is kept in the system keychain' })
      expect((await refusal({ counterName: 'Counter <1>' })).fields).toMatchObject({ counterName: expect.stringMatching(/letters, digits, spaces/) })
      expect((await refusal({ officePort: 70000 })).fields).toMatchObject({ officePort: 'Ports run from 1 to 65535' })
      expect((await refusal({ officeHost: 'http://office.example.in' })).fields).toMatchObject({ officeHost: expect.stringMatching(/without http/) })
      const view = valueOf(await rig.counter.call('settings.get', {}))
      expect(view).toMatchObject({ counterName: '', officeHost: '', officeTls: true, officePasswordStored: false })
      expect(journalOf(rig).some((line) => line.type === 'terminal.named')).toBe(false)
    } finally {
      await rig.close()
    }
  })

  test('the office password never reaches settings.json, the log, an error or the screen', async () => {
    const rig = await startRealModeRig()
    const seen = statusEvents(rig.counter)
    const wrong = 'Wrong-Office-Pw-7731'
    try {
      valueOf(await rig.counter.call('settings.save', { shopName: 'Sharma Mobile', counterName: 'Counter 3', ...officeFields(), officePassword: wrong }))
      const refused = await eventually(async () => {
        const office = await officeStatusNow(rig.counter)
        return office?.state === 'unreachable' ? office : null
      }, 'the office refusing the password')
      expect(refused.message).toBe(`The office database refused the user name or password for ${db.user}: check them in Settings.`)
      valueOf(await rig.counter.call('settings.save', { officePassword: db.password }))
      await eventually(async () => (await officeStatusNow(rig.counter))?.state === 'caught-up', 'shipping with the right password')
      const view = valueOf(await rig.counter.call('settings.get', {}))
      expect(view.officePasswordStored).toBe(true)
      const everything = [
        readFileSync(join(rig.dataDir, 'settings.json'), 'utf8'),
        JSON.stringify(view),
        JSON.stringify(seen),
        JSON.stringify(valueOf(await rig.counter.call('app.status', {}))),
        rig.logLines.join('\n'),
        JSON.stringify(journalOf(rig)),
      ].join('\n')
      expect(seen.length).toBeGreaterThan(0)
      for (const secret of [wrong, db.password]) expect(everything).not.toContain(secret)
    } finally {
      await rig.close()
    }
  })
})
