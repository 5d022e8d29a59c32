// No words for staff outside the dictionaries: scans the renderer (.vue templates and scripts, .ts stores and
// helpers) and the paper templates (receipts, Z report) for literal text in a human language, and fails on any.
// The screens' words live in electron/shared/words/, paper's in electron/shared/words/en/paper.ts; and scans the core and the
// contract for words written where they refuse something (electron/shared/words/en/said.ts holds those).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { files, PAPER_TEMPLATES, refusalWordsIn, root, wordsIn } from '../helpers/literal-scan'

const scanned = [...files('renderer/src', /\.(vue|ts)$/), ...PAPER_TEMPLATES]

describe('no words for staff outside the dictionaries', () => {
  it('scans every screen, store and paper template', () => {
    expect(scanned.length).toBeGreaterThan(50)
    expect(scanned).toContain('renderer/src/views/RechargeView.vue')
    expect(scanned).toContain('electron/counter/z-report.ts')
  })

  it.each(scanned)('%s has none', (path) => {
    expect(wordsIn(path, readFileSync(join(root, path), 'utf8'))).toEqual([])
  })

  it('finds a string planted in a template, an attribute, a store, a script and on paper', () => {
    expect(wordsIn('x.vue', '<template><p>Sale done (try again)</p></template>')).toEqual(['Sale done (try again)'])
    expect(wordsIn('x.vue', '<template><input placeholder="Type a number" /></template>')).toEqual(['Type a number'])
    expect(wordsIn('x.vue', '<template><p>बिक्री</p></template>')).toEqual(['बिक्री'])
    expect(wordsIn('x.vue', "<script setup lang=\"ts\">const m = 'Not sent, try again'</script><template><p>{{ t('a.b') }}</p></template>")).toEqual(['Not sent, try again'])
    expect(wordsIn('renderer/src/stores/x.ts', "error.value = `Could not load ${what}`")).toEqual(['Could not load'])
    expect(wordsIn('electron/counter/receipts.ts', 'const html = `<div class="status">Status paid: ${x}</div>`')).toEqual(['Status paid:'])
    // Not words: testids, classes, keys, paths, placeholders for values.
    expect(wordsIn('x.vue', '<template><p data-testid="sale-total" class="n big">{{ total }}</p></template>')).toEqual([])
    expect(wordsIn('renderer/src/x.ts', "const key = 'nav.recharge'; const path = '/day-close'; const sep = '—'")).toEqual([])
  })
})

const refusing = [
  ...files('electron/counter', /\.ts$/),
  ...files('electron/contract', /\.ts$/),
  ...['money', 'margin', 'printer-address'].map((name) => `electron/shared/${name}.ts`),
]

/** Below the core, what reaches a screen: the printer's words, the books' notices, the office's status. */
const below = [
  ...['printers/printer-link', 'printing', 'office/shipper', 'office/shipper-link', 'office/journal-reader', 'office/ingest'].map((name) => `electron/${name}.ts`),
  ...['ledger', 'ledger-errors', 'ledger-saves', 'ledger-open', 'ledger-client', 'audit', 'segments'].map((name) => `electron/ledger/${name}.ts`),
]

describe('no refusal words outside the error dictionary', () => {
  it('scans the core, the contract and the shared readers of typed input', () => {
    expect(refusing.length).toBeGreaterThan(40)
    expect(refusing).toContain('electron/counter/credit.ts')
    expect(refusing).toContain('electron/contract/fields.ts')
  })

  it.each(refusing)('%s has none', (path) => {
    expect(refusalWordsIn(readFileSync(join(root, path), 'utf8'))).toEqual([])
  })

  it('finds words planted in a CounterError, a zod rule, an issue and a reader', () => {
    expect(refusalWordsIn("throw new CounterError('invalid_input', `${name} owes nothing now.`, { amount: 'Nothing is due' })")).toEqual(['owes nothing now.', 'Nothing is due'])
    expect(refusalWordsIn("z.string().max(40, { error: 'Amount is too long' })")).toEqual(['Amount is too long'])
    expect(refusalWordsIn("ctx.addIssue({ code: 'custom', message: `At most ${max} coupons` })")).toEqual(['At most   coupons'])
    expect(refusalWordsIn("if (typed === '') return { problem: 'Enter a percent' }")).toEqual(['Enter a percent'])
    // Not words: a said key, a code, a field name, a log line away from any refusal.
    expect(refusalWordsIn("throw new CounterError('not_found', say('credit.noCustomer', { number }), { number: say('credit.noCustomerField') })")).toEqual([])
    expect(refusalWordsIn("log(`counter: ${channel} failed unexpectedly`)")).toEqual([])
  })
})

describe('no words for the screen below the core outside the error dictionary', () => {
  it('scans the printer link, the books and the office shipper', () => {
    expect(below).toContain('electron/printers/printer-link.ts')
    expect(below).toContain('electron/ledger/ledger-open.ts')
    expect(below).toContain('electron/office/shipper.ts')
  })

  it.each(below)('%s has none', (path) => {
    expect(refusalWordsIn(readFileSync(join(root, path), 'utf8'), true)).toEqual([])
  })

  it("finds words planted in a printer's error, a notice, a status's message and a chain's reason", () => {
    expect(refusalWordsIn("throw new PrinterError('offline', `The printer at ${where} is off`)", true)).toEqual(['The printer at   is off'])
    expect(refusalWordsIn('this.becomeReadOnly(`The journal is damaged: ${why}`)', true)).toEqual(['The journal is damaged:'])
    expect(refusalWordsIn("return { state, message: 'Printer is ready' }", true)).toEqual(['Printer is ready'])
    expect(refusalWordsIn("return broken('it was cut short')", true)).toEqual(['it was cut short'])
    expect(refusalWordsIn("return broken(say('chain.cutShort'))", true)).toEqual([])
  })
})
