// Checks classify() and settleCheck(): what every kind of provider answer means for a sale, a status check or another call.
import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../../electron/partners/http'
import {
  classify as classifySaid,
  DUPLICATE_ORDER,
  NOT_FOUND_SETTLES_AFTER_MS,
  REQUEST_REFUSALS,
  requestRefusalOf,
  SALE_WORDING,
  settleCheck as settleSaid,
  type CallRole,
  type CheckedOrder,
  type ProviderReply,
} from '../../electron/partners/outcome'
import { english, say } from '../../electron/shared/words'

const HTML = 'text/html; charset=UTF-8'

function answer(httpStatus: number, text: string): HttpResult {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { kind: 'answer', httpStatus, contentType: HTML, text, json }
}

const NOT_KNOWN = /not known whether the sale went through/

/** A reply's message in English: classify() and settleCheck() say their words (shared/words) for the screen's language. */
const inEnglish = <Reply extends Pick<ProviderReply, 'message'>>(reply: Reply): Reply => ({ ...reply, message: english(reply.message) })
const classify = (...args: Parameters<typeof classifySaid>) => inEnglish(classifySaid(...args))
const settleCheck = <Reply extends Pick<ProviderReply, 'outcome' | 'message' | 'providerStatus'>>(reply: Reply, order: CheckedOrder) => inEnglish(settleSaid(reply, order))
const adviceFor = (message: string) => english(requestRefusalOf(message)!.advice)
const notKnown = english(SALE_WORDING.notKnown)

describe('classify', () => {
  it('SUCCESS: a JSON answer saying SUCCESS, whatever the Content-Type says', () => {
    const reply = classify(answer(200, '{"status":"SUCCESS","message":"Transaction Successful","data":{"fpay_id":"RCH1"}}'), 'sale')
    expect(reply).toEqual({
      outcome: 'SUCCESS',
      providerStatus: 'SUCCESS',
      message: 'Transaction Successful',
      httpStatus: 200,
      body: { status: 'SUCCESS', message: 'Transaction Successful', data: { fpay_id: 'RCH1' } },
      requestRefused: false,
    })
  })

  it('SUCCESS: the status word is read trimmed and in any case, and kept verbatim', () => {
    const reply = classify(answer(200, '{"status":" success "}'), 'sale')
    expect(reply.outcome).toBe('SUCCESS')
    expect(reply.providerStatus).toBe(' success ')
  })

  it('FAILED: FAILED or FAILURE, with the provider message', () => {
    const failed = classify(answer(200, '{"status":"FAILED","message":"Operator down: recharge failed"}'), 'sale')
    expect(failed).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED', message: 'Operator down: recharge failed', httpStatus: 200, requestRefused: false })
    expect(classify(answer(200, '{"status":"Failure","message":"x"}'), 'sale').outcome).toBe('FAILED')
  })

  it('FAILED without a message still says something plain', () => {
    expect(classify(answer(200, '{"status":"FAILED"}'), 'sale').message).toBe('The provider refused the sale')
  })

  it('UNKNOWN: PENDING keeps the provider message and says the result is not known', () => {
    const reply = classify(answer(200, '{"status":"PENDING","message":"Transaction Pending"}'), 'sale')
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.providerStatus).toBe('PENDING')
    expect(reply.message).toMatch(/^Transaction Pending\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: an unseen status word, or none', () => {
    const unseen = classify(answer(200, '{"status":"ACCEPTED"}'), 'sale')
    expect(unseen).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'ACCEPTED' })
    expect(unseen.message).toMatch(/The provider said "ACCEPTED"/)
    const none = classify(answer(200, '{"message":"ok"}'), 'sale')
    expect(none).toMatchObject({ outcome: 'UNKNOWN', providerStatus: null })
    expect(none.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: a timeout, with the words the HTTP client gave', () => {
    const reply = classify({ kind: 'no-answer', reason: 'timeout', detail: say('partner.noAnswerWithin', { within: say('partner.seconds', { seconds: 30 }) }) }, 'sale')
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: null, httpStatus: null, body: null })
    expect(reply.message).toMatch(/^The provider did not answer within 30 seconds\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: a network error once the request may have gone out', () => {
    const reply = classify({ kind: 'no-answer', reason: 'network', detail: say('partner.netCut') }, 'sale')
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('nothing sent: FAILED for a sale or another call, safe to do again; a status check settles nothing', () => {
    const notSent: HttpResult = { kind: 'no-answer', reason: 'not-sent', detail: say('partner.netRefused') }
    const unanswered = { providerStatus: null, httpStatus: null, body: null, requestRefused: false }
    expect(classify(notSent, 'sale')).toEqual({ ...unanswered, outcome: 'FAILED', message: 'The provider refused the connection: nothing was sent, so it is safe to sell again.' })
    expect(classify(notSent, 'other')).toEqual({ ...unanswered, outcome: 'FAILED', message: 'The provider refused the connection: nothing was sent, so it is safe to try again.' })
    expect(classify(notSent, 'check')).toEqual({
      ...unanswered,
      outcome: 'UNKNOWN',
      message: 'The provider refused the connection: the status check was not sent, so it says nothing about the sale, which stays pending.',
    })
    const order = { expected: 'R1', answeredFor: null, providerRef: null, orderState: null, sentAgoMs: NOT_FOUND_SETTLES_AFTER_MS, notKnown: SALE_WORDING.notKnown, noun: say('partner.noun.order') }
    expect(settleCheck(classify(notSent, 'check'), order).outcome).toBe('UNKNOWN')
  })

  it('UNKNOWN: HTTP 5xx, even with a JSON FAILED body', () => {
    const page = classify(answer(500, '<html><title>500 Internal Server Error</title></html>'), 'sale')
    expect(page).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 500, body: null })
    expect(page.message).toMatch(/^The provider answered with an error page \(HTTP 500\)\. /)
    expect(page.message).toMatch(NOT_KNOWN)
    expect(classify(answer(503, '{"status":"FAILED","message":"busy"}'), 'sale').outcome).toBe('UNKNOWN')
  })

  it('UNKNOWN: a body that is not JSON, or JSON that is not an object', () => {
    const cut = classify(answer(200, '{"status":"SUCCESS","message":"Transac'), 'sale')
    expect(cut).toMatchObject({ outcome: 'UNKNOWN', body: null })
    expect(cut.message).toMatch(/^The provider's answer could not be read\. /)
    expect(classify(answer(200, '["SUCCESS"]'), 'sale').outcome).toBe('UNKNOWN')
    expect(classify(answer(200, '"SUCCESS"'), 'sale').outcome).toBe('UNKNOWN')
    expect(classify(answer(200, ''), 'sale').outcome).toBe('UNKNOWN')
  })

  it('a non-2xx, non-5xx answer counts only when its JSON body says FAILED', () => {
    expect(classify(answer(400, '{"status":"FAILED","message":"Invalid amount"}'), 'sale')).toMatchObject({ outcome: 'FAILED', message: 'Invalid amount' })
    const notFound = classify(answer(404, '<html>Not Found</html>'), 'sale')
    expect(notFound.outcome).toBe('UNKNOWN')
    expect(notFound.message).toMatch(/HTTP 404/)
    expect(classify(answer(403, '{"status":"SUCCESS"}'), 'sale').outcome).toBe('UNKNOWN')
    expect(classify(answer(302, ''), 'sale').outcome).toBe('UNKNOWN')
  })
})

