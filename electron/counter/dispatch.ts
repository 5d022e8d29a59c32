// Runs one contract call: checks the channel, validates the input with the contract's schema and
// turns every outcome into the result envelope. All three transports (IPC, web, tests) go through it.
import type { z } from 'zod'
import { channels, isChannel, type Channel, type Handlers, type Result } from '../contract'
import { CounterError } from './errors'
import { type Language, type Said, say, speakAll } from '../shared/words'

export type Log = (line: string) => void

/** Who may call what (roles.ts answers for the running core): the refusal for a channel the caller may not use, else null. */
export interface Access {
  refusal(channel: Channel): CounterError | null
}

/** The screens' language, which every refusal and every said message of an answer is spoken in (errors.ts says why); English when not given. */
export type ScreenLanguage = () => Language

export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  rawInput: unknown,
  log: Log = console.error,
  access?: Access,
  language: ScreenLanguage = () => 'en',
): Promise<Result<unknown>> {
  const refuse = (refusal: CounterError): Result<unknown> => ({ ok: false, error: refusal.toBody(language()) })
  if (!isChannel(channel)) return refuse(new CounterError('unknown_channel', say('request.unknownChannel')))
  // Before the input is even read: a refused call changes nothing and learns nothing.
  const refused = access?.refusal(channel)
  if (refused) return refuse(refused)
  const parsed = channels[channel].input.safeParse(rawInput ?? {})
  if (!parsed.success) return refuse(invalidInput(parsed.error))
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    // An answer's said messages (a printer's state, the books' notices) are spoken as refusals are.
    return { ok: true, value: speakAll(await handler(parsed.data), language()) }
  } catch (err) {
    if (err instanceof CounterError) return refuse(err)
    // Unexpected errors may carry request details; only their class reaches the log, never their text.
    log(`counter: ${channel} failed unexpectedly (${err instanceof Error ? err.name : typeof err})`)
    return refuse(new CounterError('internal', say('request.internal')))
  }
}

/** zod's messages are said references (contract/fields.ts), or a rule's own words passed on as they are. */
function invalidInput(error: z.ZodError): CounterError {
  const fields: Record<string, Said> = {}
  for (const issue of error.issues) {
    // Named by the innermost field: a form shows the drawer's coins as "coins", not "counted".
    const field = issue.path.length ? String(issue.path[issue.path.length - 1]) : '_'
    fields[field] ??= issue.message as Said
  }
  const first = (error.issues[0]?.message as Said | undefined) ?? say('request.invalid')
  return new CounterError('invalid_input', first, fields)
}

/** Direct calls, typed by the contract: what tests and the web bridge use instead of IPC. */
export function directClient(handlers: Handlers, log?: Log, access?: Access, language?: ScreenLanguage) {
  return <K extends Channel>(channel: K, input: z.input<(typeof channels)[K]['input']>) =>
    dispatch(handlers, channel, input, log, access, language) as Promise<Result<z.infer<(typeof channels)[K]['output']>>>
}
