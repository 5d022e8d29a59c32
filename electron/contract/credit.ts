// Credit (udhaar): customers who pay later, what each owes, payments against the due, statements and limits.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { MobileNumberSchema, rupeesField } from './fields'
import { SaleStateSchema } from './sale-record'
import { say } from '../shared/words'

/**
 * Decision: a credit customer is known by a mobile number (the key) and a name taken with the
 * credit sale itself. That name is the customer's one name (the ledger's customer_names, shared
 * with the customers part): a credit sale names the customer, and naming a regular renames them on Dues.
 */
export const CreditNameSchema = z
  .string({ error: say('credit.nameEnter') })
  .trim()
  .min(1, { error: say('credit.nameNeeded') })
  .max(60, { error: say('credit.nameMax') })

/** A payment of a due: cash into the drawer or UPI, never credit again. */
export const DuePaymentModeSchema = z.enum(['cash', 'upi'])
export type DuePaymentMode = z.infer<typeof DuePaymentModeSchema>

/** One payment against a due: a bank transfer of up to ₹10 lakh is already past any shop's udhaar. */
const PaymentAmountSchema = rupeesField({ max: 10_00_000_00, words: '₹10,00,000' })
/** A customer's credit limit (blank, read as null, for none). */
const LimitSchema = rupeesField({ max: 10_00_000_00, words: '₹10,00,000', zero: true, empty: true })

export const DueSchema = z.object({
  number: z.string(),
  name: z.string(),
  /** Successful credit sales less payments; below 0 when a sale paid for turned out FAILED (the shop owes it back). */
  duePaise: z.number().int(),
  limitPaise: z.number().int().nullable(),
  /** The business day of the oldest credit sale not yet paid off (payments pay the oldest first), or null. */
  since: z.string().nullable(),
  lastPayment: z.object({ at: z.string(), amountPaise: z.number().int(), mode: DuePaymentModeSchema }).nullable(),
})
export type Due = z.infer<typeof DueSchema>

export const CreditLineSchema = z.object({
  /** The sale's order id, or the payment's receipt id. */
  id: z.string(),
  kind: z.enum(['sale', 'payment']),
  at: z.string(),
  businessDay: z.string(),
  amountPaise: z.number().int(),
  /** A sale's state (only SUCCESS adds to the due); null for a payment. */
  state: SaleStateSchema.nullable(),
  /** When a sale that had counted turned FAILED by a status check, and left the due. */
  reversedAt: z.string().nullable(),
  mode: DuePaymentModeSchema.nullable(),
  note: z.string(),
  /** The due after this line. */
  duePaise: z.number().int(),
})
export type CreditLine = z.infer<typeof CreditLineSchema>

export const CreditPaymentSchema = z.object({
  receiptId: z.string(),
  number: z.string(),
  name: z.string(),
  amountPaise: z.number().int(),
  mode: DuePaymentModeSchema,
  note: z.string(),
  at: z.string(),
  businessDay: z.string(),
  /** What the customer still owes after this payment. */
  dueAfterPaise: z.number().int(),
  /** When staff confirmed a UPI payment arrived ("UPI received"); null until then and for cash. */
  upiConfirmedAt: z.string().nullable(),
  training: z.boolean(),
})
export type CreditPayment = z.infer<typeof CreditPaymentSchema>

const ByCustomer = z.object({ number: MobileNumberSchema })

export const creditChannels = {
  'credit.dues': { input: z.object({}).strict(), output: z.object({ customers: z.array(DueSchema), totalPaise: z.number().int() }) },
  'credit.statement': { input: ByCustomer, output: z.object({ customer: DueSchema, lines: z.array(CreditLineSchema) }) },
  /** The receipt prints through receipt.html / receipt.print with the payment's receipt id. */
  'credit.pay': {
    input: z.object({
      number: MobileNumberSchema,
      amount: PaymentAmountSchema,
      mode: DuePaymentModeSchema,
      note: z.string().trim().max(200, { error: say('credit.noteMax') }).optional(),
    }),
    output: CreditPaymentSchema,
  },
  /** Owner-only once roles land: a customer's credit limit ('' removes it). */
  'credit.setLimit': {
    input: z.object({ number: MobileNumberSchema, name: CreditNameSchema.optional(), limit: LimitSchema }),
    output: DueSchema,
  },
} as const
export type CreditHandlers = HandlersOf<typeof creditChannels>

/**
 * The customer a sale on credit needs, checked with the sale's other fields: both are required for
 * credit and ignored otherwise. Issues are named creditName / creditNumber, apart from the sale's number.
 */
export function creditCustomerIssues(input: { paymentMode: string; creditName?: string; creditNumber?: string }): { path: string; message: string }[] {
  if (input.paymentMode !== 'credit') return []
  const issues: { path: string; message: string }[] = []
  const name = CreditNameSchema.safeParse(input.creditName ?? '')
  if (!name.success) issues.push({ path: 'creditName', message: name.error.issues[0].message })
  const number = MobileNumberSchema.safeParse(input.creditNumber ?? '')
  if (!number.success) issues.push({ path: 'creditNumber', message: say('credit.customerNumber', { problem: number.error.issues[0].message }) })
  return issues
}
