// Start-up's timeline, behind COUNTER_STARTUP_TIMELINE=1: one line per step with the milliseconds since the process
// began, to see what the counter waits for before it can answer. A worker thread's performance.now() counts from
// the thread's own start, so the ledger thread is given the main thread's origin and counts from that.
export type Mark = (step: string) => void

export function startupTimeline(env: NodeJS.ProcessEnv, origin: number = performance.timeOrigin, print: (line: string) => void = console.error): Mark {
  if (env.COUNTER_STARTUP_TIMELINE !== '1') return () => undefined
  return (step) => print(`startup ${(performance.timeOrigin + performance.now() - origin).toFixed(0).padStart(6)} ms  ${step}`)
}
