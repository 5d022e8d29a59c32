// What a ledger folder's journal holds, read from its files without opening the books: how many entries (their hash
// chain checked from the first), its last sale and last closed day, and the sales one journal has that another lacks.
// A restore (counter/restore.ts) shows the first before replacing the books, and lists the second so nothing is dropped.
import fs from 'node:fs'
import path from 'node:path'
import type { JournalEntry, SaleKind } from './events'
import { FROM_THE_START, JOURNAL_DIR, LEGACY_JOURNAL_FILE, listSegments, locate, readChain, type ChainPoint, type ReadStart, type Segment } from './segments'

/** A sale as its journal lines tell it: what the owner needs to find it again (and settle it with the provider). */
export interface JournalSale {
  kind: SaleKind
  /** The order id of a recharge, the attempt id of a coupon order. */
  id: string
  at: string
  businessDay: string
  /** The number recharged; the agent a coupon order was for. */
  whom: string
  amountPaise: number
  /** The last word on it in this journal: UNKNOWN while no answer about the order came (or it is still being asked). */
  outcome: 'SUCCESS' | 'FAILED' | 'UNKNOWN'
}

export interface JournalSummary {
  entries: number
  end: ChainPoint
  /** The first line the chain stops being trusted at (a changed, lost or doubled line), and why; null when every line verifies. */
  broken: { line: number; reason: string } | null
  lastSale: JournalSale | null
  lastDayClosed: string | null
  /** Every sale's kind and id ("recharge:<order id>", "coupon:<attempt id>"): what salesBeyond compares another journal with. */
  saleKeys: Set<string>
}

function segmentsOf(dir: string): Segment[] {
  const segments = listSegments(path.join(dir, JOURNAL_DIR))
  const legacy = path.join(dir, LEGACY_JOURNAL_FILE)
  if (segments.length === 0 && fs.existsSync(legacy)) segments.push({ first: 1, file: legacy })
  return segments
}

/** Follows sales through their lines: an intent opens one, an outcome or a settling by phone gives its last word. */
class SaleTracker {
  readonly sales = new Map<string, JournalSale>()
  last: JournalSale | null = null

  see(entry: JournalEntry): void {
    const { type } = entry
    if (type === 'recharge.intent') {
      const data = (entry as JournalEntry<'recharge.intent'>).data
      this.open({ kind: 'recharge', id: data.orderId, at: entry.at, businessDay: data.businessDay, whom: data.number, amountPaise: data.amountPaise, outcome: 'UNKNOWN' })
    } else if (type === 'pan.coupon.intent') {
      const data = (entry as JournalEntry<'pan.coupon.intent'>).data
      const whom = data.vleName ? `${data.vleName} (${data.vleId})` : data.vleId
      this.open({ kind: 'coupon', id: data.attemptId, at: entry.at, businessDay: data.businessDay, whom, amountPaise: data.expectedRatePaise * data.qty, outcome: 'UNKNOWN' })
    } else if (type === 'recharge.outcome') {
      const data = (entry as JournalEntry<'recharge.outcome'>).data
      this.answer(`recharge:${data.orderId}`, data.outcome)
    } else if (type === 'pan.coupon.outcome') {
      const data = (entry as JournalEntry<'pan.coupon.outcome'>).data
      const sale = this.sales.get(`coupon:${data.attemptId}`)
      if (sale && data.amountPaise !== null) sale.amountPaise = data.amountPaise
      this.answer(`coupon:${data.attemptId}`, data.outcome)
    } else if (type === 'sale.settled') {
      const data = (entry as JournalEntry<'sale.settled'>).data
      this.answer(`${data.kind}:${data.id}`, data.outcome)
    }
  }

  private open(sale: JournalSale): void {
    this.sales.set(`${sale.kind}:${sale.id}`, sale)
    this.last = sale
  }

  private answer(key: string, outcome: string): void {
    const sale = this.sales.get(key)
    if (sale && (outcome === 'SUCCESS' || outcome === 'FAILED')) sale.outcome = outcome
  }
}

/** Reads the whole journal in `dir` (a ledger folder), checking its chain from the first line. */
export function summarizeJournal(dir: string): JournalSummary {
  const sales = new SaleTracker()
  let entries = 0
  let lastDayClosed: string | null = null
  const read = readChain(segmentsOf(dir), FROM_THE_START, (entry) => {
    entries++
    sales.see(entry)
    if (entry.type === 'day.closed') lastDayClosed = (entry as JournalEntry<'day.closed'>).data.businessDay
  })
  const broken = read.broken && { line: read.broken.line, reason: read.broken.reason }
  return { entries, end: read.last, broken, lastSale: sales.last, lastDayClosed, saleKeys: new Set(sales.sales.keys()) }
}

/**
 * The sales in the journal in `dir` that the journal `source` summarizes does not hold, in the order they were made:
 * those begun after its end when `dir`'s journal passes through that end (a copy of these books made earlier), else
 * every sale it has no line of (books that went another way since).
 */
export function salesBeyond(dir: string, source: Pick<JournalSummary, 'end' | 'saleKeys'>): JournalSale[] {
  const segments = segmentsOf(dir)
  const located = source.end.seq === 0 ? ({ found: true, start: FROM_THE_START } as const) : locate(segments, source.end)
  const start: ReadStart = located.found ? located.start : FROM_THE_START
  const sales = new SaleTracker()
  readChain(segments, start, (entry) => sales.see(entry))
  return [...sales.sales].filter(([key]) => !source.saleKeys.has(key)).map(([, sale]) => sale)
}
