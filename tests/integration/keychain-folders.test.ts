// Two data folders of one OS user under one keychain service, in a real gnome-keyring: each keeps its own PIN pepper,
// partner secrets and office password; and a folder from before entries were named per folder keeps the ones it had.
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import keytar from 'keytar'
import { afterEach, describe, expect, it } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets } from '../../electron/counter/credentials'
import { hashPin } from '../../electron/counter/owner-pin'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import { privateKeychainService, resourcesDir, tempDir, valueOf } from './helpers'

/** One shop's account with the provider, its office password and owner PIN: nothing in common with the other's. */
const shops = {
  a: { userId: 'FISPL100001', token: 'tok-a1b2c3d4e5f60718', secretKey: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', officePassword: 'office-pass-of-shop-a', pin: '48151623' },
  b: { userId: 'FISPL200002', token: 'tok-9f8e7d6c5b4a3928', secretKey: 'f9e8d7c6b5a4938271605f4e3d2c1b0a', officePassword: 'office-pass-of-shop-b', pin: '27182818' },
}
type ShopName = keyof typeof shops

interface Folder {
  counter: CounterApp
  provider: Simulator
  dataDir: string
  restart(): Promise<CounterApp>
}

const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The pepper an older Counter made for shop A's PIN, in settings.json's hash and (by seedOldNames) in the keychain. */
const OLD_PEPPER = Buffer.alloc(32, 0x5a)

/**
 * A data folder's Counter, the keychain `service` shared, and a provider that knows only `shop`'s account. `older`:
 * the folder as a Counter from before install ids left it, with the shop's account and PIN in settings.json.
 */
async function folder(service: string, shop: ShopName, { older = false } = {}): Promise<Folder> {
  const dataDir = tempDir()
  const { userId, token, secretKey } = shops[shop]
  const provider = await startSimulator({ recharge: { userId, token, secretKey } })
  if (older) {
    const ownerPin = { record: await hashPin(shops[shop].pin, OLD_PEPPER), attempts: { failures: 0, lockedUntil: null } }
    writeFileSync(join(dataDir.path, 'settings.json'), JSON.stringify({ userId, rechargeBaseUrl: provider.url, ownerPin }), { mode: 0o600 })
  }
  const start = () => startCounter({ dataDir: dataDir.path, resourcesDir, platform: 'test', startTraining: () => startSimulator(), secrets: keychainSecrets(service), env: {}, providerTimeoutMs: 2_000 })
  const opened: Folder = {
    counter: await start(),
    provider,
    dataDir: dataDir.path,
    async restart() {
      await opened.counter.close()
      opened.counter = await start()
      return opened.counter
    },
  }
  cleanups.push(() => dataDir.remove(), () => provider.close(), () => opened.counter.close())
  return opened
}

/** The shop's account saved from Settings: the secrets go to the keychain, the counter to REAL. */
const saveAccount = async (at: Folder, shop: ShopName) => {
  const { userId, token, secretKey, officePassword } = shops[shop]
  return valueOf(await at.counter.call('settings.save', { userId, token, secretKey, rechargeBaseUrl: at.provider.url, officePassword }))
}

const view = async (at: Folder) => valueOf(await at.counter.call('settings.get', {}))
const sell = async (at: Folder, number: string) => at.counter.call('recharge.sell', { kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '49' })

/** Whether `pin` makes this folder's counter the owner's (after locking it to staff). */
async function unlocks(at: Folder, pin: string): Promise<boolean> {
  valueOf(await at.counter.call('roles.lock', {}))
  return (await at.counter.call('roles.unlock', { pin })).ok
}

describe('two data folders under one keychain', () => {
  it("judges each folder's PIN by its own pepper, whichever folder set its PIN last, and after a restart", async () => {
    const service = privateKeychainService()
    const a = await folder(service, 'a')
    const b = await folder(service, 'b')
    valueOf(await a.counter.call('roles.setPin', { pin: shops.a.pin, repeat: shops.a.pin }))
    valueOf(await b.counter.call('roles.setPin', { pin: shops.b.pin, repeat: shops.b.pin }))

    expect(await unlocks(a, shops.a.pin)).toBe(true)
    expect(await unlocks(b, shops.b.pin)).toBe(true)
    expect(await unlocks(a, shops.b.pin)).toBe(false)
    await a.restart()
    expect(await unlocks(a, shops.a.pin)).toBe(true)
    // The install id naming A's entries, kept in A's folder as settings.json is: the OS user's alone.
    expect(statSync(join(a.dataDir, 'install-id.json')).mode & 0o777).toBe(0o600)
  })

  it('shows each folder only the secrets saved in it, and sells with its own', async () => {
    const service = privateKeychainService()
    const a = await folder(service, 'a')
    const b = await folder(service, 'b')
    expect(await saveAccount(a, 'a')).toMatchObject({ mode: 'real', secrets: { token: true, secretKey: true }, officePasswordStored: true })

    // Nothing saved in B yet: it must not show A's secrets as its own.
    expect(await view(b)).toMatchObject({ mode: 'training', secrets: { token: false, secretKey: false, apiKey: false }, officePasswordStored: false })

    await saveAccount(b, 'b')
    // Each provider refuses the other shop's credentials: a SUCCESS is a call signed with the folder's own.
    expect(valueOf(await sell(a, '9876500001')).state).toBe('SUCCESS')
    expect(valueOf(await sell(b, '9876500002')).state).toBe('SUCCESS')
    expect(a.provider.requests.filter((r) => r.fields.token).every((r) => r.fields.token === shops.a.token)).toBe(true)
    expect(b.provider.requests.filter((r) => r.fields.token).every((r) => r.fields.token === shops.b.token)).toBe(true)
    // The office password each folder's shipper would log in with.
    expect(await keychainSecrets(service).forFolder(a.dataDir).get('officePassword')).toBe(shops.a.officePassword)
    expect(await keychainSecrets(service).forFolder(b.dataDir).get('officePassword')).toBe(shops.b.officePassword)
  })

  it("forgets one folder's credentials and leaves the other's", async () => {
    const service = privateKeychainService()
    const a = await folder(service, 'a')
    const b = await folder(service, 'b')
    await saveAccount(a, 'a')
    await saveAccount(b, 'b')
    expect(valueOf(await b.counter.call('settings.save', { forgetCredentials: true }))).toMatchObject({ mode: 'training', secrets: { token: false, secretKey: false } })

    expect(await view(a)).toMatchObject({ mode: 'real', secrets: { token: true, secretKey: true }, officePasswordStored: true })
    expect(valueOf(await sell(a, '9876500003')).state).toBe('SUCCESS')
    await a.restart()
    expect(valueOf(await sell(a, '9876500004')).state).toBe('SUCCESS')
  })
})

/** The keychain accounts a Counter from before install ids kept its entries under. */
const OLD_ACCOUNTS = {
  token: 'recharge-token',
  secretKey: 'recharge-secret-key',
  apiKey: 'pan-api-key',
  pinPepper: 'owner-pin-pepper',
  officePassword: 'office-database-password',
}

const OLD_API_KEY = '0d1e2f3a-4b5c-4c8e-9a6f-5f2c9e1a7b3d'

/** Shop A's secrets as an older Counter kept them: under the fixed names. */
async function seedOldNames(service: string): Promise<void> {
  const old = { token: shops.a.token, secretKey: shops.a.secretKey, apiKey: OLD_API_KEY, pinPepper: OLD_PEPPER.toString('base64'), officePassword: shops.a.officePassword }
  for (const [item, account] of Object.entries(OLD_ACCOUNTS)) await keytar.setPassword(service, account, old[item as keyof typeof old])
}

const underOldNames = (service: string) => Promise.all(Object.values(OLD_ACCOUNTS).map((account) => keytar.getPassword(service, account)))

describe('an upgrade from fixed keychain names', () => {
  it('moves the entries to the first folder from before it that starts; a new folder and a later one take nothing', async () => {
    const service = privateKeychainService()
    await seedOldNames(service)

    // A folder made after the upgrade (no settings.json at its first start) is not the shop whose entries these are.
    const fresh = await folder(service, 'b')
    expect(await view(fresh)).toMatchObject({ secrets: { token: false, secretKey: false, apiKey: false }, officePasswordStored: false })
    expect((await underOldNames(service)).every((value) => value !== null)).toBe(true)

    const upgraded = await folder(service, 'a', { older: true })
    expect(await view(upgraded)).toMatchObject({ mode: 'real', secrets: { token: true, secretKey: true, apiKey: true }, officePasswordStored: true })
    expect(await underOldNames(service)).toEqual([null, null, null, null, null])
    expect(await unlocks(upgraded, shops.a.pin)).toBe(true)
    expect(valueOf(await sell(upgraded, '9876500005')).state).toBe('SUCCESS')
    const moved = keychainSecrets(service).forFolder(upgraded.dataDir)
    expect([await moved.get('apiKey'), await moved.get('officePassword')]).toEqual([OLD_API_KEY, shops.a.officePassword])
    await upgraded.restart()
    expect(await unlocks(upgraded, shops.a.pin)).toBe(true)

    // A second folder from before the upgrade, started later, finds the old names empty.
    const later = await folder(service, 'a', { older: true })
    expect(await view(later)).toMatchObject({ mode: 'real', secrets: { token: false, secretKey: false, apiKey: false }, officePasswordStored: false })
  })
})
