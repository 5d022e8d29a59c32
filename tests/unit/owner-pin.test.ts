// The owner PIN: scrypt with its parameters, salt and keychain pepper; nothing of the PIN in settings.json;
// five wrong PINs lock entry for a minute of the monotonic clock, across a restart and whatever the wall clock
// does, and a right PIN is refused meanwhile.
import { chmodSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { keychainSecrets, type SecretStore } from '../../electron/counter/credentials'
import { hashPin, LOCKOUT_MS, OwnerPin, pinMatches, SCRYPT_PARAMS } from '../../electron/counter/owner-pin'
import { Settings } from '../../electron/counter/settings'
import { privateKeychainService, tempDir } from '../integration/helpers'

// Eight digits: a shorter PIN could turn up inside base64 by chance and make "not stored" meaningless.
const PIN = '73915286'
const dirs: { remove(): void }[] = []
const stores: SecretStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.delete('pinPepper')
  for (const dir of dirs.splice(0)) dir.remove()
})

/** The wall clock (`now`, which the shop's owner can move) and the process's monotonic clock (`mono`, ms), each moved by hand. */
interface Clocks {
  now: Date
  mono: number
}
const clocksAt = (iso: string): Clocks => ({ now: new Date(iso), mono: 0 })

function shop(at: Clocks) {
  const dir = tempDir()
  dirs.push(dir)
  const secrets = keychainSecrets(privateKeychainService()).forFolder(dir.path)
  stores.push(secrets)
  const open = () => new OwnerPin(new Settings(dir.path, {}, secrets), secrets, () => at.now, () => at.mono)
  return { dir: dir.path, secrets, open, settingsFile: () => readFileSync(join(dir.path, 'settings.json'), 'utf8') }
}

describe('owner PIN hashing', () => {
  it('is scrypt N=2^15 r=8 p=1 with a fresh 16-byte salt, and depends on the pepper', async () => {
    const pepper = Buffer.alloc(32, 7)
    const started = performance.now()
    const first = await hashPin(PIN, pepper)
    const took = performance.now() - started
    console.log(`scrypt hash of a PIN: ${took.toFixed(0)} ms`)
    const second = await hashPin(PIN, pepper)
    expect(first).toMatchObject({ kdf: 'scrypt', N: 2 ** 15, r: 8, p: 1, keyLength: 32 })
    expect(SCRYPT_PARAMS.N).toBe(32768)
    expect(Buffer.from(first.salt, 'base64')).toHaveLength(16)
    expect(first.salt).not.toBe(second.salt)
    expect(first.hash).not.toBe(second.hash)
    expect(await pinMatches(PIN, pepper, first)).toBe(true)
    expect(await pinMatches('73915287', pepper, first)).toBe(false)
    // The same PIN and salt under another pepper: settings.json alone cannot be searched.
    expect(await pinMatches(PIN, Buffer.alloc(32, 8), first)).toBe(false)
  })

  it('keeps the hash in settings.json and the pepper in the keychain, neither holding the PIN', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const counter = shop(at)
    await counter.open().set(PIN, undefined)
    const saved = JSON.parse(counter.settingsFile())
    expect(saved.ownerPin.record).toMatchObject({ kdf: 'scrypt', N: 32768, r: 8, p: 1 })
    const pepper = await counter.secrets.get('pinPepper')
    expect(pepper).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    expect(counter.settingsFile()).not.toContain(PIN)
    expect(counter.settingsFile()).not.toContain(pepper)
    // A new Settings (a restart) still checks it; the plain settings never carry it.
    const restarted = new Settings(counter.dir, {}, counter.secrets)
    expect(JSON.stringify(restarted.current)).not.toContain('ownerPin')
    await expect(counter.open().verify(PIN)).resolves.toBeUndefined()
  })

  it('changes the PIN only with the old one', async () => {
    const counter = shop(clocksAt('2026-11-23T10:00:00Z'))
    const pin = counter.open()
    await pin.set(PIN, undefined)
    await expect(pin.set('1111', undefined)).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(pin.set('1111', '0000')).rejects.toMatchObject({ code: 'forbidden' })
    await expect(pin.verify(PIN)).resolves.toBeUndefined()
    await pin.set('1111', PIN)
    await expect(pin.verify('1111')).resolves.toBeUndefined()
    await expect(pin.verify(PIN)).rejects.toMatchObject({ code: 'forbidden' })
  })

  it('says a PIN cannot be checked when the keychain lacks its pepper, with the way to set a new one', async () => {
    const counter = shop(clocksAt('2026-11-23T10:00:00Z'))
    await counter.open().set(PIN, undefined)
    await counter.secrets.delete('pinPepper')
    const pin = counter.open()
    expect(await pin.uncheckable()).toBe(true)
    await expect(pin.verify(PIN)).rejects.toMatchObject({ code: 'not_configured', message: expect.stringContaining('reset-owner-pin') })
  })
})

describe("the PIN's hash on disk", () => {
  it('is read and written by the shop\'s OS user alone: the data folder 0700, settings.json 0600, one left open by an older Counter closed at the next start', async () => {
    const counter = shop(clocksAt('2026-11-27T10:00:00Z'))
    const modeOf = (path: string) => statSync(path).mode & 0o777
    await counter.open().set(PIN, undefined)
    const file = join(counter.dir, 'settings.json')
    expect([modeOf(counter.dir), modeOf(file)]).toEqual([0o700, 0o600])
    // As an older Counter (or a umask of 022) left them: anyone on the PC could read the hash and search it offline.
    chmodSync(counter.dir, 0o755)
    chmodSync(file, 0o644)
    counter.open()
    expect([modeOf(counter.dir), modeOf(file)]).toEqual([0o700, 0o600])
  })
})

