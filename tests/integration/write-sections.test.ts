// Every ledger call is answered asynchronously, so two windows can be inside the core at once: through the
// whole core over real HTTP, each rule checked before a write still holds when the write lands, and a
// provider answer whose write the ledger thread never answered is written once, not twice.
import { afterEach, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { LEDGER_STOPPED } from '../../electron/ledger/ledger-client'
import { MAY_HAVE_CHARGED } from '../../electron/counter/held-answers'
import { NOTHING_SENT } from '../../electron/counter/context'
import type { Result, Sale } from '../../electron/contract'
import type { SimRequest } from '../../electron/simulator/server'
import { installFsShim, type FsShim } from '../faults/fs-shim'
import { approvedAgent, eventually, journalOf, startRealModeRig, valueOf, type RealModeRig } from './helpers'
import { english } from '../../electron/shared/words'

const sale = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '199.50' }) as const
const drawer = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' }

let rig: RealModeRig | undefined
let shim: FsShim | undefined
/** Called by the provider for every request it takes, before it answers: lets a test act at the moment a call reaches it. */
let onProvider: (req: SimRequest) => void | Promise<void> = () => undefined

afterEach(async () => {
  onProvider = () => undefined
  await rig?.close()
  shim?.uninstall()
  rig = shim = undefined
})

const startRig = async (counterOptions = {}) => (rig = await startRealModeRig({ onRequest: (req) => onProvider(req) }, counterOptions))
const requestsOf = (r: RealModeRig, operation: string) => r.provider.requests.filter((req) => req.operation === operation)
/** A journal line's own sequence number (journalOf types only what most tests read). */
const seqOf = (line: { data: Record<string, unknown> }) => (line as unknown as { seq: number }).seq

it('two coupon orders for one agent at once: one reaches the provider, the other is refused while the first is open', async () => {
  const r = await startRig()
  const agent = await approvedAgent(r.counter)
  r.provider.setFault({ kind: 'slow', operations: ['coupon_req'], delayMs: 500, times: 1 })

  const [first, second] = await Promise.all([
    r.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1 }),
    r.counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 2, qty: 1 }),
  ])

  const sold = [first, second].filter((answer) => answer.ok)
  const refused = [first, second].filter((answer) => !answer.ok)
  expect(sold).toHaveLength(1)
  expect(refused).toMatchObject([{ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(`for agent ${agent.vleId} has no final answer`) } }])
  expect(requestsOf(r, 'coupon_req')).toHaveLength(1)
  expect(journalOf(r).filter((line) => line.type === 'pan.coupon.intent')).toHaveLength(1)
})

it('sales for different numbers at once each take the next sequence number in their order id', async () => {
  const r = await startRig()
  const numbers = ['9812345601', '9812345602', '9812345603', '9812345604']

  const sold = await Promise.all(numbers.map((number) => r.counter.call('recharge.sell', sale(number))))

  const orderIds = sold.map((answer) => valueOf(answer).orderId)
  expect(new Set(orderIds).size).toBe(numbers.length)
  const intents = journalOf(r).filter((line) => line.type === 'recharge.intent')
  expect(intents).toHaveLength(numbers.length)
  // An order id is prefix (2), yymmdd (6), the intent's own journal sequence number (6), a random tail (3).
  for (const intent of intents) expect(String(intent.data.orderId).slice(8, 14)).toBe(String(seqOf(intent)).padStart(6, '0'))
})

