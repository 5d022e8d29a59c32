// The ledger's PAN side on real files with real sql.js: agents, coupon sales, password resets, balance readings, and reopening.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerEventData } from '../../electron/ledger/events'
import type { Ledger } from '../../electron/ledger/ledger'
import { PREVIOUS_SNAPSHOT_FILE, SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { atSeq, couponAnswer, couponIntent, DAY, noAnswer, useLedgerRig } from './ledger-rig'

const rig = useLedgerRig('counter-ledger-pan-')
const openLedger = rig.open
const closeLedger = rig.close
const journalLines = rig.journalLines
/** The coupon orders still without a final answer, oldest first (the ledger's one list of both kinds). */
const openSales = (ledger: Ledger) => ledger.read('unresolved').flatMap(({ sale }) => ('attemptId' in sale ? [sale] : []))

const FULL_UID = '234567890124'

const submitted = (vleId: string, fields: Partial<LedgerEventData['pan.agent.submitted']> = {}): LedgerEventData['pan.agent.submitted'] => ({
  vleId,
  name: 'Asha Devi',
  mobile: '9876543210',
  email: 'asha@example.in',
  shop: 'Asha Xerox',
  location: 'Main Road, Patna',
  stateCode: '5',
  pin: '800001',
  uidMasked: 'XXXX XXXX 0124',
  pan: 'ABCDE1234F',
  ...fields,
})

const agentAnswer = (vleId: string, fields: Partial<LedgerEventData['pan.agent.answer']> = {}): LedgerEventData['pan.agent.answer'] => ({
  vleId,
  source: 'add_vle',
  outcome: 'SUCCESS',
  vleStatus: 'PENDING',
  message: 'VLE created',
  ...fields,
})

const resetAnswer = (attemptId: string, fields: Partial<LedgerEventData['pan.reset.answer']> = {}): LedgerEventData['pan.reset.answer'] => ({
  attemptId,
  source: 'pass_reset',
  outcome: 'SUCCESS',
  orderId: `PR-${attemptId}`,
  resetStatus: 'PENDING',
  vleName: null,
  message: 'Password reset requested',
  ...fields,
})

describe('agents', () => {
  it('registers a submitted agent and follows the provider through PENDING to APPROVED', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1'))
    expect(ledger.read('getAgent', 'VLE1')).toEqual({
      vleId: 'VLE1', name: 'Asha Devi', mobile: '9876543210', email: 'asha@example.in', shop: 'Asha Xerox',
      location: 'Main Road, Patna', stateCode: '5', pin: '800001', uidMasked: 'XXXX XXXX 0124', pan: 'ABCDE1234F',
      status: 'SUBMITTING', message: '', createdAt: atSeq(1), updatedAt: atSeq(1), lastCheckedAt: null,
    })
    ledger.append('pan.agent.answer', agentAnswer('VLE1'))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'PENDING', message: 'VLE created', updatedAt: atSeq(2), lastCheckedAt: null })
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', vleStatus: 'APPROVED', message: 'VLE is approved' }))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'APPROVED', message: 'VLE is approved', createdAt: atSeq(1), lastCheckedAt: atSeq(3) })
    expect(ledger.read('getAgent', 'NOPE')).toBeNull()
  })

  it('keeps the status when a status check is refused, unanswered, or names no status', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1'))
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', vleStatus: 'APPROVED' }))
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', outcome: 'FAILED', vleStatus: null, message: 'Invalid API key' }))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'APPROVED', message: 'Invalid API key', lastCheckedAt: atSeq(3) })
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', outcome: 'UNKNOWN', vleStatus: null, message: 'No answer' }))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'APPROVED', message: 'No answer', lastCheckedAt: atSeq(4) })
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', vleStatus: null, message: 'OK' }))
    expect(ledger.read('getAgent', 'VLE1')?.status).toBe('APPROVED')
  })

  it('leaves an unanswered creation SUBMITTING, and a success without a status word PENDING', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1'))
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { outcome: 'UNKNOWN', vleStatus: null, message: 'Timed out' }))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'SUBMITTING', message: 'Timed out' })
    expect(() => ledger.append('pan.agent.submitted', submitted('VLE1'))).toThrow(/agent VLE1 is already registered \(SUBMITTING\)/)
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', vleStatus: null }))
    expect(ledger.read('getAgent', 'VLE1')?.status).toBe('PENDING')
  })

  it('marks a refused agent NOT_CREATED and lets a corrected submission replace it', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1', { email: 'wrong' }))
    ledger.append('pan.agent.answer', agentAnswer('VLE1', { outcome: 'FAILED', vleStatus: null, message: 'Invalid email' }))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'NOT_CREATED', message: 'Invalid email', email: 'wrong' })

    ledger.append('pan.agent.submitted', submitted('VLE1'))
    expect(ledger.read('getAgent', 'VLE1')).toMatchObject({ status: 'SUBMITTING', message: '', email: 'asha@example.in', createdAt: atSeq(3) })
    ledger.append('pan.agent.answer', agentAnswer('VLE1'))
    expect(ledger.read('agents').map((agent) => [agent.vleId, agent.status])).toEqual([['VLE1', 'PENDING']])

    expect(() => ledger.append('pan.agent.submitted', submitted('VLE1'))).toThrow(/already registered \(PENDING\)/)
    expect(ledger.read('lastSeq')).toBe(4)
    expect(journalLines()).toHaveLength(4)
  })

  it('lists agents newest first, the refused ones included', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1'))
    ledger.append('pan.agent.submitted', submitted('VLE2'))
    ledger.append('pan.agent.answer', agentAnswer('VLE2', { outcome: 'FAILED', vleStatus: null, message: 'Duplicate VLE id' }))
    ledger.append('pan.agent.submitted', submitted('VLE3'))
    expect(ledger.read('agents').map((agent) => [agent.vleId, agent.status])).toEqual([['VLE3', 'SUBMITTING'], ['VLE2', 'NOT_CREATED'], ['VLE1', 'SUBMITTING']])
  })

  it('refuses an answer for an agent it never registered', async () => {
    const ledger = await openLedger()
    expect(() => ledger.append('pan.agent.answer', agentAnswer('GHOST'))).toThrow(/no agent GHOST/)
    expect(ledger.read('lastSeq')).toBe(0)
  })

  it.each([FULL_UID, '2345 6789 0124', 'XXXX X789 0124', '2345-6789-0124'])('refuses to store the Aadhaar number %s, writing nothing', async (uidMasked) => {
    const ledger = await openLedger()
    let thrown: unknown
    try {
      ledger.append('pan.agent.submitted', submitted('VLE1', { uidMasked }))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect((thrown as Error).message).toMatch(/must be stored masked/)
    expect((thrown as Error).message).not.toContain(uidMasked)
    expect(ledger.read('getAgent', 'VLE1')).toBeNull()
    expect(ledger.read('lastSeq')).toBe(0)
  })

  it('keeps only the masked Aadhaar number in the journal and the snapshot', async () => {
    const ledger = await openLedger()
    ledger.append('pan.agent.submitted', submitted('VLE1'))
    ledger.append('pan.agent.answer', agentAnswer('VLE1'))
    await closeLedger(ledger)
    const files = [...rig.segments(), path.join(rig.dir, SNAPSHOT_FILE)].map((file) => fs.readFileSync(file))
    for (const bytes of files) {
      expect(bytes.includes('XXXX XXXX 0124')).toBe(true)
      expect(bytes.includes(FULL_UID)).toBe(false)
    }
  })
})

