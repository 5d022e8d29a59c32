// Checks the recharge checksums against OpenSSL's HMAC-SHA512, computed independently in the test.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { signChecksum, statusChecksum, transactionChecksum, type RechargeCredentials } from '../../electron/partners/recharge-api'

function opensslChecksum(keyHex: string, input: string): string {
  const mac = execFileSync('openssl', ['dgst', '-sha512', '-mac', 'HMAC', '-macopt', `hexkey:${keyHex}`, '-binary'], { input })
  return mac.toString('base64')
}

const vectors: RechargeCredentials[] = [
  { userId: 'FISPL604796', token: 'tok-1', secretKey: '0123456789abcdef0123456789abcdef' },
  { userId: 'FISPL000001', token: 'tok-2', secretKey: 'A1B2C3D4E5F60718293A4B5C6D7E8F90' + 'ff'.repeat(48) }, // 128-byte key: longer than SHA-512's block
  { userId: 'X', token: 'tok-3', secretKey: '00' },
]

describe('recharge checksums', () => {
  for (const credentials of vectors) {
    it(`transaction checksum = base64 HMAC-SHA512 of user_id|timestamp|number|order_id (key ${credentials.secretKey.length / 2} bytes)`, () => {
      const expected = opensslChecksum(credentials.secretKey, `${credentials.userId}|1718000000123|9876543210|ORD-0001`)
      expect(transactionChecksum(credentials, '1718000000123', '9876543210', 'ORD-0001')).toBe(expected)
    })

    it(`status checksum = base64 HMAC-SHA512 of user_id|timestamp|order_id (key ${credentials.secretKey.length / 2} bytes)`, () => {
      const expected = opensslChecksum(credentials.secretKey, `${credentials.userId}|1718000000999|ORD-0001`)
      expect(statusChecksum(credentials, '1718000000999', 'ORD-0001')).toBe(expected)
    })
  }

  it('signs the exact text: one changed field changes the checksum', () => {
    const key = vectors[0].secretKey
    expect(signChecksum(key, ['a', 'b'])).toBe(opensslChecksum(key, 'a|b'))
    expect(signChecksum(key, ['a', 'b'])).not.toBe(signChecksum(key, ['a', 'c']))
    expect(signChecksum(key, ['a|b'])).toBe(signChecksum(key, ['a', 'b']))
  })
})
