// What every simulated provider script does alike: check a secret, check fields against rules, refuse, make random ids.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto'

export type Answer = Record<string, unknown>
export type Fields = Record<string, string>

/** A field rule: the check, and the reason given when it fails. */
export type Rule = [field: string, valid: (value: string) => boolean, reason: string]

export const pattern = (re: RegExp) => (value: string) => re.test(value)

export const failed = (message: string): Answer => ({ status: 'FAILED', message })

/** Compares secrets in constant time (hashing first evens out the lengths). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return given !== undefined && timingSafeEqual(digest(given), digest(expected))
}

export function firstBrokenRule(fields: Fields, rules: Rule[]): string | null {
  const broken = rules.find(([field, valid]) => !valid(fields[field] ?? ''))
  return broken ? broken[2] : null
}

export const DIGITS = '0123456789'
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

export function randomText(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('')
}
