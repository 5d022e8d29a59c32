// The real core in REAL mode against a test's simulator, its secrets from the environment only: what the crash, fault and bench runs start.
import { startCounter, type CounterApp } from '../../electron/counter/app'
import type { Keychain } from '../../electron/counter/credentials'
import { realApiKey, realCredentials, resourcesDir } from '../integration/helpers'
import { startSimulator } from '../../electron/simulator/server'

/** The environment that makes the core run in REAL mode against `providerUrl`, keeping its files in `dataDir`. */
export function counterEnvironment(providerUrl: string, dataDir: string): Record<string, string> {
  return {
    COUNTER_DATA_DIR: dataDir,
    COUNTER_USER_ID: realCredentials.userId,
    COUNTER_TOKEN: realCredentials.token,
    COUNTER_SECRET_KEY: realCredentials.secretKey,
    COUNTER_RECHARGE_BASE_URL: providerUrl,
    COUNTER_API_KEY: realApiKey,
    COUNTER_PAN_BASE_URL: providerUrl,
  }
}

/** Every secret comes from COUNTER_*: no keychain (nor its D-Bus session) is needed to start the core. */
export const environmentOnlySecrets: Keychain = {
  forFolder: () => ({
    get: async () => null,
    set: async () => {
      throw new Error('The crash runs keep their secrets in the environment only')
    },
    delete: async () => {
      throw new Error('The crash runs keep their secrets in the environment only')
    },
  }),
}

/** The real core in REAL mode against `providerUrl`, secrets from the environment only. */
export function startRealCore(
  dataDir: string,
  providerUrl: string,
  options: { providerTimeoutMs: number; log: (line: string) => void; now?: () => Date },
): Promise<CounterApp> {
  return startCounter({
    dataDir,
    resourcesDir,
    platform: 'test',
    startTraining: () => startSimulator(),
    secrets: environmentOnlySecrets,
    env: counterEnvironment(providerUrl, dataDir),
    ...options,
  })
}
