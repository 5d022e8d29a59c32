// The owner PIN: its slow salted and peppered hash, checking a typed PIN, and the lock-out after wrong ones.
// The PIN itself is never stored, logged, journaled or sent to the screen; only its hash is kept.
import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import type { SecretStore } from './credentials'
import { CounterError } from './errors'
import { say } from '../shared/words'

/**
 * How the hash was made, kept with it so a later Counter can raise the cost and still check old PINs.
 * N = 2^15, r = 8, p = 1: about 80 ms here (LIBRARIES.md), slow enough to make each guess cost,
 * quick enough for the counter. A 4-digit PIN has 10,000 values, which no hash saves from an offline
 * search: the pepper (a random key in the keychain, not in settings.json) and the lock-out protect it.
 */
export interface PinRecord {
  kdf: 'scrypt'
  N: number
  r: number
  p: number
  keyLength: number
  /** base64 */
  salt: string
  /** base64: scrypt(HMAC-SHA256(pepper, PIN), salt) */
  hash: string
}

export interface PinAttempts {
  /** Wrong PINs since the last right one or the last lock-out. */
  failures: number
  /**
   * Set while a lock-out is on, cleared when a PIN is judged after it ran out: the wall-clock time it was due to end
   * when imposed. Only its presence counts: how long the lock has run is timed on the monotonic clock (OwnerPin).
   */
  lockedUntil: string | null
}

/** What settings.json keeps under "ownerPin". */
export interface OwnerPinFile {
  record: PinRecord | null
  attempts: PinAttempts
}

/** Where the file lives (Settings): read and written as one. */
export interface PinFileStore {
  readonly ownerPin: OwnerPinFile | null
  saveOwnerPin(pin: OwnerPinFile | null): void
}

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const
export const MAX_WRONG_PINS = 5
export const LOCKOUT_MS = 60_000

const NO_ATTEMPTS: PinAttempts = { failures: 0, lockedUntil: null }

function derive(pin: string, pepper: Buffer, salt: Buffer, params: Pick<PinRecord, 'N' | 'r' | 'p' | 'keyLength'>): Promise<Buffer> {
  const peppered = createHmac('sha256', pepper).update(pin, 'utf8').digest()
  // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly that at N = 2^15, so allow twice it.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => scrypt(peppered, salt, params.keyLength, options, (err, key) => (err ? reject(err) : resolve(key))))
}

export async function hashPin(pin: string, pepper: Buffer): Promise<PinRecord> {
  const salt = randomBytes(16)
  const key = await derive(pin, pepper, salt, SCRYPT_PARAMS)
  return { kdf: 'scrypt', ...SCRYPT_PARAMS, salt: salt.toString('base64'), hash: key.toString('base64') }
}

export async function pinMatches(pin: string, pepper: Buffer, record: PinRecord): Promise<boolean> {
  const key = await derive(pin, pepper, Buffer.from(record.salt, 'base64'), record)
  const stored = Buffer.from(record.hash, 'base64')
  return key.length === stored.length && timingSafeEqual(key, stored)
}

const secondsLeft = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

/**
 * The owner PIN as stored in settings.json (hash and wrong-PIN count) with its pepper in the keychain.
 * Decision: the wrong-PIN count and the lock-out's marker are kept in settings.json beside the hash and
 * written at every wrong PIN, so restarting Counter does not grant five more guesses; the ledger is
 * for the books (and must never hold PIN matters) and the keychain may be locked or slow.
 */
export class OwnerPin {
  /**
   * Decision (issue #25): the lock-out's length is measured on the process's monotonic clock from when this process saw
   * it begin, never on the wall clock, which anyone at the PC can move: a clock moved a minute forward ended the lock at
   * once, and one moved back lengthened it. A lock recorded in settings.json that this process did not see end (imposed
   * before a restart) runs a full LOCKOUT_MS again from this process's start, since how long it ran before cannot be
   * known without the wall clock. So neither a restart nor a clock jump shortens a lock, and no clock jump lengthens it
   * past LOCKOUT_MS (a restart may, up to one more LOCKOUT_MS).
   */
  private lockStartedAt: number | null

  constructor(
    private readonly store: PinFileStore,
    private readonly secrets: SecretStore,
    private readonly now: () => Date,
    /** Milliseconds on a clock no one can set (tests pass their own). */
    private readonly monotonic: () => number = () => performance.now(),
  ) {
    this.lockStartedAt = store.ownerPin?.attempts.lockedUntil ? monotonic() : null
  }

