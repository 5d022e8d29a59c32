// Cash in and out of the drawer apart from sales (issue #29): a float top-up, an expense, the owner's withdrawal or a
// supplier paid, each journaled with its reason; staff may take out up to the day's limit in Settings, the owner more.
import { cashDirectionOf, type DrawerMoves, type HandlersFor, type Role } from '../contract'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { idToNumber } from './order-ids'
import { formatPaise } from '../shared/money'
import { say } from '../shared/words'

type DrawerChannels = 'drawer.move' | 'drawer.moves'

/** What staff took out of the drawer this day: the limit counts it all, so one large sum is not taken as small ones. */
const staffOutOf = (moves: DrawerMoves) => moves.moves.filter((move) => move.direction === 'out' && move.by === 'staff').reduce((sum, move) => sum + move.amountPaise, 0)

export function drawerHandlers(ctx: CounterContext, role: () => Role): HandlersFor<DrawerChannels> {
  return {
    async 'drawer.move'({ kind, amount: amountPaise, reason }) {
      const session = ctx.session()
      const now = ctx.now()
      const businessDay = ctx.businessDay(now)
      // Read in the same section as the line is written: two windows cannot both take the day's last rupee of the limit.
      const moveId = await ctx.recordWrite(async () => {
        if (cashDirectionOf(kind) === 'out' && role() !== 'owner') {
          const limitPaise = ctx.settings.current.cashOutLimitPaise
          const takenPaise = staffOutOf(await session.ledger.read('drawerMoves', businessDay))
          if (takenPaise + amountPaise > limitPaise) {
            throw new CounterError('owner_only', say('drawer.outOwnerOnly', { limit: formatPaise(limitPaise), taken: formatPaise(takenPaise) }), {
              amount: say('drawer.outOwnerOnlyField', { limit: formatPaise(limitPaise) }),
            })
          }
        }
        const line = { type: 'drawer.cash', data: { kind, amountPaise, reason, businessDay } } as const
        return session.ledger.write('numberedLine', line, idToNumber('cash', session.mode === 'training', now, ctx.settings.current.timezone))
      }, say('drawer.cashNotRecorded'))
      const { moves } = await session.ledger.read('drawerMoves', businessDay)
      return moves.find((move) => move.moveId === moveId)!
    },

    async 'drawer.moves'({ businessDay }) {
      const { ledger } = ctx.session()
      const day = businessDay ?? ctx.businessDay(ctx.now())
      const moves = await ledger.read('drawerMoves', day)
      return { ...moves, businessDay: day, closed: (await ledger.read('dayClosure', day)) !== null, limitPaise: ctx.settings.current.cashOutLimitPaise, staffOutPaise: staffOutOf(moves) }
    },
  }
}
