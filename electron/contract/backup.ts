// The copy of the books off this PC (issue #30): the folder on another disk or a removable drive it goes to, how old
// the last verified copy may get before the status bar warns, that copy, and "Back up now".
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None } from './fields'
import { say } from '../shared/error-words'

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
