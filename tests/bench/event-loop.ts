// How long the main event loop was kept from turning while a piece of work ran: perf_hooks.monitorEventLoopDelay at 1 ms resolution,
// and how much of that was V8 collecting this thread's own heap (its 'gc' performance entries).
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

export interface LoopDelay {
  maxMs: number
  p999Ms: number
  /** The longest pause of this thread's own garbage collection meanwhile: not the ledger's work, and no less for it. */
  longestGcMs: number
}

const RESOLUTION_MS = 1

/** Runs `work` under the monitor and gives its result with the loop's worst and 99.9th-percentile delay, in ms. */
export async function withLoopDelay<T>(work: () => Promise<T> | T): Promise<{ result: T; delay: LoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  let longestGcMs = 0
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestGcMs = Math.max(longestGcMs, entry.duration)
  })
  collections.observe({ entryTypes: ['gc'] })
  histogram.enable()
  try {
    const result = await work()
    // The monitor records a block only when the loop turns again: work that blocked to its last
    // line (a synchronous audit) would otherwise go unseen.
    await new Promise((resolve) => setTimeout(resolve, 4 * RESOLUTION_MS))
    return { result, delay: { maxMs: histogram.max / 1e6, p999Ms: histogram.percentile(99.9) / 1e6, longestGcMs } }
  } finally {
    histogram.disable()
    collections.disconnect()
  }
}
