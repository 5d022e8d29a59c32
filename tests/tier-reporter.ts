// Closes a run with what it ran: the tier, its files and tests by folder, its samples, what it left to another command, and one plain "N passed, N failed" line.
import type { Reporter, TestModule } from 'vitest/node'
import { samplesLine, TIER, TIER_FILES } from './tiers'

const folderOf = (module: TestModule) => module.moduleId.split('/tests/')[1]?.split('/')[0] ?? 'other'

export default class TierReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byFolder = new Map<string, { files: number; tests: number }>()
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of modules) {
      const folder = byFolder.get(folderOf(module)) ?? { files: 0, tests: 0 }
      folder.files += 1
      for (const test of module.children.allTests()) {
        folder.tests += 1
        const state = test.result().state
        if (state === 'passed') passed += 1
        else if (state === 'failed') failed += 1
        else skipped += 1
      }
      byFolder.set(folderOf(module), folder)
    }
    const folders = [...byFolder].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name} ${n.files} files / ${n.tests} tests`)
    const command = TIER === 'fast' ? 'npm test' : 'npm run test:all'
    console.log(`\n${command} (tier ${TIER}): ${modules.length} files — ${folders.join(', ')}`)
    console.log(`samples: ${samplesLine()}`)
    console.log(TIER_FILES[TIER].note)
    console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
  }
}
