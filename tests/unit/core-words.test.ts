// No sentence for the shop outside the one dictionary of each language, anywhere in electron/ (the renderer and the
// paper templates are scanned by no-literal-strings.test.ts): every string and template literal that reads as English
// words (three Latin words in a row) fails, unless it is a log line, SQL or a page's script policy, or in a file or on
// the short list below, each with why. A provider's answer, a coupon check, a status check's refusal, a printer's
// test page: all are said (say(key, params)) or looked up (paperWords) in electron/shared/words and spoken in the
// screen's or the paper's language; the provider's own words travel as a param.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { files, root } from '../helpers/literal-scan'

/** Files whose words never reach the counter's staff, each with why. */
const NOT_THE_SHOPS = new Map<string, string>([
  ['electron/shared/words/', 'the dictionaries themselves'],
  ['electron/simulator/', "the training provider's own answers: a provider's words stay as it sent them, as the real one's do"],
  ['electron/office/office-page.ts', "the head office's page: the owner's, in English (it is not a counter screen)"],
  ['electron/office/office-alerts.ts', "the head office's page's alerts, as office-page.ts"],
  ['electron/office/office-view.ts', "the head office's page's settings refusals, printed on the owner's terminal"],
  ['electron/office/office-server.ts', "the head office's page's server: its refusals answer a browser that is not the counter's"],
  ['electron/office/office-cli.ts', "`npm run office`'s refusals, printed on the owner's terminal"],
  ['electron/rebuild-cli.ts', "`npm run rebuild` itself: its lines on the owner's terminal (the refusals it prints are said, since a screen's restore from the office meets them too)"],
  ['electron/office/year-file.ts', "a closed year's export file and why it cannot be read: `npm run office -- export-year` and `npm run rebuild -- --archive`, on the owner's terminal"],
  ['electron/office/years.ts', "`npm run office -- export-year` and `drop-year`: the owner's terminal"],
  ['electron/web/cli.ts', "browser mode's start-up lines on the terminal that started it"],
  ['electron/shared/loopback-guard.ts', 'refuses a launch token set in the environment, on the terminal that set it'],
  ['electron/ledger/migrations.ts', "the books' schema steps: their names are for the log, and a newer ledger's refusal stops the start (main.ts's dialog)"],
  ['electron/office/migrations.ts', "the office's schema steps: their names are for the log"],
  ['electron/office/rollups.ts', "the office's roll-up step: its name is for the log"],
  ['electron/office/archives.ts', "the office's step for archived years: its name is for the log"],
  ['electron/office/read-only.ts', "the page's PostgreSQL application_name"],
  ['electron/office/ingest.ts', "the office's own guard on a terminal row, in the office's log: the counter's status bar says the office's refusals (say)"],
  // The books' invariants: each refuses what the core has already refused in the shop's words (say) before the
  // ledger sees it; they fire only on a bug, and are what the log and a test read.
  ['electron/ledger/projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/books-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/credit-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/customer-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/drawer-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/pan-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/terminal-projections.ts', "the books' invariants (the core refuses first, in the shop's words)"],
  ['electron/ledger/projector.ts', "the books' invariants: a journal line's fields as the ledger wrote them"],
  ['electron/ledger/sale-writes.ts', "the books' invariant: a sale read back right after it was recorded"],
  ['electron/contract/channel.ts', "a developer's guard when the contract is put together, before any screen"],
  ['electron/shared/money.ts', "a developer's RangeError on paise; typed amounts are refused in the shop's words (say) by the same file"],
  ['electron/shared/upi.ts', "a developer's RangeError: a UPI request is made only for a sale's amount"],
])

const scanned = files('electron', /\.ts$/).filter((path) => ![...NOT_THE_SHOPS.keys()].some((skip) => path.startsWith(skip)))

/** Three Latin words in a row, each of two letters or more but the middle one: a sentence, or a piece of one. */
const SENTENCE = /[A-Za-z']{2,}[,;:]? [A-Za-z']+[,;:]? [A-Za-z']{2,}/
/** Markup, not prose: a paper template's HTML and CSS (their words are the paper dictionary's, checked by no-literal-strings.test.ts). */
const MARKUP = /[{}<>]/
/** Not prose either: SQL (the books' and the office's statements) and a page's script policy. */
const CODE = /^(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|WITH|BEGIN|PRAGMA|ON CONFLICT|OR|AND|FROM|WHERE)\b|\b(FROM|WHERE|ORDER BY|GROUP BY|VALUES|SET)\b.*\b[a-z_]+\b|\bAS [a-z_]+\b|\bNOT IN \(|'self'|'none'|-src /
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
  ['The ledger refused … : … .', "the books' invariants (the projections' own refusals, listed above with why): a bug's words, for the log"],
  ['Counter could not start', "the title of main.ts's dialog for a start-up failure (those below): no screen and no screen language yet"],
  ['This window may not use Counter.', "the answer to a window that is not the counter's (main.ts checks every sender): no shop screen reads it"],
  ['The page to print has no head to carry its script policy.', "a developer's guard: every page Counter prints is its own, with a head"],
  ['This receipt has characters the printer cannot print as text; it has to be printed as an image.', "a developer's guard: the printer link picks a picture for such a receipt first"],
  ['The clock says … but the last entry in the books was at … .', "the clock check's message for the log: the screens say clock.disagrees from its fields (counter/clock.ts)"],
  [
    'This ledger is already open in another Counter (process … ). Close that window or browser-mode server first.',
    "a start-up failure, as the install id's below: the core never starts, so no screen and no screen language",
  ],
  [
    "the disk holding … does not support hard links (FAT-formatted drives do not); keep Counter's data folder on the computer's own disk",
    "a start-up failure, as the install id's below",
  ],
  [
    '… holds no install id. Restore it from a copy of this data folder; deleted, it is made anew and the keychain entries kept under the old one are not found (enter the credentials again, reset the PIN with reset-owner-pin).',
    "a start-up failure: the core never starts, so no screen and no screen language; main.ts shows it in its own dialog",
  ],
])

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
      if (SENTENCE.test(text) && !MARKUP.test(text) && !CODE.test(text) && !open.some((callee) => QUIET_CALLS.has(callee)) && !EXCEPTIONS.has(text)) found.push(text)
      at = end
    } else if ('([{'.includes(char)) {
      open.push(char === '(' ? (/([\w$]+)\s*$/.exec(code.slice(Math.max(0, at - 40), at))?.[1] ?? '') : '')
    } else if (')]}'.includes(char)) {
      open.pop()
    }
  }
  return found
}

describe('no sentence for the shop outside the dictionaries, anywhere in electron/', () => {
  it('scans every file of the core, the partners, the books, the printers, the office shipper and main', () => {
    expect(scanned).toContain('electron/partners/outcome.ts')
    expect(scanned).toContain('electron/partners/http.ts')
    expect(scanned).toContain('electron/counter/coupon-checks.ts')
    expect(scanned).toContain('electron/ledger/ledger-open.ts')
    expect(scanned).toContain('electron/printers/printer-link.ts')
    expect(scanned).toContain('electron/office/shipper.ts')
    expect(scanned).toContain('electron/counter/app.ts')
    expect(scanned.length).toBeGreaterThan(120)
  })

  it.each(scanned)('%s has none', (path) => {
    expect(sentencesIn(readFileSync(join(root, path), 'utf8'))).toEqual([])
  })

  it('lists only files that exist', () => {
    const all = files('electron', /\.ts$/)
    for (const path of NOT_THE_SHOPS.keys()) expect(all.some((file) => file.startsWith(path)), path).toBe(true)
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
