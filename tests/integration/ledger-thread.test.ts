// The ledger in its own thread, seen from the main thread: same answers and errors as in-process, the lock held by main, a thread that dies is started again, a thread that keeps dying is given up on in plain words.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ClockUnconfirmedError, DayClosedError, Ledger, LedgerWriteError } from '../../electron/ledger/ledger'
import { LEDGER_STOPPED, ledgerThreadOf, openLedger } from '../../electron/ledger/ledger-client'
import type { LedgerPort } from '../../electron/ledger/ledger-port'
import { tempDir } from './helpers'
import { formatDay } from '../../electron/shared/dates'
import { english } from '../../electron/shared/words'

const DAY = '2026-11-23'
const intent = (i: number, businessDay = DAY) => ({
  orderId: `ORD${i}`,
  kind: 'mobile' as const,
  number: `98765${String(i).padStart(5, '0')}`,
  operatorCode: 'AT',
  operatorName: 'Airtel',
  circle: null,
  amountPaise: 19_900,
  businessDay,
  training: false,
})
const outcome = (i: number) => ({
  orderId: `ORD${i}`,
  source: 'transaction' as const,
  outcome: 'SUCCESS' as const,
  providerStatus: 'SUCCESS',
  message: 'Recharge done',
  fpayId: `FP${i}`,
  operatorRef: null,
})

const open: { port: LedgerPort; remove(): void }[] = []
async function openTemp(now = () => new Date(`${DAY}T10:00:00.000Z`)) {
  const dir = tempDir('counter-thread-')
  const port = await openLedger({ dir: dir.path, now, clockSense: true })
  const handle = { port, dir: dir.path, remove: dir.remove }
  open.push(handle)
  return handle
}

afterEach(async () => {
  for (const handle of open.splice(0)) {
    await handle.port.close()
    handle.remove()
  }
})

const killThread = async (port: LedgerPort) => {
  const thread = ledgerThreadOf(port)
  expect(thread).not.toBeNull()
  await thread!.terminate()
}

