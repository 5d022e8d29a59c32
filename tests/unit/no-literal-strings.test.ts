// No words for staff outside the dictionaries: scans the renderer (.vue templates and scripts, .ts stores and
// helpers) and the paper templates (receipts, Z report) for literal text in a human language, and fails on any.
// The screens' words live in renderer/src/i18n/, paper's in electron/shared/paper-words.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { files, PAPER_TEMPLATES, root, wordsIn } from '../helpers/literal-scan'

const scanned = [...files('renderer/src', /\.(vue|ts)$/).filter((path) => !path.startsWith('renderer/src/i18n/')), ...PAPER_TEMPLATES]

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
