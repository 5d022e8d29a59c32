// The partner secrets (recharge token and secret key, PAN api_key) and the owner PIN's pepper in the OS keychain via keytar.
// Only the main process (or the browser-mode server) reads them; nothing here ever logs a value.
import { CounterError } from './errors'
import { say } from '../shared/error-words'

export type SecretName = 'token' | 'secretKey' | 'apiKey'
export const secretNames: readonly SecretName[] = ['token', 'secretKey', 'apiKey']
/**
 * The partner secrets, the owner PIN's pepper (owner-pin.ts) and the head office's database password
 * (office.ts): kept apart so forgetting the partner credentials keeps the PIN and the office working.
 */
export type KeychainItem = SecretName | 'pinPepper' | 'officePassword'

export interface SecretStore {
  get(name: KeychainItem): Promise<string | null>
  set(name: KeychainItem, value: string): Promise<void>
  delete(name: KeychainItem): Promise<void>
}

const accounts: Record<KeychainItem, string> = {
  token: 'recharge-token',
  secretKey: 'recharge-secret-key',
  apiKey: 'pan-api-key',
  pinPepper: 'owner-pin-pepper',
  officePassword: 'office-database-password',
}

type Keytar = typeof import('keytar')

/** The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows). */
export function keychainSecrets(service = 'Counter'): SecretStore {
  let keytar: Promise<Keytar> | undefined
  const use = async <T>(work: (k: Keytar) => Promise<T>): Promise<T> => {
    try {
      keytar ??= import('keytar').then((m) => ('default' in m ? (m.default as Keytar) : m))
      return await work(await keytar)
    } catch {
      // keytar's own messages can quote D-Bus paths and item attributes; the shop needs the remedy.
      throw new CounterError('keychain_unavailable', say('keychain.unavailable'))
    }
  }
  return {
    get: (name) => use((k) => k.getPassword(service, accounts[name])),
    set: (name, value) => use((k) => k.setPassword(service, accounts[name], value)),
    delete: (name) => use(async (k) => void (await k.deletePassword(service, accounts[name]))),
  }
}
