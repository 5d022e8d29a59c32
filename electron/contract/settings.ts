// The shop's settings: what the screen may see (never a secret, only whether one is stored), what
// it may save, and testing the recharge connection.
import { z } from 'zod'
import { CLOCK_STYLES } from '../shared/dates'
import { ModeSchema } from './app'
import type { HandlersOf } from './channel'
import { None, rupeesField } from './fields'
import { OutcomeSchema } from './sale-record'
import { PrinterKindSchema } from './printer'
import { parsePrinterAddress } from '../shared/printer-address'
import { LANGUAGES, say } from '../shared/words'
import { officeSettingsInput, officeSettingsView } from './office'
import { isUpdateUrl } from '../shared/update-url'
import { isUpiPayee, isUpiVpa, UPI_PAYEE_MAX } from '../shared/upi'

/** 'en' or 'hi': the screens' language and, apart from it, the receipts' and Z report's. */
export const LanguageSchema = z.enum(LANGUAGES, { error: say('settings.language') })

export const ReceiptWidthSchema = z.union([z.literal(58), z.literal(80)])

export const SettingsViewSchema = z.object({
  mode: ModeSchema,
  userId: z.string(),
  rechargeBaseUrl: z.string(),
  panBaseUrl: z.string(),
  shopName: z.string(),
  shopAddress: z.string(),
  receiptWidthMm: ReceiptWidthSchema,
  printerKind: PrinterKindSchema,
  /** The OS printer's name (kind 'system'); empty prints to the default printer. */
  printerName: z.string(),
  /** Kind 'escpos': a network address (host[:port], 9100 by default) or a device or share path. */
  printerAddress: z.string(),
  /** Kind 'escpos': every receipt as an image of the HTML receipt, ₹ and all (else text, and an image only when needed). */
  printAsImage: z.boolean(),
  /** Kind 'escpos': open the cash drawer (ESC p) when a cash sale's receipt first prints. */
  openDrawerOnCash: z.boolean(),
  timezone: z.string(),
  clock: z.enum(CLOCK_STYLES),
  /** The PAN API takes POST form fields per the spec; many deployments of it expect GET query strings. */
  panRequestMethod: z.enum(['POST', 'GET']),
  couponMaxQty: z.number().int(),
  /** Rates assumed before the provider has charged for a type: P-Coupon (1) and E-Coupon (2). */
  couponDefaultRatesPaise: z.object({ p: z.number().int(), e: z.number().int() }),
  /** The most a sale may collect above its amount (the shop's service charge). */
  serviceChargeCapPaise: z.number().int(),
  /** Cash staff may take out of the drawer in a day (contract/drawer.ts); more is the owner's. */
  cashOutLimitPaise: z.number().int(),
  /** Staff count the drawer without seeing the expected figure or the difference; the owner sees both. */
  blindClose: z.boolean(),
  screenLanguage: LanguageSchema,
  receiptLanguage: LanguageSchema,
  /** Which secrets are stored: true/false only, never the value. */
  secrets: z.object({ token: z.boolean(), secretKey: z.boolean(), apiKey: z.boolean() }),
  /** Fields fixed by COUNTER_* environment variables: shown read-only. */
  fromEnvironment: z.array(z.string()),
  /** The update server (electron/updates.ts): the folder holding latest.yml and latest-linux.yml; empty checks for none. */
  updateUrl: z.string(),
  /** The shop's UPI id (shared/upi.ts): a sale paid by UPI shows a QR for its exact amount; empty shows none. */
  upiVpa: z.string(),
  /** The payee name that QR asks the customer's app to show. */
  upiPayee: z.string(),
  ...officeSettingsView,
})
export type SettingsView = z.infer<typeof SettingsViewSchema>

const HttpUrlSchema = z
  .string()
  .trim()
  .refine((s) => s === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(s), { error: say('settings.httpAddress') })

/** Where the desktop app looks for updates: empty, or an address isUpdateUrl takes. */
export const UpdateUrlSchema = z
  .string()
  .trim()
  .max(300)
  .refine((s) => s === '' || isUpdateUrl(s), { error: say('settings.updateUrl') })

