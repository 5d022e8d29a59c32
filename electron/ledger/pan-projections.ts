// How each PAN journal event (agents, coupon sales, password resets, balance readings) changes the ledger's tables.
import type { Database } from 'sql.js'
import type { PanEventType } from './events'
import { fractionProblem, type Projector } from './projector'
import { runCached } from './connection'
import { firstValue } from './reads'

/** A full Aadhaar number is 12 digits; the masked form the ledger keeps shows the last 4 at most. */
const MAX_STORED_UID_DIGITS = 4

function agentStatus(db: Database, vleId: string): string | null {
  const status = firstValue(db, 'SELECT status FROM agents WHERE vle_id = ?', [vleId])
  return status === undefined ? null : String(status)
}

const couponSaleExists = (db: Database, attemptId: string): boolean =>
  firstValue(db, 'SELECT 1 FROM coupon_sales WHERE attempt_id = ?', [attemptId]) !== undefined

const resetExists = (db: Database, attemptId: string): boolean =>
  firstValue(db, 'SELECT 1 FROM password_resets WHERE attempt_id = ?', [attemptId]) !== undefined

/** Defence in depth: the caller masks, the ledger still refuses anything that could be the whole number. */
function unmaskedUidProblem(uidMasked: string): string | null {
  const digits = uidMasked.replace(/\D/g, '').length
  return digits > MAX_STORED_UID_DIGITS ? 'the Aadhaar number must be stored masked (at most its last 4 digits), never in full' : null
}

/** Lines written before events carried a business day: the Indian date (UTC+05:30) of their time. */
export function indianDateOf(at: string): string {
  return new Date(Date.parse(at) + 330 * 60_000).toISOString().slice(0, 10)
}

function couponProblems(db: Database, attemptId: string): string[] {
  return JSON.parse(String(firstValue(db, 'SELECT problems FROM coupon_sales WHERE attempt_id = ?', [attemptId]))) as string[]
}

