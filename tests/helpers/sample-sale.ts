// One recharge sale and one shop for receipt tests: each test states only what it changes (state, amount, width, name).
import type { Sale } from '../../electron/contract'
import type { ReceiptShop } from '../../electron/counter/receipts'

export function sampleShop(changes: Partial<ReceiptShop> = {}): ReceiptShop {
  return { shopName: 'Sharma Mobile Point', shopAddress: '12 MG Road, Pune', receiptWidthMm: 58, timezone: 'Asia/Kolkata', clock: '24h', ...changes }
}

/** A successful ₹199 Airtel recharge in cash, real mode; `changes` override any field. */
export function sampleSale(changes: Partial<Sale> = {}): Sale {
  return {
    orderId: 'CTR20260105A1B2',
    kind: 'mobile',
    number: '9876543210',
    operatorCode: 'AT',
    operatorName: 'Airtel',
    circle: 'Maharashtra',
    amountPaise: 19_900,
    fpayId: 'FP778812',
    customerName: null,
    operatorRef: 'OPR-55121',
    state: 'SUCCESS',
    providerStatus: 'SUCCESS',
    message: '',
    createdAt: '2026-01-05T06:30:15.000Z',
    updatedAt: '2026-01-05T06:30:17.000Z',
    lastCheckedAt: null,
    training: false,
    collectedPaise: 19_900,
    paymentMode: 'cash',
    settledNote: null,
    upiConfirmedAt: null,
    ...changes,
  }
}
