// Training as the launchers start it (startTrainingSimulator), through the whole core: every practice input in the
// README gives its outcome, and the provider's books outlive a restart, so a status check still finds its order
// and the day close shows no break that nobody caused.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { ledgerDir } from '../../electron/counter/session'
import { RechargeApi } from '../../electron/partners/recharge-api'
import { PRACTICE_OUTSIDE_DEBIT } from '../../electron/shared/practice'
import { startSimulator, startTrainingSimulator, TRAINING_BOOKS_FILE, type Simulator } from '../../electron/simulator/server'
import { approvedAgent, eventually, privateKeychainService, resourcesDir, tempDir, valueOf } from './helpers'

/** The core in training with the launchers' provider; its sales give up after 1 s, so the no-answer practice is quick. */
function startTraining(dataDir: string, keychainService: string): Promise<CounterApp> {
  return startCounter({
    dataDir,
    resourcesDir,
    platform: 'test',
    startTraining: startTrainingSimulator,
    secrets: keychainSecrets(keychainService),
    env: {},
    providerTimeoutMs: 1_000,
  })
}

const sell = (counter: CounterApp, number: string, amount: string) =>
  counter.call('recharge.sell', { kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount, paymentMode: 'cash' })

const pendingIds = async (counter: CounterApp) => valueOf(await counter.call('pending.list', {})).items.map((item) => item.id)

describe('practice inputs in training', () => {
  const dataDir = tempDir('counter-practice-')
  let counter: CounterApp

  beforeAll(async () => {
    counter = await startTraining(dataDir.path, privateKeychainService())
    expect(counter.session().mode).toBe('training')
  })

  afterAll(async () => {
    await counter?.close()
    dataDir.remove()
  })

  it('₹11: FAILED, nothing left pending', async () => {
    const sale = valueOf(await sell(counter, '9812300011', '11'))
    expect(sale).toMatchObject({ state: 'FAILED', message: expect.stringContaining('Operator down') })
    expect(await pendingIds(counter)).not.toContain(sale.orderId)
  })

  it('₹12: Pending, and a status check settles it SUCCESS', async () => {
    const sale = valueOf(await sell(counter, '9812300012', '12'))
    expect(sale.state).toBe('UNKNOWN')
    expect(await pendingIds(counter)).toContain(sale.orderId)
    const checked = valueOf(await counter.call('recharge.checkStatus', { orderId: sale.orderId }))
    expect(checked).toMatchObject({ state: 'SUCCESS', fpayId: sale.fpayId })
    expect(await pendingIds(counter)).not.toContain(sale.orderId)
  })

  it('₹13: Pending, and a status check settles it FAILED', async () => {
    const sale = valueOf(await sell(counter, '9812300013', '13'))
    expect(sale.state).toBe('UNKNOWN')
    expect(await pendingIds(counter)).toContain(sale.orderId)
    const checked = valueOf(await counter.call('recharge.checkStatus', { orderId: sale.orderId }))
    expect(checked).toMatchObject({ state: 'FAILED', message: expect.stringContaining('Operator down') })
    expect(await pendingIds(counter)).not.toContain(sale.orderId)
  })

  it('₹14: no answer within the counter’s wait, Pending, and a status check settles it SUCCESS', async () => {
    const sale = valueOf(await sell(counter, '9812300014', '14'))
    expect(sale).toMatchObject({ state: 'UNKNOWN', message: expect.stringContaining('did not answer within 1 second') })
    expect(await pendingIds(counter)).toContain(sale.orderId)
    expect(valueOf(await counter.call('recharge.checkStatus', { orderId: sale.orderId })).state).toBe('SUCCESS')
  })

  it(`${PRACTICE_OUTSIDE_DEBIT.qty} coupons: ₹100.00 gone from the wallet first, named on the sale and as the day's break`, async () => {
    const agent = await approvedAgent(counter)
    const before = valueOf(await counter.call('pan.balance.refresh', {})).balancePaise!
    const sale = valueOf(await counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 2, qty: PRACTICE_OUTSIDE_DEBIT.qty, paymentMode: 'cash' }))
    expect(sale.state).toBe('SUCCESS')
    expect(sale.problems).toEqual([expect.stringMatching(/^The balance moved outside Counter: .*\(difference -₹100\.00\)\.$/)])
    expect(valueOf(await counter.call('pan.balance.refresh', {})).balancePaise).toBe(before - 100_00 - 11 * 72_00)
    const { breaks } = valueOf(await counter.call('day.summary', {}))
    expect(breaks).toEqual([expect.objectContaining({ kind: 'coupon', ref: sale.attemptId, differencePaise: -100_00 })])
  })
})

