// One fsync per sale on real files: a recharge's outcome rides on the next fsync (or the timer, a snapshot, close), and a failed fsync with a line waiting on it stops the ledger until restart.
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFERRED_SYNC_MS, FROM_THE_START, Journal } from '../../electron/ledger/journal'
import { LedgerWriteError, type Ledger } from '../../electron/ledger/ledger'
import { SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { installFsShim, type FsShim } from '../faults/fs-shim'
import { rechargeIntent as intent, rechargeOutcome as outcome, useLedgerRig } from './ledger-rig'
import { english } from '../../electron/shared/words'
import { rejectedInEnglish, thrownInEnglish } from '../helpers/english-replies'

const rig = useLedgerRig('counter-deferred-sync-')
let shim: FsShim | null = null
afterEach(() => {
  shim?.uninstall()
  shim = null
})

/** Counts (and on demand fails) the real fsyncs, writes and truncations made in the ledger folder from now on. */
function watchDisk(): FsShim {
  fs.mkdirSync(rig.dir, { recursive: true })
  shim = installFsShim(rig.dir)
  return shim
}

const fsyncs = () => shim!.counts().fsync
const pastTheTimer = () => new Promise((resolve) => setTimeout(resolve, DEFERRED_SYNC_MS + 150))
const eio = { kind: 'errno', code: 'EIO' } as const

let clock = 0
const at = () => new Date(Date.UTC(2025, 2, 14, 4, 30) + 1000 * clock++).toISOString()

function openJournal(): Journal {
  const journal = Journal.open(rig.dir)
  journal.readFrom(FROM_THE_START, () => undefined)
  return journal
}

const linesOf = (journal: Journal) => {
  const types: string[] = []
  journal.readFrom(FROM_THE_START, (entry) => types.push(`${entry.type} ${(entry.data as { orderId: string }).orderId}`))
  return types
}

describe('the journal', () => {
  it('fsyncs a sale once: the outcome is carried to disk by the next intent, and no timer fsync follows', async () => {
    watchDisk()
    const journal = openJournal()
    shim!.resetCounts()
    journal.append('recharge.intent', intent('A1'), at())
    journal.append('recharge.outcome', outcome('A1'), at())
    expect(fsyncs()).toBe(1)
    journal.append('recharge.intent', intent('A2'), at())
    expect(fsyncs()).toBe(2)
    await pastTheTimer()
    expect(fsyncs()).toBe(2)
    journal.close()
    expect(fsyncs()).toBe(2)
  })

  it('fsyncs a lone outcome within DEFERRED_SYNC_MS, and one still waiting at close', async () => {
    watchDisk()
    const journal = openJournal()
    journal.append('recharge.intent', intent('A1'), at())
    shim!.resetCounts()
    journal.append('recharge.outcome', outcome('A1'), at())
    expect(fsyncs()).toBe(0)
    await pastTheTimer()
    expect(fsyncs()).toBe(1)
    journal.append('recharge.outcome', outcome('A1', { source: 'check_status' }), at())
    journal.close()
    expect(fsyncs()).toBe(2)
  })

  it('keeps the fsync of every line the shop typed in or that comes before a provider call', () => {
    watchDisk()
    const journal = openJournal()
    shim!.resetCounts()
    journal.append('recharge.intent', intent('A1'), at())
    journal.append('sale.settled', { kind: 'recharge', id: 'A1', outcome: 'FAILED', note: 'Provider said by phone' }, at())
    journal.append('pan.topup', { topupId: 'T1', amountPaise: 50000, reference: 'UTR1', note: '', businessDay: '2025-03-14' }, at())
    expect(fsyncs()).toBe(3)
    journal.close()
  })

  it('turns unusable when the timer fsync fails, tells its listener, and keeps what is on disk for the next open', async () => {
    watchDisk()
    const journal = openJournal()
    const told: string[] = []
    journal.whenUnusable((why) => told.push(why))
    journal.append('recharge.intent', intent('A1'), at())
    journal.append('recharge.outcome', outcome('A1'), at())
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    await pastTheTimer()
    expect(shim!.fired()).toBe(true)
    expect(told.map(english)).toEqual(["the disk reported an error (EIO) while saving the journal's latest lines, so they may not be on it"])
    expect(thrownInEnglish(() => journal.append('recharge.intent', intent('A2'), at()))).toMatch(/may not be on it; nothing more can be written/)
    journal.close()

    shim!.disarm()
    const reopened = Journal.open(rig.dir)
    expect(linesOf(reopened)).toEqual(['recharge.intent A1', 'recharge.outcome A1'])
    reopened.append('recharge.intent', intent('A2'), at())
    reopened.close()
  })

  it('does not retry an fsync that failed with an outcome waiting on it: the new line is cut off and nothing more is taken', () => {
    watchDisk()
    const journal = openJournal()
    const told: string[] = []
    journal.whenUnusable((why) => told.push(why))
    journal.append('recharge.intent', intent('A1'), at())
    journal.append('recharge.outcome', outcome('A1'), at())
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    expect(() => journal.append('recharge.intent', intent('A2'), at())).toThrow(/EIO/)
    expect(told).toHaveLength(1)
    // The next fsync would likely succeed, which is exactly why it must not be trusted.
    expect(thrownInEnglish(() => journal.append('recharge.intent', intent('A3'), at()))).toMatch(/nothing more can be written/)
    journal.close()

    shim!.disarm()
    const reopened = Journal.open(rig.dir)
    expect(linesOf(reopened)).toEqual(['recharge.intent A1', 'recharge.outcome A1'])
    reopened.close()
  })

  it('with nothing waiting, cuts off only the line whose fsync failed and goes on', () => {
    watchDisk()
    const journal = openJournal()
    journal.append('recharge.intent', intent('A1'), at())
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    expect(() => journal.append('recharge.intent', intent('A2'), at())).toThrow(/EIO/)
    journal.append('recharge.intent', intent('A3'), at())
    journal.close()
    const reopened = Journal.open(rig.dir)
    expect(linesOf(reopened)).toEqual(['recharge.intent A1', 'recharge.intent A3'])
    reopened.close()
  })

  it('syncs a waiting outcome before starting a new segment', () => {
    watchDisk()
    const journal = openJournal()
    journal.append('recharge.intent', intent('A1'), at())
    journal.append('recharge.outcome', outcome('A1'), at())
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    expect(thrownInEnglish(() => journal.rotateIfLarger(0))).toMatch(/may not be on it/)
    journal.close()
    shim!.disarm()
    const reopened = Journal.open(rig.dir)
    expect(linesOf(reopened)).toEqual(['recharge.intent A1', 'recharge.outcome A1'])
    reopened.close()
  })
})

describe('the ledger', () => {
  const sell = (ledger: Ledger, orderId: string) => {
    ledger.append('recharge.intent', intent(orderId))
    ledger.append('recharge.outcome', outcome(orderId))
  }

  it('refuses every write with plain words after the deferred fsync failed, and is writable again after a restart', async () => {
    watchDisk()
    const ledger = await rig.open()
    const changes: (string | null)[] = []
    ledger.onBooksChanged(() => changes.push(ledger.readOnly))
    sell(ledger, 'A1')
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    await pastTheTimer()
    const plainWords =
      "The journal cannot take more lines: the disk reported an error (EIO) while saving the journal's latest lines, so they may not be on it. " +
      'Nothing more is recorded until Counter is restarted; it then asks the provider about every sale left without its answer.'
    expect(english(ledger.readOnly!)).toBe(plainWords)
    expect(changes).toEqual([ledger.readOnly])
    expect(() => ledger.append('recharge.intent', intent('A2'))).toThrow(new LedgerWriteError(ledger.readOnly!))
    await rig.close(ledger)

    shim!.disarm()
    const reopened = await rig.open()
    expect(reopened.readOnly).toBeNull()
    expect(reopened.read('getSale', 'A1')?.state).toBe('SUCCESS')
    sell(reopened, 'A2')
    expect(reopened.read('getSale', 'A2')?.state).toBe('SUCCESS')
  })

  it('fsyncs a waiting outcome before a snapshot claims it, and writes no snapshot when that fsync fails', async () => {
    watchDisk()
    const ledger = await rig.open()
    sell(ledger, 'A1')
    shim!.arm({ cls: 'fsync', occurrence: 1 }, eio)
    expect(await rejectedInEnglish(Promise.resolve().then(() => ledger.snapshot()))).toMatch(/may not be on it/)
    expect(fs.existsSync(`${rig.dir}/${SNAPSHOT_FILE}`)).toBe(false)
    expect(english(ledger.readOnly!)).toMatch(/^The journal cannot take more lines/)
  })
})
