// Every key a screen asks t() or te() for is in the screens' dictionary: a misspelt key would show the key itself to
// the staff (renderer/src/words.ts). Literal keys must hold a phrase; a key built from a value (`books.progress.${task}`)
// must start at a part of the dictionary that holds phrases.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dictionaries, phrase } from '../../electron/shared/words'
import { files, root } from '../helpers/literal-scan'

const screens = files('renderer/src', /\.(vue|ts)$/)
const screenWords = dictionaries.en.screen

/** The keys asked for in a source: whole literal ones, and the fixed start of those built from a value. */
function keysIn(source: string): { whole: string[]; built: string[] } {
  const whole = [...source.matchAll(/\bte?\(\s*'([\w.-]+)'/g)].map((match) => match[1])
  const built = [...source.matchAll(/\bte?\(\s*`([\w.-]+)\.\$\{/g)].map((match) => match[1])
  return { whole, built }
}

/** What the dictionary holds at a dotted path. */
function partAt(path: string): unknown {
  return path.split('.').reduce<unknown>((node, step) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[step] : undefined), screenWords)
}

describe("the screens' keys", () => {
  it('are found in the screens and stores', () => {
    const all = screens.flatMap((path) => keysIn(readFileSync(join(root, path), 'utf8')).whole)
    expect(all.length).toBeGreaterThan(500)
  })

  it.each(screens)('%s asks only for keys the dictionary holds', (path) => {
    const { whole, built } = keysIn(readFileSync(join(root, path), 'utf8'))
    expect(whole.filter((key) => phrase(screenWords, key) === undefined)).toEqual([])
    expect(built.filter((start) => typeof partAt(start) !== 'object')).toEqual([])
  })

  it('catches a misspelt key and a built key from nowhere', () => {
    expect(keysIn("t('sale.titel')").whole).toEqual(['sale.titel'])
    expect(phrase(screenWords, 'sale.titel')).toBeUndefined()
    expect(typeof partAt('books.progres')).not.toBe('object')
    expect(keysIn('t(`books.progress.${task}`)').built).toEqual(['books.progress'])
  })
})