describe('the training provider across a restart', () => {
  const dataDir = tempDir('counter-practice-restart-')
  const keychainService = privateKeychainService()
  let counter: CounterApp | undefined

  afterEach(async () => {
    await counter?.close()
    counter = undefined
    dataDir.remove()
  })

  it('keeps its wallet, agents and orders: the balance reads the same, a pending sale is settled, the day shows no break', async () => {
    counter = await startTraining(dataDir.path, keychainService)
    const agent = await approvedAgent(counter)
    valueOf(await counter.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 2, paymentMode: 'cash' }))
    const before = valueOf(await counter.call('pan.balance.refresh', {})).balancePaise
    expect(before).toBe(5_000_00 - 2 * 107_00)
    const pending = valueOf(await sell(counter, '9812300112', '12'))
    expect(pending.state).toBe('UNKNOWN')
    expect(await pendingIds(counter)).toEqual([pending.orderId])
    await counter.close()
    expect(existsSync(join(ledgerDir(dataDir.path, 'training'), TRAINING_BOOKS_FILE))).toBe(true)

    counter = await startTraining(dataDir.path, keychainService)
    const restarted = counter
    expect(valueOf(await restarted.call('pan.balance.refresh', {})).balancePaise).toBe(before)
    // The queue asks about every open sale at start: the provider still has the order, and settles it.
    await eventually(async () => (await pendingIds(restarted)).length === 0, 'the pending sale settled after the restart')
    const sales = valueOf(await restarted.call('sales.today', {})).sales
    expect(sales.find((sale) => sale.orderId === pending.orderId)?.state).toBe('SUCCESS')
    const again = valueOf(await restarted.call('pan.coupons.sell', { vleId: agent.vleId, type: 1, qty: 1, paymentMode: 'cash' }))
    expect(again).toMatchObject({ state: 'SUCCESS', problems: [] })
    expect(valueOf(await restarted.call('day.summary', {})).breaks).toEqual([])

    // A top-up practised reaches the practice wallet, and outlives a restart: the next readings agree, no break.
    const topped = valueOf(await restarted.call('pan.balance.refresh', {})).balancePaise! + 1_000_00
    valueOf(await restarted.call('topups.add', { amount: '1000', reference: 'UTR practice' }))
    expect(valueOf(await restarted.call('pan.balance.refresh', {})).balancePaise).toBe(topped)
    await restarted.close()
    counter = await startTraining(dataDir.path, keychainService)
    expect(valueOf(await counter.call('pan.balance.refresh', {})).balancePaise).toBe(topped)
    expect(valueOf(await counter.call('day.summary', {})).breaks).toEqual([])
  })
})

describe('the training provider’s books file', () => {
  const dataDir = tempDir('counter-practice-books-')
  let sim: Simulator | undefined

  afterEach(async () => {
    await sim?.close()
    sim = undefined
  })

  afterAll(() => dataDir.remove())

  it('is set aside when it cannot be read, and the provider starts afresh', async () => {
    const file = join(dataDir.path, TRAINING_BOOKS_FILE)
    writeFileSync(file, '{"version":1,"recharge":{"orders":[]},"pan":{"balancePaise":"lots"')
    sim = await startTrainingSimulator(dataDir.path)
    expect(sim.pan.balancePaise()).toBe(5_000_00)
    expect(readFileSync(`${file}.unreadable`, 'utf8')).toContain('"lots"')
    expect(existsSync(file)).toBe(false)
  })

  it('books each order but keeps no log of the requests (it runs inside the counter all day; tests keep theirs)', async () => {
    sim = await startTrainingSimulator(dataDir.path)
    const api = new RechargeApi({ baseUrl: sim.url, credentials: sim.credentials, timeoutMs: 2_000 })
    try {
      for (const orderId of ['LOG1', 'LOG2', 'LOG3']) expect((await api.transaction({ number: '9812300012', amountPaise: 10_00, operatorCode: 'AT', orderId })).outcome).toBe('SUCCESS')
    } finally {
      api.close()
    }
    expect(sim.orderBook().recharges.map((order) => order.orderId)).toEqual(expect.arrayContaining(['LOG1', 'LOG2', 'LOG3']))
    expect(sim.requests).toEqual([])
  })
})

describe('a simulator started without practice (as tests start theirs)', () => {
  it('sells a practice amount like any other', async () => {
    const sim = await startSimulator()
    const api = new RechargeApi({ baseUrl: sim.url, credentials: sim.credentials, timeoutMs: 2_000 })
    try {
      const reply = await api.transaction({ number: '9812300011', amountPaise: 11_00, operatorCode: 'AT', orderId: 'PLAIN11' })
      expect(reply.outcome).toBe('SUCCESS')
      expect(sim.requests.map((request) => request.fields.order_id)).toEqual(['PLAIN11'])
    } finally {
      api.close()
      await sim.close()
    }
  })
})
