// The shop's customers: numbers it has sold to, with an optional name; suggestions as digits are typed, the last recharge for repeat, naming and forgetting.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { RechargeKindSchema } from './recharge'
import { say } from '../shared/words'

export const CustomerSchema = z.object({
  /** A mobile number or DTH subscriber id. */
  number: z.string(),
  kind: RechargeKindSchema,
  name: z.string().nullable(),
  /** The last recharge sent to the number, whatever its outcome (customer-projections.ts says why). */
  operatorCode: z.string(),
  operatorName: z.string(),
  circle: z.string().nullable(),
  lastAmountPaise: z.number().int(),
  lastAt: z.string(),
  sales: z.number().int(),
})
export type Customer = z.infer<typeof CustomerSchema>

export const CUSTOMER_NAME_MAX = 60

/**
 * Decisions, where the issue says only "letters in any script": a name is trimmed and its runs of
 * spaces made one; it holds letters with their combining marks (Devanagari's vowel signs are marks),
 * and between words a space, dot, hyphen or apostrophe ("A. K. D'Souza", "Ram-Lal"); no digits (the
 * number is already the customer's). Its length is counted in characters as typed (code points), at most 60.
 */
export const CustomerNameSchema = z
  .string({ error: say('customer.nameEnter') })
  .transform((text) => text.trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { error: say('customer.nameEnter') })
      .refine((name) => [...name].length <= CUSTOMER_NAME_MAX, { error: say('customer.nameMax', { max: CUSTOMER_NAME_MAX }) })
      .regex(/^\p{L}[\p{L}\p{M}]*(?:[ .'-]+[\p{L}\p{M}]*)*$/u, {
        error: say('customer.nameRule'),
      }),
  )

/** A mobile number or subscriber id, as recharges take them. */
export const CustomerNumberSchema = z
  .string({ error: say('number.enter') })
  .trim()
  .regex(/^\d{6,15}$/, { error: say('number.length') })

/** Up to this many suggestions are offered for the digits typed. */
export const SUGGESTIONS_MAX = 8

const ByNumber = z.object({ number: CustomerNumberSchema })

export const customerChannels = {
  /** Known numbers starting with the digits typed (at least 4), the most recently sold to first. */
  'customers.suggest': {
    input: z.object({
      digits: z
        .string({ error: say('digits.enter') })
        .trim()
        .regex(/^\d{4,15}$/, { error: say('digits.length') }),
    }),
    output: z.object({ customers: z.array(CustomerSchema) }),
  },
  /** One number's customer (its name and last recharge), or null when no sale to it is remembered. */
  'customers.get': { input: ByNumber, output: z.object({ customer: CustomerSchema.nullable() }) },
  'customers.name': { input: z.object({ number: CustomerNumberSchema, name: CustomerNameSchema }), output: CustomerSchema },
  /** Owner-only once roles land: removes the name and the remembered last recharge, never a sale. */
  'customers.forget': { input: ByNumber, output: z.object({ number: z.string() }) },
} as const
export type CustomerHandlers = HandlersOf<typeof customerChannels>

/** A customer was named, renamed or forgotten (name null): the screens showing its sales update. */
export const customerEvents = {
  'customer.changed': z.object({ number: z.string(), name: z.string().nullable() }),
} as const
