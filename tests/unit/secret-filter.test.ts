// Checks SecretFilter: every form a provider may echo a secret in is blanked where it stands, and ordinary answers,
// order ids and amounts come through untouched.
import { describe, expect, it } from 'vitest'
import { SecretFilter } from '../../electron/partners/secret-filter'
import type { ProviderReply } from '../../electron/partners/outcome'

// The shapes the clients hold: the recharge token and its hex secret key as the simulator issues them, a UUID api_key.
const TOKEN = '3f9a1c77e2b84d5a0c1e6b2f9d8a7c41'
const SECRET_KEY = '8f3c9a1b2d4e6f708192a3b4c5d6e7f80a1b2c3d4e5f60718293a4b5c6d7e8f9'
const API_KEY = '5f2c9e1a-7b3d-4c8e-9a6f-0d1e2f3a4b5c'
const KEY_BYTES = Buffer.from(SECRET_KEY, 'hex')

const recharge = new SecretFilter({ texts: [TOKEN], hexKeys: [SECRET_KEY] })
const pan = new SecretFilter({ texts: [API_KEY] })

describe('SecretFilter.hide: echoes in another form', () => {
  it.each([
    ['the token as sent', `token ${TOKEN} ok`, 'token [hidden] ok'],
    ['the token spaced out', `token ${[...TOKEN].join(' ')} ok`, 'token [hidden] ok'],
    ['the token in upper case', `token ${TOKEN.toUpperCase()} ok`, 'token [hidden] ok'],
    ["the token's first 16 characters", `token ${TOKEN.slice(0, 16)}… ok`, 'token [hidden]… ok'],
    ['8 characters of the token inside a word', `ref=XY${TOKEN.slice(10, 18)}QZ`, 'ref=XY[hidden]QZ'],
    ['the secret key in dashed groups', `key ${SECRET_KEY.match(/.{4}/g)!.join('-')}.`, 'key [hidden].'],
    ['the secret key in upper case with colons', `key ${SECRET_KEY.toUpperCase().match(/.{2}/g)!.join(':')}`, 'key [hidden]'],
    ['the secret key in base64, padded', `key ${KEY_BYTES.toString('base64')}`, 'key [hidden]='],
    ['the secret key in base64, unpadded', `key ${KEY_BYTES.toString('base64').replace(/=+$/, '')}!`, 'key [hidden]!'],
    ['the secret key in url-safe base64', `key ${KEY_BYTES.toString('base64url')}!`, 'key [hidden]!'],
    ['8 characters of the key in base64', `k=${KEY_BYTES.toString('base64').slice(12, 20)};`, 'k=[hidden];'],
  ])('%s', (_form, text, masked) => {
    expect(recharge.hide(text)).toBe(masked)
  })

  it('the api_key without dashes, in upper case, or in pieces', () => {
    expect(pan.hide(`key=${API_KEY.replaceAll('-', '')}&x=1`)).toBe('key=[hidden]&x=1')
    expect(pan.hide(API_KEY.toUpperCase())).toBe('[hidden]')
    expect(pan.hide(`bad key ending ${API_KEY.slice(-12)}`)).toBe('bad key ending [hidden]')
  })

  it('a span with separators inside is masked whole; separators at its edges stay', () => {
    expect(recharge.hide(`[ ${TOKEN.slice(0, 4)} - ${TOKEN.slice(4, 12)} ]`)).toBe('[ [hidden] ]')
    expect(recharge.hide(`token: ${TOKEN}/`)).toBe('token: [hidden]/')
  })

  it('text around the echo in other scripts keeps its place', () => {
    expect(recharge.hide(`😀 टोकन ${TOKEN.slice(0, 16)} गलत है 😀`)).toBe('😀 टोकन [hidden] गलत है 😀')
  })

  it('two echoes are masked apart; overlapping or touching pieces are one mask', () => {
    expect(recharge.hide(`${TOKEN} and ${SECRET_KEY}`)).toBe('[hidden] and [hidden]')
    expect(recharge.hide(`${TOKEN.slice(0, 12)}${TOKEN.slice(8, 20)}`)).toBe('[hidden]')
  })

  it('a secret shorter than 8 characters is matched whole only; one shorter than 4 not at all', () => {
    const short = new SecretFilter({ texts: ['Ab12c-9', 'xy'] })
    expect(short.hide('code ab12C9 and AB-12-C-9')).toBe('code [hidden] and [hidden]')
    expect(short.hide('ab12 c-9? no: ab12c')).toBe('[hidden]? no: ab12c')
    expect(short.hide('xy xylophone')).toBe('xy xylophone')
  })
})

describe('SecretFilter.hide: what must come through', () => {
  it.each([
    'Transaction Successful',
    'Operator down: recharge failed, try again later',
    '{"order_id":"T17180001231234","fpay_id":"RCH202611280231ABCDE","operator_id":"AT1234ABCD56"}',
    'Amount 199.50 debited; balance 4,893.00 at 2026-11-28 02:31:35',
    'order UTI1718000123 for VLE1001 (9876543210), qty 11',
  ])('%s', (text) => {
    expect(recharge.hide(text)).toBe(text)
    expect(pan.hide(text)).toBe(text)
  })

  it('7 characters of a secret are not an echo', () => {
    const text = `ref ${TOKEN.slice(3, 10)} and ${API_KEY.slice(0, 7)}`
    expect(recharge.hide(text)).toBe(text)
    expect(pan.hide(text)).toBe(text)
  })
})

describe('SecretFilter.reply', () => {
  it('blanks the status word, the message, and every key and string of the body; numbers and structure stay', () => {
    const reply: ProviderReply = {
      outcome: 'FAILED',
      providerStatus: `FAILED ${TOKEN.slice(0, 16)}`,
      message: `Invalid token ${TOKEN.toUpperCase()}`,
      httpStatus: 200,
      body: { status: 'FAILED', data: { order_id: 'T1', [KEY_BYTES.toString('base64url')]: [1, `k ${SECRET_KEY}`] } },
      requestRefused: true,
    }
    expect(recharge.reply(reply)).toEqual({
      ...reply,
      providerStatus: 'FAILED [hidden]',
      message: 'Invalid token [hidden]',
      body: { status: 'FAILED', data: { order_id: 'T1', '[hidden]': [1, 'k [hidden]'] } },
    })
  })
})

describe('SecretFilter on a large answer', () => {
  it('leaves a 64 KB answer holding no secret as it is (7-16 ms here on a busy machine: a provider call takes far longer)', () => {
    const text = 'Transaction Successful for 9876543210, order T17180001231234; '.repeat(1_100).slice(0, 65_536)
    expect(recharge.hide(text)).toBe(text)
  })
})
