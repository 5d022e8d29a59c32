// Every sale of every year: searching them (by number, order id, reference or agent) and the CSV export.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { DaySchema } from './fields'
import { SaleStateSchema } from './sale-record'

export const HistoryRowSchema = z.object({
  kind: z.enum(['recharge', 'coupon']),
  id: z.string(),
  at: z.string(),
  businessDay: z.string(),
  /** Number recharged, or agent id and name. */
  label: z.string(),
  /** A recharge's customer name, as the books hold it now. */
  customerName: z.string().nullable(),
  /** Operator, or coupon type and quantity. */
  detail: z.string(),
  amountPaise: z.number().int().nullable(),
  state: SaleStateSchema,
  /** fpay_id or the provider's coupon order id. */
  reference: z.string().nullable(),
  /** The commission frozen when it was sold; null for sales made before Counter kept margins. */
  marginPaise: z.number().int().nullable(),
  /** Collected above the amount; null where not known. */
  serviceChargePaise: z.number().int().nullable(),
})
export type HistoryRow = z.infer<typeof HistoryRowSchema>

export const HistoryQuerySchema = z.object({
  /** A number, order id, reference, agent (id or name) or customer name: any part of it. */
  text: z.string().trim().max(60).optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  state: SaleStateSchema.optional(),
  kind: z.enum(['recharge', 'coupon']).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
})

export const historyChannels = {
  'history.search': {
    input: HistoryQuerySchema,
    output: z.object({ rows: z.array(HistoryRowSchema), total: z.number().int(), archives: z.array(z.string()) }),
  },
  'history.exportCsv': { input: HistoryQuerySchema, output: z.object({ content: z.string(), filename: z.string() }) },
} as const
export type HistoryHandlers = HandlersOf<typeof historyChannels>
