// The copy of the books off this PC (issue #30): the folder on another disk or a removable drive it goes to, how old
// the last verified copy may get before the status bar warns, that copy, and "Back up now".
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None } from './fields'
import { say } from '../shared/words'

/** Past three months a warning about an old copy would come too late to matter. */
export const STALE_DAYS_MAX = 90

/** A copy read back and verified at the target (counter/offsite-backup.ts). */
export const BackupCopySchema = z.object({
  at: z.string(),
  /** The copy's own folder at the target. */
  path: z.string(),
  /** Journal entries in the copy, their hash chain checked from the first as read back from the target. */
  entries: z.number().int(),
})
export type BackupCopy = z.infer<typeof BackupCopySchema>

export const BackupStatusSchema = z.object({
  /** Empty: none chosen yet. */
  folder: z.string(),
  /** The status bar warns once the last verified copy off this disk is older than this. */
  staleDays: z.number().int(),
  /** The last copy verified in a folder on another disk than the books'; null: none yet. */
  lastCopy: BackupCopySchema.nullable(),
  /** A copy is being made (its progress comes as books.progress, task 'backup'). */
  running: z.boolean(),
  /** Why the last try failed, until a copy succeeds. */
  failure: z.object({ at: z.string(), message: z.string() }).nullable(),
  /** What the status bar warns of (no folder, not there, on the books' disk, a failure, an old copy); null in training and while all is well. */
  warning: z.string().nullable(),
})
export type BackupStatus = z.infer<typeof BackupStatusSchema>

export const backupChannels = {
  /** The folder (empty: none) and the days; a folder must be there and writable, one on the books' own disk is kept with a warning. */
  'backup.save': {
    input: z.object({
      folder: z.string().trim().max(1000, { error: say('backup.folderMax') }),
      staleDays: z
        .number({ error: say('backup.staleDaysRule') })
        .int({ error: say('backup.staleDaysRule') })
        .min(1, { error: say('backup.staleDaysRule') })
        .max(STALE_DAYS_MAX, { error: say('backup.staleDaysRule') }),
    }),
    output: BackupStatusSchema,
  },
  /** Copies the books now, while the counter sells; answers once the copy is verified at the target, else fails plainly. */
  'backup.run': { input: None, output: BackupCopySchema },
} as const
export type BackupHandlers = HandlersOf<typeof backupChannels>

/*
 * Restore (issue #30): the owner picks a copy of the books, sees what it holds and which sales the books have beyond it,
 * and restores it; the books it replaces are moved aside, never deleted. A source is named by an id the core gave in its
 * list, never by a path: the screens cannot have Counter read an arbitrary folder.
 */
export const RestoreKindSchema = z.enum(['daily', 'offsite', 'office'])
export type RestoreKind = z.infer<typeof RestoreKindSchema>

/** "daily:<day>", "offsite:<the counter's folder>/<the copy's folder>", or "office". */
export const RESTORE_SOURCE_ID = /^(daily:\d{4}-\d{2}-\d{2}|offsite:Counter-[\w-]{1,120}\/\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?|office)$/

export const RestoreSourceSchema = z.object({
  id: z.string(),
  kind: RestoreKindSchema,
  /** When the copy was made; null for the office, which holds what the counter shipped up to now. */
  at: z.string().nullable(),
  /** Where it is, for the owner: the day's folder, the copy's path, the office's address. */
  where: z.string(),
})
export type RestoreSource = z.infer<typeof RestoreSourceSchema>

/** A sale in the books now that the copy does not hold: listed for the owner, kept in the books moved aside. */
export const LaterSaleSchema = z.object({
  kind: z.enum(['recharge', 'coupon']),
  id: z.string(),
  at: z.string(),
  businessDay: z.string(),
  /** The number recharged, or the agent a coupon order was for. */
  whom: z.string(),
  amountPaise: z.number().int(),
  outcome: z.enum(['SUCCESS', 'FAILED', 'UNKNOWN']),
})
export type LaterSale = z.infer<typeof LaterSaleSchema>

export const RestoreLookSchema = z.object({
  source: RestoreSourceSchema,
  /** Journal entries in the copy, their hash chain checked from the first. */
  entries: z.number().int(),
  lastSale: LaterSaleSchema.nullable(),
  lastDayClosed: z.string().nullable(),
  /** Sales in the books now that the copy does not hold, oldest first. */
  laterSales: z.array(LaterSaleSchema),
  /** Why it cannot be restored (its journal does not check); null when it can. */
  problem: z.string().nullable(),
  /** A head office is set: after restoring an older copy it will find the books gone another way (Settings, Head office, says what to do). */
  office: z.boolean(),
})
export type RestoreLook = z.infer<typeof RestoreLookSchema>

export const RestoreDoneSchema = z.object({
  at: z.string(),
  source: RestoreSourceSchema,
  entries: z.number().int(),
  /** The books replaced, kept whole here. */
  movedAside: z.string(),
  laterSales: z.array(LaterSaleSchema),
})
export type RestoreDone = z.infer<typeof RestoreDoneSchema>

const SourceId = z.string().regex(RESTORE_SOURCE_ID, { error: say('restore.sourceUnknown') })

export const restoreChannels = {
  /** The copies there are to restore from, newest first, and the last restore done (with the sales it listed). */
  'backup.sources': { input: None, output: z.object({ sources: z.array(RestoreSourceSchema), lastRestore: RestoreDoneSchema.nullable() }) },
  /** What a copy holds, checked, and the sales the books have beyond it. */
  'backup.look': { input: z.object({ source: SourceId }), output: RestoreLookSchema },
  /** Restores the copy: the books now moved aside, the copy's put in their place and opened. */
  'backup.restore': { input: z.object({ source: SourceId, confirmed: z.literal(true, { error: say('restore.confirm') }) }), output: RestoreDoneSchema },
} as const
export type RestoreHandlers = HandlersOf<typeof restoreChannels>
