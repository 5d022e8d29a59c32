// INTERIM (being replaced by the worker-thread client): the LedgerPort over an in-process Ledger, so the core can move to async calls now.
import { Ledger, type LedgerOptions } from './ledger'
import { LEDGER_CALLS, type LedgerPort, type LedgerProgress } from './ledger-port'

export async function openLedger(options: LedgerOptions): Promise<LedgerPort> {
  const ledger = await Ledger.open(options)
  const progressListeners = new Set<(progress: LedgerProgress) => void>()
  const port = {
    get report() {
      return ledger.report
    },
    get readOnly() {
      return ledger.readOnly
    },
    get notices() {
      return ledger.notices
    },
    clockCheck: () => ledger.clockCheck(),
    append: async (...args: Parameters<Ledger['append']>) => ledger.append(...args),
    onBooksChanged: (listener: () => void) => ledger.onBooksChanged(listener),
    onProgress: (listener: (progress: LedgerProgress) => void) => {
      progressListeners.add(listener)
      return () => progressListeners.delete(listener)
    },
    close: () => ledger.close(),
  } as unknown as LedgerPort
  for (const name of LEDGER_CALLS) {
    ;(port as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => (ledger[name] as (...a: unknown[]) => unknown)(...args)
  }
  return port
}
