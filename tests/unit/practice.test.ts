// Training's practice inputs, one table three ways: the simulator plays each, the banner has words for each, and the
// README's list is the table, input for input.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatPaise, paiseToDecimal } from '../../electron/shared/money'
import { PRACTICE_OUTSIDE_DEBIT, PRACTICE_RECHARGES, type PracticeOutcome } from '../../electron/shared/practice'
import { practiceFault } from '../../electron/simulator/practice'
import type { SimRequest } from '../../electron/simulator/server'
import { dictionaries } from '../../electron/shared/words'

const request = (operation: string, fields: Record<string, string>): SimRequest => ({ operation, method: 'POST', path: '/', fields, connection: 1 })

/** The rows of the README's practice table (after its heading line and the line under it), each as its cells. */
function readmePracticeRows(): string[][] {
  const lines = readFileSync(resolve(__dirname, '../../README.md'), 'utf8').split('\n')
  const from = lines.findIndex((line) => line.includes('**Practice inputs**'))
  const tableStart = lines.findIndex((line, index) => index > from && line.trim().startsWith('|'))
  const tableEnd = lines.findIndex((line, index) => index > tableStart && !line.trim().startsWith('|'))
  return lines.slice(tableStart + 2, tableEnd).map((line) => line.trim().slice(1, -1).split('|').map((cell) => cell.trim()))
}

/** What the README must say the training provider does, for each outcome. */
const README_SAYS: Record<PracticeOutcome, RegExp> = {
  failed: /FAILED/,
  pendingThenSuccess: /Pending; the first status check says SUCCESS/,
  pendingThenFailed: /Pending; the first status check says FAILED/,
  noAnswer: /never answers/,
}

describe('practice inputs', () => {
  it('each plays its fault in the simulator, and any other amount or quantity plays none', () => {
    for (const { amountPaise, outcome } of PRACTICE_RECHARGES) {
      expect(practiceFault(request('transaction', { amount: paiseToDecimal(amountPaise) }))).toEqual({ kind: outcome })
      expect(practiceFault(request('transaction', { amount: `${paiseToDecimal(amountPaise)}.00` }))).toEqual({ kind: outcome })
    }
    const { qty, debitPaise } = PRACTICE_OUTSIDE_DEBIT
    expect(practiceFault(request('coupon_req', { qty: String(qty), type: '2' }))).toEqual({ kind: 'outsideDebit', debitPaise })
    expect(practiceFault(request('transaction', { amount: '199' }))).toBeNull()
    expect(practiceFault(request('transaction', { amount: 'eleven' }))).toBeNull()
    expect(practiceFault(request('coupon_req', { qty: '2', type: '1' }))).toBeNull()
    expect(practiceFault(request('check_status', { amount: '11' }))).toBeNull()
  })

  it('each has its words on the training banner', () => {
    for (const { outcome } of PRACTICE_RECHARGES) expect(dictionaries.en.screen.practice[outcome]).toContain('{amount}')
    expect(dictionaries.en.screen.practice.outsideDebit).toContain('{qty}')
  })

  it('are listed in the README, each with what it does, and nothing else is', () => {
    const rows = readmePracticeRows()
    expect(rows).toHaveLength(PRACTICE_RECHARGES.length + 1)
    for (const { amountPaise, outcome } of PRACTICE_RECHARGES) {
      const row = rows.find(([input]) => input === `a recharge of ₹${paiseToDecimal(amountPaise)}`)
      expect(row, `README row for ₹${paiseToDecimal(amountPaise)}`).toBeDefined()
      expect(row![1]).toMatch(README_SAYS[outcome])
    }
    const debitRow = rows.find(([input]) => input.startsWith(`an order of ${PRACTICE_OUTSIDE_DEBIT.qty} coupons`))
    expect(debitRow?.[1]).toContain(`takes ${formatPaise(PRACTICE_OUTSIDE_DEBIT.debitPaise)} from the wallet first`)
  })
})
