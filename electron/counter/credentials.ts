// The partner secrets (recharge token and secret key, PAN api_key) and the owner PIN's pepper in the OS keychain via keytar,
// each entry named for its data folder. Only the main process (or the browser-mode server) reads them; nothing here ever logs a value.
import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CounterError } from './errors'
import { say } from '../shared/words'
import { syncDirectory, writeFileAtomically } from '../ledger/durable-files'

export type SecretName = 'token' | 'secretKey' | 'apiKey'
export const secretNames: readonly SecretName[] = ['token', 'secretKey', 'apiKey']
/**
 * The partner secrets, the owner PIN's pepper (owner-pin.ts) and the head office's database password
 * (office.ts): kept apart so forgetting the partner credentials keeps the PIN and the office working.
 */
export type KeychainItem = SecretName | 'pinPepper' | 'officePassword'

/** One data folder's secrets. */
export interface SecretStore {
  get(name: KeychainItem): Promise<string | null>
  set(name: KeychainItem, value: string): Promise<void>
  delete(name: KeychainItem): Promise<void>
}

/** Where secrets are kept, for any data folder of this OS user. */
export interface Keychain {
  /** The secrets of the data folder `dataDir` (which exists), under names of its own: its install id is made the first time. */
  forFolder(dataDir: string): SecretStore
}

/** The account names Counter used before entries were named per folder; each folder's names are made from them. */
const accounts: Record<KeychainItem, string> = {
  token: 'recharge-token',
  secretKey: 'recharge-secret-key',
  apiKey: 'pan-api-key',
  pinPepper: 'owner-pin-pepper',
  officePassword: 'office-database-password',
}

/**
 * The data folder's file that names its keychain entries. Decision: a file of its own rather than a field of
 * settings.json: made by an exclusive link, so racing starts of one folder agree on it, and left out of the daily
 * backups (which copy settings.json), so a backup restored as a second data folder on this PC gets an id of its own
 * instead of the first folder's secrets.
 */
const INSTALL_FILE = 'install-id.json'
const INSTALL_ID = /^[0-9a-f]{32}$/
/** As settings.json: the OS user's alone. */
const USER_ONLY_FILE = 0o600

interface InstallFile {
  /** 16 random bytes in hex: one OS user's keychain holds the entries of every data folder, told apart by it. */
  installId: string
  /** The folder existed before install ids, so it may take the entries kept under the old names (takeOldEntries). */
  takesOldEntries: boolean
}

function readInstall(file: string): InstallFile {
  const text = readFileSync(file, 'utf8')
  let saved: Partial<InstallFile> | undefined
  try {
    saved = JSON.parse(text)
  } catch {
    // Said below, with what to do.
  }
  if (typeof saved?.installId !== 'string' || !INSTALL_ID.test(saved.installId)) {
    throw new Error(
      `${file} holds no install id. Restore it from a copy of this data folder; deleted, it is made anew and the keychain entries kept under the old one are not found (enter the credentials again, reset the PIN with reset-owner-pin).`,
    )
  }
  return { installId: saved.installId, takesOldEntries: saved.takesOldEntries === true }
}

/** The folder's install file, made at its first start; every start of the folder, however many race, gets the same id. */
function installOf(dataDir: string): InstallFile {
  const file = join(dataDir, INSTALL_FILE)
  if (!existsSync(file)) {
    // A settings.json already there was written by a Counter from before install ids, whose entries have the old names.
    const made: InstallFile = { installId: randomBytes(16).toString('hex'), takesOldEntries: existsSync(join(dataDir, 'settings.json')) }
    // Written whole under a name of its own, then linked: link refuses a name that exists, so the first start's id stays.
    const draftName = `${INSTALL_FILE}.${made.installId}`
    const draft = join(dataDir, draftName)
    writeFileAtomically(dataDir, draftName, Buffer.from(JSON.stringify(made)), { mode: USER_ONLY_FILE })
    try {
      linkSync(draft, file)
      syncDirectory(dataDir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      rmSync(draft, { force: true })
    }
  }
  return readInstall(file)
}

/** This data folder's install id: also what tells two counters' copies apart in one backup folder (offsite-backup.ts). */
export const installIdOf = (dataDir: string): string => installOf(dataDir).installId

type Keytar = typeof import('keytar')

/**
 * Moves the entries a Counter from before install ids kept under the fixed names to this folder's names: read the old,
 * write the new, delete the old, one by one, so a move cut short (a locked keychain, a killed process) loses nothing
 * and the next try finishes it. Decision: the old entries belong to whichever data folder from before install ids
 * first uses the keychain after the upgrade; the keychain cannot say whose they were, so with two such folders the
 * other finds them gone (its owner enters its credentials again and resets its PIN with reset-owner-pin). A folder
 * made after the upgrade never takes them: it is not the shop they were saved for. An entry the folder already has
 * under its own name wins over the old one, which is deleted all the same.
 */
async function takeOldEntries(k: Keytar, service: string, account: (name: KeychainItem) => string): Promise<void> {
  for (const name of Object.keys(accounts) as KeychainItem[]) {
    const old = await k.getPassword(service, accounts[name])
    if (old === null) continue
    if ((await k.getPassword(service, account(name))) === null) await k.setPassword(service, account(name), old)
    await k.deletePassword(service, accounts[name])
  }
}

/** The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows). */
export function keychainSecrets(service = 'Counter'): Keychain {
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
    forFolder(dataDir) {
      const { installId, takesOldEntries } = installOf(dataDir)
      const account = (name: KeychainItem) => `${accounts[name]}.${installId}`
      /** Done before the folder's first keychain call; a failed move is tried again at the next. */
      let moved: Promise<void> | undefined = takesOldEntries ? undefined : Promise.resolve()
      const own = <T>(work: (k: Keytar) => Promise<T>): Promise<T> =>
        use(async (k) => {
          moved ??= takeOldEntries(k, service, account).then(
            () => {
              try {
                writeFileAtomically(dataDir, INSTALL_FILE, Buffer.from(JSON.stringify({ installId, takesOldEntries: false })), { mode: USER_ONLY_FILE })
              } catch {
                // Unmarked, the next start only looks at the old names again, empty by then.
              }
            },
            (error: unknown) => {
              moved = undefined
              throw error
            },
          )
          await moved
          return work(k)
        })
      return {
        get: (name) => own((k) => k.getPassword(service, account(name))),
        set: (name, value) => own((k) => k.setPassword(service, account(name), value)),
        delete: (name) => own(async (k) => void (await k.deletePassword(service, account(name)))),
      }
    },
  }
}
