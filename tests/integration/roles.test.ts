// Owner and staff through the real core: every owner-only channel refused to staff with owner_only
// and nothing changed, then done by the owner; who did what in each journal line and the Z report;
// old journals without it replay as the owner's; the PIN and its pepper never leave the core.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ownerOnlyChannels, OWNER_ONLY_CHANNELS, type CounterEvent, type Input } from '../../electron/contract'
import { openLedger } from '../../electron/ledger/ledger-client'
import { ledgerDir } from '../../electron/counter/session'
import { keychainSecrets, type Keychain } from '../../electron/counter/credentials'
import { eventually, journalOf, privateKeychainService, startRealModeRig, valueOf, type RealModeRig } from './helpers'

const PIN = '73915286'
const sale = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '199' }) as const

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

/** Every file under the data folder, as text: what "nothing changed" and "never stored" are judged on. */
function filesOf(dir: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) Object.assign(found, filesOf(path))
    else found[path] = readFileSync(path, 'latin1')
  }
  return found
}

const journalText = (r: RealModeRig) => JSON.stringify(journalOf(r))
const settingsText = (r: RealModeRig) => readFileSync(join(r.dataDir, 'settings.json'), 'utf8')

async function unresolvedSale(r: RealModeRig, number: string): Promise<string> {
  r.provider.setFault({ kind: 'truncatedJson', times: 1 })
  const sold = valueOf(await r.counter.call('recharge.sell', sale(number)))
  if (sold.state !== 'UNKNOWN') throw new Error(`expected an UNKNOWN sale, got ${sold.state}`)
  return sold.orderId
}

