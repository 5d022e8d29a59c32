// The whole surface between the counter UI and the core: channel names, input schemas, output
// types, pushed events and the result envelope. Electron IPC, the browser-mode HTTP bridge and
// tests all carry exactly this; main validates every input with these schemas.
import { z } from 'zod'
import { paiseToDecimal, readRupeesInput } from './counter/money'
import { verhoeffValid } from './counter/verhoeff'
import { CLOCK_STYLES } from './shared/dates'

// ---------- shared shapes ----------

export const ModeSchema = z.enum(['training', 'real'])
export type Mode = z.infer<typeof ModeSchema>

/** SUCCESS and FAILED are final; UNKNOWN means "no final answer yet: never resend, check status". */
export const OutcomeSchema = z.enum(['SUCCESS', 'FAILED', 'UNKNOWN'])
export type Outcome = z.infer<typeof OutcomeSchema>

/** SENDING: intent journaled, provider call under way (or interrupted by a crash). */
export const SaleStateSchema = z.enum(['SENDING', 'SUCCESS', 'FAILED', 'UNKNOWN'])
export type SaleState = z.infer<typeof SaleStateSchema>

export const RechargeKindSchema = z.enum(['mobile', 'dth'])

/** How the customer paid the shop (not the provider): counted separately at day close. */
export const PaymentModeSchema = z.enum(['cash', 'upi'])
export type PaymentMode = z.infer<typeof PaymentModeSchema>
export type RechargeKind = z.infer<typeof RechargeKindSchema>

/** What every sale carries, recharge or coupon: its state, the provider's last word, and the till. */
const saleRecord = {
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
}

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
  ...saleRecord,
})
export type Sale = z.infer<typeof SaleSchema>

export const PanBalanceSchema = z.object({ balancePaise: z.number().int().nullable(), readAt: z.string().nullable() })
export type PanBalance = z.infer<typeof PanBalanceSchema>

export const AppStatusSchema = z.object({
  mode: ModeSchema,
  platform: z.enum(['electron', 'web', 'test']),
  connectivity: z.enum(['online', 'offline', 'unknown']),
  lastContactAt: z.string().nullable(),
  shopName: z.string(),
  businessDay: z.string(),
  panBalance: PanBalanceSchema,
  version: z.string(),
  /** The ledger as opened: why it is read-only (null when writable), and what open found and repaired. */
  books: z.object({ readOnly: z.string().nullable(), notices: z.array(z.string()) }),
  /**
   * The computer's clock against the journal's last entry: 'behind' (earlier than it) or 'ahead'
   * (days past it) stop new sales, top-ups, day close and archiving until the owner confirms.
   */
  clock: z.object({ state: z.enum(['ok', 'behind', 'ahead']), message: z.string().nullable(), lastEntryAt: z.string().nullable() }),
})
export type AppStatus = z.infer<typeof AppStatusSchema>

export const OperatorSchema = z.object({
  code: z.string(),
  name: z.string(),
  kind: RechargeKindSchema,
})
export type Operator = z.infer<typeof OperatorSchema>

export const CircleSchema = z.object({ code: z.string(), name: z.string() })
export type Circle = z.infer<typeof CircleSchema>

export const ReceiptWidthSchema = z.union([z.literal(58), z.literal(80)])

export const SettingsViewSchema = z.object({
  mode: ModeSchema,
  userId: z.string(),
  rechargeBaseUrl: z.string(),
  panBaseUrl: z.string(),
  shopName: z.string(),
  shopAddress: z.string(),
  receiptWidthMm: ReceiptWidthSchema,
  printerName: z.string(),
  timezone: z.string(),
  clock: z.enum(CLOCK_STYLES),
  /** The PAN API takes POST form fields per the spec; many deployments of it expect GET query strings. */
  panRequestMethod: z.enum(['POST', 'GET']),
  couponMaxQty: z.number().int(),
  /** Rates assumed before the provider has charged for a type: P-Coupon (1) and E-Coupon (2). */
  couponDefaultRatesPaise: z.object({ p: z.number().int(), e: z.number().int() }),
  /** The most a sale may collect above its amount (the shop's service charge). */
  serviceChargeCapPaise: z.number().int(),
  /** Which secrets are stored: true/false only, never the value. */
  secrets: z.object({ token: z.boolean(), secretKey: z.boolean(), apiKey: z.boolean() }),
  /** Fields fixed by COUNTER_* environment variables: shown read-only. */
  fromEnvironment: z.array(z.string()),
})
export type SettingsView = z.infer<typeof SettingsViewSchema>