const failedWith = (message: string, httpStatus = 200) => answer(httpStatus, JSON.stringify({ status: 'FAILED', message }))

// Every message a provider of this kind has been seen, or may be expected, to give when it turns the request away.
const REFUSALS: [message: string, about: string][] = [
  ['Invalid user or token', 'credentials'],
  ['Invalid credentials', 'credentials'],
  ['Authentication failed', 'credentials'],
  ['Invalid API key', 'credentials'],
  ['api_key missing', 'credentials'],
  ['Invalid User ID', 'credentials'],
  ['Token expired', 'credentials'],
  ['UNAUTHORISED ACCESS', 'credentials'],
  ['Unauthorized', 'credentials'],
  ['Forbidden', 'credentials'],
  ['Checksum mismatch', 'signature'],
  ['Invalid signature', 'signature'],
  ['Hash verification failed', 'signature'],
  ['Invalid timestamp', 'clock'],
  ['Request time expired', 'clock'],
  ['Rate limit exceeded', 'rate limit'],
  ['Too Many Requests', 'rate limit'],
  ['Request throttled', 'rate limit'],
  ['IP not whitelisted', 'address'],
  ['Your IP 10.1.2.3 is not allowed', 'address'],
  ['Missing parameter: order_id', 'fields'],
  ['Invalid parameters', 'fields'],
  ['order_id is required', 'fields'],
  ['Invalid order id', 'fields'],
  ['Invalid request', 'fields'],
  ['Request body could not be read', 'fields'],
  ['Server under maintenance', 'service'],
  ['Please try again later', 'service'],
  ['Service temporarily unavailable, try later', 'service'],
]

