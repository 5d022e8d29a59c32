// How the fault harness starts the real core (REAL mode, secrets from the environment, provider behind the relay)
// and the child's stdout lines that carry a killed day's progress to the parent.
import type { CounterApp } from '../../electron/counter/app'
import { startRealCore } from '../crash/real-core'
import type { CashierState } from './shop-day'

/** Short, so an answer held past it costs each run about a second; far above what the simulator needs on 127.0.0.1. */
export const PROVIDER_TIMEOUT_MS = 1_000

export function startCore(dataDir: string, providerUrl: string, now: () => Date, log: (line: string) => void): Promise<CounterApp> {
  return startRealCore(dataDir, providerUrl, { providerTimeoutMs: PROVIDER_TIMEOUT_MS, now, log })
}

/** What the child is told: where to work, and the step and call at which it dies. */
export interface ChildOrders {
  dataDir: string
  providerUrl: string
  step: number
  /** 1-based: the ledger-folder fs call of that step before which the child SIGKILLs itself. */
  call: number
}

/**
 * The child's stdout, one line each: STATE <json> after set-up and after every step, ATTEMPT <key> before
 * each sale, top-up or close it tries, FUND <paise> when the owner pays the wallet, MISSED when the step
 * ended before its call was reached.
 */
export type ChildLine = { kind: 'STATE'; state: CashierState } | { kind: 'ATTEMPT'; key: string } | { kind: 'FUND'; paise: number } | { kind: 'MISSED' }

export function childLine(line: ChildLine): string {
  switch (line.kind) {
    case 'STATE':
      return `STATE ${JSON.stringify(line.state)}`
    case 'ATTEMPT':
      return `ATTEMPT ${line.key}`
    case 'FUND':
      return `FUND ${line.paise}`
    case 'MISSED':
      return 'MISSED'
  }
}

export function parseChildLine(text: string): ChildLine | null {
  const space = text.indexOf(' ')
  const [word, rest] = space < 0 ? [text, ''] : [text.slice(0, space), text.slice(space + 1)]
  if (word === 'STATE') return { kind: 'STATE', state: JSON.parse(rest) as CashierState }
  if (word === 'ATTEMPT') return { kind: 'ATTEMPT', key: rest }
  if (word === 'FUND') return { kind: 'FUND', paise: Number(rest) }
  if (word === 'MISSED') return { kind: 'MISSED' }
  return null
}
