// What a domain's part of the contract is made of, and how the parts become the one surface
// (index.ts): each domain types its own channel map and handlers, as Actual's loot-core does.
import type { z } from 'zod'

/** One domain's channels: each names the schema its input is checked with and the shape it answers. */
export type ChannelMap = Record<string, { input: z.ZodType; output: z.ZodType }>

/** The handlers a channel map asks for: each gets its input checked and answers with its output. */
export type HandlersOf<M extends ChannelMap> = { [K in keyof M]: (input: z.output<M[K]['input']>) => Promise<z.infer<M[K]['output']>> }

type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never
type Merged<M extends readonly object[]> = { [K in keyof Intersection<M[number]>]: Intersection<M[number]>[K] }

/**
 * The domains' maps as one. A name two domains both claim would silently keep only the later one
 * (the single literal this replaced had the compiler refuse it), so it stops the core at load instead.
 */
export function mergeDomains<M extends readonly Record<string, unknown>[]>(...maps: M): Merged<M> {
  const merged: Record<string, unknown> = {}
  for (const map of maps) {
    for (const [name, entry] of Object.entries(map)) {
      if (Object.hasOwn(merged, name)) throw new Error(`Two parts of the contract both define "${name}"`)
      merged[name] = entry
    }
  }
  return merged as Merged<M>
}
