// The PAN desk's part of the contract: agents (VLEs), coupon orders with their quote and balance,
// password resets, the provider's PAN balance, and a coupon sale as it changes.
import { z } from 'zod'
import { verhoeffValid } from '../shared/verhoeff'
import type { HandlersOf } from './channel'
import { CollectedSchema, MobileNumberSchema, None, OrderIdSchema } from './fields'
import { PaymentModeSchema, saleRecord } from './sale-record'
import { say } from '../shared/words'

/** The balance Counter expects (the last one read, plus the top-ups entered since) and the time of the last of those facts. */
export const PanBalanceSchema = z.object({ balancePaise: z.number().int().nullable(), readAt: z.string().nullable() })
export type PanBalance = z.infer<typeof PanBalanceSchema>

export const CouponTypeSchema = z.union([z.literal(1), z.literal(2)], { error: say('coupon.type') })
export type CouponType = z.infer<typeof CouponTypeSchema>
export { couponTypeNames } from '../shared/coupon-types'

export const AgentSchema = z.object({
  vleId: z.string(),
  name: z.string(),
  mobile: z.string(),
  email: z.string(),
  shop: z.string(),
  location: z.string(),
  stateCode: z.string(),
  pin: z.string(),
  /** Only ever the last four digits: "XXXX XXXX 1234". */
  uidMasked: z.string(),
  pan: z.string(),
  /** PENDING, APPROVED, REJECTED as the provider said; SUBMITTING while unanswered; NOT_CREATED when refused. */
  status: z.string(),
  message: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastCheckedAt: z.string().nullable(),
})
export type Agent = z.infer<typeof AgentSchema>

export const CouponSaleSchema = z.object({
  /** Ours, journaled before the request (the provider only names its order in the answer). */
  attemptId: z.string(),
  orderId: z.string().nullable(),
  vleId: z.string(),
  vleName: z.string().nullable(),
  type: CouponTypeSchema,
  qty: z.number().int(),
  expectedRatePaise: z.number().int(),
  /** As the provider wrote it: DD-Mon-YYYY. */
  date: z.string().nullable(),
  ratePaise: z.number().int().nullable(),
  amountPaise: z.number().int().nullable(),
  oldBalPaise: z.number().int().nullable(),
  newBalPaise: z.number().int().nullable(),
  /** Checks of the answer that failed (amount = rate x qty, the balance chain): shown, never hidden. */
  problems: z.array(z.string()),
  ...saleRecord,
})
export type CouponSale = z.infer<typeof CouponSaleSchema>

export const PasswordResetSchema = z.object({
  attemptId: z.string(),
  orderId: z.string().nullable(),
  vleId: z.string(),
  vleName: z.string().nullable(),
  /** PENDING or APPROVED as the provider said; SENDING while unanswered; FAILED when refused. */
  status: z.string(),
  message: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PasswordReset = z.infer<typeof PasswordResetSchema>

export const StateSchema = z.object({ code: z.string(), name: z.string() })

export const AgentInputSchema = z.object({
  vleId: z.string({ error: say('agent.idEnter') }).trim().regex(/^[A-Za-z0-9_-]{3,30}$/, {
    error: say('agent.idRule'),
  }),
  // The provider's form takes a name in English letters only (with spaces, dots and an apostrophe, as in
  // D'Souza): one typed in Devanagari or another script is told what to type instead, first.
  name: z
    .string({ error: say('agent.nameEnter') })
    .trim()
    .regex(/^[A-Za-z .']*$/, {
      error: say('agent.nameLatin'),
    })
    .regex(/^[A-Za-z][A-Za-z .']{1,79}$/, { error: say('agent.nameRule') }),
  mobile: MobileNumberSchema,
  email: z.string({ error: say('agent.emailEnter') }).trim().regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/, { error: say('agent.emailInvalid') }),
  shop: z.string({ error: say('agent.shopEnter') }).trim().min(2, { error: say('agent.shopEnter') }).max(80),
  location: z.string({ error: say('agent.locationEnter') }).trim().min(2, { error: say('agent.locationEnter') }).max(120),
  stateCode: z.string({ error: say('agent.stateChoose') }).trim().regex(/^\d{1,3}$/, { error: say('agent.stateChoose') }),
  pin: z.string({ error: say('agent.pinEnter') }).trim().regex(/^[1-9]\d{5}$/, { error: say('agent.pinRule') }),
  uid: z
    .string({ error: say('agent.aadhaarEnter') })
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{12}$/, { error: say('agent.aadhaarDigits') })
        .regex(/^[2-9]/, { error: say('agent.aadhaarStart') })
        .refine(verhoeffValid, { error: say('agent.aadhaarCheck') }),
    ),
  pan: z
    .string({ error: say('agent.panEnter') })
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{5}\d{4}[A-Z]$/, { error: say('agent.panRule') })),
})
export type AgentInput = z.input<typeof AgentInputSchema>

const VleIdSchema = z.string({ error: say('agent.choose') }).trim().regex(/^[A-Za-z0-9_-]{1,30}$/, { error: say('agent.choose') })

export const CouponOrderInputSchema = z.object({
  vleId: VleIdSchema,
  type: CouponTypeSchema,
  qty: z
    .number({ error: say('coupon.qtyEnter') })
    .int({ error: say('coupon.qtyWhole') })
    .min(1, { error: say('coupon.qtyMin') }),
  /** Rupees taken from the agent; default: the amount the provider charges. */
  collected: CollectedSchema,
  // Decision: credit (udhaar) is for recharge customers; an agent pays for coupons in cash or UPI.
  paymentMode: PaymentModeSchema.exclude(['credit'], { error: say('coupon.noCredit') }).default('cash'),
})

export const panChannels = {
  'pan.states': { input: None, output: z.object({ states: z.array(StateSchema) }) },
  'pan.agents.list': { input: None, output: z.object({ agents: z.array(AgentSchema) }) },
  'pan.agents.create': { input: AgentInputSchema, output: AgentSchema },
  /** One agent's vle_status, or (without vleId) every agent still PENDING. */
  'pan.agents.refresh': { input: z.object({ vleId: VleIdSchema.optional() }), output: z.object({ agents: z.array(AgentSchema) }) },
  'pan.coupons.quote': {
    input: CouponOrderInputSchema,
    output: z.object({
      ratePaise: z.number().int(),
      /** Where the rate comes from: the provider's last charge for this type, or the shop's default. */
      rateSource: z.enum(['last_charged', 'default']),
      amountPaise: z.number().int(),
      balance: PanBalanceSchema,
      /** null when the balance is not known. */
      enough: z.boolean().nullable(),
      maxQty: z.number().int(),
    }),
  },
  'pan.coupons.sell': { input: CouponOrderInputSchema, output: CouponSaleSchema },
  'pan.coupons.checkStatus': { input: z.object({ attemptId: OrderIdSchema }), output: CouponSaleSchema },
  'pan.coupons.list': { input: None, output: z.object({ sales: z.array(CouponSaleSchema) }) },
  'pan.resets.request': { input: z.object({ vleId: VleIdSchema }), output: PasswordResetSchema },
  'pan.resets.check': { input: z.object({ attemptId: OrderIdSchema }), output: PasswordResetSchema },
  'pan.resets.list': { input: z.object({ vleId: VleIdSchema }), output: z.object({ resets: z.array(PasswordResetSchema) }) },
  'pan.balance.refresh': { input: None, output: PanBalanceSchema },
} as const
export type PanHandlers = HandlersOf<typeof panChannels>

export const panEvents = {
  'coupon.changed': CouponSaleSchema,
} as const