describe('coupon sales', () => {
  it('records an intent as SENDING and fills in the provider answer', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    const sending = {
      attemptId: 'C1', orderId: null, vleId: 'VLE1', vleName: 'Asha Devi', type: 1, qty: 3, expectedRatePaise: 10700,
      state: 'SENDING', providerStatus: null, message: '', date: null, ratePaise: null, amountPaise: null, oldBalPaise: null,
      newBalPaise: null, problems: [], createdAt: atSeq(1), updatedAt: atSeq(1), lastCheckedAt: null, training: true,
      collectedPaise: 32100, paymentMode: 'cash', settledNote: null, upiConfirmedAt: null,
    }
    expect(ledger.read('couponSale', 'C1')).toEqual(sending)
    expect(openSales(ledger).map((sale) => sale.attemptId)).toEqual(['C1'])

    ledger.append('pan.coupon.outcome', couponAnswer('C1', { problems: ['The balance moved outside Counter'] }))
    expect(ledger.read('couponSale', 'C1')).toEqual({
      ...sending, orderId: 'ORD-C1', state: 'SUCCESS', providerStatus: 'SUCCESS', message: 'Coupon request successful',
      date: '14-Mar-2025', ratePaise: 10700, amountPaise: 32100, oldBalPaise: 500000, newBalPaise: 467900,
      problems: ['The balance moved outside Counter'], updatedAt: atSeq(2),
    })
    expect(openSales(ledger)).toEqual([])
    expect(ledger.read('couponSale', 'NOPE')).toBeNull()
  })

  it('never reopens a settled sale: not for an unanswered check, a PENDING order status, or a refused check', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1'))
    ledger.append('pan.coupon.outcome', noAnswer('C1'))
    expect(ledger.read('couponSale', 'C1')).toMatchObject({
      state: 'SUCCESS', providerStatus: 'SUCCESS', message: 'No answer from the provider', orderId: 'ORD-C1',
      ratePaise: 10700, newBalPaise: 467900, lastCheckedAt: atSeq(3),
    })
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', outcome: 'UNKNOWN', providerStatus: 'PENDING', message: '' }))
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ state: 'SUCCESS', providerStatus: 'PENDING', lastCheckedAt: atSeq(4) })
    ledger.append('pan.coupon.outcome', { ...noAnswer('C1'), outcome: 'FAILED', providerStatus: 'FAILED', message: 'Invalid API key' })
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ state: 'SUCCESS', message: 'Invalid API key', amountPaise: 32100 })

    ledger.append('pan.coupon.intent', couponIntent('C2'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C2'), source: 'coupon_req', outcome: 'FAILED', providerStatus: 'FAILED', message: 'Insufficient balance' })
    ledger.append('pan.coupon.outcome', noAnswer('C2'))
    expect(ledger.read('couponSale', 'C2')).toMatchObject({ state: 'FAILED', providerStatus: 'FAILED', message: 'No answer from the provider' })
    expect(openSales(ledger)).toEqual([])
  })

  it('settles an unconfirmed sale from a status check, keeping what the check leaves out', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C1'), source: 'coupon_req', orderId: 'ORD-C1', message: 'Not JSON' })
    expect(ledger.read('couponSale', 'C1')).toMatchObject({ state: 'UNKNOWN', orderId: 'ORD-C1', lastCheckedAt: null })
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', orderId: null, date: null, oldBalPaise: null }))
    expect(ledger.read('couponSale', 'C1')).toMatchObject({
      state: 'SUCCESS', orderId: 'ORD-C1', date: null, ratePaise: 10700, amountPaise: 32100, oldBalPaise: null, newBalPaise: 467900,
      lastCheckedAt: atSeq(3),
    })
  })

  it('adds each answer’s problems to the sale’s list, once each', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { problems: ['Amount is not rate × qty', 'The balance moved outside Counter'] }))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', problems: ['Amount is not rate × qty'] }))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', problems: [] }))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', problems: ['New balance is not old balance − amount'] }))
    expect(ledger.read('couponSale', 'C1')?.problems).toEqual([
      'Amount is not rate × qty', 'The balance moved outside Counter', 'New balance is not old balance − amount',
    ])
  })

  it('lists sales newest first (all, limited, by day) and the unresolved ones oldest first', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.intent', couponIntent('C2', { businessDay: '2025-03-15', type: 2, training: false }))
    ledger.append('pan.coupon.intent', couponIntent('C3'))
    ledger.append('pan.coupon.outcome', couponAnswer('C3'))
    ledger.append('pan.coupon.intent', couponIntent('C4'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C4'), source: 'coupon_req' })
    const ids = (sales: { attemptId: string }[]) => sales.map((sale) => sale.attemptId)
    expect(ids(ledger.read('couponSales'))).toEqual(['C4', 'C3', 'C2', 'C1'])
    expect(ids(ledger.read('couponSales', 2))).toEqual(['C4', 'C3'])
    expect(ids(ledger.read('couponSalesForDay', DAY))).toEqual(['C4', 'C3', 'C1'])
    expect(ledger.read('couponSalesForDay', '2025-03-15')).toEqual([expect.objectContaining({ attemptId: 'C2', type: 2, training: false })])
    expect(ids(openSales(ledger))).toEqual(['C1', 'C2', 'C4'])
  })

  it('refuses, writing nothing, a second intent, an answer without a sale, and money that is not whole paise', async () => {
    const ledger = await openLedger()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    expect(() => ledger.append('pan.coupon.intent', couponIntent('C1'))).toThrow(/already recorded/)
    expect(() => ledger.append('pan.coupon.outcome', couponAnswer('C9'))).toThrow(/no coupon sale with attempt id C9/)
    expect(() => ledger.append('pan.coupon.outcome', couponAnswer('C1', { amountPaise: 321.5 }))).toThrow(/amountPaise must be a whole number/)
    expect(() => ledger.append('pan.coupon.intent', couponIntent('C2', { expectedRatePaise: 107.5 }))).toThrow(/expectedRatePaise/)
    expect(() => ledger.append('pan.balance.read', { balancePaise: 0.1, source: 'balance' })).toThrow(/balancePaise/)
    expect(ledger.read('lastSeq')).toBe(1)
    expect(journalLines()).toHaveLength(1)
    expect(ledger.read('couponSale', 'C1')?.state).toBe('SENDING')
  })
})

