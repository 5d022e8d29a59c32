// A partner client (RechargeApi, PanApi) whose replies' messages read in English, as a test asserts them: the clients
// say their words (electron/shared/error-words.ts), which the books keep so and the core's dispatch speaks for the screen.
import { english } from '../../electron/shared/error-words'

const withEnglishMessage = (reply: unknown): unknown =>
  typeof reply === 'object' && reply !== null && typeof (reply as { message?: unknown }).message === 'string'
    ? { ...reply, message: english((reply as { message: string }).message) }
    : reply

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
