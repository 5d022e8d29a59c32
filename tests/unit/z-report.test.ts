// The Z report's three forms from one DaySummary: CSV with RFC 4180 quoting and exact rupees, the
// A4 and 80 mm HTML with every number, escaping, and the TRAINING marker.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DaySummarySchema, type DaySummary } from '../../electron/contract'
import { zReportA4, zReportCsv, zReportFilename, zReportReceipt } from '../../electron/counter/z-report'

const receiptCss = readFileSync(resolve(__dirname, '../../resources/receipt.css'), 'utf8')
const shop = { shopName: 'Sharma "Digital" Seva, Sitapur', shopAddress: 'Gandhi Chowk', receiptWidthMm: 80 as const, timezone: 'Asia/Kolkata', clock: '24h' as const }

const summary: DaySummary = DaySummarySchema.parse({
  businessDay: '2026-11-22',
  closed: true,
  closedAt: '2026-11-22T15:30:00.000Z',
  openingPanBalance: { balancePaise: 5_000_00, at: '2026-11-21T14:00:00.000Z' },
  closingPanBalance: { balancePaise: 3_271_01, at: '2026-11-22T15:29:00.000Z' },
  recharges: [
    { operatorCode: 'AT', operatorName: 'Airtel', state: 'SUCCESS', count: 3, amountPaise: 1_234_50 },
    { operatorCode: 'JIO', operatorName: 'Jio', state: 'SUCCESS', count: 1, amountPaise: 199_00 },
    { operatorCode: 'JIO', operatorName: 'Jio', state: 'FAILED', count: 1, amountPaise: 299_00 },
  ],
  coupons: [{ type: 1, state: 'SUCCESS', orders: 2, qty: 5, amountPaise: 535_00 }],
  topups: [{ topupId: 'PW2611220000171AB', amountPaise: 1_000_01, reference: 'UTR 1234, "NEFT"', note: '=HYPERLINK("x")', at: '2026-11-22T06:00:00.000Z', businessDay: '2026-11-22' }],
  pending: [
    {
      kind: 'recharge',
      id: 'CN261122000012XYZ',
      label: '9812345678',
      amountPaise: 149_00,
      state: 'UNKNOWN',
      lastAnswer: 'No answer\nfrom the provider',
      createdAt: '2026-11-22T10:00:00.000Z',
      lastCheckedAt: null,
      nextCheckAt: null,
      checks: 2,
      checkable: true,
      chargePaise: null,
    },
  ],
  breaks: [
    {
      at: '2026-11-22T11:00:00.000Z',
      kind: 'coupon',
      ref: 'CP261122000020ABC',
      expectedPaise: 4_465_00,
      actualPaise: 4_265_00,
      differencePaise: -200_00,
      since: { at: '2026-11-22T09:00:00.000Z', couponSales: 1, couponPaise: 107_00, topupPaise: 0 },
    },
  ],
  cash: {
    openingFloatPaise: 2_000_00,
    collectedCashPaise: 1_968_50,
    collectedUpiPaise: 199_00,
    expectedPaise: 3_968_50,
    countedPaise: 3_968_00,
    differencePaise: -50,
    counted: { n500: 5, n200: 3, n100: 7, n50: 1, n20: 2, n10: 3, coins: '38' },
  },
  overrideNote: 'Provider <b>closed</b>; Jio pending checked by phone tomorrow',
})