describe('rates and balance', () => {
  it('gives the rate last charged for each coupon type, ignoring sales that reported none', async () => {
    const ledger = await openLedger()
    expect(ledger.read('lastChargedRatePaise', 1)).toBeNull()
    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { ratePaise: 10700 }))
    ledger.append('pan.coupon.intent', couponIntent('C2', { type: 2 }))
    ledger.append('pan.coupon.outcome', couponAnswer('C2', { ratePaise: 7200 }))
    ledger.append('pan.coupon.intent', couponIntent('C3'))
    ledger.append('pan.coupon.outcome', couponAnswer('C3', { ratePaise: 11000 }))
    ledger.append('pan.coupon.intent', couponIntent('C4'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C4'), source: 'coupon_req' })
    expect(ledger.read('lastChargedRatePaise', 1)).toBe(11000)
    expect(ledger.read('lastChargedRatePaise', 2)).toBe(7200)
  })

  it('knows the balance from the latest of a balance reading and a coupon answer’s new_bal, by journal order', async () => {
    const ledger = await openLedger()
    expect(ledger.read('lastKnownPanBalance')).toBeNull()
    ledger.append('pan.balance.read', { balancePaise: 500000, source: 'balance' })
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 500000, at: atSeq(1), seq: 1 })

    ledger.append('pan.coupon.intent', couponIntent('C1'))
    ledger.append('pan.coupon.outcome', couponAnswer('C1'))
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 467900, at: atSeq(3), seq: 3 })

    ledger.append('pan.balance.read', { balancePaise: 450000, source: 'balance' })
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 450000, at: atSeq(4), seq: 4 })
    // A status check repeats the order's historical new_bal: it is not a fresh reading.
    ledger.append('pan.coupon.outcome', couponAnswer('C1', { source: 'coupon_status', providerStatus: 'PENDING' }))
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 450000, at: atSeq(4), seq: 4 })

    ledger.append('pan.coupon.intent', couponIntent('C2'))
    ledger.append('pan.coupon.outcome', couponAnswer('C2', { oldBalPaise: 450000, newBalPaise: 417900 }))
    ledger.append('pan.coupon.intent', couponIntent('C3'))
    ledger.append('pan.coupon.outcome', { ...noAnswer('C3'), source: 'coupon_req' })
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 417900, at: atSeq(7), seq: 7 })
    ledger.append('pan.balance.read', { balancePaise: 417900, source: 'coupon' })
    expect(ledger.read('lastKnownPanBalance')).toEqual({ balancePaise: 417900, at: atSeq(10), seq: 10 })
  })
})

