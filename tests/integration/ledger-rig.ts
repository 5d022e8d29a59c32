// Shared set-up for the ledger's integration tests: a fresh folder per test, ledgers on a stepping clock closed after each test, the journal's lines, and edited or old-schema snapshots.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import initSqlJs, { type Database } from 'sql.js'
import { afterEach, beforeEach } from 'vitest'
import type { LedgerEventData } from '../../electron/ledger/events'
import { Ledger, type LedgerOptions } from '../../electron/ledger/ledger'
import { migrations } from '../../electron/ledger/migrations'
import { JOURNAL_DIR, listSegments } from '../../electron/ledger/segments'
import { SNAPSHOT_CHECK_FILE, SNAPSHOT_FILE, snapshotCheck, type SnapshotCheck } from '../../electron/ledger/snapshot'

export const DAY = '2025-03-14'
export const START = Date.parse(`${DAY}T04:30:00.000Z`)
/** When journal entry #seq was written by a ledger opened on a fresh clock: it moves one second per append. */
export const atSeq = (seq: number) => new Date(START + 1000 * (seq - 1)).toISOString()

// ---------- events as the counter journals them ----------

export const rechargeIntent = (orderId: string, amountPaise = 19900, fields: Partial<LedgerEventData['recharge.intent']> = {}): LedgerEventData['recharge.intent'] => ({
  orderId,
  kind: 'mobile',
  number: '9876543210',
  operatorCode: 'JIO',
  operatorName: 'Jio',
  circle: 'DL',
  amountPaise,
  businessDay: DAY,
  training: true,
  ...fields,
})

export const rechargeOutcome = (orderId: string, fields: Partial<LedgerEventData['recharge.outcome']> = {}): LedgerEventData['recharge.outcome'] => ({
  orderId,
  source: 'transaction',
  outcome: 'SUCCESS',
  providerStatus: 'Success',
  message: 'Recharge successful',
  fpayId: `FP-${orderId}`,
  operatorRef: `OP-${orderId}`,
  ...fields,
})

export const couponIntent = (attemptId: string, fields: Partial<LedgerEventData['pan.coupon.intent']> = {}): LedgerEventData['pan.coupon.intent'] => ({
  attemptId,
  vleId: 'VLE1',
  vleName: 'Asha Devi',
  type: 1,
  qty: 3,
  expectedRatePaise: 10700,
  businessDay: DAY,
  training: true,
  ...fields,
})

export const couponAnswer = (attemptId: string, fields: Partial<LedgerEventData['pan.coupon.outcome']> = {}): LedgerEventData['pan.coupon.outcome'] => ({
  attemptId,
  source: 'coupon_req',
  outcome: 'SUCCESS',
  providerStatus: 'SUCCESS',
  message: 'Coupon request successful',
  orderId: `ORD-${attemptId}`,
  date: '14-Mar-2025',
  vleName: 'Asha Devi',
  ratePaise: 10700,
  amountPaise: 32100,
  oldBalPaise: 500000,
  newBalPaise: 467900,
  problems: [],
  ...fields,
})

/** What a status check that got no answer records. */
export const noAnswer = (attemptId: string): LedgerEventData['pan.coupon.outcome'] => ({
  attemptId,
  source: 'coupon_status',
  outcome: 'UNKNOWN',
  providerStatus: null,
  message: 'No answer from the provider',
  orderId: null,
  date: null,
  vleName: null,
  ratePaise: null,
  amountPaise: null,
  oldBalPaise: null,
  newBalPaise: null,
  problems: [],
})

export interface LedgerRig {
  /** The test's temp folder; the ledger lives in `dir` inside it. */
  readonly root: string
  readonly dir: string
  open(options?: Partial<LedgerOptions>): Promise<Ledger>
  close(ledger: Ledger): Promise<void>
  /** Every journal line, across segments, oldest first. */
  journalLines(): string[]
  /** The segment files, oldest first. */
  segments(): string[]
  /** Copies the ledger folder as it stands (what a crash leaves) and points `dir` at the copy. */
  crashCopy(): void
}

