// What one row of history is, wherever it is read from (the active year, an archive, an archive's index of numbers): the columns both kinds of sale give, the row the screen shows, and its order.
import type { ParamsObject } from 'sql.js'
import type { CouponType, HistoryRow, SaleState } from '../contract'
import { couponTypeNames } from '../shared/coupon-types'
import type { SaleKind } from './events'

// Both arms give the same columns: a and b name the sale (number, or agent id and name), c and d
// describe it (operator and circle, or coupon type and quantity); service is what was collected above
// the amount (a coupon's: what the provider charged, else rate x qty). An archive's index written
// before margins were kept lacks margin and service: those rows read them as unknown (null).
export const ARM_SELECT: Record<SaleKind, string> = {
  recharge: `SELECT 'recharge' AS kind, order_id AS id, created_at AS at, business_day, number AS a, NULL AS b,
    operator_name AS c, circle AS d, amount_paise AS amount, state, fpay_id AS reference,
    margin_paise AS margin, collected_paise - amount_paise AS service FROM sales`,
  coupon: `SELECT 'coupon' AS kind, attempt_id AS id, created_at AS at, business_day, vle_id AS a, vle_name AS b,
    coupon_type AS c, qty AS d, amount_paise AS amount, state, order_id AS reference,
    margin_paise AS margin, collected_paise - COALESCE(amount_paise, expected_rate_paise * qty) AS service FROM coupon_sales`,
}

const paiseOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

export const newestFirst = (a: HistoryRow, b: HistoryRow): number => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export function historyRowFromRow(row: ParamsObject): HistoryRow {
  return {
    kind: String(row.kind) as SaleKind,
    id: String(row.id),
    at: String(row.at),
    businessDay: String(row.business_day),
    label: row.kind === 'recharge' || row.b === null ? String(row.a) : `${String(row.a)} · ${String(row.b)}`,
    // Names are the active books' (customers), put in by searchHistory wherever the row was read from.
    customerName: null,
    detail:
      row.kind === 'recharge'
        ? [row.c, row.d].filter((part) => part !== null).join(' · ')
        : `${couponTypeNames[Number(row.c) as CouponType]} × ${Number(row.d)}`,
    amountPaise: row.amount === null ? null : Number(row.amount),
    state: String(row.state) as SaleState,
    reference: row.reference === null ? null : String(row.reference),
    marginPaise: paiseOrNull(row.margin),
    serviceChargePaise: paiseOrNull(row.service),
  }
}
