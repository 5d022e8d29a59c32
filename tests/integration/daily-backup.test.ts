// Today's backup through the whole core in real mode: taken at a day's first start, by the ledger's
// chores thread, holding every sale made before it, and opening on its own as the restore does.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Ledger } from '../../electron/ledger/ledger'
import { startRealModeRig, type RealModeRig } from './helpers'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe("today's backup", () => {
  it('is taken at the first start of each day, and a restore from it has the sales made before it', async () => {
    // 10:00 in the shop (IST) on two days running.
    let clock = new Date('2025-06-02T04:30:00Z')
    rig = await startRealModeRig({}, { now: () => clock })
    // Taken once the counter answers, not before.
    await rig.counter.housekeeping()
    const firstDay = path.join(rig.dataDir, 'backups', '2025-06-02')
    expect(fs.existsSync(path.join(firstDay, 'ledger', 'journal'))).toBe(true)

    const sold = await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199.50' })
    if (!sold.ok) throw new Error(sold.error.message)
    expect(sold.value.state).toBe('SUCCESS')

    // A second start the same day keeps the morning's backup as it was.
    await rig.restart()
    clock = new Date('2025-06-03T04:30:00Z')
    await rig.restart()
    await rig.counter.housekeeping()
    const nextDay = path.join(rig.dataDir, 'backups', '2025-06-03')
    expect(fs.readdirSync(path.join(rig.dataDir, 'backups')).sort()).toEqual(['2025-06-02', '2025-06-03'])

    for (const [backup, holdsTheSale] of [[firstDay, false], [nextDay, true]] as const) {
      const restored = await Ledger.open({ dir: path.join(backup, 'ledger') })
      try {
        expect(restored.report.problems).toEqual([])
        expect(restored.read('getSale', sold.value.orderId)?.state).toBe(holdsTheSale ? 'SUCCESS' : undefined)
      } finally {
        await restored.close()
      }
    }
  })

  it('is made after the counter answers: a sale at once goes through, a close waits for the backup, which opens whole', async () => {
    rig = await startRealModeRig({}, { now: () => new Date('2025-06-02T04:30:00Z') })
    // Not waited for: the cashier sells the moment the counter answers.
    const sold = await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199' })
    if (!sold.ok) throw new Error(sold.error.message)
    expect(sold.value.state).toBe('SUCCESS')
    await rig.restart(async () => {
      // The counter closed: its backup is whole, not left half-copied.
      const backups = path.join(rig!.dataDir, 'backups')
      expect(fs.readdirSync(backups)).toEqual(['2025-06-02'])
      const restored = await Ledger.open({ dir: path.join(backups, '2025-06-02', 'ledger') })
      try {
        expect(restored.report.problems).toEqual([])
      } finally {
        await restored.close()
      }
    })
  })

  it('that cannot be made is logged in plain words and stops nothing: the counter sells on', async () => {
    let clock = new Date('2025-06-02T04:30:00Z')
    rig = await startRealModeRig({}, { now: () => clock })
    await rig.counter.housekeeping()
    await rig.restart(async () => {
      // A file where the backups folder goes: no backup can be made in it.
      fs.rmSync(path.join(rig!.dataDir, 'backups'), { recursive: true })
      fs.writeFileSync(path.join(rig!.dataDir, 'backups'), 'not a folder')
      clock = new Date('2025-06-03T04:30:00Z')
    })
    await rig.counter.housekeeping()
    expect(rig.logLines.filter((line) => line.startsWith("counter: today's backup failed"))).toHaveLength(1)
    const sold = await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543211', operatorCode: 'AT', circle: 'DL', amount: '149' })
    if (!sold.ok) throw new Error(sold.error.message)
    expect(sold.value.state).toBe('SUCCESS')
  })
})
