// The pending queue's pure parts: the backoff schedule and how a ledger entry becomes a list item.
import { describe, expect, it } from 'vitest'
import type { CouponSale, Sale } from '../../electron/contract'
import { DEFAULT_DELAYS_MS, delayBeforeCheck, pendingItemOf, type UnresolvedEntry } from '../../electron/counter/pending'

const recharge: Sale = {
  orderId: 'R240501A1',
  kind: 'mobile',
  number: '9876543210',
  operatorCode: 'AT',
  operatorName: 'Airtel',
  circle: 'DL',
  amountPaise: 19950,
  state: 'UNKNOWN',
  providerStatus: null,
  message: "The provider's answer could not be read.",
  fpayId: null,
  customerName: null,
  operatorRef: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:01.000Z',
  lastCheckedAt: null,
  training: false,
  collectedPaise: 19950,
  paymentMode: 'cash',
  settledNote: null,
  upiConfirmedAt: null,
}

const coupon: CouponSale = {
  attemptId: 'C240501A2',
  orderId: null,
  vleId: 'VLE1001',
  vleName: 'Ravi Kumar',
  type: 1,
  qty: 2,
  expectedRatePaise: 10700,
  state: 'SENDING',
  providerStatus: null,
  message: 'Sending',
  date: null,
  ratePaise: null,
  amountPaise: null,
  oldBalPaise: null,
  newBalPaise: null,
  problems: [],
  createdAt: '2024-05-01T11:00:00.000Z',
  updatedAt: '2024-05-01T11:00:00.000Z',
  lastCheckedAt: null,
  training: false,
  collectedPaise: 21400,
  paymentMode: 'upi',
  settledNote: null,
  upiConfirmedAt: null,
}

const now = new Date('2024-05-01T12:00:00.000Z')
const neverChecked = { checks: 0, lastAnswer: '', lastCheckedAt: null, nextCheckAt: null }

describe('delayBeforeCheck', () => {
  it('follows the default schedule: at once, 30 s, 1, 2, 5, 10, 30 min, then every 30 min', () => {
    const waits = Array.from({ length: 10 }, (_, checks) => delayBeforeCheck(checks))
    expect(waits).toEqual([0, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 1_800_000, 1_800_000, 1_800_000])
    expect(DEFAULT_DELAYS_MS).toHaveLength(7)
  })

  it('repeats the last step of a custom schedule forever', () => {
    expect([0, 1, 2, 3, 50].map((checks) => delayBeforeCheck(checks, [5, 20, 80]))).toEqual([5, 20, 80, 80, 80])
  })
})

describe('pendingItemOf', () => {
  it('maps a recharge never checked by the queue: due now, its own message as the last answer', () => {
    const entry: UnresolvedEntry = { kind: 'recharge', sale: recharge, ...neverChecked }
    expect(pendingItemOf(entry, now)).toEqual({
      kind: 'recharge',
      id: 'R240501A1',
      label: '9876543210',
      amountPaise: 19950,
      state: 'UNKNOWN',
      lastAnswer: "The provider's answer could not be read.",
      createdAt: '2024-05-01T10:00:00.000Z',
      lastCheckedAt: null,
      nextCheckAt: '2024-05-01T12:00:00.000Z',
      checks: 0,
      checkable: true,
      chargePaise: null,
    })
  })

  it('carries the queue bookkeeping: checks, last answer and times', () => {
    const entry: UnresolvedEntry = {
      kind: 'recharge',
      sale: recharge,
      checks: 3,
      lastAnswer: 'The provider answered with an error page (HTTP 500).',
      lastCheckedAt: '2024-05-01T11:58:00.000Z',
      nextCheckAt: '2024-05-01T12:00:00.000Z',
    }
    expect(pendingItemOf(entry, new Date('2024-05-01T11:59:00.000Z'))).toMatchObject({
      checks: 3,
      lastAnswer: 'The provider answered with an error page (HTTP 500).',
      lastCheckedAt: '2024-05-01T11:58:00.000Z',
      nextCheckAt: '2024-05-01T12:00:00.000Z',
    })
  })

  it('marks a coupon the provider never named as not checkable, with no next check', () => {
    const entry: UnresolvedEntry = { kind: 'coupon', sale: coupon, ...neverChecked }
    expect(pendingItemOf(entry, now)).toEqual({
      kind: 'coupon',
      id: 'C240501A2',
      label: 'Ravi Kumar (VLE1001)',
      amountPaise: null,
      state: 'SENDING',
      lastAnswer: 'Sending',
      createdAt: '2024-05-01T11:00:00.000Z',
      lastCheckedAt: null,
      nextCheckAt: null,
      checks: 0,
      checkable: false,
      // Not answered yet: the charge expected is the quote's rate x qty.
      chargePaise: coupon.expectedRatePaise * coupon.qty,
    })
  })

  it('checks a coupon the provider named; an agent without a name is shown by id', () => {
    const entry: UnresolvedEntry = { kind: 'coupon', sale: { ...coupon, orderId: 'PAN778', vleName: null, amountPaise: 21400 }, ...neverChecked }
    expect(pendingItemOf(entry, now)).toMatchObject({ label: 'VLE1001', amountPaise: 21400, checkable: true, nextCheckAt: '2024-05-01T12:00:00.000Z' })
  })
})
