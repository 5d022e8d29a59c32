// The shop's books: provider-wallet top-ups, balance breaks (reconcile), the day's summary, its
// close with the drawer counted, the Z report, and the progress of long audits and archiving.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { DaySchema, rupeesField } from './fields'
import { EarningsSchema } from './margins'
import { PendingItemSchema } from './pending'
import { CouponTypeSchema } from './pan'
import { DuePaymentModeSchema } from './credit'
import { PinResetSchema, RoleSchema } from './roles'
import { CountedSchema, DrawerCountSchema, DrawerMovesSchema } from './drawer'
import { SaleStateSchema } from './sale-record'
import { say } from '../shared/words'

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
  .number({ error: say('drawer.notesEnter') })
  .int({ error: say('drawer.notesWhole') })
  .min(0, { error: say('drawer.notesNegative') })
  .max(MAX_NOTES, { error: say('drawer.notesMax', { max: MAX_NOTES.toLocaleString('en-IN') }) })

/** Coins (and ₹1, ₹2, ₹5 notes) as one sum: ₹50,000 of them would be some 40 kg of ₹10 coins, so more is a typo. */
const MAX_COINS_PAISE = 50_000_00

export const DenominationsSchema = z.object({
  n500: NoteCountSchema,
  n200: NoteCountSchema,
  n100: NoteCountSchema,
  n50: NoteCountSchema,
  n20: NoteCountSchema,
  n10: NoteCountSchema,
  /** Coins and anything smaller than ₹10, typed in rupees and read as paise (blank, read as null, for none). */
  coins: rupeesField({ max: MAX_COINS_PAISE, words: '₹50,000', zero: true, empty: true }),
})
/** The count as the form sends it (coins as typed); the core reads it as ParsedInput<'day.close'>['counted']. */
export type Denominations = z.input<typeof DenominationsSchema>
export type NoteKey = Exclude<keyof Denominations, 'coins'>

/** The notes counted one by one at day close, largest first; smaller money is one sum of coins. */
export const banknotes: { key: NoteKey; rupees: number; paise: number }[] = [500, 200, 100, 50, 20, 10].map((rupees) => ({
  key: `n${rupees}` as NoteKey,
  rupees,
  paise: rupees * 100,
}))

const BalanceAtSchema = z.object({ balancePaise: z.number().int().nullable(), at: z.string().nullable() })

/** A payment of a due taken while staff were at the counter (the ledger's credit_entries.recorded_by). */
export const StaffPaymentSchema = z.object({
  receiptId: z.string(),
  number: z.string(),
  /** Null once the customer was forgotten, which only a customer who owes nothing can be. */
  name: z.string().nullable(),
  amountPaise: z.number().int(),
  mode: DuePaymentModeSchema,
  at: z.string(),
})
export type StaffPayment = z.infer<typeof StaffPaymentSchema>

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
    /**
     * A blind close (Settings) and staff at the counter: expectedPaise and differencePaise are null whatever the day
     * holds, and the page shows neither (issue #29). Days closed before it existed read false.
     */
    blind: z.boolean().default(false),
  }),
  overrideNote: z.string().nullable(),
  /** What the day earned (margins.ts); null in a day closed before Counter kept margins, shown as "—". */
  earnings: EarningsSchema.nullable().default(null),
  /**
   * Credit (udhaar), apart from cash and UPI: sales on credit (count and what was to be collected),
   * dues paid in cash (in the drawer's expectation) and by UPI, and what customers owe in all.
   * Days closed before credit existed read as none.
   */
  credit: z
    .object({
      salesCount: z.number().int(),
      salesPaise: z.number().int(),
      paidCashPaise: z.number().int(),
      paidUpiPaise: z.number().int(),
      outstandingPaise: z.number().int(),
      /**
       * The payments of dues that staff took this day, in the order taken, listed apart for the owner: nothing
       * else shows who took money against a due, and a UPI one is only known true from the bank statement.
       * Null in a day closed before Counter listed them (not known, rather than none).
       */
      staffPayments: z.array(StaffPaymentSchema).nullable().default(null),
    })
    .default({ salesCount: 0, salesPaise: 0, paidCashPaise: 0, paidUpiPaise: 0, outstandingPaise: 0, staffPayments: [] }),
  /** Successful sales by who sold them; days closed before roles existed have none recorded. */
  byRole: z.array(z.object({ role: RoleSchema, count: z.number().int(), amountPaise: z.number().int() })).default([]),
  /**
   * The shop's one PAN balance (counter/sibling-counters.ts): how the breaks were judged — this counter's own facts
   * ('counter': no head office, or no other counter), every counter's from the office ('shop'), or not surely
   * ('unsure': the office cannot be reached, or a counter's lines have not reached it; `reason` says which) — the
   * other counters' sales that moved the balance this day, and the breaks that may be theirs (never among `breaks`).
   * Days closed before the shop was judged whole read as this counter's own.
   */
  shop: z
    .object({
      judged: z.enum(['counter', 'shop', 'unsure']),
      reason: z.string().nullable(),
      counters: z.array(z.object({ counter: z.string(), couponSales: z.number().int(), couponPaise: z.number().int(), topupPaise: z.number().int() })),
      maybeOthers: z.array(BalanceBreakSchema),
    })
    .default({ judged: 'counter', reason: null, counters: [], maybeOthers: [] }),
  /**
   * The owner PIN resets journaled on the day, oldest first. Null in a day closed before Counter journaled them: a reset
   * then left no line, so "none" would not be known.
   */
  pinResets: z.array(PinResetSchema).nullable().default(null),
  /**
   * Cash put into the drawer and taken out apart from sales (issue #29): the expected drawer adds what went in and takes
   * off what went out. Null in a day closed before Counter kept them.
   */
  drawerMoves: DrawerMovesSchema.nullable().default(null),
  /** The latest count saved before the close (drawer.saveCount), or null: the owner's close starts from it. */
  drawerCount: DrawerCountSchema.nullable().default(null),
})
export type DaySummary = z.infer<typeof DaySummarySchema>

