// Owner and staff: which role the counter runs as, the owner PIN that unlocks owner mode, and the
// one list of channels only the owner may call (the core's dispatch refuses them to staff).
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None } from './fields'
import { say } from '../shared/words'

export const RoleSchema = z.enum(['owner', 'staff'])
export type Role = z.infer<typeof RoleSchema>

/** 4 to 8 digits: what a shop owner keys in quickly, checked by the core, never stored or sent back. */
export const PinSchema = z.string().regex(/^\d{4,8}$/, { error: say('pin.rule') })

export const RolesStatusSchema = z.object({
  role: RoleSchema,
  /** No PIN yet: everyone is the owner until one is set in Settings. */
  pinSet: z.boolean(),
  /** A PIN is stored but this computer's keychain lacks its key (a data folder restored elsewhere): see the reset path. */
  pinUncheckable: z.boolean(),
  /** While PIN entry is locked after too many wrong PINs: when it opens again. */
  lockedUntil: z.string().nullable(),
  /** Owner mode ends after this many minutes without an owner-only action. */
  idleMinutes: z.number().int(),
})
export type RolesStatus = z.infer<typeof RolesStatusSchema>

/**
 * The owner PIN forgotten through the reset file (counter/roles.ts), as its journal line records it: when, and
 * the file found. Shown in the status bar until a PIN is set again, and in that day's Z report.
 */
export const PinResetSchema = z.object({ at: z.string(), file: z.string() })
export type PinReset = z.infer<typeof PinResetSchema>

export const rolesChannels = {
  'roles.status': { input: None, output: RolesStatusSchema },
  'roles.unlock': { input: z.object({ pin: z.string().max(64) }), output: RolesStatusSchema },
  'roles.lock': { input: None, output: RolesStatusSchema },
  /** Sets the first PIN, or changes it: a change needs the current PIN (oldPin). */
  'roles.setPin': {
    input: z
      .object({ pin: PinSchema, repeat: z.string(), oldPin: z.string().max(64).optional() })
      .refine((value) => value.pin === value.repeat, { error: say('pin.differ'), path: ['repeat'] }),
    output: RolesStatusSchema,
  },
} as const
export type RolesHandlers = HandlersOf<typeof rolesChannels>

export const rolesEvents = {
  'roles.changed': RolesStatusSchema,
} as const

/**
 * The channels staff may not call at all: checked by the core's dispatch before the handler runs.
 * Decision: app.confirmClock is the owner's too (the README has the owner check the date), since a
 * wrong clock confirmed books sales onto the wrong day. settings.testConnection, printer test pages
 * and status checks change nothing and stay open to staff.
 */
export const OWNER_ONLY_CHANNELS = [
  'settings.save',
  'topups.add',
  'pending.settle',
  'app.confirmClock',
  // The shop's commission rates are settings (margins.ts); a customer's credit limit is the owner's risk (credit.ts);
  // forgetting a customer cannot be undone (customers.ts). Issue #10 names all three the owner's.
  'margins.saveRates',
  'credit.setLimit',
  'customers.forget',
  // Issue #10: a helper "can sell but not change settings or close the day" — any close, not only one over
  // unresolved sales (staff may still count the drawer; the owner closes).
  'day.close',
  // Issue #31: a new terminal id in the office for good; only the owner can tell which counter is the copy.
  'office.registerAnew',
  // Issue #30: where the books are copied is a setting, and a copy writes to the shop's drive; both the owner's.
  'backup.save',
  'backup.run',
  // Issue #30: a restore replaces the books, and what a copy holds is the shop's books: the owner's alone.
  'backup.sources',
  'backup.look',
  'backup.restore',
] as const
