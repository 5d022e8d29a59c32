// Finds literal text in a human language in screen and paper source: the scanner no-literal-strings.test.ts runs.
import { readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

export const root = resolve(__dirname, '../..')
export const PAPER_TEMPLATES = ['electron/counter/receipts.ts', 'electron/counter/z-report.ts', 'electron/counter/test-page.ts']

/**
 * Decision: what counts as words. Devanagari anywhere, or two Latin words in a row (a label, a sentence);
 * a lone token (a testid, a CSS class, a key name, an import path) is not a word for staff. The allow-list
 * names the few literals that are words but not language: each with why.
 */
const ALLOWED = new Map<string, string>([
  ['event listener failed', "a developer's console line, never on screen"],
  ['ignored an event that is not JSON', "a developer's console line, never on screen"],
  ['allow-modals allow-same-origin', 'the print frame\'s sandbox tokens'],
])
/** Two Latin words with a space between them (a dot or dash joins a key or a token, not words). */
const WORDS = /[\u0900-\u097F]|(?:^|[^\w.-])[A-Za-z]{2,}[,.:;!?]? [A-Za-z]+(?![\w.-])/
/** Code, not prose: CSS, selectors, expressions left in a literal. */
const CODE = /[{}[\]=$;<>]|:not\b/
/** An HTML tag, quoted attribute values and all (a value may hold ">"). */
const TAG = /<(?:[^>"']|"[^"]*"|'[^']*')*>/g

export function files(dir: string, ending: RegExp): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && ending.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')

/** String literals of a script: quoted strings, and the text parts of template literals (outside ${…}). */
function scriptLiterals(code: string): string[] {
  const found: string[] = []
  const source = withoutComments(code).replace(/^\s*import .*$/gm, '')
  for (const match of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    const text = match[1] ?? match[2] ?? match[3]
    found.push(match[3] === undefined ? text : text.replace(/\$\{[^}]*\}/g, ' '))
  }
  return found
}

/** A template's text between tags and its fixed (unbound) attribute values that people read. */
function templateLiterals(template: string): string[] {
  const html = template.replace(/<!--[\s\S]*?-->/g, '')
  const text = html
    .replace(/\{\{[\s\S]*?\}\}/g, ' ')
    .split(TAG)
    .map((part) => part.trim())
  const attributes = [...html.matchAll(/\s(?:placeholder|title|aria-label|alt|label)="([^"]*)"/g)].map((m) => m[1])
  return [...text, ...attributes]
}

/** The literals of one file that read as words and are not allowed. */
export function wordsIn(path: string, source: string): string[] {
  let literals: string[]
  if (path.endsWith('.vue')) {
    const template = /<template>([\s\S]*)<\/template>/.exec(source)?.[1] ?? ''
    const scripts = [...source.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
    literals = [...templateLiterals(template), ...scriptLiterals(scripts)]
  } else if (PAPER_TEMPLATES.includes(path)) {
    // Paper's HTML is built in template literals: their text between tags is what prints.
    literals = scriptLiterals(source).flatMap((literal) => literal.split(TAG))
  } else {
    literals = scriptLiterals(source)
  }
  return literals.map((literal) => literal.trim()).filter((literal) => WORDS.test(literal) && !(CODE.test(literal) && !/[\u0900-\u097F]/.test(literal)) && !ALLOWED.has(literal))
}


/** Where the core and the contract write a refusal: a CounterError's arguments, a zod rule's error or issue, a reader's problem. */
const REFUSAL_SITE = /new CounterError\(|\baddIssue\(|\brefuse\(|\b(?:error|problem):\s*/g
/**
 * Where the layers below the core write what reaches a screen: a printer's, the books' or the office's error, a
 * status's message, a notice or read-only reason, why a journal line breaks the chain.
 */
const BELOW_SITE = /new (?:PrinterError|LedgerWriteError|OfficeRefusal)\(|\b(?:becomeReadOnly|setSnapshotFailure|goDown|waiting|broken)\(|\b(?:error|problem|message|reason):\s*/g

/** The code from `start` to the end of the expression there: a bracket's whole contents, else up to a comma or closing bracket. */
function expressionAt(code: string, start: number, opened: boolean): string {
  let depth = opened ? 1 : 0
  let quote: string | null = null
  for (let at = start; at < code.length; at++) {
    const char = code[at]
    if (quote) {
      if (char === '\\') at++
      else if (char === quote) quote = null
    } else if (char === "'" || char === '"' || char === '`') quote = char
    else if ('([{'.includes(char)) depth++
    else if (')]}'.includes(char)) {
      if (depth === 0 || (--depth === 0 && opened)) return code.slice(start, at)
    } else if (char === ',' && depth === 0) return code.slice(start, at)
  }
  return code.slice(start)
}

/**
 * The words written at a refusal's site in core or contract source (refusals are said from
 * electron/shared/words/en/said.ts), or, `below` the core, where a message for the screen is made:
 * a literal there reads English on a Hindi screen.
 */
export function refusalWordsIn(source: string, below = false): string[] {
  const code = withoutComments(source)
  const found: string[] = []
  for (const site of code.matchAll(below ? BELOW_SITE : REFUSAL_SITE)) {
    const start = site.index + site[0].length
    found.push(...scriptLiterals(expressionAt(code, start, site[0].endsWith('('))))
  }
  return found.map((literal) => literal.trim()).filter((literal) => WORDS.test(literal))
}
