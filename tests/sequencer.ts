// The order files start in: each project's longest files first (tests/tiers.ts LONGEST_FIRST), then vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { LONGEST_FIRST } from './tiers'

const rankOf = (file: string): number => {
  const rank = LONGEST_FIRST.findIndex((listed) => file.endsWith(listed))
  return rank === -1 ? LONGEST_FIRST.length : rank
}

export default class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Stable: within a project, files of equal rank keep vitest's order (timing cache, else size).
    return [...(await super.sort(files))].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name === b.project.name ? rankOf(a.moduleId) - rankOf(b.moduleId) : a.project.name < b.project.name ? -1 : 1),
    )
  }
}
