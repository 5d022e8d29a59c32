// A partner client (RechargeApi, PanApi) whose replies' messages read in English, as a test asserts them, and what a
// call threw, in English: the clients and the books say their words (electron/shared/words/en/said.ts), which the books keep so and the core's dispatch speaks for the screen.
import { english } from '../../electron/shared/words'

const withEnglishMessage = (reply: unknown): unknown =>
  typeof reply === 'object' && reply !== null && typeof (reply as { message?: unknown }).message === 'string'
    ? { ...reply, message: english((reply as { message: string }).message) }
    : reply

/** What `work` threw, in English: the core's errors carry said words, spoken for the screen's language. */
export function thrownInEnglish(work: () => unknown): string {
  try {
    work()
  } catch (error) {
    return english((error as Error).message)
  }
  return 'nothing was thrown'
}

/** Why `work` was refused, in English (or that it was not). */
export const rejectedInEnglish = (work: Promise<unknown>): Promise<string> => work.then(() => 'nothing was thrown', (error: Error) => english(error.message))

export function inEnglish<Client extends object>(client: Client): Client {
  return new Proxy(client, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args)
        return result instanceof Promise ? result.then(withEnglishMessage) : result
      }
    },
  })
}
