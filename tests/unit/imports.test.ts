// The house's floors and its packages, read from the source: no two files of the app (electron/ and the page in
// renderer/src/) import each other, directly or round a circle; every import points down the one table of floors
// below; and every package any source file names, tests and build configuration included, is declared in package.json.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dependencies, devDependencies } from '../../package.json'

const ROOT = resolve(__dirname, '../..')

// Static imports and re-exports (the names between the keyword and `from` may span lines, but never code), bare
// imports for their effect, and import(…), require(…) and require.resolve(…) of a literal (the ledger finds sql.js's
// wasm file by require.resolve, and a package found that way must be installed just the same). Decision: `import
// type` counts too — a type lives on the floor of its file, and a type-only circle is still two files that cannot be
// understood (or moved) one without the other.
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[\w\s{},*$]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g,
]
const SCRIPT_BLOCKS = /<script\b[^>]*>([\s\S]*?)<\/script>/g

/** Paths (relative to the root) of the files under `dir` whose names end in one of `endings`. */
function filesUnder(dir: string, endings: string[]): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(path, endings)
    return endings.some((ending) => entry.name.endsWith(ending)) ? [path] : []
  })
}

/** Every module specifier a source file names; of a .vue file only its <script> blocks, as its template can show code. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const code = file.endsWith('.vue') ? [...text.matchAll(SCRIPT_BLOCKS)].map((block) => block[1]).join('\n') : text
  return IMPORT_PATTERNS.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]))
}

/** The specifiers a file loads when it runs: all but those of `import type` and `export type`, which compile away. */
function valueSpecifiersOf(file: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8').replace(/^\s*(?:import|export)\s+type\s[\w\s{},*$]*?\bfrom\s*['"][^'"]+['"]/gm, '')
  return IMPORT_PATTERNS.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]))
}

const isRelative = (specifier: string) => specifier.startsWith('.')

/** The package a bare specifier names, without any path into it: `vitest/config` is vitest, `@scope/name/x` is @scope/name. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier))

/** The file a relative specifier names, relative to the root (data files too); .vue files are always named whole. */
function fileImported(file: string, specifier: string): string {
  const target = resolve(ROOT, dirname(file), specifier)
  const found = [`${target}.ts`, join(target, 'index.ts'), target].find((path) => existsSync(path) && statSync(path).isFile())
  if (!found) throw new Error(`${file} imports ${specifier}, which is no file`)
  return relative(ROOT, found)
}

// Which floors each floor may import besides itself: the one place the house's layout is written, and every floor
// check below is read from it. A floor is a folder or a single file; what a floor may import is named by floor, or,
// for an exception, by file.
const FLOORS: Record<string, string[]> = {
  // The bottom: money, dates, words and paper sizes, which the core and the page both use.
  'electron/shared': [],
  // The channels and their schemas, which the page and the core both read.
  'electron/contract': ['electron/shared'],
  'electron/partners': ['electron/contract', 'electron/shared'],
  'electron/ledger': ['electron/contract', 'electron/shared'],
  'electron/printers': ['electron/contract', 'electron/shared'],
  // The head office reads the journal's segments and the counter starts its shipper, so it sits between the two.
  'electron/office': ['electron/ledger', 'electron/contract', 'electron/shared'],
  // The simulator plays the provider from the spec alone; whoever starts training (a launcher) starts it, never the core.
  // It keeps training's provider books beside the training ledger, written as durably as the ledger's own files
  // (durable-files.ts is plain node:fs, importing nothing of ours: the simulator reaches nothing else of the ledger).
  'electron/simulator': ['electron/partners', 'electron/shared', 'electron/ledger/durable-files.ts'],
  // The core; package.json gives it the version it reports.
  'electron/counter': [
    'electron/office',
    'electron/ledger',
    'electron/partners',
    'electron/printers',
    'electron/contract',
    'electron/shared',
    'package.json',
  ],
  // How both launchers stop the core.
  'electron/shutdown.ts': ['electron/counter', 'electron/shared'],
  // `npm run rebuild`: a counter rebuilt from the head office, plain Node; reads the office's address as the office view does.
  'electron/rebuild-cli.ts': ['electron/counter', 'electron/office', 'electron/shared'],
  // The browser-mode launcher: plain Node, so never the Electron shell's files.
  'electron/web': [
    'electron/counter',
    'electron/printers',
    'electron/simulator',
    'electron/shutdown.ts',
    'electron/contract',
    'electron/shared',
  ],
  // The Electron shell: the desktop launcher and the parts of it that need Electron.
  'electron/main.ts': [
    'electron/counter',
    'electron/simulator',
    'electron/printing.ts',
    'electron/external-links.ts',
    'electron/counter-window.ts',
    'electron/shutdown.ts',
    'electron/updates.ts',
    'electron/contract',
    'electron/shared',
  ],
  'electron/counter-window.ts': [],
  // The updater's glue: handed electron-updater by main, it reads only the address rule.
  'electron/updates.ts': ['electron/shared'],
  'electron/printing.ts': ['electron/printers', 'electron/shared'],
  'electron/external-links.ts': ['electron/contract'],
  'electron/preload.ts': ['electron/contract'],
  // The page reaches the core only through the contract and the shared floor.
  'renderer/src': ['electron/contract', 'electron/shared'],
}

