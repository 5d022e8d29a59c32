// How each journal event changes the ledger's SQL tables; replaying a journal always rebuilds the same database.
import type { Database } from 'sql.js'
import type { JournalEntry, LedgerEventData, LedgerEventType } from './events'
import { GENESIS_HASH } from './journal'
import { metaUpsert, readMeta } from './meta'
import { booksProjectors } from './books-projections'
import { creditIntentProblem, creditProjectors, openCreditSale, syncCreditSale } from './credit-projections'
import { customerProjectors, rememberSale } from './customer-projections'
import { drawerProjectors } from './drawer-projections'
import { panProjectors } from './pan-projections'
import { terminalProjectors } from './terminal-projections'
import { fractionProblem, type Projector } from './projector'
import { runCached } from './connection'
import { firstValue } from './reads'

/** Compiled once a connection (firstValue): every intent and outcome asks it before its line is written. */
const saleExists = (db: Database, orderId: string): boolean => firstValue(db, 'SELECT 1 FROM sales WHERE order_id = ?', [orderId]) !== undefined

const projectors: { [T in LedgerEventType]: Projector<T> } = {
  ...panProjectors,
  ...booksProjectors,
  ...creditProjectors,
  ...customerProjectors,
  ...terminalProjectors,
  ...drawerProjectors,
  'recharge.intent': {
    problem: (db, data) =>
      saleExists(db, data.orderId)
        ? `a sale with order id ${data.orderId} is already recorded`
        : (fractionProblem({ amountPaise: data.amountPaise, collectedPaise: data.collectedPaise ?? null, marginPaise: data.margin?.marginPaise ?? null }) ?? creditIntentProblem(data)),
    apply: (db, entry) => {
      const { at, data } = entry
      runCached(
        db,
        `INSERT INTO sales (order_id, kind, number, operator_code, operator_name, circle, amount_paise, state,
           provider_status, message, fpay_id, operator_ref, business_day, created_at, updated_at, last_checked_at, training,
           collected_paise, payment_mode, margin_paise, sold_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'SENDING', NULL, '', NULL, NULL, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
        [data.orderId, data.kind, data.number, data.operatorCode, data.operatorName, data.circle, data.amountPaise,
          data.businessDay, at, at, data.training ? 1 : 0, data.collectedPaise ?? data.amountPaise, data.paymentMode ?? 'cash',
          data.margin?.marginPaise ?? null, data.by ?? 'owner'],
      )
      openCreditSale(db, entry)
      rememberSale(db, at, data)
    },
  },
  'recharge.outcome': {
    problem: (db, data) => (saleExists(db, data.orderId) ? null : `there is no sale with order id ${data.orderId}`),
    apply: (db, { at, data }) => {
      // A status check that names no provider reference must not erase the one the sale already has.
      runCached(
        db,
        `UPDATE sales SET state = :state, provider_status = :providerStatus, message = :message,
           fpay_id = COALESCE(:fpayId, fpay_id), operator_ref = COALESCE(:operatorRef, operator_ref),
           updated_at = :at, last_checked_at = CASE WHEN :source = 'check_status' THEN :at ELSE last_checked_at END
         WHERE order_id = :orderId`,
        {
          ':state': data.outcome,
          ':providerStatus': data.providerStatus,
          ':message': data.message,
          ':fpayId': data.fpayId,
          ':operatorRef': data.operatorRef,
          ':at': at,
          ':source': data.source,
          ':orderId': data.orderId,
        },
      )
      syncCreditSale(db, data.orderId, at)
    },
  },
}

function isKnownType(type: string): type is LedgerEventType {
  return Object.hasOwn(projectors, type)
}

/** Checked before an event is journaled, so the ledger never records what it could not apply. */
export function eventProblem<T extends LedgerEventType>(db: Database, type: T, data: LedgerEventData[T]): string | null {
  return projectors[type].problem(db, data)
}

/** Why `entry` cannot be applied to the tables as they are, or null. */
const problemOf = (db: Database, entry: JournalEntry): string | null =>
  isKnownType(entry.type) ? eventProblem(db, entry.type, entry.data) : `unknown event type "${entry.type}"`

/** Changes the tables as `entry` says, unless it has a problem: then it is skipped. */
function applyUnlessProblem<T extends LedgerEventType>(db: Database, entry: JournalEntry<T>, problem: string | null): void {
  if (problem === null) projectors[entry.type].apply(db, entry)
}

/**
 * Applies one journal entry and records it as the database's journal position, atomically.
 * An entry that cannot be applied is skipped (the position still advances) and its problem returned.
 * `problem` is passed when the caller has just checked the entry (an append), saving a second look.
 */
export function project<T extends LedgerEventType>(db: Database, entry: JournalEntry<T>, problem = problemOf(db, entry)): string | null {
  runCached(db, 'BEGIN', null)
  try {
    applyUnlessProblem(db, entry, problem)
    writeJournalPosition(db, entry)
    runCached(db, 'COMMIT', null)
  } catch (error) {
    db.run('ROLLBACK')
    throw error
  }
  return problem
}

/**
 * Entries a replay commits at once. Why: every commit writes the pages it touched into sql.js's in-memory file, a
 * JavaScript copy per page, and every entry its own commit and position spent about a third of a 600k-line replay
 * there. A thousand entries bound the rollback journal.
 */
const REPLAY_BATCH = 1_000

/**
 * Projects a run of journal entries in transactions of REPLAY_BATCH entries, leaving the tables as `project` one
 * at a time would at each commit: the journal position is written once a batch, for its last entry. `read` hands
 * each entry to the `apply` it is given; what it returns is returned. A throw undoes the batch under way (those
 * before it stay, with the position they reached) and goes on up.
 */
export function projectRun<R>(db: Database, read: (apply: (entry: JournalEntry) => string | null) => R): R {
  let last: JournalEntry | null = null
  let inBatch = 0
  const commit = () => {
    if (last !== null) writeJournalPosition(db, last)
    runCached(db, 'COMMIT', null)
  }
  runCached(db, 'BEGIN', null)
  try {
    const result = read((entry) => {
      const problem = problemOf(db, entry)
      applyUnlessProblem(db, entry, problem)
      last = entry
      if (++inBatch === REPLAY_BATCH) {
        commit()
        runCached(db, 'BEGIN', null)
        inBatch = 0
      }
      return problem
    })
    commit()
    return result
  } catch (error) {
    db.run('ROLLBACK')
    throw error
  }
}

const SEQ_KEY = 'journal_seq'
const HASH_KEY = 'journal_hash'

/** The last journal entry this database contains (seq 0 and the genesis hash when none). */
export function journalPosition(db: Database): { seq: number; hash: string } {
  return { seq: Number(readMeta(db, SEQ_KEY) ?? 0), hash: readMeta(db, HASH_KEY) ?? GENESIS_HASH }
}

/** Both keys in one statement: it runs with every event, and each statement is a round of sql.js's own. */
const POSITION_UPSERT = metaUpsert(2)

function writeJournalPosition(db: Database, entry: JournalEntry): void {
  runCached(db, POSITION_UPSERT, [SEQ_KEY, String(entry.seq), HASH_KEY, entry.hash])
}
