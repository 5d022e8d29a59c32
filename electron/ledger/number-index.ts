// The index of numbers beside each archived year: the history rows of its sales, recharges sorted by number, in blocks that each carry their own digest, so a search by number reads a few blocks instead of opening the year.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Database, ParamsObject, SqlValue } from 'sql.js'
import type { SaleKind } from './events'
import { ARM_SELECT } from './history-rows'
import { syncDirectory, writeFileAtomically } from './durable-files'

/**
 * Decisions, for issue #8's search target (a number across all years in 50 ms at 1M sales, where
 * opening four archives of about 90 MB each took 375 ms):
 * - One index per archive, in its own folder (ledger/archive-index/FY<yyyy-yy>.numbers), not one
 *   across years: it is written with its archive and dies with it, and the archive folder keeps
 *   only archives. It is derived data, not backed up (backups.ts copies archive/*.sqlite): after a
 *   restore the first search by number builds it again.
 * - It holds the history rows themselves (the columns of ARM_SELECT), so the rows a history page
 *   shows are served from the index; the archive is not opened at all.
 * - Recharges are sorted by number, in blocks of BLOCK_ROWS with each block's first and last number
 *   in the header: a number's sales are found by their range and read block by block. Coupon sales
 *   are matched by digits anywhere in their ids and agent (history.ts), so they cannot be found by
 *   range; they are a few a day (about 1,200 a year against 200,000 recharges in the bench), and
 *   every digit search reads all of their blocks.
 * - The check: the header is bound to its archive's name, size and modification time, and carries
 *   its own digest and every block's. A search checks the header and each block it reads; a missing
 *   index, an edited one (header or a block read), or one of another version of the archive is not
 *   trusted and the caller answers from the archive and builds the index again from it. A size and
 *   time are what a search can check without reading 90 MB; the archive itself changes only by
 *   archiving, which removes the index before it replaces the archive (see archive.ts), so a
 *   crash never leaves a new archive beside an old index.
 */
export const NUMBER_INDEX_DIR = 'archive-index'
const FORMAT = 'counter-number-index/1'
/** A search reads the header (one entry a block) and a block or two: about 50 KB of each at 200,000 recharges a year. */
const BLOCK_ROWS = 512
/** The first line: the format, the header's length in bytes and its sha256. */
const FIRST_LINE = /^counter-number-index\/1 (\d+) ([0-9a-f]{64})\n/
const FIRST_LINE_MAX_BYTES = 128
/**
 * A short prefix ('9') matches a large share of a year; past this many blocks of recharges (32,768
 * sales) the archive answers instead: SQLite counts and sorts that many rows faster than they are
 * parsed here (measured at 1M sales: '9', about 45,000 sales a year, took 4.0 s from the indexes
 * against 1.3 s from the archives on the same loaded machine; '98', about 10 blocks, 0.28 s against 0.94 s).
 */
const MAX_BLOCKS = 64

/** Why an index gives no rows: it cannot be trusted (missing, damaged, stale), or the prefix is too broad for it. */
export type NoIndexAnswer = 'untrusted' | 'too broad'

/** Which archive file an index was built from. */
export interface ArchiveVersion {
  name: string
  bytes: number
  modifiedMs: number
}

interface Block {
  bytes: number
  sha256: string
}

/** A block of recharges, sorted by number: the first and last number in it. */
interface NumberBlock extends Block {
  first: string
  last: string
}

interface Header {
  archive: ArchiveVersion
  /** The column names of each row's values, in ARM_SELECT's order, its kind left out. */
  columns: string[]
  recharge: NumberBlock[]
  coupon: Block[]
}

/** Numbers are digits (validated when sold), so JavaScript's order of strings is SQLite's order of their bytes. */
const byNumber = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex')

const indexFile = (dir: string, name: string): string => path.join(dir, NUMBER_INDEX_DIR, `${name}.numbers`)

