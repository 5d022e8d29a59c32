// Unresolved sales, recharge or coupon: the list with its next checks, settling one by phone with
// the provider, and the list as it changes.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None, OrderIdSchema, rupeesField } from './fields'
import { SaleStateSchema } from './sale-record'
import { say } from '../shared/words'

export const PendingItemSchema = z.object({
  kind: z.enum(['recharge', 'coupon']),
  /** Recharge order id or coupon attempt id. */
  id: z.string(),
  /** The number recharged, or the agent. */
  label: z.string(),
  amountPaise: z.number().int().nullable(),
  state: SaleStateSchema,
  lastAnswer: z.string(),
  createdAt: z.string(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
  checks: z.number().int(),
  /** False when the provider cannot be asked (a coupon order it never named): settle by phone. */
  checkable: z.boolean(),
  /** A coupon order's charge as Counter expects it (the provider's amount, else rate x qty); null for a recharge. */
  chargePaise: z.number().int().nullable(),
})
export type PendingItem = z.infer<typeof PendingItemSchema>

const PendingListSchema = z.object({ items: z.array(PendingItemSchema) })

export const pendingChannels = {
  'pending.list': { input: None, output: PendingListSchema },
  /** The operator confirmed the outcome by phone with the provider; the note says who and when. */
  'pending.settle': {
    input: z.object({
      kind: z.enum(['recharge', 'coupon']),
      id: OrderIdSchema,
      outcome: z.enum(['SUCCESS', 'FAILED']),
      note: z.string().trim().min(10, { error: say('settle.note') }).max(500),
      /** A coupon settled SUCCESS: what the provider charged, as confirmed on the phone; blank means the charge expected. */
      charged: rupeesField({ max: 10_00_000_00, words: '₹10,00,000', empty: true }).optional(),
    }),
    output: PendingListSchema,
  },
} as const
export type PendingHandlers = HandlersOf<typeof pendingChannels>

export const pendingEvents = {
  'pending.changed': PendingListSchema,
} as const