export const CouponTypeSchema = z.union([z.literal(1), z.literal(2)], { error: 'Choose P-Coupon or E-Coupon' })
export type CouponType = z.infer<typeof CouponTypeSchema>
/** Names as the spec gives them; field clients disagree, so receipts show the name and the rate charged. */
export const couponTypeNames: Record<CouponType, string> = { 1: 'P-Coupon', 2: 'E-Coupon' }

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
})
export type PendingItem = z.infer<typeof PendingItemSchema>

export const TopUpSchema = z.object({
  topupId: z.string(),
  amountPaise: z.number().int(),
  reference: z.string(),
  note: z.string(),
  at: z.string(),
  businessDay: z.string(),
})
export type TopUp = z.infer<typeof TopUpSchema>

/** A balance assertion that did not hold: what Counter expected, what the provider said, and why it might differ. */
export const BalanceBreakSchema = z.object({
  at: z.string(),
  kind: z.enum(['coupon', 'balance']),
  /** The coupon attempt id, or null for a balance read. */
  ref: z.string().nullable(),
  expectedPaise: z.number().int(),
  actualPaise: z.number().int(),
  differencePaise: z.number().int(),
  /** Since the previous assertion that held. */
  since: z.object({ at: z.string().nullable(), couponSales: z.number().int(), couponPaise: z.number().int(), topupPaise: z.number().int() }),
})
export type BalanceBreak = z.infer<typeof BalanceBreakSchema>

/** The most notes of one kind a drawer is counted with: 10,000 ₹500 notes are ₹50 lakh, far past any shop's till. */
const MAX_NOTES = 10_000
const NoteCountSchema = z
  .number({ error: 'Enter how many notes (0 if none)' })
  .int({ error: 'Notes are counted in whole numbers' })
  .min(0, { error: 'Notes cannot be fewer than 0' })
  .max(MAX_NOTES, { error: `At most ${MAX_NOTES.toLocaleString('en-IN')} notes of one kind` })

/** Coins (and ₹1, ₹2, ₹5 notes) as one sum: ₹50,000 of them would be some 40 kg of ₹10 coins, so more is a typo. */
const MAX_COINS_PAISE = 50_000_00

export const DenominationsSchema = z.object({
  n500: NoteCountSchema,
  n200: NoteCountSchema,
  n100: NoteCountSchema,
  n50: NoteCountSchema,
  n20: NoteCountSchema,
  n10: NoteCountSchema,
  /** Coins and anything smaller than ₹10, in rupees ('' for none). */
  coins: rupeesField({ max: MAX_COINS_PAISE, words: '₹50,000', zero: true, empty: true }),
})
export type Denominations = z.infer<typeof DenominationsSchema>
/** The drawer as a closed day recorded it: read back as stored, never refused for a bound set later. */
const CountedSchema = z.object({
  n500: z.number().int(),
  n200: z.number().int(),
  n100: z.number().int(),
  n50: z.number().int(),
  n20: z.number().int(),
  n10: z.number().int(),
  coins: z.string(),
})
export type NoteKey = Exclude<keyof Denominations, 'coins'>

/** The notes counted one by one at day close, largest first; smaller money is one sum of coins. */
export const banknotes: { key: NoteKey; rupees: number; paise: number }[] = [500, 200, 100, 50, 20, 10].map((rupees) => ({
  key: `n${rupees}` as NoteKey,
  rupees,
  paise: rupees * 100,
}))

const BalanceAtSchema = z.object({ balancePaise: z.number().int().nullable(), at: z.string().nullable() })