/** PAN coupons sell at ₹107 and ₹72: a rate above ₹1,000 is a typo (and keeps a 1000-coupon order under ₹10 lakh). */
const CouponRateSchema = rupeesField({ max: 1_000_00, words: '₹1,000' })

/** Secrets are write-only: absent or empty keeps what is stored. */
const SecretInputSchema = z.string().trim().max(512).optional()

export const SaveSettingsInputSchema = z.object({
  userId: z.string().trim().max(64).regex(/^[A-Za-z0-9_-]*$/, { error: say('settings.userId') }).optional(),
  token: SecretInputSchema,
  secretKey: SecretInputSchema.refine((s) => !s || /^([0-9a-fA-F]{2})+$/.test(s), {
    error: say('settings.secretKeyHex'),
  }),
  apiKey: SecretInputSchema,
  rechargeBaseUrl: HttpUrlSchema.optional(),
  panBaseUrl: HttpUrlSchema.optional(),
  shopName: z.string().trim().max(80).optional(),
  shopAddress: z.string().trim().max(240).optional(),
  receiptWidthMm: ReceiptWidthSchema.optional(),
  printerKind: PrinterKindSchema.optional(),
  printerName: z.string().trim().max(120).optional(),
  printerAddress: z
    .string()
    .trim()
    .max(200)
    .superRefine((typed, ctx) => {
      const parsed = typed === '' ? null : parsePrinterAddress(typed)
      if (parsed && 'error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error })
    })
    .optional(),
  printAsImage: z.boolean().optional(),
  openDrawerOnCash: z.boolean().optional(),
  timezone: z
    .string()
    .trim()
    .refine((tz) => { try { new Intl.DateTimeFormat('en-IN', { timeZone: tz }); return true } catch { return false } }, {
      error: say('settings.timezone'),
    })
    .optional(),
  /** 24-hour ("14:35") or 12-hour ("2:35 pm") times on screens, receipts and exports. */
  clock: z.enum(CLOCK_STYLES).optional(),
  panRequestMethod: z.enum(['POST', 'GET']).optional(),
  couponMaxQty: z.number().int().min(1, { error: say('input.atLeast', { min: 1 }) }).max(1000, { error: say('input.atMost', { max: 1000 }) }).optional(),
  pCouponRate: CouponRateSchema.optional(),
  eCouponRate: CouponRateSchema.optional(),
  /** The most a sale may collect above its amount; ₹0 allows none. A service charge above ₹1,000 is a typo. */
  serviceChargeCap: rupeesField({ max: 1_000_00, words: '₹1,000', zero: true }).optional(),
  /** Cash staff may take out of the drawer in a day; ₹0 leaves every cash out to the owner. A lakh, the float's bound. */
  cashOutLimit: rupeesField({ max: 1_00_000_00, words: '₹1,00,000', zero: true }).optional(),
  blindClose: z.boolean().optional(),
  screenLanguage: LanguageSchema.optional(),
  receiptLanguage: LanguageSchema.optional(),
  /** Removes user id and every stored secret: the app goes back to TRAINING. */
  forgetCredentials: z.boolean().optional(),
  /** The update server; empty stops checking. https only, or http to 127.0.0.1 (shared/update-url.ts). */
  updateUrl: UpdateUrlSchema.optional(),
  /** The shop's UPI id; empty turns the UPI QR off. A payee name must go with it (counter/settings.ts). */
  upiVpa: z.string().trim().refine((s) => s === '' || isUpiVpa(s), { error: say('upi.vpa') }).optional(),
  upiPayee: z.string().trim().max(UPI_PAYEE_MAX, { error: say('upi.payee') }).refine((s) => s === '' || isUpiPayee(s), { error: say('upi.payee') }).optional(),
  ...officeSettingsInput,
})
export type SaveSettingsInput = z.input<typeof SaveSettingsInputSchema>

export const settingsChannels = {
  'settings.get': { input: None, output: SettingsViewSchema },
  'settings.save': { input: SaveSettingsInputSchema, output: SettingsViewSchema },
  'settings.testConnection': {
    input: None,
    output: z.object({ outcome: OutcomeSchema, message: z.string() }),
  },
} as const
export type SettingsHandlers = HandlersOf<typeof settingsChannels>
