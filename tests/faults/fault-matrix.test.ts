// A sample of the fault matrix (one run per fault kind, at the step where it bites hardest, and the day
// without a fault; `npm test` runs the kinds tests/tiers.ts names): every promise holds. `npm run faults` runs the whole matrix.
import { describe, expect, it } from 'vitest'
import { sample } from '../tiers'
import { FAULT_KINDS } from './fault-run'
import { failures, runAll, SAMPLE, table } from './matrix'

const kinds = sample('faultKinds')
const runs = kinds === 'every' ? SAMPLE : SAMPLE.filter((spec) => kinds.includes(spec.kind))

describe('the shop day under injected faults', () => {
  it(`keeps every promise in ${runs.length} seeded runs, one per fault kind`, { timeout: 300_000 }, async () => {
    const results = await runAll(runs)
    console.log(`Fault sample:\n${table(results)}`)
    expect(failures(results)).toBe('')
    // Every kind is in the sample (and each kind the tier names is one), and each injection really hit the disk,
    // the wire, the clock or the process.
    expect(new Set(SAMPLE.map((s) => s.kind))).toEqual(new Set(['none', ...FAULT_KINDS]))
    expect(runs).toHaveLength(kinds === 'every' ? SAMPLE.length : kinds.length)
    expect(results.filter((r) => r.kind !== 'none' && !r.fired).map((r) => `${r.kind}:${r.step}`)).toEqual([])
  })
})