describe('owner and staff', () => {
  it('lets everyone be the owner before a PIN is set, and says so', async () => {
    rig = await startRealModeRig()
    expect(await rig.counter.call('roles.status', {})).toEqual({ ok: true, value: { role: 'owner', pinSet: false, pinUncheckable: false, lockedUntil: null, idleMinutes: 5 } })
    expect(await rig.counter.call('settings.save', { shopName: 'New Shop' })).toMatchObject({ ok: true })
    expect(await rig.counter.call('roles.lock', {})).toMatchObject({ ok: false, error: { code: 'not_configured' } })
  })

  it('tells the screens of a PIN set and a lock in that order, however slowly the keychain answers the first', async () => {
    const keychain = keychainSecrets(privateKeychainService())
    let slowPepper = false
    // The keychain answers the PIN set's first status read (its announcement's) after the lock's: answers back in any order.
    const secrets: Keychain = {
      forFolder(dataDir) {
        const store = keychain.forFolder(dataDir)
        return {
          async get(name) {
            const slow = slowPepper && name === 'pinPepper'
            if (slow) slowPepper = false
            const value = await store.get(name)
            if (slow) await new Promise((resolve) => setTimeout(resolve, 300))
            return value
          },
          set: (name, value) => store.set(name, value),
          delete: (name) => store.delete(name),
        }
      },
    }
    rig = await startRealModeRig({}, { secrets })
    const told: string[] = []
    rig.counter.onEvent((event) => {
      if (event.name === 'roles.changed') told.push((event.payload as { role: string }).role)
    })
    slowPepper = true
    valueOf(await rig.counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    valueOf(await rig.counter.call('roles.lock', {}))
    await eventually(() => Promise.resolve(told.length >= 2), 'both changes told', 5_000)
    expect(told).toEqual(['owner', 'staff'])
    expect(valueOf(await rig.counter.call('roles.status', {})).role).toBe('staff')
  })

  it('refuses every owner-only channel to staff with owner_only, changing nothing, and lets the owner through', async () => {
    const logs: string[] = []
    rig = await startRealModeRig({}, { log: (line) => logs.push(line) })
    const events: CounterEvent[] = []
    rig.counter.onEvent((event) => events.push(event))
    const { counter } = rig
    expect(await counter.call('roles.setPin', { pin: PIN, repeat: '73915287' })).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { repeat: expect.any(String) } } })
    expect(await counter.call('roles.setPin', { pin: PIN, repeat: PIN })).toMatchObject({ ok: true, value: { role: 'owner', pinSet: true } })
    expect(await counter.call('roles.lock', {})).toMatchObject({ ok: true, value: { role: 'staff' } })

    // Staff sells: two sales left unresolved, one successful.
    const first = await unresolvedSale(rig, '9876543210')
    await unresolvedSale(rig, '9876543211')
    expect(await counter.call('recharge.sell', sale('9876543212'))).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })

    // Every channel in the set needs an input that would succeed for the owner: a channel added to
    // the set without one fails type-check here, and the loop below covers it.
    const { businessDay } = valueOf(await counter.call('app.status', {}))
    const closeInput = {
      businessDay,
      openingFloat: '0',
      counted: { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '' },
      overrideNote: 'The provider has not answered two sales; checking tomorrow',
    }
    const samples: { [K in (typeof OWNER_ONLY_CHANNELS)[number]]: Input<K> } = {
      'settings.save': { shopName: 'Changed By Staff' },
      'topups.add': { amount: '5000', reference: 'UTR778812' },
      'pending.settle': { kind: 'recharge', id: first, outcome: 'FAILED', note: 'Provider helpdesk says it failed, 12:05' },
      'app.confirmClock': {},
      'margins.saveRates': { operators: [{ operatorCode: 'AT', kind: 'percent', value: '2.5' }], coupons: { p: '3', e: '' } },
      'credit.setLimit': { number: '9876543219', name: 'Ramesh', limit: '500' },
      'customers.forget': { number: '9876543212' },
      'day.close': closeInput,
      'office.registerAnew': { terminalId: 'sharma-mobile/counter-1' },
      'backup.save': { folder: '', staleDays: 7 },
      'backup.run': {},
      'backup.sources': {},
      'backup.look': { source: `daily:${businessDay}` },
      'backup.restore': { source: 'daily:2000-01-01', confirmed: true },
    }
    expect([...ownerOnlyChannels].sort()).toEqual(Object.keys(samples).sort())
    const before = { settings: settingsText(rig), journal: journalText(rig) }
    for (const channel of ownerOnlyChannels) {
      const refused = await counter.dispatch(channel, samples[channel as keyof typeof samples])
      expect(refused, channel).toMatchObject({ ok: false, error: { code: 'owner_only', message: expect.stringContaining('Only the owner') } })
      expect({ settings: settingsText(rig), journal: journalText(rig) }, channel).toEqual(before)
    }
    expect(await counter.call('roles.unlock', { pin: '0000' })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('wrong') } })
    expect(await counter.call('roles.unlock', { pin: PIN })).toMatchObject({ ok: true, value: { role: 'owner' } })
    // The day closes last, below, after the owner's own sale. A counter the office has not refused as a fork has no way back to take,
    // nor one without a backup folder a copy to make, nor a restore from a day with no backup: the owner is refused those, not for being staff.
    const unready = ['office.registerAnew', 'backup.run', 'backup.restore'] as const
    for (const channel of [...ownerOnlyChannels].filter((name) => name !== 'day.close' && !(unready as readonly string[]).includes(name))) {
      expect(await counter.dispatch(channel, samples[channel as keyof typeof samples]), channel).toMatchObject({ ok: true })
    }
    const unreadyCode = { 'office.registerAnew': 'not_configured', 'backup.run': 'not_configured', 'backup.restore': 'invalid_input' } as const
    for (const channel of unready) expect(await counter.dispatch(channel, samples[channel]), channel).toMatchObject({ ok: false, error: { code: unreadyCode[channel] } })
    expect(valueOf(await counter.call('settings.get', {})).shopName).toBe('Changed By Staff')
    expect(await counter.call('recharge.sell', sale('9876543213'))).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })
    const closed = valueOf(await counter.call('day.close', closeInput))

    // Who did what: every line the core wrote carries its role, and the Z report counts sales by it.
    const journal = journalOf(rig)
    expect(journal.every((line) => line.data.by === 'owner' || line.data.by === 'staff')).toBe(true)
    const intents = journal.filter((line) => line.type === 'recharge.intent').map((line) => [line.data.number, line.data.by])
    expect(intents).toEqual([['9876543210', 'staff'], ['9876543211', 'staff'], ['9876543212', 'staff'], ['9876543213', 'owner']])
    expect(journal.filter((line) => ['pan.topup', 'sale.settled', 'day.closed'].includes(line.type)).map((line) => line.data.by)).toEqual(['owner', 'owner', 'owner'])
    expect(closed.byRole).toEqual([
      { role: 'owner', count: 1, amountPaise: 199_00 },
      { role: 'staff', count: 1, amountPaise: 199_00 },
    ])
    const csv = valueOf(await counter.call('day.report', { businessDay, format: 'csv' })).content
    expect(csv).toContain('Sales by who sold')
    expect(csv).toMatch(/^Staff,1,199$/m)

    // Locking ends owner mode at once.
    expect(await counter.call('roles.lock', {})).toMatchObject({ ok: true, value: { role: 'staff' } })
    expect(await counter.call('settings.save', { shopName: 'Again' })).toMatchObject({ ok: false, error: { code: 'owner_only' } })

    // The PIN never reaches the data folder in plain, the screen's events or the log (the pepper: owner-pin.test.ts).
    await rig.restart()
    // The start's archive check and backup write files while the counter already answers: the folder is read once they are done.
    await rig.counter.housekeeping()
    const everything = [JSON.stringify(events), logs.join('\n'), ...Object.values(filesOf(rig.dataDir))].join('\n')
    expect(everything).not.toContain(PIN)
    expect(events.some((event) => event.name === 'roles.changed')).toBe(true)
    // After a restart the counter starts as staff.
    expect(await rig.counter.call('roles.status', {})).toMatchObject({ ok: true, value: { role: 'staff', pinSet: true } })
  })

  it('ends owner mode after 5 minutes without an owner action, and forgets the PIN when reset-owner-pin is found at start', async () => {
    let clock = Date.now()
    rig = await startRealModeRig({}, { now: () => new Date(clock) })
    const { counter } = rig
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    clock += 4 * 60_000
    // An owner-only action restarts the five minutes; selling does not.
    expect(await counter.call('settings.save', { shopName: 'Four Minutes In' })).toMatchObject({ ok: true })
    clock += 4 * 60_000
    expect(await counter.call('recharge.sell', sale('9876543214'))).toMatchObject({ ok: true })
    expect(await counter.call('roles.status', {})).toMatchObject({ ok: true, value: { role: 'owner' } })
    clock += 60_000
    expect(await counter.call('roles.status', {})).toMatchObject({ ok: true, value: { role: 'staff' } })
    expect(await counter.call('settings.save', { shopName: 'Too Late' })).toMatchObject({ ok: false, error: { code: 'owner_only' } })
    expect(journalOf(rig).find((line) => line.type === 'recharge.intent')?.data.by).toBe('owner')

    await rig.restart(() => writeFileSync(join(rig!.dataDir, 'reset-owner-pin'), ''))
    expect(await rig.counter.call('roles.status', {})).toMatchObject({ ok: true, value: { role: 'owner', pinSet: false } })
    expect(valueOf(await rig.counter.call('settings.get', {})).shopName).toBe('Four Minutes In')
    expect(readdirSync(rig.dataDir)).not.toContain('reset-owner-pin')
    expect(rig.logLines.join('\n')).toContain('owner PIN was forgotten')
  })

  it('replays a journal written before roles: its sales read as the owner\'s, the chain intact', async () => {
    rig = await startRealModeRig()
    const { businessDay } = valueOf(await rig.counter.call('app.status', {}))
    const dir = ledgerDir(rig.dataDir, 'real')
    await rig.restart(async () => {
      // The ledger as an older Counter opened it: no `by` stamped on its lines.
      const old = await openLedger({ dir })
      await old.append('recharge.intent', {
        orderId: 'OLD1', kind: 'mobile', number: '9876500000', operatorCode: 'AT', operatorName: 'Airtel', circle: 'DL',
        amountPaise: 249_00, businessDay, training: false,
      })
      await old.append('recharge.outcome', { orderId: 'OLD1', source: 'transaction', outcome: 'SUCCESS', providerStatus: 'SUCCESS', message: 'ok', fpayId: null, operatorRef: null })
      await old.close()
      // No saved copy: the books are rebuilt from the journal alone.
      for (const name of readdirSync(dir)) if (name.startsWith('ledger.sqlite')) rmSync(join(dir, name))
    })
    expect(journalOf(rig).find((line) => line.type === 'recharge.intent')?.data.by).toBeUndefined()
    expect(valueOf(await rig.counter.call('day.summary', { businessDay })).byRole).toEqual([{ role: 'owner', count: 1, amountPaise: 249_00 }])
    expect(await rig.counter.session().ledger.auditJournal()).toMatchObject({ ok: true })
  })
})
