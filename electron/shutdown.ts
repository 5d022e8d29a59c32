// How both launchers (the desktop app and browser mode) stop the core: whatever goes wrong comes
// back as plain lines for the shop in its screen language, never a stack trace, and the launcher still exits.
import type { CounterApp } from './counter/app'
import { say, speak } from './shared/words'

/** Closes the core; resolves to the problems to show, one plain line each (none on a clean stop). */
export async function closeCounter(counter: Pick<CounterApp, 'close' | 'screenLanguage'>): Promise<string[]> {
  try {
    return await counter.close()
  } catch (err) {
    // close() reports expected trouble (a full disk) itself; this is the unexpected rest.
    const language = counter.screenLanguage()
    const why = err instanceof Error ? speak(err.message, language).split('\n')[0] : String(err)
    return [speak(say('counter.notStoppedCleanly', { why }), language)]
  }
}
