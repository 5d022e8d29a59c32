// The shipper's view of a journal folder: verified batches of complete lines after a point, and how many lines the journal holds.
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry } from '../ledger/events'
import { listSegments, locate, readChain, samePoint, type ChainPoint, type ReadStart } from '../ledger/segments'
import { say } from '../shared/words'

/** Why nothing more can be read: the chain broke (an edited or removed line), or the journal is not the one the office holds. */
export interface ReadRefusal {
  kind: 'tampered' | 'fork'
  message: string
}

export type Batch = { entries: JournalEntry[]; refused: null } | { entries: JournalEntry[]; refused: ReadRefusal }

/** Thrown by the visitor to end readChain's pass once a batch is full; caught right there. */
class BatchFull extends Error {}

/**
 * Reads the journal forward from the last point the office acknowledged. It keeps where it stopped
 * (segment and byte offset), so each batch reads only its own lines, never the journal again
 * from the start; `from` with a point it is not at looks that point up again (a reconnect).
 */
export class JournalCursor {
  private start: ReadStart | null = null

  constructor(private readonly journalDir: string) {}

  read(after: ChainPoint, max: number): Batch {
    if (this.start === null || !samePoint(this.start.after, after)) {
      const found = locate(listSegments(this.journalDir), after)
      if (!found.found) {
        return {
          entries: [],
          refused: {
            kind: 'fork',
            message: say('office.journalDiffers', { seq: after.seq, reason: found.reason }),
          },
        }
      }
      this.start = found.start
    }
    const entries: JournalEntry[] = []
    let chain
    try {
      // Decision: readChain verifies every line as the ledger's own audit does; a full batch ends its pass early.
      chain = readChain(listSegments(this.journalDir), this.start, (entry, next) => {
        entries.push(entry)
        this.start = next
        if (entries.length >= max) throw new BatchFull()
      })
    } catch (error) {
      if (error instanceof BatchFull) return { entries, refused: null }
      throw error
    }
    if (chain.broken) {
      const { line, file, reason } = chain.broken
      return {
        entries,
        refused: {
          kind: 'tampered',
          message: say('office.entryAltered', { line, file: path.basename(file), reason }),
        },
      }
    }
    return { entries, refused: null }
  }
}

/**
 * The seq of the journal's last complete line, counted from the newline bytes of the last segment
 * alone and only the bytes added since the last count: the status bar's "N entries behind" costs a stat most of the time.
 */
export class JournalEnd {
  private counted = { file: '', bytes: 0, lines: 0 }

  constructor(private readonly journalDir: string) {}

  lastSeq(): number {
    const last = listSegments(this.journalDir).at(-1)
    if (!last) return 0
    if (this.counted.file !== last.file) this.counted = { file: last.file, bytes: 0, lines: 0 }
    const size = fs.statSync(last.file).size
    if (size > this.counted.bytes) {
      const fd = fs.openSync(last.file, 'r')
      try {
        const chunk = Buffer.allocUnsafe(1 << 20)
        for (let position = this.counted.bytes; position < size; ) {
          const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position)
          if (read === 0) break
          const lastNewline = chunk.subarray(0, read).lastIndexOf(0x0a)
          // Up to the last newline only: a line still being written is counted once it is whole.
          if (lastNewline === -1) break
          for (let at = chunk.indexOf(0x0a); at !== -1 && at <= lastNewline; at = chunk.indexOf(0x0a, at + 1)) this.counted.lines++
          position += lastNewline + 1
          this.counted.bytes = position
        }
      } finally {
        fs.closeSync(fd)
      }
    }
    return last.first + this.counted.lines - 1
  }
}