  get isSet(): boolean {
    return !!this.store.ownerPin?.record
  }

  /** When PIN entry opens again by the wall clock as it reads now, or null when it is open. */
  lockedUntil(): Date | null {
    const left = this.lockLeftMs()
    return left > 0 ? new Date(this.now().getTime() + left) : null
  }

  /** Monotonic milliseconds until PIN entry opens again; 0 when it is open. */
  private lockLeftMs(): number {
    if (this.lockStartedAt === null || !this.store.ownerPin?.attempts.lockedUntil) return 0
    return Math.max(0, LOCKOUT_MS - (this.monotonic() - this.lockStartedAt))
  }

  /** Whether the keychain lacks the pepper of a stored PIN, so no PIN can be checked on this computer. */
  async uncheckable(): Promise<boolean> {
    return this.isSet && !(await this.secrets.get('pinPepper').catch(() => 'unknown'))
  }

  /**
   * Resolves when `pin` is the owner's; throws in plain words when it is not, or while entry is locked.
   * Decision: one check at a time, and each counted as wrong before its slow hash is computed, then cleared if
   * it was right. Checks that overlapped were all judged against one count (40 sent at once left it at 1, about
   * 150 guesses a minute); counted first, a check cut short by a killed process still counts.
   */
  verify(pin: string): Promise<void> {
    const turn = this.checking.then(() => this.judge(pin))
    this.checking = turn.catch(() => undefined)
    return turn
  }

  private checking: Promise<unknown> = Promise.resolve()

  private async judge(pin: string): Promise<void> {
    const file = this.store.ownerPin
    if (!file?.record) throw new CounterError('not_configured', say('pin.notSet'))
    const left = this.lockLeftMs()
    // Even the right PIN waits out a lock-out: otherwise the lock would tell a guesser when they hit it.
    if (left > 0) throw new CounterError('forbidden', say('pin.locked', { seconds: secondsLeft(left) }))
    const pepper = await this.pepper()
    if (!pepper) throw new CounterError('not_configured', PEPPER_MISSING)
    const failures = file.attempts.failures + 1
    const locks = failures >= MAX_WRONG_PINS
    // Saved before the slow hash (verify says why); a lock that ran out is cleared here, or imposed anew.
    this.lockStartedAt = locks ? this.monotonic() : null
    const lockedUntil = locks ? new Date(this.now().getTime() + LOCKOUT_MS).toISOString() : null
    this.store.saveOwnerPin({ ...file, attempts: locks ? { failures: 0, lockedUntil } : { failures, lockedUntil: null } })
    if (await pinMatches(pin, pepper, file.record)) {
      this.lockStartedAt = null
      this.store.saveOwnerPin({ ...file, attempts: NO_ATTEMPTS })
      return
    }
    if (locks) throw new CounterError('forbidden', say('pin.wrongLocked', { max: MAX_WRONG_PINS, seconds: secondsLeft(LOCKOUT_MS) }))
    throw new CounterError('forbidden', say('pin.wrong', { left: MAX_WRONG_PINS - failures }))
  }

  /** Sets the first PIN, or a new one once `oldPin` is checked; a fresh salt and pepper each time. */
  async set(pin: string, oldPin: string | undefined): Promise<void> {
    if (this.isSet) {
      if (!oldPin) throw new CounterError('invalid_input', say('pin.oldNeeded'), { oldPin: say('pin.oldNeededField') })
      await this.verify(oldPin)
    }
    const pepper = randomBytes(32)
    const record = await hashPin(pin, pepper)
    // The pepper first: a hash saved without its pepper could never be checked.
    await this.secrets.set('pinPepper', pepper.toString('base64'))
    this.store.saveOwnerPin({ record, attempts: NO_ATTEMPTS })
  }

  /** The reset path (roles.ts): forgets the stored PIN, so the next owner sets a new one. */
  forget(): void {
    this.store.saveOwnerPin(null)
  }

  private async pepper(): Promise<Buffer | null> {
    const stored = await this.secrets.get('pinPepper')
    return stored ? Buffer.from(stored, 'base64') : null
  }
}

/** The file whose presence in the data folder at start forgets the owner PIN (a lost pepper or a forgotten PIN). */
export const RESET_PIN_FILE = 'reset-owner-pin'

export const PEPPER_MISSING = say('pin.pepperMissing', { file: RESET_PIN_FILE })
