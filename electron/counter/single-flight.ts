// A refresh that many changes ask for at once (the pending list, the status bar): one run at a time, and one more after it for every ask made meanwhile.
//
// Why: each sale asked for both twice (its intent, its outcome), each a read of the books in the ledger
// thread queued behind the sales' own writes; four sales at once asked eight times for what one read
// after them tells. The run after the current one starts once it ends, so no ask waits on a timer and
// none is answered by a read that began before it.
export function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null
  let again: Promise<void> | null = null
  const start = (): Promise<void> => {
    running = run().finally(() => {
      running = null
    })
    return running
  }
  return () => {
    if (running === null) return start()
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = null
        return start()
      })
    return again
  }
}
