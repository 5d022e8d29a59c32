// Sets zod to parse without its JIT; imported first by contract/index.ts (and by the renderer's main.ts), before any schema is built.
//
// Why, on both sides of the contract. zod decides when a schema is built whether it will compile a
// fast path with `new Function` at its first parse, so this must run before any schema module.
// - Renderer: the page's CSP forbids eval, and a strict CSP reports even zod's caught probe as a violation.
// - Core: the compile runs on the main thread at a schema's first parse. The day summary's held the
//   event loop 17 ms at a day close (`npm run bench`, at every size), more than a frame, and each
//   channel's first call paid the same. Parsed plainly, the contract's payloads (a day's summary, a
//   page of 100 sales) cost a fraction of a millisecond.
import { config } from 'zod'

config({ jitless: true })
