// Credentials in a real gnome-keyring (tests run under dbus-run-session): saved from Settings,
// used for signed calls, and never sent back through the contract, the ledger, a receipt or a log.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { keychainSecrets, secretNames } from '../../electron/counter/credentials'
import { startSimulator, type Simulator } from '../../electron/simulator/server'
import { privateKeychainService, realApiKey, realCredentials, resourcesDir, tempDir } from './helpers'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('keychain secret store', () => {
  it('sets, gets and deletes through the real Secret Service', async () => {
    const dir = tempDir()
    const store = keychainSecrets(privateKeychainService()).forFolder(dir.path)
    expect(await store.get('token')).toBeNull()
    await store.set('token', 'tok-123')
    await store.set('secretKey', 'abcd')
    expect(await store.get('token')).toBe('tok-123')
    expect(await store.get('secretKey')).toBe('abcd')
    await store.delete('token')
    expect(await store.get('token')).toBeNull()
    expect(await store.get('secretKey')).toBe('abcd')
    await store.delete('secretKey')
    dir.remove()
  })
})

describe('settings with secrets', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function rig(): Promise<{ counter: CounterApp; provider: Simulator; dataDir: string; logs: string[]; restart(): Promise<CounterApp> }> {
    const dir = tempDir()
    const provider = await startSimulator({ recharge: realCredentials, pan: { apiKey: realApiKey } })
    const service = privateKeychainService()
    const logs: string[] = []
    const start = () =>
      startCounter({ dataDir: dir.path, resourcesDir, platform: 'test', startTraining: () => startSimulator(), secrets: keychainSecrets(service), env: {}, log: (l) => logs.push(l) })
    const state = { counter: await start(), provider, dataDir: dir.path, logs, restart: async () => state.counter }
    state.restart = async () => {
      await state.counter.close()
      state.counter = await start()
      return state.counter
    }
    cleanups.push(() => dir.remove(), () => provider.close(), async () => {
      const secrets = keychainSecrets(service).forFolder(dir.path)
      for (const name of secretNames) await secrets.delete(name)
    }, async () => {
      await state.counter.close()
    })
    return state
  }

  it('saving credentials switches to REAL, survives a restart, and no secret ever comes back', async () => {
    const { counter: training, provider, dataDir, logs, restart } = await rig()
    expect(await training.call('app.status', {})).toMatchObject({ ok: true, value: { mode: 'training' } })

    const responses: unknown[] = []
    const saved = await training.call('settings.save', {
      userId: realCredentials.userId,
      token: realCredentials.token,
      secretKey: realCredentials.secretKey,
      rechargeBaseUrl: provider.url,
      apiKey: realApiKey,
      panBaseUrl: provider.url,
      shopName: 'Sharma Mobile Point',
    })
    responses.push(saved)
    expect(saved).toMatchObject({ ok: true, value: { mode: 'real', secrets: { token: true, secretKey: true, apiKey: true } } })

    const counter = await restart()
    for (const [channel, input] of [
      ['settings.get', {}],
      ['app.status', {}],
      ['settings.testConnection', {}],
    ] as const) {
      responses.push(await counter.call(channel, input))
    }
    const sold = await counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '49' })
    expect(sold).toMatchObject({ ok: true, value: { state: 'SUCCESS', training: false } })
    responses.push(sold, await counter.call('sales.today', {}))
    if (sold.ok) responses.push(await counter.call('receipt.html', { orderId: sold.value.orderId }))
    responses.push(await counter.call('pan.balance.refresh', {}), await counter.call('pan.agents.refresh', { vleId: 'NOBODY' }))
    expect(responses.at(-2)).toMatchObject({ ok: true, value: { balancePaise: 500000 } })
    expect(responses[3]).toMatchObject({ ok: true, value: { outcome: 'SUCCESS' } })

    // The provider did get the signed, authenticated call…
    expect(provider.requests.some((r) => r.fields.token === realCredentials.token)).toBe(true)
    expect(provider.requests.some((r) => r.fields.api_key === realApiKey)).toBe(true)
    await counter.close()
    // …but the secrets are nowhere the renderer, a receipt, a log or the ledger could show them.
    const seen = [JSON.stringify(responses), logs.join('\n'), ...filesUnder(dataDir).map((f) => readFileSync(f, 'latin1'))].join('\n')
    for (const secret of [realCredentials.token, realCredentials.secretKey, realApiKey]) expect(seen).not.toContain(secret)
  })

  it('refuses a half-configured account and stays in training', async () => {
    const { counter } = await rig()
    const result = await counter.call('settings.save', { userId: 'FISPL1', rechargeBaseUrl: 'https://partner.example' })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { token: expect.any(String), secretKey: expect.any(String) } } })
    expect(await counter.call('app.status', {})).toMatchObject({ ok: true, value: { mode: 'training' } })
  })

  it('forgetting credentials returns to training and clears the keychain', async () => {
    const { counter, provider } = await rig()
    await counter.call('settings.save', { ...realCredentials, rechargeBaseUrl: provider.url })
    const forgotten = await counter.call('settings.save', { forgetCredentials: true })
    expect(forgotten).toMatchObject({ ok: true, value: { mode: 'training', secrets: { token: false, secretKey: false } } })
  })
})
