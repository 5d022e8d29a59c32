// The ledger against its in-memory model over 100 random sequences of appends, snapshots, reopens, torn-tail
// crashes, damaged lines and day closes (npm run faults runs 2,000).
import { describe, it } from 'vitest'
import { checkLedgerModel } from './ledger-model'

describe('the ledger, model-based', () => {
  it('matches the model after every command of 100 random sequences', { timeout: 120_000 }, async () => {
    await checkLedgerModel(100)
  })
})
