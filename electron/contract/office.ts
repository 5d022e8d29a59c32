// The head office as the screens see it: where its PostgreSQL is, this counter's name in it, and how far shipping has got.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { say } from '../shared/words'

/** Names the counter in the office together with the shop's name: letters in any script, digits, spaces, - and /. */
const CounterNameSchema = z
  .string()
  .trim()
  .max(40, { error: say('office.counterNameMax') })
  .regex(/^[\p{L}\p{M}\p{N} _./-]*$/u, { error: say('office.counterNameRule') })

/** PostgreSQL's own names (database, role): letters, digits, _ - and . without quoting. */
const PgNameSchema = z
  .string()
  .trim()
  .max(63, { error: say('office.pgNameMax') })
  .regex(/^[A-Za-z0-9_.-]*$/, { error: say('office.pgNameRule') })

const HostSchema = z
  .string()
  .trim()
  .max(253, { error: say('office.hostMax') })
  .regex(/^[A-Za-z0-9.:-]*$/, { error: say('office.hostRule') })

/** Where the office is: shown in Settings (the password only as stored or not). */
export const officeSettingsView = {
  counterName: z.string(),
  officeHost: z.string(),
  officePort: z.number().int(),
  officeDatabase: z.string(),
  officeUser: z.string(),
  /** Off only for an office on this computer (127.0.0.1 or localhost). */
  officeTls: z.boolean(),
  officePasswordStored: z.boolean(),
}

/** What Settings may save about the office; the checks that need two fields at once are in counter/settings.ts. */
export const officeSettingsInput = {
  counterName: CounterNameSchema.optional(),
  /** Empty: no office, nothing is shipped. */
  officeHost: HostSchema.optional(),
  officePort: z.number({ error: say('office.portNumber') }).int({ error: say('office.portWhole') }).min(1, { error: say('office.portRange') }).max(65535, { error: say('office.portRange') }).optional(),
  officeDatabase: PgNameSchema.optional(),
  officeUser: PgNameSchema.optional(),
  officeTls: z.boolean().optional(),
  /** Write-only, like the partner secrets: absent or empty keeps what the keychain holds. */
  officePassword: z.string().max(512, { error: say('office.passwordMax') }).optional(),
}

/**
 * Shipping as the status bar shows it; null with no office set up. 'waiting': the counter has no
 * name yet, or the books are in training. 'refused': the journal broke its chain, or differs from
 * what the office holds (a fork): nothing from there on is shipped, `message` says where.
 */
export const OfficeStatusSchema = z.object({
  state: z.enum(['waiting', 'connecting', 'shipping', 'caught-up', 'unreachable', 'refused']),
  terminalId: z.string().nullable(),
  /** Journal entries the office has not acknowledged (null until the office has answered once). */
  behind: z.number().int().nullable(),
  /** The last entry the office acknowledged, as last heard (null: never). */
  acknowledged: z.number().int().nullable(),
  /** When the office stopped answering; null while it answers. */
  unreachableSince: z.string().nullable(),
  /** Plain words for the shop: why it is unreachable or refused. Never the password. */
  message: z.string().nullable(),
  /**
   * While the office refuses this journal as a fork (another journal, a copied data folder, holds this id there):
   * the first entry where the two part. `behind` then counts this journal's entries from there, all waiting here.
   */
  fork: z.object({ partsAt: z.number().int() }).nullable(),
})
export type OfficeStatus = z.infer<typeof OfficeStatusSchema>

export const officeChannels = {
  /**
   * The way back from a fork: this counter becomes a new terminal in the office and its journal ships under the new
   * id. Only while the office refuses it as a fork; `terminalId` is the refused id the owner confirmed, so a second
   * press (or a screen left open) cannot register it anew twice.
   */
  'office.registerAnew': {
    input: z.object({ terminalId: z.string().max(200) }),
    output: z.object({ terminalId: z.string() }),
  },
} as const
export type OfficeHandlers = HandlersOf<typeof officeChannels>
