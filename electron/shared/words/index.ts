// Counter's one word system: one dictionary per language (en/ and hi/, each in three parts: what the screens show,
// what the core says, what is printed on paper) and the one way a phrase is found and filled, phrase(). The screens'
// t() (renderer/src/words.ts), the core's say() and speak() below and paper's paperWords() all read these
// dictionaries; a sentence for the shop written anywhere else fails the scans of the tests' literal-scan helper.
// How a message the core says travels from a throw to the screen (a "said" reference, spoken in the screen language
// by the core's dispatch and by the renderer's forms) is written in electron/counter/errors.ts's first comment.
// Decision: paper's words live here on the shared floor with the screens', not in the renderer: paper is made by the
// core (counter/receipts.ts, counter/z-report.ts) and drawn by the ESC/POS printer (printers/escpos.ts), which may
// not import the renderer, and a receipt reprinted years later must read the same whatever the screen shows.
import { formatDay } from '../dates'
import { en, type Words } from './en'
import type { PaperWords } from './en/paper'
import type { SaidWords } from './en/said'
import { hi } from './hi'

export type { PaperWords, SaidWords, Words }

export const LANGUAGES = ['en', 'hi'] as const
export type Language = (typeof LANGUAGES)[number]

/** Devanagari letters, signs and extensions: a page holding any needs a Devanagari font (and an ESC/POS picture). */
export const DEVANAGARI = /\p{Script=Devanagari}/u

export const dictionaries: Record<Language, Words> = { en, hi }

const saidEn = en.said

/** A phrase's values: what a said reference carries, what a screen passes to t(). */
type Params = Record<string, string | number>

/** What a dictionary holds at `key`: a flat key as the core's are ('amount.enter'), else a dotted path ('sale.title'). */
function entryAt(part: object, key: string): unknown {
  if (Object.hasOwn(part, key)) return (part as Record<string, unknown>)[key]
  let node: unknown = part
  for (const step of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) return undefined
    node = (node as Record<string, unknown>)[step]
  }
  return node
}

/**
 * The phrase at `key` in a part of a dictionary, filled with `values`: a function of them (the core's, typed), or
 * text whose {name} is a value (the screens'); undefined where the dictionary holds no phrase.
 */
export function phrase(part: object, key: string, values: Params = {}): string | undefined {
  const entry = entryAt(part, key)
  if (typeof entry === 'function') return (entry as (values: Params) => string)(values)
  if (typeof entry !== 'string') return undefined
  return entry.replace(/\{(\w+)\}/g, (_, name: string) => (values[name] === undefined ? '' : String(values[name])))
}

/** The words printed on paper in a receipt language; English when none is set (settings saved before languages existed). */
export const paperWords = (language: Language | undefined): PaperWords => dictionaries[language ?? 'en'].paper

export type SaidKey = keyof SaidWords
type ParamsOf<K extends SaidKey> = SaidWords[K] extends (p: infer P) => string ? [params: P] : []

/**
 * A message as thrown and as a zod rule carries it: its key and params, not yet in any language. A string, so
 * zod's `error` and CounterError take it; branded, so a CounterError can take nothing else.
 */
export type Said = string & { readonly __said: unique symbol }

const MARK = '\u2063said:'
/** A business day as the core keeps it (YYYY-MM-DD): every message shows it as every screen does, 27-11-2026. */
const DAY = /^\d{4}-\d{2}-\d{2}$/
const READ = /^\u2063said:([\w.]+)(\{[\s\S]*\})?$/

export function say<K extends SaidKey>(key: K, ...params: ParamsOf<K>): Said {
  return `${MARK}${key}${params.length ? JSON.stringify(params[0]) : ''}` as Said
}

/**
 * A message in `language`: a said reference in that language's words (its params spoken first, for a message
 * that holds another, e.g. a consequence); any other text as it is (a provider's or the ledger's own words).
 */
export function speak(message: string, language: Language): string {
  const read = READ.exec(message)
  const key = read?.[1]
  if (!key || !Object.hasOwn(saidEn, key)) return message
  const params: Params = JSON.parse(read[2] ?? '{}')
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') params[name] = DAY.test(value) ? formatDay(value) : speak(value, language)
  return phrase(dictionaries[language].said, key, params) ?? message
}

/** The English words: for logs and journal lines, which stay English whatever the screens show. */
export const english = (message: string): string => speak(message, 'en')

/**
 * Every said string in a value, spoken in `language`: what the dispatch does to an answer and the core to an
 * event's payload before either leaves for a screen (a status's notices, a printer's state, the office's).
 * Plain objects and arrays are walked; one with nothing said in it is returned as it came, not copied.
 */
export function speakAll<T>(value: T, language: Language): T {
  if (typeof value === 'string') return (value.startsWith(MARK) ? speak(value, language) : value) as T
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let spoken: unknown[] | null = null
    value.forEach((item: unknown, at) => {
      const said = speakAll(item, language)
      if (said !== item) (spoken ??= [...value])[at] = said
    })
    return (spoken ?? value) as T
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  let spoken: Record<string, unknown> | null = null
  for (const [name, item] of Object.entries(value)) {
    const said = speakAll(item, language)
    if (said !== item) (spoken ??= { ...(value as Record<string, unknown>) })[name] = said
  }
  return (spoken ?? value) as T
}