describe('password resets', () => {
  it('follows a reset from SENDING through PENDING to APPROVED, listing an agent’s resets newest first', async () => {
    const ledger = await openLedger()
    ledger.append('pan.reset.intent', { attemptId: 'R1', vleId: 'VLE1' })
    expect(ledger.read('passwordReset', 'R1')).toEqual({
      attemptId: 'R1', orderId: null, vleId: 'VLE1', vleName: null, status: 'SENDING', message: '', createdAt: atSeq(1), updatedAt: atSeq(1),
    })
    ledger.append('pan.reset.answer', resetAnswer('R1'))
    expect(ledger.read('passwordReset', 'R1')).toMatchObject({ status: 'PENDING', orderId: 'PR-R1', message: 'Password reset requested', updatedAt: atSeq(2) })
    ledger.append('pan.reset.answer', resetAnswer('R1', { source: 'pass_status', outcome: 'UNKNOWN', orderId: null, resetStatus: null, message: 'No answer' }))
    expect(ledger.read('passwordReset', 'R1')).toMatchObject({ status: 'PENDING', orderId: 'PR-R1', message: 'No answer' })
    ledger.append('pan.reset.answer', resetAnswer('R1', { source: 'pass_status', outcome: 'FAILED', orderId: null, resetStatus: null, message: 'Invalid API key' }))
    expect(ledger.read('passwordReset', 'R1')).toMatchObject({ status: 'PENDING', message: 'Invalid API key' })
    ledger.append('pan.reset.answer', resetAnswer('R1', { source: 'pass_status', resetStatus: 'APPROVED', vleName: 'Asha Devi', message: 'Password reset done' }))
    expect(ledger.read('passwordReset', 'R1')).toMatchObject({ status: 'APPROVED', vleName: 'Asha Devi', message: 'Password reset done', updatedAt: atSeq(5) })

    ledger.append('pan.reset.intent', { attemptId: 'R2', vleId: 'VLE1' })
    ledger.append('pan.reset.answer', resetAnswer('R2', { outcome: 'FAILED', orderId: null, resetStatus: null, message: 'Unknown VLE' }))
    ledger.append('pan.reset.intent', { attemptId: 'R3', vleId: 'VLE2' })
    ledger.append('pan.reset.answer', resetAnswer('R3', { resetStatus: null }))
    ledger.append('pan.reset.intent', { attemptId: 'R4', vleId: 'VLE1' })
    ledger.append('pan.reset.answer', resetAnswer('R4', { outcome: 'UNKNOWN', orderId: null, resetStatus: null, message: 'Timed out' }))
    expect(ledger.read('passwordResets', 'VLE1').map((reset) => [reset.attemptId, reset.status])).toEqual([['R4', 'SENDING'], ['R2', 'FAILED'], ['R1', 'APPROVED']])
    expect(ledger.read('passwordResets', 'VLE2').map((reset) => [reset.attemptId, reset.status])).toEqual([['R3', 'PENDING']])
    expect(ledger.read('passwordResets', 'NOPE')).toEqual([])
    expect(ledger.read('passwordReset', 'NOPE')).toBeNull()
  })

  it('refuses a second intent and an answer without a reset', async () => {
    const ledger = await openLedger()
    ledger.append('pan.reset.intent', { attemptId: 'R1', vleId: 'VLE1' })
    expect(() => ledger.append('pan.reset.intent', { attemptId: 'R1', vleId: 'VLE1' })).toThrow(/already recorded/)
    expect(() => ledger.append('pan.reset.answer', resetAnswer('R9'))).toThrow(/no password reset with attempt id R9/)
    expect(ledger.read('lastSeq')).toBe(1)
  })
})

