// What every sale carries, recharge or coupon: its state, the provider's last word, and the till.
import { z } from 'zod'

/** SUCCESS and FAILED are final; UNKNOWN means "no final answer yet: never resend, check status". */
export const OutcomeSchema = z.enum(['SUCCESS', 'FAILED', 'UNKNOWN'])
export type Outcome = z.infer<typeof OutcomeSchema>

/** SENDING: intent journaled, provider call under way (or interrupted by a crash). */
export const SaleStateSchema = z.enum(['SENDING', 'SUCCESS', 'FAILED', 'UNKNOWN'])
export type SaleState = z.infer<typeof SaleStateSchema>

/** How the customer paid the shop (not the provider): counted separately at day close. Credit: later (contract/credit.ts). */
export const PaymentModeSchema = z.enum(['cash', 'upi', 'credit'])
export type PaymentMode = z.infer<typeof PaymentModeSchema>

/** The fields a recharge and a coupon sale both have, spread into each one's schema. */
export const saleRecord = {
  state: SaleStateSchema,
  /** The provider's own status word, verbatim, when it gave one. */
  providerStatus: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastCheckedAt: z.string().nullable(),
  training: z.boolean(),
  /** What the shop took from the customer: the amount, or more with a service charge. */
  collectedPaise: z.number().int(),
  paymentMode: PaymentModeSchema,
  /** Set when the operator settled an unresolved sale by phone with the provider. */
  settledNote: z.string().nullable(),
  /** When staff confirmed a UPI payment arrived ("UPI received", sales.upiReceived); null until then and for other modes. */
  upiConfirmedAt: z.string().nullable(),
}
