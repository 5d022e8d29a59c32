// The house's floors, read from the source: no two files under electron/ import each other (directly or round a
// circle), and every import points down — shared/ at the bottom, partners/ and ledger/ above it, counter/ above them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')
const ELECTRON = join(ROOT, 'electron')

// Static imports and re-exports (the names between the keyword and `from` may span lines, but never code), bare
// `import '…'`, and `import('…')`. Decision: `import type` counts too — a type lives on the floor of its file, and a
// type-only circle is still two files that cannot be understood (or moved) one without the other.
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[\w\s{},*$]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Every module a source file names: files as paths relative to electron/ (data files too), packages by their name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = IMPORT_PATTERNS.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]))
  return specifiers.map((specifier) => {
    if (!specifier.startsWith('.')) return specifier
    const target = resolve(dirname(file), specifier)
    const found = [`${target}.ts`, join(target, 'index.ts'), target].find((path) => existsSync(path) && statSync(path).isFile())
    if (!found) throw new Error(`${relative(ROOT, file)} imports ${specifier}, which is no file`)
    return relative(ELECTRON, found)
  })
}

const graph = new Map(sourceFiles(ELECTRON).map((file) => [relative(ELECTRON, file), importsOf(file)]))
const ours = (file: string) => graph.get(file)!.filter((target) => graph.has(target))

/** Tarjan's strongly connected components of size > 1 (or a file importing itself): each one is a circle. */
function circles(): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    for (const target of ours(file)) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!))
    }
    if (low.get(file) !== index.get(file)) return
    const component = stack.splice(stack.indexOf(file))
    if (component.length > 1 || ours(file).includes(file)) found.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

/** "a.ts -> b.ts" for every import from a file under `from` of a module `forbidden` picks out. */
function arrows(from: (file: string) => boolean, forbidden: (target: string) => boolean): string[] {
  return [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter(forbidden).map((target) => `${file} -> ${target}`) : []))
}

const under = (...folders: string[]) => (file: string) => folders.some((folder) => file.startsWith(`${folder}/`))
const isElectron = (target: string) => target === 'electron' || target.startsWith('electron/')

describe('the import graph under electron/', () => {
  it('reads the imports it is checked on', () => {
    // Guards the reader itself: were the patterns to stop matching, every floor below would pass on an empty graph.
    expect(graph.get('ledger/projections.ts')).toContain('ledger/journal.ts')
    expect(graph.get('main.ts')).toContain('electron')
    expect(graph.size).toBeGreaterThan(50)
  })

  it('has no circles', () => {
    expect(circles().map((circle) => circle.join(' <-> '))).toEqual([])
  })

  it('keeps shared/ the bottom floor: it imports nothing of ours outside shared/', () => {
    expect(arrows(under('shared'), (target) => graph.has(target) && !under('shared')(target))).toEqual([])
  })

  it('keeps partners/ and ledger/ below the counter, the browser bridge and main', () => {
    expect(arrows(under('partners', 'ledger'), (target) => under('counter', 'web')(target) || target === 'main.ts')).toEqual([])
  })

  it('keeps the counter below the browser bridge and main', () => {
    expect(arrows(under('counter'), (target) => under('web')(target) || target === 'main.ts')).toEqual([])
  })

  it('keeps the contract below the counter: the channels and their schemas import only the shared floor', () => {
    const contract = (file: string) => file === 'contract.ts' || under('contract')(file)
    expect(arrows(contract, (target) => graph.has(target) && !contract(target) && !under('shared')(target))).toEqual([])
  })

  it('keeps the simulator out of the core: whoever starts training (app start-up) starts it', () => {
    expect(arrows(under('counter', 'ledger', 'partners'), under('simulator'))).toEqual([])
  })

  it('lets the simulator play the provider from the spec alone: it imports only partners/ and shared/', () => {
    expect(arrows(under('simulator'), (target) => graph.has(target) && !under('simulator', 'partners', 'shared')(target))).toEqual([])
  })

  it('lets only the Electron shell import electron', () => {
    const shell = new Set(['main.ts', 'preload.ts', 'printing.ts', 'external-links.ts'])
    expect(arrows((file) => !shell.has(file), isElectron)).toEqual([])
  })
})
