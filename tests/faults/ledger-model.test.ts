// The ledger against its in-memory model over random sequences of appends, snapshots, reopens, torn-tail crashes,
// damaged lines and day closes (as many as tests/tiers.ts gives the tier; npm run faults runs 2,000).
import { describe, it } from 'vitest'
import { sample } from '../tiers'
import { checkLedgerModel } from './ledger-model'

const SEQUENCES = sample('modelSequences')

describe('the ledger, model-based', () => {
  it(`matches the model after every command of ${SEQUENCES} random sequences`, { timeout: 120_000 }, async () => {
    await checkLedgerModel(SEQUENCES)
  })
})