/** A small RFC 4180 reader: the test's own, so the writer is checked against the rules, not itself. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[i++]
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') {
      quoted = true
    } else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field])
      row = []
      field = ''
      i++
    } else {
      field += c
    }
  }
  expect(field).toBe('')
  return rows
}

const section = (rows: string[][], title: string) => {
  const start = rows.findIndex((r) => r.length === 1 && r[0] === title)
  expect(start).toBeGreaterThan(-1)
  const end = rows.findIndex((r, i) => i > start && r.length === 1 && r[0] === '')
  return rows.slice(start + 1, end)
}

describe('Z report CSV', () => {
  const rows = parseCsv(zReportCsv(summary, { shop, training: false }))

  it('quotes commas, quotes and line breaks, and ends every record with CRLF', () => {
    const csv = zReportCsv(summary, { shop, training: false })
    expect(csv.startsWith('Z report,"Sharma ""Digital"" Seva, Sitapur",22-11-2026\r\n')).toBe(true)
    expect(csv.endsWith('\r\n')).toBe(true)
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/\r(?!\n)/)
    expect(section(rows, 'Unresolved sales')[1]).toEqual(['22-11-2026 15:30:00', 'recharge', 'CN261122000012XYZ', '9812345678', 'Pending', '149', '2', 'No answer\nfrom the provider'])
  })

  it('writes amounts as plain rupees, exact to the paisa, and local times as every export writes them', () => {
    expect(section(rows, 'Recharges by operator')).toEqual([
      ['Operator', 'Operator code', 'Status', 'Count', 'Amount'],
      ['Airtel', 'AT', 'Successful', '3', '1234.50'],
      ['Jio', 'JIO', 'Successful', '1', '199'],
      ['Jio', 'JIO', 'Failed', '1', '299'],
      ['Total successful', '', '', '4', '1433.50'],
    ])
    expect(section(rows, 'PAN balance breaks')[1]).toEqual(['22-11-2026 16:30:00', 'Coupon answer', 'CP261122000020ABC', '4465', '4265', '-200', '22-11-2026 14:30:00', '1', '107', '0'])
    expect(section(rows, 'Summary')).toContainEqual(['Closing PAN balance', '3271.01', '22-11-2026 20:59:00'])
  })

  it('defuses text a spreadsheet would run as a formula, keeping it readable', () => {
    expect(section(rows, 'Top-ups of the provider wallet')[1]).toEqual(['22-11-2026 11:30:00', 'PW2611220000171AB', 'UTR 1234, "NEFT"', `'=HYPERLINK("x")`, '1000.01'])
  })

  it('lists the drawer by denomination with the counted total and the signed difference', () => {
    expect(section(rows, 'Cash drawer')).toEqual([
      ['Item', 'Count', 'Amount'],
      ['Opening float', '', '2000'],
      ['Cash collected', '', '1968.50'],
      ['Dues paid in cash', '', '0'],
      ['Expected in the drawer', '', '3968.50'],
      ['₹500 notes', '5', '2500'],
      ['₹200 notes', '3', '600'],
      ['₹100 notes', '7', '700'],
      ['₹50 notes', '1', '50'],
      ['₹20 notes', '2', '40'],
      ['₹10 notes', '3', '30'],
      ['Coins and smaller', '', '38'],
      ['Counted', '', '3968'],
      ['Difference (counted − expected)', '', '-0.50'],
      ['UPI collected (not in the drawer)', '', '199'],
      ['Dues paid by UPI (not in the drawer)', '', '0'],
    ])
  })

  it('lists credit apart: sales on credit, dues paid in cash and by UPI, and dues outstanding at close', () => {
    const credit = { salesCount: 3, salesPaise: 547_00, paidCashPaise: 100_00, paidUpiPaise: 40_50, outstandingPaise: 1_250_25, staffPayments: [] }
    expect(section(parseCsv(zReportCsv({ ...summary, credit }, { shop, training: false })), 'Credit (udhaar)')).toEqual([
      ['Item', 'Count', 'Amount'],
      ['Sales on credit (not in the drawer)', '3', '547'],
      ['Dues paid in cash', '', '100'],
      ['Dues paid by UPI', '', '40.50'],
      ['Dues outstanding at close', '', '1250.25'],
    ])
    const receipt = zReportReceipt({ ...summary, credit }, { shop, training: false }, receiptCss)
    for (const shown of ['Sales on credit ×3', '₹547.00', '₹40.50', 'Outstanding at close', '₹1,250.25']) expect(receipt).toContain(shown)
  })

  it('lists the payments of dues staff took apart, a UPI one marked for the owner to check against the bank statement', () => {
    const staffPayments = [
      { receiptId: 'UP2611220000031AB', number: '9876500001', name: 'Sita Devi', amountPaise: 150_25, mode: 'cash' as const, at: '2026-11-22T07:00:00.000Z' },
      { receiptId: 'UP2611220000032CD', number: '9876500002', name: null, amountPaise: 99_00, mode: 'upi' as const, at: '2026-11-22T08:00:00.000Z' },
    ]
    const head = ['Time', 'Receipt id', 'Customer number', 'Customer name', 'Amount', 'Paid by', 'For the owner']
    const withStaff = { ...summary, credit: { ...summary.credit, staffPayments } }
    expect(section(parseCsv(zReportCsv(withStaff, { shop, training: false })), 'Payments of dues taken by staff')).toEqual([
      head,
      ['22-11-2026 12:30:00', 'UP2611220000031AB', '9876500001', 'Sita Devi', '150.25', 'Cash', ''],
      ['22-11-2026 13:30:00', 'UP2611220000032CD', '9876500002', '', '99', 'UPI', 'Check against the bank statement'],
    ])
    const receipt = zReportReceipt(withStaff, { shop, training: false }, receiptCss)
    for (const shown of ['Dues paid to staff', '₹150.25', 'UP2611220000031AB', '9876500001 Sita Devi', '₹99.00', 'Check against the bank statement']) expect(receipt).toContain(shown)
    expect(receipt.match(/Check against the bank statement/g)).toHaveLength(1)
    expect(zReportA4(withStaff, { shop, training: false })).toContain('<td>Check against the bank statement</td>')

    // None taken: the table stands empty. A day closed before they were listed says so, never "none".
    expect(section(rows, 'Payments of dues taken by staff')).toEqual([head])
    const closedBefore = DaySummarySchema.parse({ ...summary, credit: { salesCount: 0, salesPaise: 0, paidCashPaise: 0, paidUpiPaise: 0, outstandingPaise: 0 } })
    expect(closedBefore.credit.staffPayments).toBeNull()
    expect(section(parseCsv(zReportCsv(closedBefore, { shop, training: false })), 'Payments of dues taken by staff')[1]).toEqual(['', 'Not listed when this day was closed', '', '', '', '', ''])
    expect(zReportReceipt(closedBefore, { shop, training: false }, receiptCss)).toContain('Not listed when this day was closed')
  })

  it('says TRAINING when the summary comes from the training ledger, and names the file apart', () => {
    expect(rows.flat()).not.toContain('TRAINING — NOT REAL SALES')
    expect(parseCsv(zReportCsv(summary, { shop, training: true }))[1]).toEqual(['TRAINING — NOT REAL SALES'])
    expect(zReportFilename('2026-11-22', 'csv', false)).toBe('z-report-2026-11-22.csv')
    expect(zReportFilename('2026-11-22', 'pdf', true)).toBe('z-report-TRAINING-2026-11-22.pdf')
  })
})

describe('Z report HTML', () => {
  const forms = {
    a4: (training: boolean) => zReportA4(summary, { shop, training }),
    receipt: (training: boolean) => zReportReceipt(summary, { shop, training }, receiptCss),
  }

  it.each(Object.entries(forms))('%s shows the day, balances, sales, breaks and cash in rupees', (_, render) => {
    const html = render(false)
    for (const shown of ['22-11-2026', '₹5,000.00', '₹3,271.01', 'Airtel', '₹1,234.50', '₹535.00', '₹1,000.01', 'CN261122000012XYZ', '-₹200.00', '₹3,968.50', '₹3,968.00', '-₹0.50', '₹199.00']) {
      expect(html).toContain(shown)
    }
    expect(html).not.toContain('TRAINING')
  })

  it.each(Object.entries(forms))('%s escapes text and marks TRAINING', (_, render) => {
    const html = render(true)
    expect(html).toContain('Sharma &quot;Digital&quot; Seva, Sitapur')
    expect(html).toContain('Provider &lt;b&gt;closed&lt;/b&gt;')
    expect(html).not.toContain('<b>closed</b>')
    expect(html.match(/TRAINING — NOT REAL SALES/g)).toHaveLength(2)
  })

  it('prints the receipt at the shop’s roll width in the receipts’ stylesheet, and A4 as A4', () => {
    expect(forms.receipt(false)).toContain(':root { --receipt-width-mm: 80 } body { width: 80mm }')
    expect(forms.receipt(false)).toContain(receiptCss)
    expect(zReportReceipt(summary, { shop: { ...shop, receiptWidthMm: 58 }, training: false }, receiptCss)).toContain('<body class="w58 z">')
    expect(forms.a4(false)).toContain('@page { size: A4')
  })

  it('writes a positive difference with its sign and shows an open day as open', () => {
    const open = { ...summary, closed: false, closedAt: null, cash: { ...summary.cash, differencePaise: 1_00 } }
    const html = zReportA4(open, { shop, training: false })
    expect(html).toContain('+₹1.00')
    expect(html).toContain('Open (not closed yet)')
  })
})
