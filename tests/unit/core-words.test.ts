// No sentence for the shop built outside the error dictionary in the partners and the core (#26 part 5): scans
// electron/partners/ and electron/counter/ for string and template literals that read as English words (three Latin
// words in a row) and fails on any that is not a log line or on the short list of exceptions below, each with why.
// A provider's answer, a coupon check, a status check's refusal: all are said (say(key, params)) from
// electron/shared/error-words.ts and spoken in the screen's language; the provider's own words travel as a param.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { files, root } from '../helpers/literal-scan'

const scanned = [...files('electron/partners', /\.ts$/), ...files('electron/counter', /\.ts$/)]

/** Three Latin words in a row, each of two letters or more but the middle one: a sentence, or a piece of one. */
const SENTENCE = /[A-Za-z']{2,}[,;:]? [A-Za-z']+[,;:]? [A-Za-z']{2,}/
/** Markup, not prose: a paper template's HTML and CSS (their words are paper-words.ts's, checked by no-literal-strings.test.ts). */
const MARKUP = /[{}<>]/
/** Calls whose text never reaches a screen: the core's log lines (English, whatever the screens show), a chore's log label, and a start-up timeline's step. */
const QUIET_CALLS = new Set(['log', 'housekeeping', 'mark'])

/**
 * The literals that are words but never a screen's, by their text (a template's `${…}` written as …), each with why.
 * A new entry needs a reason as good as these: anything the staff may read goes through say().
 */
const EXCEPTIONS = new Map<string, string>([
  ['A partner address must start with http:// or https:// (got … )', "a developer's guard: Settings refuses such an address first (settings.httpAddress)"],
  ['today must be YYYY-MM-DD, not …', "a developer's RangeError: the day is the core's own, never typed"],
  ['delaysMs needs at least one step, none negative, and a last step above 0', "a developer's RangeError on the queue's options"],
  ['A WhatsApp share needs a 10-digit Indian mobile number', "a developer's guard: the contract refuses such a number first (share.mobile)"],
  [
    '… holds no install id. Restore it from a copy of this data folder; deleted, it is made anew and the keychain entries kept under the old one are not found (enter the credentials again, reset the PIN with reset-owner-pin).',
    "a start-up failure: the core never starts, so no screen and no screen language; main.ts shows it in its own dialog",
  ],
])
/** rebuild-from-office.ts is `npm run rebuild`'s: its refusals are printed on the owner's terminal, never on a screen. */
const COMMAND_LINE_ONLY = new Set(['electron/counter/rebuild-from-office.ts'])

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')

/** Where the literal opening at `start` ends (its closing quote). */
function literalEnd(code: string, start: number): number {
  const quote = code[start]
  for (let at = start + 1; at < code.length; at++) {
    if (code[at] === '\\') at++
    else if (code[at] === quote) return at
    else if (quote !== '`' && code[at] === '\n') return at
  }
  return code.length
}

/** The literals of one source that read as English sentences and are neither in a log line nor an exception. */
export function sentencesIn(source: string): string[] {
  const code = withoutComments(source).replace(/^\s*import .*$/gm, '')
  const found: string[] = []
  /** For each open bracket, the name of the function it calls ('' for none). */
  const open: string[] = []
  for (let at = 0; at < code.length; at++) {
    const char = code[at]
    if (char === "'" || char === '"' || char === '`') {
      const end = literalEnd(code, at)
      const raw = code.slice(at + 1, end)
      const text = (char === '`' ? raw.replace(/\$\{[^}]*\}/g, ' … ') : raw).replace(/\s+/g, ' ').trim()
      if (SENTENCE.test(text) && !MARKUP.test(text) && !open.some((callee) => QUIET_CALLS.has(callee)) && !EXCEPTIONS.has(text)) found.push(text)
      at = end
    } else if ('([{'.includes(char)) {
      open.push(char === '(' ? (/([\w$]+)\s*$/.exec(code.slice(Math.max(0, at - 40), at))?.[1] ?? '') : '')
    } else if (')]}'.includes(char)) {
      open.pop()
    }
  }
  return found
}

describe('no sentence for the shop outside the error dictionary in the partners and the core', () => {
  it('scans every partner and core file', () => {
    expect(scanned).toContain('electron/partners/outcome.ts')
    expect(scanned).toContain('electron/partners/http.ts')
    expect(scanned).toContain('electron/counter/coupon-checks.ts')
    expect(scanned.length).toBeGreaterThan(40)
  })

  it.each(scanned.filter((path) => !COMMAND_LINE_ONLY.has(path)))('%s has none', (path) => {
    expect(sentencesIn(readFileSync(join(root, path), 'utf8'))).toEqual([])
  })

  it('finds sentences planted in a message, a throw, a return, a wording table and a push', () => {
    expect(sentencesIn("return { ...reply, message: `The provider has no record of ${noun} ${id} yet.` }")).toEqual(['The provider has no record of … … yet.'])
    expect(sentencesIn("throw new CounterError('provider_error', 'The provider is down')")).toEqual(['The provider is down'])
    expect(sentencesIn("if (body === null) return \"The provider's answer could not be read\"")).toEqual(["The provider's answer could not be read"])
    expect(sentencesIn("const WORDING = { accepted: 'The coupons were bought', subject: 'the coupon order' }")).toEqual(['The coupons were bought', 'the coupon order'])
    expect(sentencesIn('problems.push(`${detail}: nothing was sent, so try again.`)')).toEqual(['… : nothing was sent, so try again.'])
    // Not sentences: said keys, codes, paths, a log line, an exception.
    expect(sentencesIn("return { message: say('partner.duplicateOrder', { reason, notKnown: words.notKnown }) }")).toEqual([])
    expect(sentencesIn("const path = '/api/coupon_req.php'; const code = 'provider_error'")).toEqual([])
    expect(sentencesIn("log(`counter: ${what} failed (${english(err.message)})`)")).toEqual([])
    expect(sentencesIn("throw new RangeError('delaysMs needs at least one step, none negative, and a last step above 0')")).toEqual([])
  })
})