/** A day at the PAN desk touching every table: agents, resets, coupon sales settled and not, balance readings. */
async function recordPanDay(ledger: Ledger): Promise<void> {
  const events: Parameters<typeof ledger.append>[] = [
    ['pan.balance.read', { balancePaise: 500000, source: 'balance' }],
    ['pan.agent.submitted', submitted('VLE1')],
    ['pan.agent.answer', agentAnswer('VLE1')],
    ['pan.agent.submitted', submitted('VLE2', { name: 'Ravi Kumar' })],
    ['pan.agent.answer', agentAnswer('VLE2', { outcome: 'FAILED', vleStatus: null, message: 'Duplicate VLE id' })],
    ['pan.agent.answer', agentAnswer('VLE1', { source: 'vle_status', vleStatus: 'APPROVED' })],
    ['pan.coupon.intent', couponIntent('C1')],
    ['pan.coupon.outcome', couponAnswer('C1', { problems: ['The balance moved outside Counter'] })],
    ['pan.coupon.intent', couponIntent('C2', { type: 2, qty: 1, expectedRatePaise: 7200 })],
    ['pan.coupon.outcome', { ...noAnswer('C2'), source: 'coupon_req' }],
    ['pan.reset.intent', { attemptId: 'R1', vleId: 'VLE1' }],
    ['pan.reset.answer', resetAnswer('R1')],
    ['pan.balance.read', { balancePaise: 460700, source: 'balance' }],
  ]
  // One operation at a time, as at the counter: scheduled snapshots run between them.
  for (const [type, data] of events) {
    ledger.append(type, data)
    await ledger.snapshotsSettled()
  }
}