/** The PAN desk's events; top-ups are the shop's bookkeeping (books-projections). */
export const panProjectors: { [T in Exclude<PanEventType, 'pan.topup'>]: Projector<T> } = {
  'pan.agent.submitted': {
    problem: (db, data) => {
      const status = agentStatus(db, data.vleId)
      const taken = status !== null && status !== 'NOT_CREATED' ? `agent ${data.vleId} is already registered (${status})` : null
      return unmaskedUidProblem(data.uidMasked) ?? taken
    },
    apply: (db, { at, data }) => {
      // problem() let through only a new id or a NOT_CREATED one: a corrected retry replaces the refused row.
      db.run(
        `INSERT OR REPLACE INTO agents (vle_id, name, mobile, email, shop, location, state_code, pin, uid_masked, pan,
           status, message, created_at, updated_at, last_checked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'SUBMITTING', '', ?, ?, NULL)`,
        [data.vleId, data.name, data.mobile, data.email, data.shop, data.location, data.stateCode, data.pin, data.uidMasked,
          data.pan, at, at],
      )
    },
  },
  'pan.agent.answer': {
    problem: (db, data) => (agentStatus(db, data.vleId) === null ? `there is no agent ${data.vleId}` : null),
    apply: (db, { at, data }) => {
      // A refused add_vle means the agent was never created; a refused or unanswered vle_status says
      // nothing about the agent, and a success without a status word must not downgrade a known one.
      db.run(
        `UPDATE agents SET
           status = CASE
             WHEN :outcome = 'SUCCESS' THEN COALESCE(:vleStatus, CASE WHEN status IN ('SUBMITTING', 'NOT_CREATED') THEN 'PENDING' ELSE status END)
             WHEN :outcome = 'FAILED' AND :source = 'add_vle' THEN 'NOT_CREATED'
             ELSE status
           END,
           message = :message, updated_at = :at,
           last_checked_at = CASE WHEN :source = 'vle_status' THEN :at ELSE last_checked_at END
         WHERE vle_id = :vleId`,
        { ':outcome': data.outcome, ':vleStatus': data.vleStatus, ':source': data.source, ':message': data.message, ':at': at, ':vleId': data.vleId },
      )
    },
  },
  'pan.coupon.intent': {
    problem: (db, data) =>
      couponSaleExists(db, data.attemptId)
        ? `a coupon sale with attempt id ${data.attemptId} is already recorded`
        : fractionProblem({
            qty: data.qty, expectedRatePaise: data.expectedRatePaise, collectedPaise: data.collectedPaise ?? null, marginPaise: data.margin?.marginPaise ?? null,
          }),
    apply: (db, { seq, at, data }) => {
      runCached(
        db,
        `INSERT INTO coupon_sales (attempt_id, order_id, vle_id, vle_name, coupon_type, qty, expected_rate_paise, state,
           provider_status, message, order_date, rate_paise, amount_paise, old_bal_paise, new_bal_paise, new_bal_seq, new_bal_at,
           problems, business_day, created_at, updated_at, last_checked_at, training, collected_paise, collected_default, payment_mode,
           margin_paise, sold_by, intent_seq)
         VALUES (?, NULL, ?, ?, ?, ?, ?, 'SENDING', NULL, '', NULL, NULL, NULL, NULL, NULL, NULL, NULL, '[]', ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
        [data.attemptId, data.vleId, data.vleName, data.type, data.qty, data.expectedRatePaise, data.businessDay, at, at,
          data.training ? 1 : 0, data.collectedPaise ?? data.expectedRatePaise * data.qty, data.collectedPaise === undefined ? 1 : 0,
          data.paymentMode ?? 'cash', data.margin?.marginPaise ?? null, data.by ?? 'owner', seq],
      )
    },
  },
  'pan.coupon.outcome': {
    problem: (db, data) =>
      couponSaleExists(db, data.attemptId)
        ? fractionProblem({
            ratePaise: data.ratePaise, amountPaise: data.amountPaise, oldBalPaise: data.oldBalPaise, newBalPaise: data.newBalPaise,
          })
        : `there is no coupon sale with attempt id ${data.attemptId}`,
    apply: (db, { seq, at, data }) => {
      // A settled sale stays settled: coupon_status reports a delivered order as PENDING, and a
      // refused or unanswered status check says nothing about money already taken.
      // Only coupon_req's new_bal is a balance reading; coupon_status repeats the order's old figures.
      // Problems accumulate (deduplicated): a later clean answer does not erase an earlier mismatch.
      // A collected amount nobody typed follows the provider's amount once it is known.
      const problems = [...new Set([...couponProblems(db, data.attemptId), ...data.problems])]
      runCached(
        db,
        `UPDATE coupon_sales SET
           state = CASE WHEN state IN ('SUCCESS', 'FAILED') THEN state ELSE :outcome END,
           provider_status = COALESCE(:providerStatus, provider_status), message = :message,
           order_id = COALESCE(:orderId, order_id), order_date = COALESCE(:date, order_date), vle_name = COALESCE(:vleName, vle_name),
           rate_paise = COALESCE(:ratePaise, rate_paise), amount_paise = COALESCE(:amountPaise, amount_paise),
           collected_paise = CASE WHEN collected_default = 1 THEN COALESCE(:amountPaise, collected_paise) ELSE collected_paise END,
           old_bal_paise = COALESCE(:oldBalPaise, old_bal_paise), new_bal_paise = COALESCE(:newBalPaise, new_bal_paise),
           new_bal_seq = CASE WHEN :balanceReading THEN :seq ELSE new_bal_seq END,
           new_bal_at = CASE WHEN :balanceReading THEN :at ELSE new_bal_at END,
           problems = :problems, updated_at = :at,
           last_checked_at = CASE WHEN :source = 'coupon_status' THEN :at ELSE last_checked_at END
         WHERE attempt_id = :attemptId`,
        {
          ':outcome': data.outcome,
          ':providerStatus': data.providerStatus,
          ':message': data.message,
          ':orderId': data.orderId,
          ':date': data.date,
          ':vleName': data.vleName,
          ':ratePaise': data.ratePaise,
          ':amountPaise': data.amountPaise,
          ':oldBalPaise': data.oldBalPaise,
          ':newBalPaise': data.newBalPaise,
          ':balanceReading': data.source === 'coupon_req' && data.newBalPaise !== null ? 1 : 0,
          ':seq': seq,
          ':at': at,
          ':problems': JSON.stringify(problems),
          ':source': data.source,
          ':attemptId': data.attemptId,
        },
      )
    },
  },
  'pan.reset.intent': {
    problem: (db, data) => (resetExists(db, data.attemptId) ? `a password reset with attempt id ${data.attemptId} is already recorded` : null),
    apply: (db, { at, data }) => {
      db.run(
        `INSERT INTO password_resets (attempt_id, order_id, vle_id, vle_name, status, message, created_at, updated_at, business_day)
         VALUES (?, NULL, ?, NULL, 'SENDING', '', ?, ?, ?)`,
        [data.attemptId, data.vleId, at, at, data.businessDay ?? indianDateOf(at)],
      )
    },
  },
  'pan.reset.answer': {
    problem: (db, data) => (resetExists(db, data.attemptId) ? null : `there is no password reset with attempt id ${data.attemptId}`),
    apply: (db, { at, data }) => {
      // pass_status can only be asked about an order pass_reset accepted: its refusal is about the
      // check (a wrong key, say), not the reset, so it leaves the status as it was.
      db.run(
        `UPDATE password_resets SET
           status = CASE
             WHEN :outcome = 'FAILED' THEN CASE WHEN :source = 'pass_reset' THEN 'FAILED' ELSE status END
             WHEN :resetStatus IS NOT NULL THEN :resetStatus
             WHEN :outcome = 'SUCCESS' AND status = 'SENDING' THEN 'PENDING'
             ELSE status
           END,
           order_id = COALESCE(:orderId, order_id), vle_name = COALESCE(:vleName, vle_name),
           message = :message, updated_at = :at
         WHERE attempt_id = :attemptId`,
        {
          ':outcome': data.outcome,
          ':source': data.source,
          ':resetStatus': data.resetStatus,
          ':orderId': data.orderId,
          ':vleName': data.vleName,
          ':message': data.message,
          ':at': at,
          ':attemptId': data.attemptId,
        },
      )
    },
  },
  'pan.balance.read': {
    problem: (_db, data) => fractionProblem({ balancePaise: data.balancePaise }),
    apply: (db, { seq, at, data }) => {
      db.run('INSERT INTO balance_checkpoints (seq, at, balance_paise, source, business_day) VALUES (?, ?, ?, ?, ?)', [
        seq, at, data.balancePaise, data.source, data.businessDay ?? indianDateOf(at),
      ])
    },
  },
}
