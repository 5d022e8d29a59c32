// A sample of the fault matrix (one run per fault kind, at the step where it bites hardest, and the day
// without a fault): every promise holds. `npm run faults` runs the whole matrix.
import { describe, expect, it } from 'vitest'
import { FAULT_KINDS } from './fault-run'
import { failures, runAll, SAMPLE, table } from './matrix'

describe('the shop day under injected faults', () => {
  it(`keeps every promise in ${SAMPLE.length} seeded runs, one per fault kind`, { timeout: 300_000 }, async () => {
    const results = await runAll(SAMPLE)
    console.log(`Fault sample:\n${table(results)}`)
    expect(failures(results)).toBe('')
    // Every kind is in the sample, and each injection really hit the disk, the wire, the clock or the process.
    expect(new Set(SAMPLE.map((s) => s.kind))).toEqual(new Set(['none', ...FAULT_KINDS]))
    expect(results.filter((r) => r.kind !== 'none' && !r.fired).map((r) => `${r.kind}:${r.step}`)).toEqual([])
  })
})