export const DaySummarySchema = z.object({
  businessDay: z.string(),
  closed: z.boolean(),
  closedAt: z.string().nullable(),
  openingPanBalance: BalanceAtSchema,
  closingPanBalance: BalanceAtSchema,
  recharges: z.array(z.object({ operatorCode: z.string(), operatorName: z.string(), state: SaleStateSchema, count: z.number().int(), amountPaise: z.number().int() })),
  coupons: z.array(z.object({ type: CouponTypeSchema, state: SaleStateSchema, orders: z.number().int(), qty: z.number().int(), amountPaise: z.number().int() })),
  topups: z.array(TopUpSchema),
  pending: z.array(PendingItemSchema),
  breaks: z.array(BalanceBreakSchema),
  cash: z.object({
    openingFloatPaise: z.number().int().nullable(),
    collectedCashPaise: z.number().int(),
    collectedUpiPaise: z.number().int(),
    expectedPaise: z.number().int().nullable(),
    countedPaise: z.number().int().nullable(),
    differencePaise: z.number().int().nullable(),
    counted: CountedSchema.nullable(),
  }),
  overrideNote: z.string().nullable(),
})
export type DaySummary = z.infer<typeof DaySummarySchema>

export const HistoryRowSchema = z.object({
  kind: z.enum(['recharge', 'coupon']),
  id: z.string(),
  at: z.string(),
  businessDay: z.string(),
  /** Number recharged, or agent id and name. */
  label: z.string(),
  /** Operator, or coupon type and quantity. */
  detail: z.string(),
  amountPaise: z.number().int().nullable(),
  state: SaleStateSchema,
  /** fpay_id or the provider's coupon order id. */
  reference: z.string().nullable(),
})
export type HistoryRow = z.infer<typeof HistoryRowSchema>

// ---------- input rules (plain words: these messages reach the shop's staff) ----------

/**
 * Rupees as typed at the counter ("199", "199.50", "1,999", "1,00,000"), bounded by `max`, and
 * above ₹0 unless `zero`. Passed on as a plain decimal ("100000"), which the core turns into
 * exact paise. Every money input is one of these, each with the bound of its own thing.
 */
function rupeesField({ max, words, zero = false, empty = false }: { max: number; words: string; zero?: boolean; empty?: boolean }) {
  return z
    .string({ error: 'Enter an amount' })
    .max(40, { error: 'Amount is far too long: check the digits' })
    .transform((text, ctx) => {
      // `empty`: a blank field means "none" (coins) or "the default" (collected), and stays ''.
      if (empty && text.trim() === '') return ''
      const { paise, problem } = readRupeesInput(text)
      const refuse = (message: string) => {
        ctx.addIssue({ code: 'custom', message })
        return z.NEVER
      }
      if (paise === undefined) return refuse(problem)
      if (paise === 0 && !zero) return refuse('Amount must be more than ₹0')
      if (paise > max) return refuse(`Amount must not be more than ${words}`)
      return paiseToDecimal(paise)
    })
}

/** The provider's limit for one recharge. */
export const RupeesSchema = rupeesField({ max: 25_000_00, words: '₹25,000' })

/** A provider-wallet top-up is not a recharge: one bank transfer of up to ₹10 lakh, the shop's largest. */
export const TopUpAmountSchema = rupeesField({ max: 10_00_000_00, words: '₹10,00,000' })

/** The drawer's float at opening: a lakh is far past any counter's change money, so more is a typo. */
const OpeningFloatSchema = rupeesField({ max: 1_00_000_00, words: '₹1,00,000', zero: true })

/**
 * What the customer paid, when more than the amount. Only the text's size is bounded here (no sale
 * at this counter reaches ₹1 crore); the real bound, amount + the shop's service-charge cap, is a
 * setting and is checked in counter/collection.ts. Empty means "the amount".
 */
const CollectedSchema = rupeesField({ max: 1_00_00_000_00, words: '₹1,00,00,000', empty: true }).optional()

export const MobileNumberSchema = z
  .string({ error: 'Enter a mobile number' })
  .trim()
  .regex(/^\d+$/, { error: 'Mobile number must contain digits only' })
  .regex(/^\d{10}$/, { error: 'Mobile number must be exactly 10 digits' })
  .regex(/^[6-9]/, { error: 'Mobile number must start with 6, 7, 8 or 9' })

/** DTH subscriber ids differ by operator (Tata Play 10 digits, Dish TV 11, ...). */
const DthNumberSchema = z
  .string({ error: 'Enter a subscriber id' })
  .trim()
  .regex(/^\d+$/, { error: 'Subscriber id must contain digits only' })
  .regex(/^\d{6,15}$/, { error: 'Subscriber id must be 6 to 15 digits' })

