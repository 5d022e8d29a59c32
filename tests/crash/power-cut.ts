// What a power cut right after a crash does to the journal: the lines written since its last fsync (deferred
// lines, events.ts LINE_SYNC) are lost, all of them or down to a torn last line; everything fsync'd stays.
import fs from 'node:fs'
import path from 'node:path'
import { LINE_SYNC, type LedgerEventType } from '../../electron/ledger/events'
import { JOURNAL_DIR } from '../../electron/ledger/journal'
import { listSegments } from '../../electron/ledger/segments'
import type { PowerCut } from './protocol'

/**
 * Cuts the newest segment of the journal in `ledgerDir` as `cut` says and returns how many lines were
 * waiting for an fsync there. Only a deferred line can be past the last fsync: an 'own' line's fsync
 * carried every line before it to the disk, so the unsynced lines are the deferred ones at the end.
 */
export function cutUnsyncedTail(ledgerDir: string, cut: PowerCut): number {
  const newest = listSegments(path.join(ledgerDir, JOURNAL_DIR)).at(-1)
  if (!newest) return 0
  const bytes = fs.readFileSync(newest.file)
  let firstUnsynced = bytes.length
  let waiting = 0
  while (firstUnsynced > 0) {
    const start = bytes.lastIndexOf(0x0a, firstUnsynced - 2) + 1
    const { type } = JSON.parse(bytes.subarray(start, firstUnsynced).toString('utf8')) as { type: LedgerEventType }
    if (LINE_SYNC[type] !== 'deferred') break
    firstUnsynced = start
    waiting++
  }
  if (waiting === 0 || cut === 'none') return waiting
  const firstLineEnd = bytes.indexOf(0x0a, firstUnsynced) + 1
  fs.truncateSync(newest.file, cut === 'whole' ? firstUnsynced : firstUnsynced + Math.floor((firstLineEnd - firstUnsynced) / 2))
  return waiting
}
