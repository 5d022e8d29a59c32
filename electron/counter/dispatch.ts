// Runs one contract call: checks the channel, validates the input with the contract's schema and
// turns every outcome into the result envelope. All three transports (IPC, web, tests) go through it.
import type { z } from 'zod'
import { channels, isChannel, type Channel, type Handlers, type Result } from '../contract'
import { CounterError } from './errors'

export type Log = (line: string) => void

/** Who may call what (roles.ts answers for the running core): the refusal for a channel the caller may not use, else null. */
export interface Access {
  refusal(channel: Channel): CounterError | null
}

export async function dispatch(handlers: Handlers, channel: unknown, rawInput: unknown, log: Log = console.error, access?: Access): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return { ok: false, error: { code: 'unknown_channel', message: 'Counter does not know that request.' } }
  }
  // Before the input is even read: a refused call changes nothing and learns nothing.
  const refused = access?.refusal(channel)
  if (refused) return { ok: false, error: refused.toBody() }
  const parsed = channels[channel].input.safeParse(rawInput ?? {})
  if (!parsed.success) return { ok: false, error: invalidInput(parsed.error) }
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    return { ok: true, value: await handler(parsed.data) }
  } catch (err) {
    if (err instanceof CounterError) return { ok: false, error: err.toBody() }
    // Unexpected errors may carry request details; only their class reaches the log, never their text.
    log(`counter: ${channel} failed unexpectedly (${err instanceof Error ? err.name : typeof err})`)
    return { ok: false, error: { code: 'internal', message: "Something went wrong inside Counter. Check today's sales before trying again." } }
  }
}

function invalidInput(error: z.ZodError) {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) {
    // Named by the innermost field: a form shows the drawer's coins as "coins", not "counted".
    const field = issue.path.length ? String(issue.path[issue.path.length - 1]) : '_'
    fields[field] ??= issue.message
  }
  const first = error.issues[0]?.message ?? 'The request is not valid.'
  return new CounterError('invalid_input', first, fields).toBody()
}

/** Direct calls, typed by the contract: what tests and the web bridge use instead of IPC. */
export function directClient(handlers: Handlers, log?: Log, access?: Access) {
  return <K extends Channel>(channel: K, input: z.input<(typeof channels)[K]['input']>) =>
    dispatch(handlers, channel, input, log, access) as Promise<Result<z.infer<(typeof channels)[K]['output']>>>
}
