// Start-up's timeline, behind COUNTER_STARTUP_TIMELINE=1: one line per step with the milliseconds since the process
// began (performance.now() counts from it), to see what the counter waits for before it can answer.
export type Mark = (step: string) => void

export function startupTimeline(env: NodeJS.ProcessEnv, print: (line: string) => void = console.error): Mark {
  if (env.COUNTER_STARTUP_TIMELINE !== '1') return () => undefined
  return (step) => print(`startup ${performance.now().toFixed(0).padStart(6)} ms  ${step}`)
}