// FAILED answers about the order itself: these settle it.
const ORDER_FAILURES = ['Operator down: recharge failed', 'No such order', 'Order not found', 'Insufficient balance', 'Recharge reversed', 'Invalid amount', 'Wrong operator for this number', '']

describe('a refusal of the request, and a failure of the order', () => {
  it('REQUEST_REFUSALS names every row by what it objects to, and its keys ignore case', () => {
    expect(REQUEST_REFUSALS.map((row) => row.about)).toEqual(['credentials', 'signature', 'clock', 'rate limit', 'address', 'fields', 'service'])
    for (const row of REQUEST_REFUSALS) for (const key of row.keys) expect(key.flags).toContain('i')
    for (const key of DUPLICATE_ORDER) expect(key.flags).toContain('i')
  })

  it.each(REFUSALS)('"%s" is a refusal of the request (%s)', (message, about) => {
    expect(requestRefusalOf(message)?.about).toBe(about)
    expect(requestRefusalOf(message.toUpperCase())?.about).toBe(about)
  })

  it.each(ORDER_FAILURES)('"%s" is about the order', (message) => {
    expect(requestRefusalOf(message)).toBeNull()
  })

  it.each(REFUSALS)('a status check refused with "%s" is UNKNOWN and says the sale stays pending', (message) => {
    const reply = classify(failedWith(message), 'check')
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'FAILED', requestRefused: true })
    expect(reply.message).toBe(
      `The provider refused the status check (${message}): this says nothing about the sale, which stays pending. ${adviceFor(message)}`,
    )
  })

  it('the example the shop would see for a wrong token', () => {
    expect(classify(failedWith('Invalid user or token'), 'check').message).toBe(
      'The provider refused the status check (Invalid user or token): this says nothing about the sale, which stays pending. Check the credentials in Settings.',
    )
  })

  it.each(ORDER_FAILURES.filter(Boolean))('a status check answered FAILED "%s" reads as FAILED, for settleCheck to weigh', (message) => {
    expect(classify(failedWith(message), 'check')).toMatchObject({ outcome: 'FAILED', message, requestRefused: false })
  })

  it.each([400, 401, 403, 404, 409, 429])('a status check answered with HTTP %d is UNKNOWN, whatever the body says', (httpStatus) => {
    for (const text of ['{"status":"FAILED","message":"Order not found"}', '{"status":"SUCCESS"}', '<html>Error</html>']) {
      const reply = classify(answer(httpStatus, text), 'check')
      expect(reply).toMatchObject({ outcome: 'UNKNOWN', requestRefused: true })
      expect(reply.message).toMatch(/^The provider refused the status check \(.+\): this says nothing about the sale, which stays pending\. /)
    }
    expect(classify(answer(httpStatus, '<html>Error</html>'), 'check').message).toContain(`(HTTP ${httpStatus})`)
  })

  it.each(REFUSALS)('a sale refused with "%s" is FAILED (nothing charged), saying why', (message) => {
    const reply = classify(failedWith(message), 'sale')
    expect(reply).toMatchObject({ outcome: 'FAILED', requestRefused: true })
    expect(reply.message).toBe(`The provider refused the sale (${message}): it did not take the order, so nothing was charged. ${adviceFor(message)}`)
  })

  it.each(['Duplicate order id', 'Order ID already exists', 'DUPLICATE TRANSACTION', 'Order id already used', 'Order id must be unique', 'order_id not unique'])(
    'a sale answered "%s" is UNKNOWN: an order with that id is on the provider\'s books',
    (message) => {
      const reply = classify(failedWith(message), 'sale')
      expect(reply).toMatchObject({ outcome: 'UNKNOWN', requestRefused: false })
      expect(reply.message).toBe(`The provider says an order with this id already exists (${message}). It is not known whether the sale went through: check its status before selling it again.`)
    },
  )

  it('other calls take a FAILED as it is: a refused lookup or agent creation made nothing', () => {
    expect(classify(failedWith('Invalid credentials'), 'other')).toMatchObject({ outcome: 'FAILED', message: 'Invalid credentials', requestRefused: false })
    expect(classify(failedWith('VLE ID already exists'), 'other')).toMatchObject({ outcome: 'FAILED', message: 'VLE ID already exists' })
  })

  it('SUCCESS still needs a 2xx answer, for every role', () => {
    for (const role of ['sale', 'check', 'other'] satisfies CallRole[]) {
      expect(classify(answer(200, '{"status":"SUCCESS"}'), role).outcome).toBe('SUCCESS')
      for (const httpStatus of [302, 403, 500]) expect(classify(answer(httpStatus, '{"status":"SUCCESS"}'), role).outcome).toBe('UNKNOWN')
    }
  })
})

