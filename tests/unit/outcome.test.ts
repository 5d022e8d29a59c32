// Checks classify(): what every kind of provider answer means for a sale.
import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../../electron/partners/http'
import { classify } from '../../electron/partners/outcome'

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

describe('classify', () => {
  it('SUCCESS: a JSON answer saying SUCCESS, whatever the Content-Type says', () => {
    const reply = classify(answer(200, '{"status":"SUCCESS","message":"Transaction Successful","data":{"fpay_id":"RCH1"}}'))
    expect(reply).toEqual({
      outcome: 'SUCCESS',
      providerStatus: 'SUCCESS',
      message: 'Transaction Successful',
      httpStatus: 200,
      body: { status: 'SUCCESS', message: 'Transaction Successful', data: { fpay_id: 'RCH1' } },
    })
  })

  it('SUCCESS: the status word is read trimmed and in any case, and kept verbatim', () => {
    const reply = classify(answer(200, '{"status":" success "}'))
    expect(reply.outcome).toBe('SUCCESS')
    expect(reply.providerStatus).toBe(' success ')
  })

  it('FAILED: FAILED or FAILURE, with the provider message', () => {
    const failed = classify(answer(200, '{"status":"FAILED","message":"Operator down, try later"}'))
    expect(failed).toMatchObject({ outcome: 'FAILED', providerStatus: 'FAILED', message: 'Operator down, try later', httpStatus: 200 })
    expect(classify(answer(200, '{"status":"Failure","message":"x"}')).outcome).toBe('FAILED')
  })

  it('FAILED without a message still says something plain', () => {
    expect(classify(answer(200, '{"status":"FAILED"}')).message).toBe('The provider refused the sale')
  })

  it('UNKNOWN: PENDING keeps the provider message and says the result is not known', () => {
    const reply = classify(answer(200, '{"status":"PENDING","message":"Transaction Pending"}'))
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.providerStatus).toBe('PENDING')
    expect(reply.message).toMatch(/^Transaction Pending\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: an unseen status word, or none', () => {
    const unseen = classify(answer(200, '{"status":"ACCEPTED"}'))
    expect(unseen).toMatchObject({ outcome: 'UNKNOWN', providerStatus: 'ACCEPTED' })
    expect(unseen.message).toMatch(/The provider said "ACCEPTED"/)
    const none = classify(answer(200, '{"message":"ok"}'))
    expect(none).toMatchObject({ outcome: 'UNKNOWN', providerStatus: null })
    expect(none.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: a timeout, with the words the HTTP client gave', () => {
    const reply = classify({ kind: 'no-answer', reason: 'timeout', detail: 'The provider did not answer within 30 seconds' })
    expect(reply).toMatchObject({ outcome: 'UNKNOWN', providerStatus: null, httpStatus: null, body: null })
    expect(reply.message).toMatch(/^The provider did not answer within 30 seconds\. /)
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: a network error', () => {
    const reply = classify({ kind: 'no-answer', reason: 'network', detail: 'The provider refused the connection' })
    expect(reply.outcome).toBe('UNKNOWN')
    expect(reply.message).toMatch(NOT_KNOWN)
  })

  it('UNKNOWN: HTTP 5xx, even with a JSON FAILED body', () => {
    const page = classify(answer(500, '<html><title>500 Internal Server Error</title></html>'))
    expect(page).toMatchObject({ outcome: 'UNKNOWN', httpStatus: 500, body: null })
    expect(page.message).toMatch(/^The provider answered with an error page \(HTTP 500\)\. /)
    expect(page.message).toMatch(NOT_KNOWN)
    expect(classify(answer(503, '{"status":"FAILED","message":"busy"}')).outcome).toBe('UNKNOWN')
  })

  it('UNKNOWN: a body that is not JSON, or JSON that is not an object', () => {
    const cut = classify(answer(200, '{"status":"SUCCESS","message":"Transac'))
    expect(cut).toMatchObject({ outcome: 'UNKNOWN', body: null })
    expect(cut.message).toMatch(/^The provider's answer could not be read\. /)
    expect(classify(answer(200, '["SUCCESS"]')).outcome).toBe('UNKNOWN')
    expect(classify(answer(200, '"SUCCESS"')).outcome).toBe('UNKNOWN')
    expect(classify(answer(200, '')).outcome).toBe('UNKNOWN')
  })

  it('a non-2xx, non-5xx answer counts only when its JSON body says FAILED', () => {
    expect(classify(answer(400, '{"status":"FAILED","message":"Invalid amount"}'))).toMatchObject({ outcome: 'FAILED', message: 'Invalid amount' })
    const notFound = classify(answer(404, '<html>Not Found</html>'))
    expect(notFound.outcome).toBe('UNKNOWN')
    expect(notFound.message).toMatch(/HTTP 404/)
    expect(classify(answer(403, '{"status":"SUCCESS"}')).outcome).toBe('UNKNOWN')
    expect(classify(answer(302, '')).outcome).toBe('UNKNOWN')
  })
})