describe('owner PIN lock-out', () => {
  it('locks entry for a minute after 5 wrong PINs, refuses the right PIN meanwhile, across a restart, then opens', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const counter = shop(at)
    await counter.open().set(PIN, undefined)
    const pin = counter.open()
    for (let wrong = 1; wrong <= 4; wrong++) {
      await expect(pin.verify('0000')).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining(`${5 - wrong} more wrong PIN`) })
    }
    await expect(pin.verify('0000')).rejects.toMatchObject({ message: expect.stringContaining('Try again in 60 seconds') })
    expect(pin.lockedUntil()?.toISOString()).toBe('2026-11-23T10:01:00.000Z')

    at.now = new Date(at.now.getTime() + 15_000)
    at.mono += 15_000
    await expect(pin.verify(PIN)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('Try again in 45 seconds') })
    // A restart reads the lock-out from settings.json and, not knowing how long it ran, runs it whole.
    const restarted = counter.open()
    await expect(restarted.verify(PIN)).rejects.toMatchObject({ message: expect.stringContaining('Try again in 60 seconds') })

    at.now = new Date(at.now.getTime() + LOCKOUT_MS)
    at.mono += LOCKOUT_MS
    await expect(restarted.verify(PIN)).resolves.toBeUndefined()
    expect(JSON.parse(counter.settingsFile()).ownerPin.attempts).toEqual({ failures: 0, lockedUntil: null })
  })

  it('judges 40 wrong PINs sent at once one at a time: 5 judged, the rest refused as locked, the right PIN too', async () => {
    const counter = shop(clocksAt('2026-11-23T10:00:00Z'))
    await counter.open().set(PIN, undefined)
    const pin = counter.open()
    const guesses = await Promise.allSettled(Array.from({ length: 40 }, (_, n) => pin.verify(String(10_000_000 + n))))
    const said = guesses.map((guess) => (guess.status === 'rejected' ? String((guess.reason as Error).message) : 'opened'))
    // Five judged (the fifth locks entry), thirty-five refused unjudged.
    expect(said.filter((message) => message.startsWith('That PIN is wrong'))).toHaveLength(5)
    expect(said.filter((message) => message.startsWith('Too many wrong PINs: PIN entry is locked'))).toHaveLength(35)
    await expect(pin.verify(PIN)).rejects.toMatchObject({ message: expect.stringContaining('locked') })
  })

  it('counts wrong PINs across a restart', async () => {
    const counter = shop(clocksAt('2026-11-23T10:00:00Z'))
    await counter.open().set(PIN, undefined)
    for (let wrong = 1; wrong <= 4; wrong++) await expect(counter.open().verify('0000')).rejects.toMatchObject({ code: 'forbidden' })
    await expect(counter.open().verify('0000')).rejects.toMatchObject({ message: expect.stringContaining('locked') })
  })
})

describe('owner PIN lock-out against the clock', () => {
  /** Five wrong PINs on a fresh shop at `at`: entry is locked from then. */
  async function lockedShop(at: Clocks) {
    const counter = shop(at)
    await counter.open().set(PIN, undefined)
    const pin = counter.open()
    for (let wrong = 1; wrong <= 4; wrong++) await expect(pin.verify('0000')).rejects.toMatchObject({ message: expect.stringContaining('That PIN is wrong') })
    await expect(pin.verify('0000')).rejects.toMatchObject({ message: expect.stringContaining('Try again in 60 seconds') })
    return { counter, pin }
  }

  it('stays locked when the wall clock is moved two minutes forward', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const { pin } = await lockedShop(at)
    at.mono += 10_000
    at.now = new Date(at.now.getTime() + 2 * 60_000)
    // 10 s of the lock's 60 have passed, whatever the wall clock says.
    await expect(pin.verify(PIN)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('Try again in 50 seconds') })
    expect(pin.lockedUntil()?.getTime()).toBe(at.now.getTime() + 50_000)
  })

  it('opens after LOCKOUT_MS of monotonic time when the wall clock is moved a day back', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const { counter, pin } = await lockedShop(at)
    at.now = new Date(at.now.getTime() - 24 * 60 * 60_000)
    at.mono += LOCKOUT_MS - 1_000
    await expect(pin.verify(PIN)).rejects.toMatchObject({ message: expect.stringContaining('Try again in 1 second.') })
    at.mono += 1_000
    expect(pin.lockedUntil()).toBeNull()
    await expect(pin.verify(PIN)).resolves.toBeUndefined()
    // The marker went with the PIN judged after the lock ran out.
    expect(JSON.parse(counter.settingsFile()).ownerPin.attempts).toEqual({ failures: 0, lockedUntil: null })
  })

  it('runs a full lock-out again after a restart during the lock, however both clocks moved', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const { counter } = await lockedShop(at)
    at.mono += 30_000
    at.now = new Date(at.now.getTime() + 30_000)
    // A restart: a new process, whose monotonic clock starts anywhere (here far past the old one's).
    at.mono = 5_000_000
    const restarted = counter.open()
    at.mono += LOCKOUT_MS - 1_000
    at.now = new Date(at.now.getTime() + LOCKOUT_MS - 1_000)
    await expect(restarted.verify(PIN)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('Try again in 1 second.') })
    at.mono += 1_000
    await expect(restarted.verify(PIN)).resolves.toBeUndefined()
  })

  it('is not shortened by a restart with the wall clock moved past the lock', async () => {
    const at = clocksAt('2026-11-23T10:00:00Z')
    const { counter } = await lockedShop(at)
    at.now = new Date(at.now.getTime() + 10 * 60_000)
    const restarted = counter.open()
    await expect(restarted.verify(PIN)).rejects.toMatchObject({ message: expect.stringContaining('Try again in 60 seconds') })
  })
})
