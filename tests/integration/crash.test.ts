// The crash test at a small count (tests/tiers.ts: in `npm test` each flow meets each kill point once, with the
// victims alternating; in `npm run test:all` twice with each victim): at every step of a recharge and a coupon
// sale, SIGKILL the process or end only a ledger thread, restart, and no acknowledged sale lost, no order sent
// twice, every open sale resolved.
import { describe, expect, it } from 'vitest'
import { powerCutFor } from '../crash/protocol'
import { crashPlan, describeViolations, runCrashSuite, totalsTable, type CrashPlanOptions } from '../crash/crash-runs'
import { sample } from '../tiers'

const SAMPLE: CrashPlanOptions = sample('crash')
const plan = crashPlan(SAMPLE)
const killed = (victim: string) => plan.filter((run) => run.victim === victim).length

describe('crash at every step of a sale', () => {
  const runs = plan.length
  it(`survives ${killed('process')} SIGKILLs and ${killed('thread')} ledger thread deaths with every invariant holding`, { timeout: 600_000 }, async () => {
    // One run at a time: the file runs beside another (tests/tiers.ts), which gets the other core.
    const results = await runCrashSuite({ ...SAMPLE, concurrency: 1 })
    console.log(`Crash test totals:\n${totalsTable(results)}`)
    expect(describeViolations(results)).toBe('')
    expect(results).toHaveLength(runs)
    // Each kill point really interrupted something: acknowledged sales, orders and open sales were all there to check.
    expect(results.every((r) => r.counts.acked >= 1)).toBe(true)
    expect(results.filter((r) => r.flow === 'recharge').some((r) => r.counts.resolvedByStatusCheck > 0)).toBe(true)
    expect(results.filter((r) => r.flow === 'coupon').some((r) => r.counts.leftForPhone > 0)).toBe(true)
    // A power cut took the recharge outcome that was waiting for its fsync: the status check settled the sale.
    const cut = results.filter((r) => r.flow === 'recharge' && r.killPoint === 'after-outcome' && r.victim === 'process' && powerCutFor(r.repetition) !== 'none')
    expect(cut.length).toBeGreaterThan(0)
    expect(cut.map((r) => r.counts.resolvedByStatusCheck)).toEqual(cut.map(() => 1))
  })
})
