// The command that starts a test's child script as one bundled file, built once per test process.
//
// Decision: `node --import tsx child.ts` compiled the core's sources again in every child, about a second of
// CPU before the child did anything (1.5 s of a crash run's 1.9 s); the bundle starts in a quarter of a second.
// The bundle is CommonJS with every package left out, as electron-vite builds the app itself, so the child
// loads the same packages the same way the shipped app does.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { build, type Plugin } from 'esbuild'

const REPO_ROOT = path.resolve(__dirname, '../..')
// Inside node_modules: Node finds the packages the bundle leaves out from the bundle's own folder upward.
const BUNDLE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'counter-test-children')

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

async function bundleOf(script: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [script],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    write: false,
    sourcemap: 'inline',
    plugins: [ownPaths],
    logLevel: 'silent',
  })
  const code = outputFiles[0].contents
  // Named by content: two test processes building the same child write the same file, and neither can see it half-written.
  const file = path.join(BUNDLE_DIR, `${path.basename(script, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.cjs`)
  if (!fs.existsSync(file)) {
    fs.mkdirSync(BUNDLE_DIR, { recursive: true })
    const partial = `${file}.${process.pid}.partial`
    fs.writeFileSync(partial, code)
    fs.renameSync(partial, file)
  }
  return file
}

const bundles = new Map<string, Promise<string>>()

/** `node`'s arguments that run `script` (a .ts file): its bundle, with source maps so a child's stack names the sources. */
export async function childArgs(script: string): Promise<string[]> {
  let bundle = bundles.get(script)
  if (!bundle) bundles.set(script, (bundle = bundleOf(script)))
  return ['--enable-source-maps', await bundle]
}
