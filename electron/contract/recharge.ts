// The recharge desk's part of the contract: operators and circles, looking up a number's operator,
// selling a mobile or DTH recharge and checking its status, and the sale as it changes.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { ByOrderId, CollectedSchema, MobileNumberSchema, None, rupeesField } from './fields'
import { creditCustomerIssues } from './credit'
import { PaymentModeSchema, saleRecord } from './sale-record'
import { say } from '../shared/words'

export const RechargeKindSchema = z.enum(['mobile', 'dth'])
export type RechargeKind = z.infer<typeof RechargeKindSchema>

export const SaleSchema = z.object({
  orderId: z.string(),
  kind: RechargeKindSchema,
  number: z.string(),
  operatorCode: z.string(),
  operatorName: z.string(),
  circle: z.string().nullable(),
  amountPaise: z.number().int(),
  fpayId: z.string().nullable(),
  operatorRef: z.string().nullable(),
  /** The number's customer name as the books hold it now (a rename shows on a reprint too). */
  customerName: z.string().nullable(),
  ...saleRecord,
})
export type Sale = z.infer<typeof SaleSchema>

export const OperatorSchema = z.object({
  code: z.string(),
  name: z.string(),
  kind: RechargeKindSchema,
})
export type Operator = z.infer<typeof OperatorSchema>

export const CircleSchema = z.object({ code: z.string(), name: z.string() })
export type Circle = z.infer<typeof CircleSchema>

/** The provider's limit for one recharge. */
export const RupeesSchema = rupeesField({ max: 25_000_00, words: '₹25,000' })

/** DTH subscriber ids differ by operator (Tata Play 10 digits, Dish TV 11, ...). */
const DthNumberSchema = z
  .string({ error: say('dth.enter') })
  .trim()
  .regex(/^\d+$/, { error: say('dth.digitsOnly') })
  .regex(/^\d{6,15}$/, { error: say('dth.length') })

const OperatorCodeSchema = z
  .string({ error: say('operator.choose') })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,20}$/, { error: say('operator.choose') })

/** Why `number` is no number of this kind (a mobile's 10 digits, a DTH id's), or null: the sale's rule, and the form's at the number's own Enter. */
export function rechargeNumberProblem(kind: z.infer<typeof RechargeKindSchema>, number: string): string | null {
  const checked = (kind === 'mobile' ? MobileNumberSchema : DthNumberSchema).safeParse(number)
  return checked.success ? null : checked.error.issues[0].message
}

export const SellRechargeInputSchema = z
  .object({
    kind: RechargeKindSchema,
    number: z.string({ error: say('number.enter') }),
    operatorCode: OperatorCodeSchema,
    circle: z.string().trim().max(40).optional(),
    amount: RupeesSchema,
    /** Rupees taken from the customer when more than the amount (a service charge); default: the amount. */
    collected: CollectedSchema,
    paymentMode: PaymentModeSchema.default('cash'),
    /** The customer who pays later: required when paymentMode is credit. */
    creditName: z.string().max(200).optional(),
    creditNumber: z.string().max(40).optional(),
  })
  .superRefine((input, ctx) => {
    const numberProblem = rechargeNumberProblem(input.kind, input.number)
    if (numberProblem !== null) ctx.addIssue({ code: 'custom', path: ['number'], message: numberProblem })
    for (const issue of creditCustomerIssues(input)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message })
  })
  .transform(({ creditName, creditNumber, ...input }) => ({
    ...input,
    number: input.number.trim(),
    credit: input.paymentMode === 'credit' ? { name: creditName!.trim(), number: creditNumber!.trim() } : null,
  }))

export const rechargeChannels = {
  'catalog.operators': {
    input: None,
    output: z.object({ operators: z.array(OperatorSchema), circles: z.array(CircleSchema) }),
  },
  'recharge.lookupOperator': {
    input: z.object({ number: MobileNumberSchema }),
    output: z.object({ operatorCode: z.string().nullable(), operatorName: z.string(), circle: z.string().nullable() }),
  },
  'recharge.sell': { input: SellRechargeInputSchema, output: SaleSchema },
  'recharge.checkStatus': { input: ByOrderId, output: SaleSchema },
} as const
export type RechargeHandlers = HandlersOf<typeof rechargeChannels>

export const rechargeEvents = {
  'sale.changed': SaleSchema,
} as const
