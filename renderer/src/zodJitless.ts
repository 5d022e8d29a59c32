// Imported first by main.ts, before any schema is built: zod's JIT probes `new Function`, which the
// page's CSP forbids, and a strict CSP reports even the caught attempt as a violation.
import { config } from 'zod'

config({ jitless: true })