/** The rows of one arm without its kind column (the section of the index says the kind), in `order`. */
function armRows(db: Database, kind: SaleKind, order = ''): { columns: string[]; rows: SqlValue[][] } {
  const statement = db.prepare(ARM_SELECT[kind] + order)
  try {
    const columns = statement.getColumnNames()
    const kept = columns.map((_, i) => i).filter((i) => columns[i] !== 'kind')
    const rows: SqlValue[][] = []
    while (statement.step()) {
      const row = statement.get()
      rows.push(kept.map((i) => row[i]))
    }
    return { columns: kept.map((i) => columns[i]), rows }
  } finally {
    statement.free()
  }
}

function blocksOf(rows: SqlValue[][]): Buffer[] {
  const blocks: Buffer[] = []
  for (let start = 0; start < rows.length; start += BLOCK_ROWS) blocks.push(Buffer.from(`${JSON.stringify(rows.slice(start, start + BLOCK_ROWS))}\n`))
  return blocks
}

/** Writes the index of `db` (the archive `archive` was written from), atomically and durably. */
export function writeNumberIndex(dir: string, db: Database, archive: ArchiveVersion): void {
  // SQLite sorts by number along its index (sales_by_number); a search compares as byNumber does,
  // so the order is checked, and sorted again here should any number not be plain digits.
  const recharges = armRows(db, 'recharge', ' ORDER BY a')
  const coupons = armRows(db, 'coupon')
  const number = recharges.columns.indexOf('a')
  const numberOf = (row: SqlValue[]) => String(row[number])
  if (recharges.rows.some((row, i) => i > 0 && byNumber(numberOf(recharges.rows[i - 1]), numberOf(row)) > 0)) {
    recharges.rows.sort((x, y) => byNumber(numberOf(x), numberOf(y)))
  }
  const rechargeBlocks = blocksOf(recharges.rows)
  const couponBlocks = blocksOf(coupons.rows)
  const header: Header = {
    archive: { name: archive.name, bytes: archive.bytes, modifiedMs: archive.modifiedMs },
    columns: recharges.columns,
    recharge: rechargeBlocks.map((block, i) => {
      const rows = recharges.rows.slice(i * BLOCK_ROWS, (i + 1) * BLOCK_ROWS)
      return { first: numberOf(rows[0]), last: numberOf(rows[rows.length - 1]), bytes: block.length, sha256: sha256(block) }
    }),
    coupon: couponBlocks.map((block) => ({ bytes: block.length, sha256: sha256(block) })),
  }
  const headerBytes = Buffer.from(JSON.stringify(header))
  const firstLine = Buffer.from(`${FORMAT} ${headerBytes.length} ${sha256(headerBytes)}\n`)
  const file = indexFile(dir, archive.name)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  writeFileAtomically(path.dirname(file), path.basename(file), Buffer.concat([firstLine, headerBytes, ...rechargeBlocks, ...couponBlocks]))
}

/** Removes `name`'s index durably, before its archive is replaced or set aside. */
export function removeNumberIndex(dir: string, name: string): void {
  const file = indexFile(dir, name)
  if (!fs.existsSync(file)) return
  fs.rmSync(file)
  syncDirectory(path.dirname(file))
}

/** `length` bytes at `position`, or null when the file ends first. */
function readAt(fd: number, position: number, length: number): Buffer | null {
  const bytes = Buffer.alloc(length)
  let read = 0
  while (read < length) {
    const got = fs.readSync(fd, bytes, read, length - read, position + read)
    if (got === 0) return null
    read += got
  }
  return bytes
}

/** The header, if it is whole, unedited and of this version of the archive; null otherwise. */
function readHeader(fd: number, archive: ArchiveVersion): { header: Header; bodyAt: number } | null {
  const start = Buffer.alloc(FIRST_LINE_MAX_BYTES)
  const got = fs.readSync(fd, start, 0, start.length, 0)
  const first = FIRST_LINE.exec(start.subarray(0, got).toString('latin1'))
  if (!first) return null
  const headerBytes = readAt(fd, first[0].length, Number(first[1]))
  if (headerBytes === null || sha256(headerBytes) !== first[2]) return null
  const header = JSON.parse(headerBytes.toString('utf8')) as Header
  const built = header.archive
  if (built.name !== archive.name || built.bytes !== archive.bytes || built.modifiedMs !== archive.modifiedMs) return null
  return { header, bodyAt: first[0].length + headerBytes.length }
}

