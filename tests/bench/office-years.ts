// The office benchmark's closed year (office migration 10): one terminal's history ingested, its first year exported and dropped (years.ts), with the disk each step takes and frees.
import path from 'node:path'
import { statSync } from 'node:fs'
import pg from 'pg'
import { ingestBatch, registerTerminal } from '../../electron/office/ingest'
import { migrateOffice } from '../../electron/office/migrations'
import type { OfficeAddress } from '../../electron/office/shipper'
import { dropYear, exportYear } from '../../electron/office/years'
import { startTestPostgres } from '../helpers/postgres'
import { chained } from './office-page-scale'
import type { AnyDraft } from './shop-history'

export interface YearsRun {
  entries: number
  /** entries' table with its indexes and TOAST, bytes per entry, before the drop. */
  bytesPerEntry: number
  year: number
  archived: number
  exportSeconds: number
  fileBytes: number
  dropSeconds: number
  /** What the office keeps of the archived lines (office_archives and the archived roll-ups), bytes per archived entry. */
  keptBytesPerEntry: number
  /** Of which every line's hash, with its range (office_archives). */
  hashesBytesPerEntry: number
  /** The live roll-up of each sale (office_sales), before and after the drop, bytes. */
  salesBytesBefore: number
  salesBytesAfter: number
  /** entries' size after the drop and VACUUM FULL, bytes. */
  entriesBytesBefore: number
  entriesBytesAfter: number
  /** A batch of 500 archived lines resent: acknowledged from the archive's hashes, ms. */
  resendMs: number
}

const relationBytes = async (client: pg.Client, names: string[]) =>
  Number((await client.query<{ bytes: string }>('SELECT sum(pg_total_relation_size(name::regclass)) AS bytes FROM unnest($1::text[]) AS name', [names])).rows[0].bytes)

/**
 * `drafts` (the bench shop's history from its first day, 2020-04-01) as one terminal's entries, stored as its shipper
 * stores them; then its first calendar year exported and dropped as the owner would (npm run office -- export-year,
 * drop-year), into `root`.
 */
export async function yearsAtScale(drafts: readonly AnyDraft[], root: string, progress: (line: string) => void): Promise<YearsRun> {
  const entries = chained(drafts)
  const year = Number(entries[0].at.slice(0, 4))
  const db = await startTestPostgres({ durable: true })
  const office: OfficeAddress = { host: db.host, port: db.port, database: db.database, user: db.user, password: db.password, tls: false }
  const client = new pg.Client(office)
  await client.connect()
  try {
    await migrateOffice(client)
    const terminal = { terminalId: 'bench-years/counter-1', shop: 'Bench Years', counter: 'Counter 1' }
    await registerTerminal(client, terminal)
    progress(`Years: storing ${entries.length} entries`)
    for (let from = 0; from < entries.length; from += 500) await ingestBatch(client, terminal.terminalId, entries.slice(from, from + 500))
    await client.query('VACUUM FULL ANALYZE entries, office_sales')
    const entriesBytesBefore = await relationBytes(client, ['entries'])
    const salesBytesBefore = await relationBytes(client, ['office_sales'])
    const file = path.join(root, `office-${year}.jsonl.gz`)
    const options = { year, timeZone: 'Asia/Kolkata', file, progress: (words: string) => progress(`Years: ${words}`) }
    let at = process.hrtime.bigint()
    const exported = await exportYear(client, options)
    const exportSeconds = Number(process.hrtime.bigint() - at) / 1e9
    at = process.hrtime.bigint()
    await dropYear(client, options)
    const dropSeconds = Number(process.hrtime.bigint() - at) / 1e9
    at = process.hrtime.bigint()
    await ingestBatch(client, terminal.terminalId, entries.slice(1_000, 1_500))
    const resendMs = Number(process.hrtime.bigint() - at) / 1e6
    // As autovacuum would leave them: each fact a fold writes is a new version of its sale's row.
    await client.query('VACUUM FULL ANALYZE entries, office_sales, office_archives, office_archived_sales, office_archived_dues, office_archived_day_closes')
    const hashesBytes = await relationBytes(client, ['office_archives'])
    const kept = await relationBytes(client, ['office_archives', 'office_archived_sales', 'office_archived_dues', 'office_archived_day_closes'])
    return {
      entries: entries.length,
      bytesPerEntry: entriesBytesBefore / entries.length,
      year,
      archived: exported.entries,
      exportSeconds,
      fileBytes: statSync(file).size,
      dropSeconds,
      keptBytesPerEntry: kept / exported.entries,
      hashesBytesPerEntry: hashesBytes / exported.entries,
      salesBytesBefore,
      salesBytesAfter: await relationBytes(client, ['office_sales']),
      entriesBytesBefore,
      entriesBytesAfter: await relationBytes(client, ['entries']),
      resendMs,
    }
  } finally {
    await client.end()
    db.remove()
  }
}

const MB = 1024 * 1024

/** The report's rows for a run. */
export function renderYearsRows(run: YearsRun): string[] {
  const perEntry = (bytes: number) => `${bytes.toFixed(0)} B an entry`
  return [
    '| measure | value |',
    '| --- | --- |',
    `| entries stored (one terminal) | ${run.entries.toLocaleString('en-US')} |`,
    `| \`entries\` with indexes and TOAST | ${(run.entriesBytesBefore / MB).toFixed(1)} MB, ${perEntry(run.bytesPerEntry)} |`,
    `| ${run.year} exported (written, fsync'd, read back and verified) | ${run.archived.toLocaleString('en-US')} entries in ${run.exportSeconds.toFixed(1)} s |`,
    `| the year's file (gzip'd journal lines) | ${(run.fileBytes / MB).toFixed(1)} MB, ${perEntry(run.fileBytes / run.archived)} |`,
    `| ${run.year} dropped (file verified, every hash compared, folded, deleted) | ${run.dropSeconds.toFixed(1)} s |`,
    `| kept of the archived lines (hashes and ranges; the archived roll-ups) | ${perEntry(run.keptBytesPerEntry)}, of which hashes ${perEntry(run.hashesBytesPerEntry)} |`,
    `| \`office_sales\` (each sale's roll-up) before and after the drop | ${(run.salesBytesBefore / MB).toFixed(1)} MB, ${(run.salesBytesAfter / MB).toFixed(1)} MB |`,
    `| \`entries\` after the drop and VACUUM FULL | ${(run.entriesBytesAfter / MB).toFixed(1)} MB |`,
    `| a batch of 500 archived lines resent, acknowledged | ${run.resendMs.toFixed(0)} ms |`,
  ]
}