const within = (path: string, place: string) => path === place || path.startsWith(`${place}/`)
const floorOf = (path: string) => Object.keys(FLOORS).find((floor) => within(path, floor))

const graph = new Map(
  [...filesUnder('electron', ['.ts']), ...filesUnder('renderer/src', ['.ts', '.vue'])].map((file) => {
    const specifiers = specifiersOf(file)
    const files = specifiers.filter(isRelative).map((specifier) => fileImported(file, specifier))
    return [file, { files, packages: specifiers.filter((specifier) => !isRelative(specifier)).map(packageOf) }]
  }),
)

/** Tarjan's strongly connected components of size > 1 (or a node leading to itself): each one is a circle. */
function circles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    for (const target of edges.get(node)!) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component = stack.splice(stack.indexOf(node))
    if (component.length > 1 || edges.get(node)!.includes(node)) found.push(component.sort())
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the import graph of electron/ and renderer/src/', () => {
  it('reads the imports it is checked on', () => {
    // Guards the reader itself: were the patterns (or the .vue script reader) to stop matching, every floor below
    // would pass on an empty graph.
    expect(graph.get('electron/ledger/projections.ts')!.files).toContain('electron/ledger/journal.ts')
    expect(graph.get('electron/main.ts')!.packages).toContain('electron')
    expect(graph.get('renderer/src/App.vue')!.files).toContain('renderer/src/components/StatusBar.vue')
    expect(graph.get('renderer/src/App.vue')!.packages).toContain('vue')
    expect(graph.size).toBeGreaterThan(200)
  })

  it('has no circles', () => {
    const edges = new Map([...graph].map(([file, { files }]) => [file, files.filter((target) => graph.has(target))]))
    expect(circles(edges).map((circle) => circle.join(' <-> '))).toEqual([])
  })

  it('puts every file on a floor of the table, and the table names only places that exist', () => {
    expect([...graph.keys()].filter((file) => floorOf(file) === undefined)).toEqual([])
    expect([...Object.keys(FLOORS), ...Object.values(FLOORS).flat()].filter((place) => !existsSync(join(ROOT, place)))).toEqual([])
  })

  it('keeps the table a stack: no floor may import, round the others, a floor that may import it', () => {
    const edges = new Map(Object.entries(FLOORS).map(([floor, below]) => [floor, below.flatMap((place) => floorOf(place) ?? [])]))
    expect(circles(edges).map((circle) => circle.join(' <-> '))).toEqual([])
  })

  it('points every import at its own floor or one the table lets it import', () => {
    const wrong = [...graph].flatMap(([file, { files }]) => {
      const floor = floorOf(file)
      const allowed = floor === undefined ? [] : [floor, ...FLOORS[floor]]
      return files.filter((target) => !allowed.some((place) => within(target, place))).map((target) => `${file} -> ${target}`)
    })
    expect(wrong).toEqual([])
  })

  it("keeps zod out of the ledger's threads: they start at every counter start, and building the contract's schemas cost each a third of a second", () => {
    const reached = new Set<string>()
    const waiting = ['electron/ledger/ledger-thread.ts', 'electron/ledger/chores-thread.ts']
    for (let file = waiting.pop(); file !== undefined; file = waiting.pop()) {
      if (reached.has(file)) continue
      reached.add(file)
      waiting.push(...valueSpecifiersOf(file).filter(isRelative).map((specifier) => fileImported(file!, specifier)))
    }
    expect(reached).toContain('electron/ledger/history-rows.ts')
    expect([...reached].filter((file) => valueSpecifiersOf(file).includes('zod'))).toEqual([])
  })

  it('lets only the Electron shell import electron', () => {
    const shell = new Set(['electron/main.ts', 'electron/preload.ts', 'electron/printing.ts', 'electron/external-links.ts', 'electron/counter-window.ts'])
    const importers = [...graph].filter(([file, { packages }]) => !shell.has(file) && packages.includes('electron'))
    expect(importers.map(([file]) => file)).toEqual([])
  })
})

describe('the packages the source names', () => {
  // Tests and build configuration count too: a package that is there only because another one depends on it goes
  // when that one changes its own. Where a package is declared is not checked: the page's packages are bundled,
  // electron is the runtime itself, and a declared devDependency is installed wherever the code runs from source.
  const sources = [...graph.keys(), ...filesUnder('tests', ['.ts']), 'electron.vite.config.ts', '.ci/eslint.config.mjs']
  const declared = new Set([...Object.keys(dependencies), ...Object.keys(devDependencies)])

  it('declares in package.json every package any source file imports', () => {
    const undeclared = sources.flatMap((file) => {
      const bare = specifiersOf(file).filter((specifier) => !isRelative(specifier) && !isBuiltin(specifier))
      const packages = new Set(bare.map(packageOf))
      const missing = [...packages].filter((name) => !declared.has(name))
      return missing.map((name) => `${file} imports ${name}, which package.json does not declare`)
    })
    expect(undeclared).toEqual([])
  })
})
