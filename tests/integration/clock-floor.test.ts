// The clock's floor before the first sale: a journal of agents and balance reads only still keeps
// a start months ahead from archiving the year (found by the fault matrix: clock+200d at step 0).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { approvedAgent, startRealModeRig, type RealModeRig } from './helpers'

const DAY_MS = 24 * 60 * 60 * 1000
const BASE = Date.parse('2026-11-23T05:00:00.000Z')

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

it('a start 200 days ahead of a journal with no sale yet archives nothing until the owner confirms', async () => {
  let clock = BASE
  rig = await startRealModeRig({}, { now: () => new Date(clock) })
  await approvedAgent(rig.counter)
  expect(await rig.counter.session().ledger.read('lastSeq')).toBeGreaterThan(0)
  clock = BASE + 200 * DAY_MS
  await rig.restart()
  const status = await rig.counter.call('app.status', {})
  expect(status.ok && status.value.clock.state).toBe('ahead')
  const archive = join(ledgerDir(rig.dataDir, 'real'), 'archive', 'FY2026-27.sqlite')
  expect(existsSync(archive)).toBe(false)
  // A second start, still ahead: the balance read the first one made at +200 days must not vouch for that clock.
  await rig.restart()
  const again = await rig.counter.call('app.status', {})
  expect(again.ok && again.value.clock.state).toBe('ahead')
  expect(existsSync(archive)).toBe(false)
})
