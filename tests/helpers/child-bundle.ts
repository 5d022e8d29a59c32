// Test scripts as bundled files, built from the current sources: the crash and fault children, and the ledger's thread entries.
//
// Decision: `node --import tsx child.ts` compiled the core's sources again in every child, about a second of
// CPU before the child did anything (1.5 s of a crash run's 1.9 s); and a core started from source loads each
// of its threads through tsx's require hook, which doubled the CPU of every core start (a warm start: 700 ms of
// CPU, 260 ms with bundled thread entries). A bundle is CommonJS with every package left out, as electron-vite
// builds the app itself, so the code loads the same packages the same way the shipped app does.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { build, type Plugin } from 'esbuild'

const REPO_ROOT = path.resolve(__dirname, '../..')
// Inside node_modules: Node finds the packages a bundle leaves out from the bundle's own folder upward.
const BUNDLE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'counter-test-bundles')

/**
 * Each module keeps its own folder and name: the core finds its thread entries beside its own source, and the
 * crash test and the fault harness hand their own file to the ledger threads as a hook module.
 */
const ownPaths: Plugin = {
  name: 'own-paths',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const source = await fs.promises.readFile(file, 'utf8')
      const contents = source.replace(/\b__dirname\b/g, JSON.stringify(path.dirname(file))).replace(/\b__filename\b/g, JSON.stringify(file))
      return { contents, loader: 'ts' }
    })
  },
}

/**
 * `script` (a .ts file) bundled as `name`, with its source map beside it as `name`.map (the two files by name).
 * Decision: a linked map, not an inline one. Node reads a map only under --enable-source-maps (the crash and fault
 * children), while every thread a test's core starts loaded its bundle whole: an inline map tripled the file (a
 * 932 KB ledger thread), and six integration files took 33 s of CPU with it, 31 with the map beside it (two runs each).
 */
async function bundled(script: string, name: string): Promise<Record<string, Uint8Array>> {
  const { outputFiles } = await build({
    entryPoints: [script],
    // As deep under BUNDLE_DIR as the folder writeOnce puts it in, so the map's paths to the sources hold there.
    outfile: path.join(BUNDLE_DIR, 'any', name),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    write: false,
    sourcemap: 'linked',
    plugins: [ownPaths],
    logLevel: 'silent',
  })
  return Object.fromEntries(outputFiles.map((file) => [path.basename(file.path), file.contents]))
}

/** Writes `files` (name → content) into a folder named by their content, once: two test processes writing the same folder write the same files, and neither sees one half-written. */
function writeOnce(files: Record<string, Uint8Array>): string {
  const hash = createHash('sha256')
  for (const [name, content] of Object.entries(files)) hash.update(name).update(content)
  const dir = path.join(BUNDLE_DIR, hash.digest('hex').slice(0, 16))
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name)
    if (fs.existsSync(file)) continue
    fs.mkdirSync(dir, { recursive: true })
    const partial = `${file}.${process.pid}.partial`
    fs.writeFileSync(partial, content)
    fs.renameSync(partial, file)
  }
  return dir
}

const children = new Map<string, Promise<string>>()

/** `node`'s arguments that run `script` (a .ts file): its bundle, built once per process, source maps on so a child's stack names the sources. */
export async function childArgs(script: string): Promise<string[]> {
  let file = children.get(script)
  const name = `${path.basename(script, '.ts')}.cjs`
  if (!file) children.set(script, (file = bundled(script, name).then((files) => path.join(writeOnce(files), name))))
  return ['--enable-source-maps', await file]
}

/** The entries electron/ledger/threads.ts starts, from their sources (its SOURCE_DIRS), as out/main names them. */
const THREAD_ENTRIES = {
  'ledger-thread': 'electron/ledger/ledger-thread.ts',
  'chores-thread': 'electron/ledger/chores-thread.ts',
  'audit-process': 'electron/ledger/audit-process.ts',
  'shipper-thread': 'electron/office/shipper-thread.ts',
}

/** Bundles every thread entry into one folder (`<name>.js`) and returns it, for COUNTER_TEST_THREAD_ENTRIES. */
export async function bundleThreadEntries(): Promise<string> {
  const built = await Promise.all(Object.entries(THREAD_ENTRIES).map(([name, source]) => bundled(path.join(REPO_ROOT, source), `${name}.js`)))
  return writeOnce(Object.assign({}, ...built))
}
