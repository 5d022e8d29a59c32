// Cash in and out of the drawer apart from sales (issue #29): a float top-up put in, an expense, the
// owner's withdrawal or a supplier paid out, each with its reason; and the drawer's count saved before the
// close, which a blind close (a setting) keeps the expected figure from staff for.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { DaySchema, rupeesField } from './fields'
import { RoleSchema } from './roles'
import { say } from '../shared/words'

/** What the cash is for: 'float' puts cash in (change money); every other kind takes cash out. */
export const CashMoveKindSchema = z.enum(['float', 'expense', 'withdrawal', 'supplier'], { error: say('drawer.kindChoose') })
export type CashMoveKind = z.infer<typeof CashMoveKindSchema>
export const CASH_MOVE_KINDS = CashMoveKindSchema.options

export type CashDirection = 'in' | 'out'
export const cashDirectionOf = (kind: CashMoveKind): CashDirection => (kind === 'float' ? 'in' : 'out')

/** A reason a shop writes in a line: who and what for ("tea for the shop", "Ramesh, newspaper bill"). */
export const CASH_REASON_MAX = 120

/** One movement as a lakh at most, the opening float's own bound: more through a shop's drawer is a typo. */
export const CashMoveAmountSchema = rupeesField({ max: 1_00_000_00, words: '₹1,00,000' })

export const CashMoveSchema = z.object({
  moveId: z.string(),
  kind: CashMoveKindSchema,
  direction: z.enum(['in', 'out']),
  amountPaise: z.number().int(),
  reason: z.string(),
  at: z.string(),
  businessDay: z.string(),
  /** Who was at the counter when it was recorded. */
  by: RoleSchema,
})
export type CashMove = z.infer<typeof CashMoveSchema>

/** A day's movements in the order recorded, with the totals the expected drawer adds and takes off. */
export const DrawerMovesSchema = z.object({
  moves: z.array(CashMoveSchema),
  inPaise: z.number().int(),
  outPaise: z.number().int(),
})
export type DrawerMoves = z.infer<typeof DrawerMovesSchema>

/** The drawer as a count recorded it (a saved count, a closed day): notes by kind, coins as rupees; read back as stored, never refused for a bound set later. */
export const CountedSchema = z.object({
  n500: z.number().int(),
  n200: z.number().int(),
  n100: z.number().int(),
  n50: z.number().int(),
  n20: z.number().int(),
  n10: z.number().int(),
  coins: z.string(),
})

/**
 * The latest count of the day saved before its close (drawer.saveCount). `expectedPaise` and `differencePaise` are
 * left out of every answer to staff while the blind close is on: the owner sees them once the count is saved.
 */
export const DrawerCountSchema = z.object({
  businessDay: z.string(),
  openingFloatPaise: z.number().int(),
  counted: CountedSchema,
  countedPaise: z.number().int(),
  at: z.string(),
  by: RoleSchema,
  expectedPaise: z.number().int().optional(),
  differencePaise: z.number().int().optional(),
})
export type DrawerCount = z.infer<typeof DrawerCountSchema>

export const drawerChannels = {
  /** Staff may record any cash in, and cash out up to the day's limit in Settings; beyond it is the owner's. */
  'drawer.move': {
    input: z.object({
      kind: CashMoveKindSchema,
      amount: CashMoveAmountSchema,
      reason: z
        .string({ error: say('drawer.reasonEnter') })
        .trim()
        .min(1, { error: say('drawer.reasonEnter') })
        .max(CASH_REASON_MAX, { error: say('drawer.reasonMax', { max: CASH_REASON_MAX }) }),
    }),
    output: CashMoveSchema,
  },
  /** A day's movements (today's without a day), what staff may still take out today, and whether the day is closed. */
  'drawer.moves': {
    input: z.object({ businessDay: DaySchema.optional() }),
    output: DrawerMovesSchema.extend({ businessDay: z.string(), closed: z.boolean(), limitPaise: z.number().int(), staffOutPaise: z.number().int() }),
  },
} as const
export type DrawerHandlers = HandlersOf<typeof drawerChannels>