/**
 * The rows of the chosen blocks (indices into `blocks`, ascending) whose text holds `mention`: a
 * block without it anywhere cannot hold a row that does, and is checked but not parsed. Null if one
 * of them is not what the header says.
 */
function readBlocks(fd: number, blocks: Block[], chosen: number[], blocksAt: number, mention = ''): SqlValue[][] | null {
  if (chosen.length === 0) return []
  const offsets: number[] = []
  let offset = blocksAt
  for (const block of blocks) {
    offsets.push(offset)
    offset += block.bytes
  }
  const from = offsets[chosen[0]]
  const last = chosen[chosen.length - 1]
  // The chosen blocks are consecutive: one read.
  const bytes = readAt(fd, from, offsets[last] + blocks[last].bytes - from)
  if (bytes === null) return null
  const rows: SqlValue[][] = []
  for (const i of chosen) {
    const block = bytes.subarray(offsets[i] - from, offsets[i] - from + blocks[i].bytes)
    if (sha256(block) !== blocks[i].sha256) return null
    const text = block.toString('utf8')
    if (text.includes(mention)) rows.push(...(JSON.parse(text) as SqlValue[][]))
  }
  return rows
}

/** A row of ARM_SELECT's columns; a plain loop, as a search may turn a few thousand of them. */
function rowObject(kind: SaleKind, columns: string[], values: SqlValue[]): ParamsObject {
  const row: ParamsObject = { kind }
  for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i]
  return row
}

/**
 * From `archive`'s index, as rows of ARM_SELECT's columns (of `kinds` only): the recharges whose
 * number is in [digits, below), and the coupon sales of every block in which `digits` appear (a
 * coupon sale matches by digits anywhere in its ids and agent); the caller picks the rows that
 * match. 'untrusted' when the index is missing, damaged or of another version of the archive.
 */
export function readNumberIndex(dir: string, archive: ArchiveVersion, digits: string, below: string, kinds: SaleKind[]): ParamsObject[] | NoIndexAnswer {
  let fd: number
  try {
    fd = fs.openSync(indexFile(dir, archive.name), 'r')
  } catch {
    return 'untrusted'
  }
  try {
    const found = readHeader(fd, archive)
    if (found === null) return 'untrusted'
    const { header, bodyAt } = found
    const numberBlocks = header.recharge.flatMap((block, i) => (byNumber(block.last, digits) >= 0 && byNumber(block.first, below) < 0 ? [i] : []))
    if (kinds.includes('recharge') && numberBlocks.length > MAX_BLOCKS) return 'too broad'
    const couponsAt = bodyAt + header.recharge.reduce((sum, block) => sum + block.bytes, 0)
    const number = header.columns.indexOf('a')
    const inRange = (values: SqlValue[]) => byNumber(String(values[number]), digits) >= 0 && byNumber(String(values[number]), below) < 0
    const rows: ParamsObject[] = []
    for (const kind of kinds) {
      const values =
        kind === 'recharge' ? readBlocks(fd, header.recharge, numberBlocks, bodyAt) : readBlocks(fd, header.coupon, header.coupon.map((_, i) => i), couponsAt, digits)
      if (values === null) return 'untrusted'
      for (const row of values) if (kind === 'coupon' || inRange(row)) rows.push(rowObject(kind, header.columns, row))
    }
    return rows
  } catch {
    // A read that fails, or a header or block that matches its digest yet does not parse (written so
    // by no Counter): the archive answers instead.
    return 'untrusted'
  } finally {
    fs.closeSync(fd)
  }
}