/** Registers the hooks that give each test its own folder and close what it opened. */
export function useLedgerRig(prefix: string): LedgerRig {
  const opened: Ledger[] = []
  const rig = {
    root: '',
    dir: '',
    async open(options: Partial<LedgerOptions> = {}) {
      let tick = 0
      const ledger = await Ledger.open({ dir: rig.dir, now: () => new Date(START + 1000 * tick++), ...options })
      opened.push(ledger)
      return ledger
    },
    async close(ledger: Ledger) {
      opened.splice(opened.indexOf(ledger), 1)
      await ledger.close()
    },
    segments: () => listSegments(path.join(rig.dir, JOURNAL_DIR)).map((segment) => segment.file),
    journalLines: () => rig.segments().flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)),
    crashCopy() {
      fs.cpSync(rig.dir, path.join(rig.root, 'crashed'), { recursive: true })
      rig.dir = path.join(rig.root, 'crashed')
    },
  }
  beforeEach(() => {
    rig.root = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    rig.dir = path.join(rig.root, 'ledger')
  })
  afterEach(async () => {
    for (const ledger of opened.splice(0)) await ledger.close()
    fs.rmSync(rig.root, { recursive: true, force: true })
  })
  return rig
}

/** What each schema version added, undone: turns a snapshot back into what an older Counter wrote. */
const UNDO_MIGRATION: Record<number, string> = {
  15: ['sales', 'coupon_sales', 'credit_entries'].map((table) => `ALTER TABLE ${table} DROP COLUMN upi_confirmed_at;`).join(' '),
  14: 'DROP TABLE cash_moves; DROP TABLE drawer_counts;',
  13: 'DROP TABLE pin_resets;',
  12: 'ALTER TABLE credit_entries DROP COLUMN recorded_by;',
  11: 'DROP INDEX coupon_sales_charged_by_intent; ALTER TABLE coupon_sales DROP COLUMN intent_seq;',
  10: `UPDATE customers SET name = (SELECT name FROM customer_names WHERE customer_names.number = customers.number);
       UPDATE credit_customers SET name = (SELECT name FROM customer_names WHERE customer_names.number = credit_customers.number);
       DROP TABLE customer_names;`,
  9: 'DROP TABLE customers;',
  8: 'ALTER TABLE sales DROP COLUMN sold_by; ALTER TABLE coupon_sales DROP COLUMN sold_by;',
  7: 'DROP TABLE credit_customers; DROP TABLE credit_entries;',
  6: 'ALTER TABLE sales DROP COLUMN margin_paise; ALTER TABLE coupon_sales DROP COLUMN margin_paise;',
  5: 'SELECT 1;',
  4: 'DROP INDEX sales_by_number;',
  3: `DROP TABLE topups; DROP TABLE day_closes; DROP TABLE archive_counts;
      DROP INDEX sales_by_created; DROP INDEX sales_by_state; DROP INDEX coupon_sales_by_created_id; DROP INDEX balance_checkpoints_by_day;
      ${['collected_paise', 'payment_mode', 'settled_note', 'checks', 'last_answer', 'next_check_at'].map((column) => `ALTER TABLE sales DROP COLUMN ${column};`).join(' ')}
      ${['collected_paise', 'collected_default', 'payment_mode', 'settled_note', 'checks', 'last_answer', 'next_check_at'].map((column) => `ALTER TABLE coupon_sales DROP COLUMN ${column};`).join(' ')}
      ALTER TABLE password_resets DROP COLUMN business_day; ALTER TABLE balance_checkpoints DROP COLUMN business_day;`,
  2: 'DROP TABLE agents; DROP TABLE coupon_sales; DROP TABLE password_resets; DROP TABLE balance_checkpoints;',
}

/**
 * Changes ledger.sqlite through sql.js and writes it back, still a valid database: an edit made
 * with an SQLite tool. `reseal` also rewrites its check, as if Counter had written the file so.
 */
export async function editSnapshot(dir: string, edit: (db: Database) => void, { reseal = false } = {}): Promise<void> {
  const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') })
  const file = path.join(dir, SNAPSHOT_FILE)
  const db = new SQL.Database(fs.readFileSync(file))
  edit(db)
  const bytes = db.export()
  db.close()
  fs.writeFileSync(file, bytes)
  if (reseal) {
    const { seq, hash } = JSON.parse(fs.readFileSync(path.join(dir, SNAPSHOT_CHECK_FILE), 'utf8')) as SnapshotCheck
    fs.writeFileSync(path.join(dir, SNAPSHOT_CHECK_FILE), JSON.stringify(snapshotCheck(bytes, { seq, hash })))
  }
}

/** Rewrites the ledger's ledger.sqlite (and its check) as schema version `version` wrote it. */
export async function rollBackSnapshot(dir: string, version: number): Promise<void> {
  await editSnapshot(
    dir,
    (db) => {
      for (let undone = migrations.length; undone > version; undone--) db.exec(UNDO_MIGRATION[undone])
      db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(version)])
    },
    { reseal: true },
  )
}
