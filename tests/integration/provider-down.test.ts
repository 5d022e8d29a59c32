// The provider out of reach and back, through the core in REAL mode against the simulator: the status says so and
// since when, the operator lookup says the provider cannot be reached (never "not found"), both clear at the first
// call answered, and none of it blocks a sale or adds a journal line. A provider that answers "no operator" still
// says not found.
import { afterEach, describe, expect, it } from 'vitest'
import type { AppStatus, Result } from '../../electron/contract'
import { eventually, journalOf, privateLoopback, providerBackAt, startRealModeRig, statusEvents, valueOf, type RealModeRig } from './helpers'

const NUMBER = '9876543210'
const UNREACHABLE = 'The provider cannot be reached: choose the operator yourself.'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const statusNow = async (): Promise<AppStatus> => valueOf(await rig!.counter.call('app.status', {}))
const lookUp = (number = NUMBER) => rig!.counter.call('recharge.lookupOperator', { number })

/** The refusal's words, from a call that must have been refused. */
function refusalOf(result: Result<unknown>): string {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`)
  expect(result.error.code).toBe('provider_error')
  return result.error.message
}

/** The core in REAL mode once the start's PAN balance read has been answered and journaled. */
async function answeringRig(): Promise<AppStatus> {
  // Its own address: the provider is stopped and started again on one port, which no other test's server may take meanwhile.
  rig = await startRealModeRig({ host: privateLoopback() })
  return eventually(async () => {
    const status = await statusNow()
    return status.connectivity === 'online' && status.panBalance.balancePaise !== null && status
  }, 'the start-up balance read answered')
}

describe('the provider cannot be reached', () => {
  it('the status says since when and the lookup says so; the first answer clears both', async () => {
    const before = await answeringRig()
    expect(before.unreachableSince).toBeNull()
    const seen = statusEvents(rig!.counter)
    await rig!.provider.close()
    const lines = journalOf(rig!).length

    const wentAt = Date.now()
    const refused = refusalOf(await lookUp())
    expect(refused).toBe(UNREACHABLE)
    expect(refused).not.toMatch(/not found/i)
    const down = await statusNow()
    expect(down).toMatchObject({ connectivity: 'offline', lastContactAt: before.lastContactAt })
    expect(Date.parse(down.unreachableSince!)).toBeGreaterThanOrEqual(wentAt)
    expect(Date.parse(down.unreachableSince!)).toBeLessThanOrEqual(Date.now())
    await eventually(async () => seen.some((status) => status.unreachableSince === down.unreachableSince), 'the screen told')
    // Asking is not selling: the failed lookup wrote nothing.
    expect(journalOf(rig!)).toHaveLength(lines)

    // Nothing is blocked: a sale tried meanwhile fails at once, the PAN address is no better; the time it went stays.
    expect(valueOf(await rig!.counter.call('recharge.sell', { kind: 'mobile', number: NUMBER, operatorCode: 'AT', circle: 'DL', amount: '199' })).state).toBe('FAILED')
    expect(refusalOf(await rig!.counter.call('pan.balance.refresh', {}))).toMatch(/refused the connection/)
    expect(refusalOf(await lookUp('7012345678'))).toBe(UNREACHABLE)
    expect(await statusNow()).toMatchObject({ connectivity: 'offline', lastContactAt: before.lastContactAt, unreachableSince: down.unreachableSince })

    // In Hindi with a Hindi screen.
    valueOf(await rig!.counter.call('settings.save', { screenLanguage: 'hi' }))
    expect(refusalOf(await lookUp())).toBe('प्रोवाइडर पहुँच से बाहर है: ऑपरेटर खुद चुनें।')
    valueOf(await rig!.counter.call('settings.save', { screenLanguage: 'en' }))

    rig!.provider = await providerBackAt(rig!.provider.url)
    const found = valueOf(await lookUp())
    expect(found.operatorCode).not.toBeNull()
    const back = await statusNow()
    expect(back).toMatchObject({ connectivity: 'online', unreachableSince: null })
    expect(Date.parse(back.lastContactAt!)).toBeGreaterThan(Date.parse(down.unreachableSince!))
    await eventually(async () => seen.at(-1)?.connectivity === 'online' && seen.at(-1)?.unreachableSince === null, 'the screen told it is back')
    expect(seen.filter((status) => status.connectivity === 'offline').map((status) => status.unreachableSince)).not.toContain(null)
  })

  it('a lookup the provider took and never answered (timed out) says the same, and a later run of failures has its own time', async () => {
    await answeringRig()
    rig!.provider.setFault({ kind: 'noAnswer', operations: ['fetch_operator'], times: 1 })
    expect(refusalOf(await lookUp())).toBe(UNREACHABLE)
    const first = await statusNow()
    expect(first.connectivity).toBe('offline')

    valueOf(await lookUp())
    rig!.provider.setFault({ kind: 'noAnswer', operations: ['fetch_operator'], times: 1 })
    expect(refusalOf(await lookUp())).toBe(UNREACHABLE)
    const second = await statusNow()
    expect(second.connectivity).toBe('offline')
    expect(Date.parse(second.unreachableSince!)).toBeGreaterThan(Date.parse(first.unreachableSince!))
  })
})

describe('the provider answers', () => {
  it('"no operator for this number" is not found, in its own words; the provider was reached', async () => {
    await answeringRig()
    rig!.provider.setFault({ kind: 'refuse', operations: ['fetch_operator'], times: 1, refusal: { message: 'No operator found for this number' } })
    expect(refusalOf(await lookUp())).toBe('Operator lookup did not work: No operator found for this number. Choose the operator yourself.')
    expect(await statusNow()).toMatchObject({ connectivity: 'online', unreachableSince: null })
  })

  it('the screen hears of the last contact when the minute it shows moves on, not at every answer (each telling reads the books)', async () => {
    let at = Date.parse('2026-11-28T09:30:05.000Z')
    rig = await startRealModeRig({}, { now: () => new Date(at) })
    await eventually(async () => (await statusNow()).panBalance.balancePaise !== null, 'the start-up balance read answered')
    await rig.counter.housekeeping()
    const seen = statusEvents(rig.counter)
    valueOf(await lookUp())
    at += 40_000
    valueOf(await lookUp())
    at += 20_000
    valueOf(await lookUp())
    const nextMinute = new Date(at).toISOString()
    await eventually(async () => seen.some((status) => status.lastContactAt === nextMinute), 'the screen told of 09:31')
    expect(seen.map((status) => status.lastContactAt)).toEqual([nextMinute])
    expect(await statusNow()).toMatchObject({ connectivity: 'online', lastContactAt: nextMinute })
  })

  it('an error page: reached, and the number could not be looked up just now', async () => {
    await answeringRig()
    rig!.provider.setFault({ kind: 'http500', operations: ['fetch_operator'], times: 1 })
    const refused = refusalOf(await lookUp())
    expect(refused).toBe('The operator could not be looked up just now: choose it from the list.')
    expect(await statusNow()).toMatchObject({ connectivity: 'online', unreachableSince: null })
  })
})