/** A provider-wallet top-up is not a recharge: one bank transfer of up to ₹10 lakh, the shop's largest. */
export const TopUpAmountSchema = rupeesField({ max: 10_00_000_00, words: '₹10,00,000' })

/** The drawer's float at opening: a lakh is far past any counter's change money, so more is a typo. */
const OpeningFloatSchema = rupeesField({ max: 1_00_000_00, words: '₹1,00,000', zero: true })

export const CloseDayInputSchema = z.object({
  businessDay: DaySchema,
  openingFloat: OpeningFloatSchema,
  counted: DenominationsSchema,
  /** Closing with unresolved sales needs the owner's reason, kept in the journal. */
  overrideNote: z.string().trim().max(500).optional(),
})

const DayRangeSchema = z.object({ from: DaySchema.optional(), to: DaySchema.optional() })

export const booksChannels = {
  'topups.add': {
    input: z.object({
      amount: TopUpAmountSchema,
      reference: z.string().trim().min(3, { error: say('topup.reference') }).max(60),
      note: z.string().trim().max(200).optional(),
    }),
    output: TopUpSchema,
  },
  'topups.list': { input: DayRangeSchema, output: z.object({ topups: z.array(TopUpSchema) }) },
  'reconcile.breaks': { input: DayRangeSchema, output: z.object({ breaks: z.array(BalanceBreakSchema) }) },
  'day.summary': { input: z.object({ businessDay: DaySchema.optional() }), output: DaySummarySchema },
  'day.close': { input: CloseDayInputSchema, output: DaySummarySchema },
  /** The drawer counted before the close, by staff or the owner: journaled, and the owner's close starts from it. */
  'drawer.saveCount': { input: CloseDayInputSchema.pick({ businessDay: true, openingFloat: true, counted: true }), output: DrawerCountSchema },
  'day.report': {
    input: z.object({ businessDay: DaySchema, format: z.enum(['receipt', 'a4', 'csv']) }),
    output: z.object({ content: z.string(), filename: z.string() }),
  },
  /** Desktop app: the 80 mm Z report printed silently on the receipt printer. */
  'day.printReport': { input: z.object({ businessDay: DaySchema }), output: z.object({ printer: z.string() }) },
  /** Desktop app: the A4 PDF or the CSV written to the reports folder. */
  'day.saveReport': { input: z.object({ businessDay: DaySchema, format: z.enum(['pdf', 'csv']) }), output: z.object({ path: z.string() }) },
} as const
export type BooksHandlers = HandlersOf<typeof booksChannels>

/** How far a whole-journal audit, a year's archiving or a copy off this PC (copied, then read back) has got, so the screen shows it is working. */
export const BooksProgressSchema = z.object({
  task: z.enum(['audit', 'archive', 'backup']),
  done: z.number().int(),
  total: z.number().int(),
})
export type BooksProgress = z.infer<typeof BooksProgressSchema>

export const booksEvents = {
  'books.progress': BooksProgressSchema,
} as const
