// Reading PAN answers: provider money strings to exact paise, and odd field forms (string or number, unreadable values) through the real client.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MoneyFormatError, parseProviderRupees } from '../../electron/shared/money'
import { PanApi } from '../../electron/partners/pan-api'
import { inEnglish } from '../helpers/english-replies'

describe('parseProviderRupees', () => {
  it.each([
    ['107', 107_00],
    ['107.00', 107_00],
    ['107.5', 107_50],
    [' 4893.00 ', 4_893_00],
    ['0', 0],
    ['5,000.00', 5_000_00],
    ['5,000', 5_000_00],
    ['1,234,567.89', 1_234_567_89],
    ['12,34,567.00', 12_34_567_00],
    ['1,00,000', 1_00_000_00],
    ['-1,000.50', -1_000_50],
  ])('%j is %d paise', (text, paise) => {
    expect(parseProviderRupees(text)).toBe(paise)
  })

  it.each(['5,00', '50,00,0.00', ',500', '500,', '5,000.001', '5.000,00', '1,2345', '12,345,67', '1 000', '₹107', '', 'abc', '107.', '1e3'])(
    'refuses %j',
    (text) => {
      expect(() => parseProviderRupees(text)).toThrow(MoneyFormatError)
    },
  )
})

/** One canned answer per path: a stand-in provider whose answers are as odd as a real one's might be. */
const CANNED: Record<string, unknown> = {
  '/api/coupon_req.php': {
    status: 'SUCCESS', order_id: 'UTI123', date: '05-Jan-2026', vle_id: 'V1', vle_name: 'Ravi', type: '2', qty: '3',
    rate: '72.00', amount: '216.00', old_bal: '5,000.00', new_bal: '4,784.00', message: '',
  },
  '/api/coupon_status.php': {
    status: 'PENDING', order_id: 'UTI123', date: '5-1-2026', vle_id: 42, vle_name: '', type: 1, qty: 3,
    rate: 107, amount: 321.5, old_bal: '5,00', new_bal: { value: 1 }, message: '',
  },
  '/api/balance.php': { status: 'SUCCESS', balance: 4784 },
  '/api/vle_status.php': { status: 'SUCCESS', message: 'ok', vle_id: 'V1', vle_status: 'approved' },
}

let server: http.Server
let api: PanApi

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' })
    res.end(JSON.stringify(CANNED[new URL(req.url ?? '/', 'http://x').pathname] ?? {}))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api = inEnglish(new PanApi({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, apiKey: 'k-0001', timeoutMs: 2_000 }))
})

afterAll(async () => {
  api.close()
  await new Promise((resolve) => server.close(resolve))
})

describe('PanApi reading answers', () => {
  it('coupon_req: type "2" as a string, qty "3", grouped balances', async () => {
    expect(await api.couponRequest({ vleId: 'V1', type: 2, qty: 3 })).toMatchObject({
      outcome: 'SUCCESS',
      orderId: 'UTI123',
      date: '05-Jan-2026',
      type: 2,
      qty: 3,
      ratePaise: 72_00,
      amountPaise: 216_00,
      oldBalPaise: 5_000_00,
      newBalPaise: 4_784_00,
      unreadable: [],
    })
  })

  it('coupon_status: numbers where strings were; money as a JSON number, a malformed comma or date are named unreadable', async () => {
    const reply = await api.couponStatus('UTI123', 0)
    expect(reply).toMatchObject({
      outcome: 'UNKNOWN',
      providerStatus: 'PENDING',
      vleId: '42',
      vleName: null,
      type: 1,
      qty: 3,
      ratePaise: null,
      amountPaise: null,
      oldBalPaise: null,
      newBalPaise: null,
      date: null,
    })
    expect(reply.unreadable.sort()).toEqual(['amount', 'date', 'new_bal', 'old_bal', 'rate'])
  })

  it('balance: a JSON number is unreadable, even a whole one (JSON.parse would have made 2.9999999999999999 a whole 3)', async () => {
    expect((await api.balance()).balancePaise).toBeNull()
  })

  it('vle_status: the status word is upper-cased', async () => {
    expect((await api.vleStatus('V1')).vleStatus).toBe('APPROVED')
  })
})
