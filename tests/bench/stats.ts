// Timing helpers for the benchmark: elapsed milliseconds from a high-resolution start, and percentiles.

export function elapsedMs(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6
}

/** The nearest-rank percentile (p in 0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('No samples to take a percentile of')
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export const median = (values: readonly number[]): number => percentile(values, 50)

/** Runs `work` `times` times (told which run it is) and gives the milliseconds of each run. */
export async function timeRuns(times: number, work: (run: number) => Promise<unknown>): Promise<number[]> {
  const runs: number[] = []
  for (let i = 0; i < times; i++) {
    const started = process.hrtime.bigint()
    await work(i)
    runs.push(elapsedMs(started))
  }
  return runs
}