const OperatorCodeSchema = z
  .string({ error: 'Choose an operator' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,20}$/, { error: 'Choose an operator' })

const OrderIdSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'Not a valid order id' })

export const SellRechargeInputSchema = z
  .object({
    kind: RechargeKindSchema,
    number: z.string({ error: 'Enter a number' }),
    operatorCode: OperatorCodeSchema,
    circle: z.string().trim().max(40).optional(),
    amount: RupeesSchema,
    /** Rupees taken from the customer when more than the amount (a service charge); default: the amount. */
    collected: CollectedSchema,
    paymentMode: PaymentModeSchema.default('cash'),
  })
  .superRefine((input, ctx) => {
    const rule = input.kind === 'mobile' ? MobileNumberSchema : DthNumberSchema
    const checked = rule.safeParse(input.number)
    if (!checked.success) ctx.addIssue({ code: 'custom', path: ['number'], message: checked.error.issues[0].message })
  })
  .transform((input) => ({ ...input, number: input.number.trim() }))

const HttpUrlSchema = z
  .string()
  .trim()
  .refine((s) => s === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(s), { error: 'Must be an http:// or https:// address' })

/** PAN coupons sell at ₹107 and ₹72: a rate above ₹1,000 is a typo (and keeps a 1000-coupon order under ₹10 lakh). */
const CouponRateSchema = rupeesField({ max: 1_000_00, words: '₹1,000' })

/** Secrets are write-only: absent or empty keeps what is stored. */
const SecretInputSchema = z.string().trim().max(512).optional()

export const SaveSettingsInputSchema = z.object({
  userId: z.string().trim().max(64).regex(/^[A-Za-z0-9_-]*$/, { error: 'User id may contain letters, digits, - and _ only' }).optional(),
  token: SecretInputSchema,
  secretKey: SecretInputSchema.refine((s) => !s || /^([0-9a-fA-F]{2})+$/.test(s), {
    error: 'Secret key must be hexadecimal (0-9, a-f), an even number of characters',
  }),
  apiKey: SecretInputSchema,
  rechargeBaseUrl: HttpUrlSchema.optional(),
  panBaseUrl: HttpUrlSchema.optional(),
  shopName: z.string().trim().max(80).optional(),
  shopAddress: z.string().trim().max(240).optional(),
  receiptWidthMm: ReceiptWidthSchema.optional(),
  printerName: z.string().trim().max(120).optional(),
  timezone: z
    .string()
    .trim()
    .refine((tz) => { try { new Intl.DateTimeFormat('en-IN', { timeZone: tz }); return true } catch { return false } }, {
      error: 'Not a known time zone (for India: Asia/Kolkata)',
    })
    .optional(),
  /** 24-hour ("14:35") or 12-hour ("2:35 pm") times on screens, receipts and exports. */
  clock: z.enum(CLOCK_STYLES).optional(),
  panRequestMethod: z.enum(['POST', 'GET']).optional(),
  couponMaxQty: z.number().int().min(1, { error: 'At least 1' }).max(1000, { error: 'At most 1000' }).optional(),
  pCouponRate: CouponRateSchema.optional(),
  eCouponRate: CouponRateSchema.optional(),
  /** The most a sale may collect above its amount; ₹0 allows none. A service charge above ₹1,000 is a typo. */
  serviceChargeCap: rupeesField({ max: 1_000_00, words: '₹1,000', zero: true }).optional(),
  /** Removes user id and every stored secret: the app goes back to TRAINING. */
  forgetCredentials: z.boolean().optional(),
})
export type SaveSettingsInput = z.input<typeof SaveSettingsInputSchema>


