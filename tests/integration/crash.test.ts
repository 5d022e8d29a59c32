// The crash test at a small count (2 runs per flow and kill point): SIGKILL at every step of a recharge
// and a coupon sale, restart, and no acknowledged sale lost, no order sent twice, every open sale resolved.
import { describe, expect, it } from 'vitest'
import { FLOWS, KILL_POINTS } from '../crash/protocol'
import { describeViolations, runCrashSuite, totalsTable } from '../crash/crash-runs'

const REPETITIONS = 2

describe('crash at every step of a sale', () => {
  it(`survives ${REPETITIONS * FLOWS.length * KILL_POINTS.length} SIGKILLs with every invariant holding`, { timeout: 180_000 }, async () => {
    const results = await runCrashSuite({ repetitions: REPETITIONS })
    console.log(`Crash test totals:\n${totalsTable(results)}`)
    expect(describeViolations(results)).toBe('')
    expect(results).toHaveLength(REPETITIONS * FLOWS.length * KILL_POINTS.length)
    // Each kill point really interrupted something: acknowledged sales, orders and open sales were all there to check.
    expect(results.every((r) => r.counts.acked >= 1)).toBe(true)
    expect(results.filter((r) => r.flow === 'recharge').some((r) => r.counts.resolvedByStatusCheck > 0)).toBe(true)
    expect(results.filter((r) => r.flow === 'coupon').some((r) => r.counts.leftForPhone > 0)).toBe(true)
  })
})