it('a sale booked while the day is being closed is refused by the close, or counted in it: never left out', async () => {
  // The sale waits at the provider for as long as the close takes: it must not time out meanwhile.
  const r = await startRig({ providerTimeoutMs: 15_000 })
  const today = valueOf(await r.counter.call('app.status', {})).businessDay
  await eventually(async () => journalOf(r).some((line) => line.type === 'pan.balance.read'), "the start-up's balance read")
  // The close reads the provider's balance after its first checks: a second window sells right then. The balance
  // answer waits until that sale has reached the provider, and the provider answers the sale only once the close
  // has answered, so the sale is open all through the close however busy the machine (the test once leant on a
  // 600 ms delay, and on a loaded machine the sale had ended before the close looked).
  let selling: Promise<Result<Sale>> | undefined
  let closeAnswered: Promise<unknown> = Promise.resolve()
  onProvider = async (req) => {
    if (req.operation === 'transaction') await closeAnswered
    if (req.operation !== 'balance' || selling) return
    const sent = requestsOf(r, 'transaction').length
    selling = r.counter.call('recharge.sell', sale('9812345605'))
    await eventually(async () => requestsOf(r, 'transaction').length > sent, 'the sale reaching the provider')
  }
  const closeHoldingTheSale = (note?: string) => {
    const answer = r.counter.call('day.close', { businessDay: today, openingFloat: '0', counted: drawer, ...(note ? { overrideNote: note } : {}) })
    closeAnswered = answer
    return answer
  }

  const unnoted = await closeHoldingTheSale()
  expect(selling).toBeDefined()
  expect(unnoted).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { overrideNote: expect.stringContaining('1 sale is still unresolved') } } })
  expect(journalOf(r).some((line) => line.type === 'day.closed')).toBe(false)
  expect(valueOf(await selling!).state).toBe('SUCCESS')

  // With the owner's note the close goes ahead, and its figures are the books' as it is written.
  selling = undefined
  const closed = await closeHoldingTheSale('Closing with the last sale still being sent.')
  const late = valueOf(await selling!)
  const summary = valueOf(closed)
  expect(summary.pending.map((item) => item.id)).toEqual([late.orderId])
  expect(summary.recharges.reduce((count, group) => count + group.count, 0)).toBe(2)
  const types = journalOf(r).map((line) => line.type)
  expect(types.lastIndexOf('recharge.intent')).toBeLessThan(types.indexOf('day.closed'))
})

/**
 * Restarts the core and waits for its start-up balance read to be journaled: the shim's "first write"
 * must be the sale's own, not that line's (which the start writes while the counter already answers).
 */
async function restartQuiet(r: RealModeRig): Promise<void> {
  const reads = () => journalOf(r).filter((line) => line.type === 'pan.balance.read').length
  // The first start's read too, or it could land after the restart and pass for the restarted core's.
  await eventually(async () => reads() > 0, "the first start's balance read")
  const before = reads()
  await r.restart()
  await eventually(async () => reads() > before, "the restarted core's balance read")
}

it('an intent the ledger thread never answered is refused as not sent, and nothing is sent', async () => {
  const r = await startRig()
  shim = installFsShim(ledgerDir(r.dataDir, 'real'))
  // Threads started from now on join the shim.
  await restartQuiet(r)
  shim.arm({ cls: 'write', occurrence: 1 }, { kind: 'die-thread' })

  const refused = await r.counter.call('recharge.sell', sale('9812345606'))

  expect(refused).toMatchObject({ ok: false, error: { code: 'ledger_unavailable', message: `${english(LEDGER_STOPPED)} ${english(NOTHING_SENT)}` } })
  expect(requestsOf(r, 'transaction')).toHaveLength(0)
  // The thread is started again: the next sale goes through.
  expect(valueOf(await r.counter.call('recharge.sell', sale('9812345606'))).state).toBe('SUCCESS')
})

it('an answer whose write the ledger thread never answered is retried, and written once when it had reached the journal', async () => {
  const r = await startRig({ heldRetryMs: 3_600_000 })
  shim = installFsShim(ledgerDir(r.dataDir, 'real'))
  await restartQuiet(r)
  // The provider books the order; the ledger thread dies as it is about to write the answer.
  onProvider = (req) => {
    if (req.operation === 'transaction') shim!.arm({ cls: 'write', occurrence: 1 }, { kind: 'die-thread' })
  }

  const sold = valueOf(await r.counter.call('recharge.sell', sale('9812345607')))
  expect(sold).toMatchObject({ state: 'UNKNOWN', message: english(MAY_HAVE_CHARGED) })
  expect(shim.fired()).toBe(true)
  onProvider = () => undefined

  // As if the thread had written the line before it died: the books already hold the answer.
  const { ledger } = r.counter.session()
  await ledger.append('recharge.outcome', {
    orderId: sold.orderId,
    source: 'transaction',
    outcome: 'SUCCESS',
    providerStatus: 'SUCCESS',
    message: 'Recharge successful',
    fpayId: null,
    operatorRef: null,
  })
  // Any write first journals what is held: here the retry finds the answer there and is done.
  valueOf(await r.counter.call('pan.balance.refresh', {}))

  const outcomes = journalOf(r).filter((line) => line.type === 'recharge.outcome' && line.data.orderId === sold.orderId)
  expect(outcomes).toHaveLength(1)
  expect(valueOf(await r.counter.call('sales.today', {})).sales).toMatchObject([{ orderId: sold.orderId, state: 'SUCCESS' }])
  expect(requestsOf(r, 'transaction')).toHaveLength(1)
})
