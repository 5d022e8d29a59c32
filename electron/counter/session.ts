// What one mode works with: its own ledger, its provider client, and in training the provider it practises on.
// Training and real sales never share a ledger, so practice can never reach the day's books.
import { join } from 'node:path'
import type { Mode, Role } from '../contract'
import { openLedger } from '../ledger/ledger-client'
import type { LedgerPort } from '../ledger/ledger-port'
import { PanApi } from '../partners/pan-api'
import { RechargeApi, type RechargeCredentials } from '../partners/recharge-api'
import type { Settings } from './settings'

/**
 * The provider training mode sells to. Started by whoever starts Counter (main.ts and web/cli.ts pass
 * electron/simulator's startTrainingSimulator; tests pass theirs), so the core never loads the simulator.
 */
export interface TrainingProvider {
  url: string
  credentials: RechargeCredentials
  panApiKey: string
  /**
   * A top-up entered in training: nobody sends the practice wallet money, so it takes the top-up itself, and the
   * next balance it reports agrees with the books (a top-up practised is no break).
   */
  receiveTopUp(paise: number): void
  close(): Promise<void>
}

export interface Session {
  mode: Mode
  ledger: LedgerPort
  /** Present in training mode only: the provider it practises on. */
  simulator: TrainingProvider | null
  rechargeApi(): Promise<RechargeApi>
  panApi(): Promise<PanApi>
  /** Settings changed: the next call builds its client from them afresh. */
  dropClients(): void
  /** Resolves to what went wrong while closing, in plain words (see LedgerPort.close). */
  close(): Promise<string[]>
}

export interface SessionOptions {
  dataDir: string
  settings: Settings
  timeoutMs: number
  /** The counter's clock: it stamps the journal, and the ledger judges it against the journal's times. */
  now: () => Date
  /** Given training's folder, where the provider keeps its books: a restart must find its orders and wallet as they were. */
  startTraining: (trainingDir: string) => Promise<TrainingProvider>
  /** Who is at the counter: each journal line records it (roles.ts). */
  by: () => Role
}

export function ledgerDir(dataDir: string, mode: Mode): string {
  return join(dataDir, mode === 'training' ? 'training-ledger' : 'ledger')
}

export async function openSession({ dataDir, settings, timeoutMs, now, startTraining, by }: SessionOptions): Promise<Session> {
  const mode = settings.mode
  // Both at once: the practice provider starts while the ledger thread opens the books. Whichever fails, neither is left running.
  const [opened, started] = await Promise.allSettled([
    openLedger({ dir: ledgerDir(dataDir, mode), now, clockSense: true, by }),
    mode === 'training' ? startTraining(ledgerDir(dataDir, 'training')) : Promise.resolve(null),
  ])
  if (opened.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value?.close()
    throw opened.reason
  }
  if (started.status === 'rejected') {
    await opened.value.close()
    throw started.reason
  }
  const ledger = opened.value
  const simulator = started.value
  let recharge: RechargeApi | undefined
  let pan: PanApi | undefined
  return {
    mode,
    ledger,
    simulator,
    async rechargeApi() {
      if (!recharge) {
        const config = simulator ? { baseUrl: simulator.url, credentials: simulator.credentials } : await settings.rechargeConfig()
        recharge = new RechargeApi({ ...config, timeoutMs })
      }
      return recharge
    },
    async panApi() {
      if (!pan) {
        const config = simulator
          ? { baseUrl: simulator.url, apiKey: simulator.panApiKey, method: settings.current.panRequestMethod }
          : await settings.panConfig()
        pan = new PanApi({ ...config, timeoutMs })
      }
      return pan
    },
    dropClients() {
      recharge?.close()
      pan?.close()
      recharge = pan = undefined
    },
    async close() {
      recharge?.close()
      pan?.close()
      await simulator?.close()
      return ledger.close()
    },
  }
}