export const AgentInputSchema = z.object({
  vleId: z.string({ error: 'Enter an agent id' }).trim().regex(/^[A-Za-z0-9_-]{3,30}$/, {
    error: 'Agent id: 3 to 30 letters, digits, - or _',
  }),
  // The provider's form takes a name in English letters only (with spaces, dots and an apostrophe, as in
  // D'Souza): one typed in Devanagari or another script is told what to type instead, first.
  name: z
    .string({ error: 'Enter the name' })
    .trim()
    .regex(/^[A-Za-z .']*$/, {
      error: "Name: type it in English letters as on the PAN card (the provider's form takes only A–Z, spaces, dots and apostrophes)",
    })
    .regex(/^[A-Za-z][A-Za-z .']{1,79}$/, { error: 'Name: 2 to 80 characters, starting with a letter' }),
  mobile: MobileNumberSchema,
  email: z.string({ error: 'Enter an e-mail address' }).trim().regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/, { error: 'Not a valid e-mail address' }),
  shop: z.string({ error: 'Enter the shop name' }).trim().min(2, { error: 'Enter the shop name' }).max(80),
  location: z.string({ error: 'Enter the location' }).trim().min(2, { error: 'Enter the location' }).max(120),
  stateCode: z.string({ error: 'Choose a state' }).trim().regex(/^\d{1,3}$/, { error: 'Choose a state' }),
  pin: z.string({ error: 'Enter the PIN code' }).trim().regex(/^[1-9]\d{5}$/, { error: 'PIN code: 6 digits, not starting with 0' }),
  uid: z
    .string({ error: 'Enter the Aadhaar number' })
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{12}$/, { error: 'Aadhaar number: 12 digits' })
        .regex(/^[2-9]/, { error: 'An Aadhaar number never starts with 0 or 1' })
        .refine(verhoeffValid, { error: 'This Aadhaar number is mistyped (its check digit does not match)' }),
    ),
  pan: z
    .string({ error: 'Enter the PAN' })
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{5}\d{4}[A-Z]$/, { error: 'PAN: 5 letters, 4 digits, 1 letter (like ABCDE1234F)' })),
})
export type AgentInput = z.input<typeof AgentInputSchema>

const VleIdSchema = z.string({ error: 'Choose an agent' }).trim().regex(/^[A-Za-z0-9_-]{1,30}$/, { error: 'Choose an agent' })

export const CouponOrderInputSchema = z.object({
  vleId: VleIdSchema,
  type: CouponTypeSchema,
  qty: z
    .number({ error: 'Enter a quantity' })
    .int({ error: 'Quantity must be a whole number' })
    .min(1, { error: 'Quantity must be at least 1' }),
  /** Rupees taken from the agent; default: the amount the provider charges. */
  collected: CollectedSchema,
  paymentMode: PaymentModeSchema.default('cash'),
})


const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'A day is written YYYY-MM-DD' })

export const HistoryQuerySchema = z.object({
  /** A number, order id, reference or agent (id or name): any part of it. */
  text: z.string().trim().max(60).optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  state: SaleStateSchema.optional(),
  kind: z.enum(['recharge', 'coupon']).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
})

export const CloseDayInputSchema = z.object({
  businessDay: DaySchema,
  openingFloat: OpeningFloatSchema,
  counted: DenominationsSchema,
  /** Closing with unresolved sales needs the owner's reason, kept in the journal. */
  overrideNote: z.string().trim().max(500).optional(),
})

const None = z.object({}).strict()
const ByOrderId = z.object({ orderId: OrderIdSchema })

// ---------- channels ----------

