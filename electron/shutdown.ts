// How both launchers (the desktop app and browser mode) stop the core: whatever goes wrong comes
// back as plain lines for the shop, never a stack trace, and the launcher still exits.
import type { CounterApp } from './counter/app'
import { english } from './shared/error-words'

/** Closes the core; resolves to the problems to show, one plain line each (none on a clean stop). */
export async function closeCounter(counter: Pick<CounterApp, 'close'>): Promise<string[]> {
  try {
    return await counter.close()
  } catch (err) {
    // close() reports expected trouble (a full disk) itself; this is the unexpected rest.
    const why = err instanceof Error ? english(err.message).split('\n')[0] : String(err)
    return [`Counter did not stop cleanly (${why}); every sale is in the journal and the next start rebuilds the rest.`]
  }
}
