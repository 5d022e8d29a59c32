// Test runner setup: the tier's files (tests/tiers.ts) on both cores, then the groups that must run apart, and a closing report of what ran.
import { readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import LongestFirst from './sequencer'
import { RUN_APART, TIER, TIER_FILES } from './tiers'

const root = resolve(__dirname, '..')

/** Every test file under tests/, as a path from the root. */
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return testFiles(path)
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : []
  })

/** The globs tiers.ts writes: `**` any folders, `*` any name. Vitest's own matching cannot intersect two lists. */
const matches = (globs: readonly string[]) => {
  const patterns = globs.map((glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}$`))
  return (file: string) => patterns.some((pattern) => pattern.test(file))
}

const { include, exclude } = TIER_FILES[TIER]
const tierFiles = testFiles(join(root, 'tests')).filter((file) => matches(include)(file) && !matches(exclude)(file))
const taken = new Set<string>()
const apart = RUN_APART.map((group) => {
  const files = tierFiles.filter((file) => !taken.has(file) && matches(group.files)(file))
  for (const file of files) taken.add(file)
  return { ...group, files }
})
// Decision: files share a worker's modules. Each file imported the core afresh (30 s of a 190 s run went to
// imports); no file relies on a module's state from a fresh import, and the files that mock `electron` mock a module
// no other file may import (an unmocked import of it throws).
// Decision: expect.poll waits up to 10 s, as the end-to-end rig's locators do. Its own default, one second, is a
// promise about speed the tests do not make: a clean-clone CI run missed a coupon quote by it on a busy machine.
const shared = { testTimeout: 30_000, hookTimeout: 60_000, environment: 'node', isolate: false, expect: { poll: { timeout: 10_000 } } } as const

export default defineConfig({
  root,
  test: {
    reporters: ['default', './tests/tier-reporter.ts'],
    globalSetup: ['./tests/thread-entries.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      // Decision: two workers, one a core. Every file here brings its own temp folder, free port, keychain service
      // and simulator, so any two can run side by side; vitest's default on two cores is one worker.
      {
        test: {
          ...shared,
          name: 'both cores',
          include: tierFiles.filter((file) => !apart.some((group) => group.files.includes(file))),
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      ...apart
        .filter((group) => group.files.length > 0)
        .map((group, index) => ({ test: { ...shared, name: group.name, include: group.files, maxWorkers: group.atOnce, sequence: { groupOrder: index + 1 } } })),
    ],
  },
})
