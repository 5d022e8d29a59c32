// A refresh that many changes ask for at once (the pending list, the status bar): one run at a time, and one more after it for every ask made meanwhile, no sooner than a set spacing after the run before it began.
//
// Why: each sale asked for both twice (its intent, its outcome), each a read of the books in the ledger
// thread queued behind the sales' own writes; four sales at once asked eight times for what one read
// after them tells. The run after the current one starts once it has ended and the spacing since it began is
// up, so an ask at a quiet moment runs at once and none is answered by a read that began before it.
export function singleFlight(run: () => Promise<void>, spacingMs = 0): () => Promise<void> {
  let running: Promise<void> | null = null
  let again: Promise<void> | null = null
  let startedAt = Number.NEGATIVE_INFINITY
  const start = (): Promise<void> => {
    startedAt = performance.now()
    running = run().finally(() => {
      running = null
    })
    return running
  }
  const spacingLeft = () => startedAt + spacingMs - performance.now()
  /** Resolves once the spacing since the last start is up; with no timer when it already is. */
  const spaced = (): Promise<void> | undefined => {
    const wait = spacingLeft()
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined
  }
  return () => {
    if (again !== null) return again
    if (running === null && spacingLeft() <= 0) return start()
    again = (running ?? Promise.resolve())
      .catch(() => undefined)
      .then(spaced)
      .then(() => {
        again = null
        return start()
      })
    return again
  }
}