describe('settleCheck', () => {
  const asked = (over: Partial<CheckedOrder> = {}): CheckedOrder => ({
    expected: 'CN1', answeredFor: null, providerRef: null, orderState: null, sentAgoMs: 0, notKnown: SALE_WORDING.notKnown, noun: say('partner.noun.order'), ...over,
  })
  const failed = (message: string) => classify(failedWith(message), 'check')
  const succeeded = classify(answer(200, '{"status":"SUCCESS","message":"Transaction Successful"}'), 'check')

  it.each(ORDER_FAILURES.filter(Boolean))('a FAILED "%s" naming the order, or carrying the provider\'s reference for it, settles it FAILED', (message) => {
    expect(settleCheck(failed(message), asked({ answeredFor: 'CN1' }))).toMatchObject({ outcome: 'FAILED', message })
    expect(settleCheck(failed(message), asked({ providerRef: 'RCH9' }))).toMatchObject({ outcome: 'FAILED', message })
  })

  it.each(['Operator down: recharge failed', 'Partner account inactive', 'Something went wrong', 'Recharge reversed'])(
    'a FAILED "%s" naming no order settles nothing, however long ago the sale was sent',
    (message) => {
      for (const sentAgoMs of [0, NOT_FOUND_SETTLES_AFTER_MS, 30 * 24 * 3_600_000]) {
        expect(settleCheck(failed(message), asked({ sentAgoMs }))).toMatchObject({
          outcome: 'UNKNOWN',
          message: `The provider answered FAILED without naming order CN1 (${message}), so this does not settle it: it stays pending and is asked again. If the provider keeps answering so, settle it by phone.`,
        })
      }
    },
  )

  it('a SUCCESS naming no order and carrying no reference settles nothing; with either, it settles', () => {
    expect(settleCheck(succeeded, asked()).outcome).toBe('UNKNOWN')
    expect(settleCheck(succeeded, asked({ answeredFor: 'CN1' })).outcome).toBe('SUCCESS')
    expect(settleCheck(succeeded, asked({ providerRef: 'RCH9' })).outcome).toBe('SUCCESS')
  })

  it.each(['No such order', 'Order not found', 'No record found', 'Transaction does not exist', 'Unknown order id'])(
    '"%s" keeps the sale pending until the provider has had its time to book it, then settles it FAILED',
    (message) => {
      expect(settleCheck(failed(message), asked({ sentAgoMs: NOT_FOUND_SETTLES_AFTER_MS - 1 })).outcome).toBe('UNKNOWN')
      expect(settleCheck(failed(message), asked({ sentAgoMs: NOT_FOUND_SETTLES_AFTER_MS }))).toMatchObject({
        outcome: 'FAILED',
        message: `The provider has no record of order CN1 (${message}), 15 minutes or more after it was sent: it never reached the provider, and nothing was charged.`,
      })
    },
  )

  it('an answer about another order settles nothing, whatever it says', () => {
    for (const reply of [succeeded, failed('Operator down')]) {
      expect(settleCheck(reply, asked({ answeredFor: 'CN2', providerRef: 'RCH9', sentAgoMs: NOT_FOUND_SETTLES_AFTER_MS }))).toMatchObject({
        outcome: 'UNKNOWN',
        message: `The provider answered about order CN2 instead of CN1. ${notKnown}`,
      })
    }
  })

  it('an answer whose order status disagrees with its own status word settles nothing', () => {
    expect(settleCheck(succeeded, asked({ answeredFor: 'CN1', orderState: 'FAILED' }))).toMatchObject({
      outcome: 'UNKNOWN',
      message: `The provider's answer says SUCCESS, but gives order CN1 the status FAILED: this does not settle it. ${notKnown}`,
    })
    expect(settleCheck(succeeded, asked({ answeredFor: 'CN1', orderState: 'pending' })).outcome).toBe('UNKNOWN')
    expect(settleCheck(succeeded, asked({ answeredFor: 'CN1', orderState: 'Success' })).outcome).toBe('SUCCESS')
  })

  it('an UNKNOWN stays as it came', () => {
    const pending = classify(answer(200, '{"status":"PENDING","message":"In process"}'), 'check')
    expect(settleSaid(pending, asked({ answeredFor: 'CN1' }))).toBe(pending)
  })
})