const panReads = (ledger: Ledger) => ({
  agents: ledger.read('agents'),
  sales: ledger.read('couponSales'),
  day: ledger.read('couponSalesForDay', DAY),
  unresolved: openSales(ledger),
  rates: [ledger.read('lastChargedRatePaise', 1), ledger.read('lastChargedRatePaise', 2)],
  balance: ledger.read('lastKnownPanBalance'),
  resets: ledger.read('passwordResets', 'VLE1'),
  lastSeq: ledger.read('lastSeq'),
})

describe('reopening', () => {
  it.each([
    { snapshotEvery: 5, snapshotSeq: 10, replayed: 3 },
    { snapshotEvery: 1000, snapshotSeq: 0, replayed: 13 },
  ])('after a crash (snapshotEvery $snapshotEvery) gives the same reads', async ({ snapshotEvery, snapshotSeq, replayed }) => {
    const ledger = await openLedger({ snapshotEvery })
    await recordPanDay(ledger)
    const before = panReads(ledger)
    expect(before.agents.map((agent) => agent.status)).toEqual(['NOT_CREATED', 'APPROVED'])
    rig.crashCopy()
    const reopened = await openLedger({ snapshotEvery })
    expect(reopened.report).toEqual({ snapshotSeq, replayed, tornTail: false, problems: [] })
    expect(panReads(reopened)).toEqual(before)
  })

  it('gives the same reads from the closing snapshot and from the journal alone', async () => {
    const ledger = await openLedger()
    await recordPanDay(ledger)
    const before = panReads(ledger)
    await closeLedger(ledger)
    const fromSnapshot = await openLedger()
    expect(fromSnapshot.report).toMatchObject({ snapshotSeq: 13, replayed: 0, problems: [] })
    expect(panReads(fromSnapshot)).toEqual(before)
    await closeLedger(fromSnapshot)

    fs.rmSync(path.join(rig.dir, SNAPSHOT_FILE))
    fs.rmSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE), { force: true })
    const fromJournal = await openLedger()
    expect(fromJournal.report).toMatchObject({ snapshotSeq: 0, replayed: 13, problems: [] })
    expect(panReads(fromJournal)).toEqual(before)
  })
})
