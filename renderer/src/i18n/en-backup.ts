// English strings for the copy of the books off this PC: its card in Settings and the status bar's warning (same syntax as en.ts).
export const backupEn = {
  backup: {
    title: 'Backup off this PC',
    intro:
      'A copy of the books on another disk or a USB drive, so a dead or stolen PC does not take them: made after each day close and when you press Back up now, while sales go on, and read back to check it before it counts. The last 3 copies are kept there.',
    folder: 'Backup folder, on another disk or a USB drive',
    folderHint: 'The whole path, such as {windows} or {linux}. Empty: no copy is made.',
    staleDays: 'Warn when the last copy is older than (days)',
    save: 'Save backup settings',
    saved: 'Backup settings saved.',
    now: 'Back up now',
    copying: 'Copying and checking…',
    done: 'Done at {time}: copied and checked, up to journal entry #{entries}.',
    last: 'Last copy off this PC: {time}, in {path}',
    none: 'No copy off this PC yet.',
    training: 'Training mode: the shop’s real books are copied once Counter is in real mode.',
    /** The status bar's label before the warning's words. */
    bar: 'Backup',
  },
}