export const channels = {
  'app.status': { input: None, output: AppStatusSchema },
  /** The owner says the computer's clock is right although it disagrees with the journal's last entry. */
  'app.confirmClock': { input: None, output: AppStatusSchema },
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
  'sales.today': { input: None, output: z.object({ businessDay: z.string(), sales: z.array(SaleSchema) }) },
  'receipt.html': { input: ByOrderId, output: z.object({ html: z.string() }) },
  'receipt.print': { input: ByOrderId, output: z.object({ printer: z.string() }) },
  'receipt.savePdf': { input: ByOrderId, output: z.object({ path: z.string() }) },
  'settings.get': { input: None, output: SettingsViewSchema },
  'settings.save': { input: SaveSettingsInputSchema, output: SettingsViewSchema },
  'settings.testConnection': {
    input: None,
    output: z.object({ outcome: OutcomeSchema, message: z.string() }),
  },
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
  'pending.list': { input: None, output: z.object({ items: z.array(PendingItemSchema) }) },
  /** The operator confirmed the outcome by phone with the provider; the note says who and when. */
  'pending.settle': {
    input: z.object({
      kind: z.enum(['recharge', 'coupon']),
      id: OrderIdSchema,
      outcome: z.enum(['SUCCESS', 'FAILED']),
      note: z.string().trim().min(10, { error: 'Write who at the provider confirmed it, and when (at least 10 characters)' }).max(500),
    }),
    output: z.object({ items: z.array(PendingItemSchema) }),
  },
  'topups.add': {
    input: z.object({
      amount: TopUpAmountSchema,
      reference: z.string().trim().min(3, { error: 'Enter the payment reference (UTR or receipt number)' }).max(60),
      note: z.string().trim().max(200).optional(),
    }),
    output: TopUpSchema,
  },
  'topups.list': { input: z.object({ from: DaySchema.optional(), to: DaySchema.optional() }), output: z.object({ topups: z.array(TopUpSchema) }) },
  'reconcile.breaks': { input: z.object({ from: DaySchema.optional(), to: DaySchema.optional() }), output: z.object({ breaks: z.array(BalanceBreakSchema) }) },
  'day.summary': { input: z.object({ businessDay: DaySchema.optional() }), output: DaySummarySchema },
  'day.close': { input: CloseDayInputSchema, output: DaySummarySchema },
  'day.report': {
    input: z.object({ businessDay: DaySchema, format: z.enum(['receipt', 'a4', 'csv']) }),
    output: z.object({ content: z.string(), filename: z.string() }),
  },
  /** Desktop app: the 80 mm Z report printed silently on the receipt printer. */
  'day.printReport': { input: z.object({ businessDay: DaySchema }), output: z.object({ printer: z.string() }) },
  /** Desktop app: the A4 PDF or the CSV written to the reports folder. */
  'day.saveReport': { input: z.object({ businessDay: DaySchema, format: z.enum(['pdf', 'csv']) }), output: z.object({ path: z.string() }) },
  'history.search': {
    input: HistoryQuerySchema,
    output: z.object({ rows: z.array(HistoryRowSchema), total: z.number().int(), archives: z.array(z.string()) }),
  },
  'history.exportCsv': { input: HistoryQuerySchema, output: z.object({ content: z.string(), filename: z.string() }) },
} as const

export type Channels = typeof channels
export type Channel = keyof Channels
export const channelNames = Object.keys(channels) as Channel[]
export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(channels, name)
}

/** What a caller passes (before defaults and trimming). */
export type Input<K extends Channel> = z.input<Channels[K]['input']>
/** What a handler receives (after validation). */
export type ParsedInput<K extends Channel> = z.output<Channels[K]['input']>
export type Output<K extends Channel> = z.infer<Channels[K]['output']>

/** Every handler, typed per channel; domains each provide a part and the parts are merged. */
export type Handlers = { [K in Channel]: (input: ParsedInput<K>) => Promise<Output<K>> }
export type HandlersFor<K extends Channel> = Pick<Handlers, K>

// ---------- result envelope ----------

export const ErrorCodeSchema = z.enum([
  'invalid_input', // the input broke a rule; nothing was changed
  'unknown_channel',
  'not_found',
  'unsupported', // this transport cannot do it (e.g. silent printing in browser mode)
  'not_configured',
  'keychain_unavailable',
  'ledger_unavailable', // the ledger cannot be written; the message says whether the provider was asked (an answer it gives after the call is held, not refused)
  'clock_unconfirmed', // the clock disagrees with the journal: the owner must confirm it before anything is booked
  'day_closed', // the business day's books are closed: nothing more may be booked on it
  'provider_error',
  'forbidden',
  'internal',
])
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

export interface CounterErrorBody {
  code: ErrorCode
  message: string
  /** For invalid_input: the message for each offending field, keyed by field name. */
  fields?: Record<string, string>
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: CounterErrorBody }

// ---------- events pushed by the core ----------

export const events = {
  'sale.changed': SaleSchema,
  'coupon.changed': CouponSaleSchema,
  'pending.changed': z.object({ items: z.array(PendingItemSchema) }),
  'status.changed': AppStatusSchema,
} as const
export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>
export interface CounterEvent<E extends EventName = EventName> {
  name: E
  payload: EventPayload<E>
}

// ---------- transport constants ----------

/** The one Electron IPC channel for calls and the one for events (the preload exposes nothing else). */
export const IPC_CALL = 'counter:call'
export const IPC_EVENT = 'counter:event'

/** Browser mode: POST {WEB_API_PREFIX}<channel>, JSON body = input, header Authorization: Bearer <token>. */
export const WEB_API_PREFIX = '/api/'
export const WEB_EVENTS_PATH = '/events'
