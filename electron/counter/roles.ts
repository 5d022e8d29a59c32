// Owner and staff: the role the counter runs as, unlocking with the owner PIN, locking (by hand and
// when idle), the check dispatch makes before an owner-only channel, and the PIN's reset path.
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ownerOnlyChannels, type Channel, type HandlersFor, type Role, type RolesStatus } from '../contract'
import type { SecretStore } from './credentials'
import type { Access, Log } from './dispatch'
import { CounterError } from './errors'
import { OwnerPin, PEPPER_MISSING, RESET_PIN_FILE, type PinFileStore } from './owner-pin'
import { english, say, type Said } from '../shared/words'

/**
 * Decision: owner mode ends 5 minutes after the unlock or the last owner-only action. Selling does
 * not keep it open: whoever sells after the owner walks away may be staff, and must not inherit the
 * owner's rights. Five minutes covers filling in Settings; a save refused after it keeps the form.
 */
export const IDLE_MINUTES = 5
const IDLE_MS = IDLE_MINUTES * 60_000

type RoleChannels = 'roles.status' | 'roles.unlock' | 'roles.lock' | 'roles.setPin'

export interface Roles extends Access {
  handlers: HandlersFor<RoleChannels>
  /** The role now: what dispatch checks and what each journal line records. */
  role(): Role
  /** Whether an owner PIN is set: until one is, anyone at the counter is the owner. */
  pinSet(): boolean
  /**
   * At start, once the books are open: when the reset file is in the data folder, `journal` records the reset (the
   * file's path) and then the PIN is forgotten and the file removed.
   */
  resetIfAsked(journal: (file: string) => Promise<unknown>): Promise<void>
  stop(): void
}

export interface RolesOptions {
  dataDir: string
  store: PinFileStore
  secrets: SecretStore
  now: () => Date
  log: Log
  announce(status: RolesStatus): void
  /** Told when a PIN is set, which ends the status bar's notice of a reset. */
  pinWasSet(): void
}

function ownerOnly(what: Said): CounterError {
  return new CounterError('owner_only', say('owner.only', { what }))
}

export function createRoles({ dataDir, store, secrets, now, log, announce, pinWasSet }: RolesOptions): Roles {
  const pin = new OwnerPin(store, secrets, now)
  /**
   * Decision (a lost pepper, or a forgotten PIN): the owner closes Counter, creates an empty file
   * named reset-owner-pin in the data folder and starts it again. It needs the computer's files, not
   * the counter's screen, so staff cannot do it by accident; sales, settings and credentials are
   * untouched; until then the counter runs as staff and sells as usual.
   * Decision (issue #25): anyone who can write to the data folder can do it, and until a new PIN is
   * set anyone at the counter is the owner, so a reset is never silent. Its journal line is written
   * first, and only then is the PIN forgotten and the file removed: books that cannot take the line
   * (read-only) keep the PIN and the file, and the next start tries again; a stop between the line
   * and the removal writes a second line at the next start, never none.
   */
  const resetFile = join(dataDir, RESET_PIN_FILE)
  async function resetIfAsked(journal: (file: string) => Promise<unknown>): Promise<void> {
    if (!existsSync(resetFile)) return
    try {
      await journal(resetFile)
    } catch (err) {
      const problem = err instanceof Error ? english(err.message) : String(err)
      log(`counter: ${RESET_PIN_FILE} was found but the owner PIN is kept: the journal could not record the reset (${problem}); the next start tries again`)
      return
    }
    pin.forget()
    rmSync(resetFile, { force: true })
    log(`counter: the owner PIN was forgotten as ${RESET_PIN_FILE} asked, and the reset journaled; set a new one in Settings`)
  }

  let current: Role = pin.isSet ? 'staff' : 'owner'
  let ownerSince = now().getTime()
  let idleTimer: NodeJS.Timeout | undefined

  const status = async (): Promise<RolesStatus> => ({
    role: role(),
    pinSet: pin.isSet,
    pinUncheckable: await pin.uncheckable(),
    lockedUntil: pin.lockedUntil()?.toISOString() ?? null,
    idleMinutes: IDLE_MINUTES,
  })
  /**
   * Each change is told in turn, its status read when its turn comes. Read at once, two changes close together (a PIN
   * set, then a lock) could reach the screens newest first: each status waits on the keychain, whose answers may come
   * back in any order, and a screen left showing the owner would offer owner-only buttons to staff.
   */
  let telling: Promise<void> = Promise.resolve()
  const changed = () => {
    telling = telling.then(() => status().then(announce, () => undefined))
  }
  const becomeStaff = () => {
    clearTimeout(idleTimer)
    current = 'staff'
  }
  /** Owner mode runs IDLE_MINUTES from now; the timer only tells the screen, role() decides on its own. */
  const touch = () => {
    ownerSince = now().getTime()
    clearTimeout(idleTimer)
    idleTimer = setTimeout(() => {
      if (current === 'owner' && role() === 'staff') changed()
    }, IDLE_MS)
    idleTimer.unref()
  }

  function role(): Role {
    if (!pin.isSet) return 'owner'
    if (current === 'owner' && now().getTime() - ownerSince >= IDLE_MS) becomeStaff()
    return current
  }

  return {
    role,
    pinSet: () => pin.isSet,
    resetIfAsked,
    refusal(channel: Channel) {
      if (!ownerOnlyChannels.has(channel)) return null
      if (role() !== 'owner') return ownerOnly(say('owner.doThis'))
      touch()
      return null
    },
    stop: () => clearTimeout(idleTimer),
    handlers: {
      'roles.status': status,
      async 'roles.unlock'({ pin: typed }) {
        if (!pin.isSet) return status()
        if (await pin.uncheckable()) throw new CounterError('not_configured', PEPPER_MISSING)
        try {
          await pin.verify(typed)
        } catch (err) {
          // The lock-out's start and every wrong PIN change what the screen shows.
          changed()
          throw err
        }
        current = 'owner'
        touch()
        changed()
        return status()
      },
      async 'roles.lock'() {
        if (!pin.isSet) throw new CounterError('not_configured', say('pin.setFirst'))
        becomeStaff()
        changed()
        return status()
      },
      async 'roles.setPin'({ pin: next, oldPin }) {
        await pin.set(next, oldPin)
        // Whoever set (or knew) the PIN is the owner: owner mode runs on from here.
        current = 'owner'
        touch()
        changed()
        pinWasSet()
        return status()
      },
    },
  }
}
