// The core's writes to the books, one section at a time: a check and the append that relies on it run with no other write between them.
//
// Every ledger call answers asynchronously, so without this two windows could both find a number
// with no open sale and both send it, or two sales read the same lastSeq() for their order ids.
// Decision: one queue for the whole core rather than moving each check into the ledger's append.
// The rules (one open sale per number or agent, a settled sale stays settled, the day's figures
// are those it is closed with) are the core's, and the ledger thread stays a store of events.
// A section only reads and writes the ledger: it never waits for the provider (a slow provider
// would stall every window) nor enters another section (that would wait for itself forever).

export type Serial = <T>(section: () => Promise<T>) => Promise<T>

export function serialQueue(): Serial {
  let tail: Promise<unknown> = Promise.resolve()
  return (section) => {
    const run = tail.then(section)
    // The next section waits for this one to end, however it ends; its caller sees how.
    tail = run.catch(() => undefined)
    return run
  }
}