describe('the ledger thread', () => {
  it('records and reads back as the in-process ledger does, and the books survive a reopen in-process', async () => {
    const { port, dir } = await openTemp()
    await port.append('recharge.intent', intent(1))
    await port.append('recharge.outcome', outcome(1))
    expect(await port.read('getSale', 'ORD1')).toMatchObject({ state: 'SUCCESS', amountPaise: 19_900, fpayId: 'FP1' })
    expect(await port.read('lastSeq')).toBe(2)
    expect((await port.read('dayTotals', DAY)).recharges).toEqual([{ operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 1, amountPaise: 19_900 }])
    await port.close()

    const ledger = await Ledger.open({ dir })
    expect(ledger.read('getSale', 'ORD1')?.state).toBe('SUCCESS')
    expect(ledger.read('lastSeq')).toBe(2)
    await ledger.close()
  })

  it('answers a write once its line is in the journal, yet a read or write sent right behind it sees the write applied', async () => {
    const { port } = await openTemp()
    // Sent in one turn, none awaited before the next: the thread answers each append before its tables take it (Ledger.appendThen).
    const calls = [
      port.append('recharge.intent', intent(1)),
      port.read('getSale', 'ORD1'),
      port.append('recharge.outcome', outcome(1)),
      port.read('getSale', 'ORD1'),
      port.append('recharge.intent', intent(1)),
      port.read('dayTotals', DAY),
    ]
    const [first, sending, , done, repeated, totals] = await Promise.allSettled(calls)
    expect(first).toMatchObject({ status: 'fulfilled', value: { seq: 1, type: 'recharge.intent' } })
    expect(sending).toMatchObject({ status: 'fulfilled', value: { state: 'SENDING' } })
    expect(done).toMatchObject({ status: 'fulfilled', value: { state: 'SUCCESS', fpayId: 'FP1' } })
    // The same order id again: refused by the tables that the first intent reached before this was read.
    expect(repeated.status).toBe('rejected')
    expect((totals as PromiseFulfilledResult<{ recharges: unknown[] }>).value.recharges).toEqual([
      { operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 1, amountPaise: 19_900 },
    ])
    expect(await port.read('lastSeq')).toBe(2)
  })

  it('a line answered before the tables took it is in the books after a crash at that moment', async () => {
    const dir = tempDir('counter-answered-')
    const crashed = tempDir('counter-answered-crash-')
    try {
      const ledger = await Ledger.open({ dir: dir.path, now: () => new Date(`${DAY}T10:00:00.000Z`) })
      ledger.append('recharge.intent', intent(1))
      // The folder as a killed process leaves it (the page cache survives; a power cut is the crash test's) when the
      // answer has gone out and the tables have not taken the line yet.
      ledger.appendThen('recharge.outcome', outcome(1), () => {
        fs.cpSync(dir.path, crashed.path, { recursive: true })
      })
      await ledger.close()
      // The dead process's lock: the crash test shows a stale one is taken over; here it is simply gone.
      fs.rmSync(path.join(crashed.path, 'counter.lock'), { force: true })
      const reopened = await Ledger.open({ dir: crashed.path, now: () => new Date(`${DAY}T10:00:00.000Z`) })
      expect(reopened.read('getSale', 'ORD1')).toMatchObject({ state: 'SUCCESS', fpayId: 'FP1' })
      await reopened.close()
    } finally {
      dir.remove()
      crashed.remove()
    }
  })

  it('carries each refusal across as the class the core catches, with what it says', async () => {
    const { port } = await openTemp()
    await port.append('recharge.intent', intent(1))
    await expect(port.append('recharge.intent', intent(1))).rejects.toThrow(/ORD1 is already recorded/)

    await port.append('day.closed', {
      businessDay: DAY,
      openingFloatPaise: 0,
      counted: { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coinsPaise: 0 },
      countedPaise: 0,
      expectedCashPaise: 0,
      closingPanBalancePaise: null,
      openingPanBalancePaise: null,
      overrideNote: null,
      summary: {},
    })
    const refused = await port.append('recharge.intent', intent(2)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(DayClosedError)
    expect((refused as DayClosedError).businessDay).toBe(DAY)
    expect(english((refused as Error).message)).toBe(`The books for ${formatDay(DAY)} are closed.`)
    expect(await port.read('getSale', 'ORD2')).toBeNull()
  })

  it('mirrors the clock floor: a clock months ahead is refused with ClockUnconfirmedError, checked in main without a round trip', async () => {
    let clock = new Date(`${DAY}T10:00:00.000Z`)
    const { port } = await openTemp(() => clock)
    await port.append('recharge.intent', intent(1))
    expect(port.clockCheck()).toMatchObject({ state: 'ok', floorAt: `${DAY}T10:00:00.000Z` })
    clock = new Date('2027-06-01T10:00:00.000Z')
    expect(port.clockCheck()?.state).toBe('ahead')
    const refused = await port.append('recharge.intent', intent(2, '2027-06-01')).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ClockUnconfirmedError)
    expect((refused as ClockUnconfirmedError).check.state).toBe('ahead')
    expect(await port.read('getSale', 'ORD2')).toBeNull()
  })

  it('a thread killed mid-call: the call is refused as possibly unwritten, the thread comes back, nothing recorded is lost', async () => {
    const { port } = await openTemp()
    for (let i = 1; i <= 20; i++) {
      await port.append('recharge.intent', intent(i))
      await port.append('recharge.outcome', outcome(i))
    }
    const inFlight = port.append('recharge.intent', intent(21)).catch((error: unknown) => error)
    await killThread(port)
    const answer = await inFlight
    // Either the thread answered before it died, or the caller is told it may not be written.
    if (answer instanceof Error) {
      expect(answer).toBeInstanceOf(LedgerWriteError)
      expect(answer.message).toBe(LEDGER_STOPPED)
    }
    for (let i = 1; i <= 20; i++) expect((await port.read('getSale', `ORD${i}`))?.state).toBe('SUCCESS')
    // The books are writable again; a line that did reach the journal is there once.
    const again = await port.append('recharge.intent', intent(21)).then(
      () => 'written',
      (error: Error) => error.message,
    )
    expect(['written', 'The ledger refused recharge.intent: a sale with order id ORD21 is already recorded.']).toContain(again)
    expect((await port.read('getSale', 'ORD21'))?.state).toBe('SENDING')
    expect(port.readOnly).toBeNull()
  })

  it('a thread that keeps dying is not started again: the books say why, in plain words, and refuse writes', async () => {
    const { port } = await openTemp()
    let changes = 0
    port.onBooksChanged(() => changes++)
    for (let death = 1; death <= 4; death++) {
      // Each restart must finish before the next kill, as separate crashes would.
      await port.read('lastSeq').catch(() => undefined)
      if (ledgerThreadOf(port)) await killThread(port)
    }
    await expect.poll(() => english(port.readOnly ?? ''), { timeout: 10_000 }).toMatch(/stopped 4 times within a minute/)
    expect(changes).toBeGreaterThan(0)
    const refused = await port.append('recharge.intent', intent(1)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(LedgerWriteError)
    expect(english((refused as Error).message)).toMatch(/restart Counter/)
  })

  it('holds the folder lock in the main thread, and lets go of it at close', async () => {
    const { port, dir } = await openTemp()
    await killThread(port)
    // While the thread is being started again, the folder is still this process's.
    const { readFileSync } = await import('node:fs')
    expect(readFileSync(`${dir}/counter.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} `))
    await port.close()
    const { existsSync } = await import('node:fs')
    expect(existsSync(`${dir}/counter.lock`)).toBe(false)
  })
})
