// The app as a whole: training or real mode, the status bar's view of the core (connectivity, the
// books as opened, the clock against the journal), confirming the clock, and the status as it changes.
import { z } from 'zod'
import { BackupStatusSchema } from './backup'
import type { HandlersOf } from './channel'
import { None } from './fields'
import { OfficeStatusSchema } from './office'
import { PanBalanceSchema } from './pan'
import { PinResetSchema } from './roles'

export const ModeSchema = z.enum(['training', 'real'])
export type Mode = z.infer<typeof ModeSchema>

export const AppStatusSchema = z.object({
  mode: ModeSchema,
  platform: z.enum(['electron', 'web', 'test']),
  /**
   * Whether the provider answered the last call made to it, whichever of its two addresses (recharge, PAN) that was
   * (counter/app.ts noteContact says why the bar speaks of one provider); 'unknown' until a call is made.
   */
  connectivity: z.enum(['online', 'offline', 'unknown']),
  lastContactAt: z.string().nullable(),
  /** While nothing answers: when the first call that reached no one was made; null once a call is answered. */
  unreachableSince: z.string().nullable(),
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
  /** Shipping the journal to the head office (#11); null with no office set up. */
  office: OfficeStatusSchema.nullable(),
  /** The books' last owner PIN reset while no PIN has been set since (until then anyone at the counter is the owner); else null. */
  pinReset: PinResetSchema.nullable(),
  /** The copy of the books off this PC (#30): its folder, the last verified copy, and what the bar warns of. */
  backup: BackupStatusSchema,
})
export type AppStatus = z.infer<typeof AppStatusSchema>

export const appChannels = {
  'app.status': { input: None, output: AppStatusSchema },
  /** The owner says the computer's clock is right although it disagrees with the journal's last entry. */
  'app.confirmClock': { input: None, output: AppStatusSchema },
} as const
export type AppHandlers = HandlersOf<typeof appChannels>

export const appEvents = {
  'status.changed': AppStatusSchema,
} as const
