// The settings every call reads: the saved values with the environment's on top as Counter started with it, one shared frozen copy, made again at each save.
import { afterEach, describe, expect, it } from 'vitest'
import { keychainSecrets } from '../../electron/counter/credentials'
import { Settings } from '../../electron/counter/settings'
import { privateKeychainService, tempDir } from '../integration/helpers'

const dirs: { remove(): void }[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove()
})

function settingsWith(env: NodeJS.ProcessEnv): Settings {
  const dir = tempDir()
  dirs.push(dir)
  return new Settings(dir.path, env, keychainSecrets(privateKeychainService()).forFolder(dir.path))
}

describe('Settings.current', () => {
  it('is one frozen copy until a save, which the next read shows while the copy handed out before stays as it was', () => {
    const settings = settingsWith({})
    const before = settings.current
    expect(settings.current).toBe(before)
    expect(Object.isFrozen(before)).toBe(true)
    expect(() => {
      ;(before as { shopName: string }).shopName = 'Changed by a caller'
    }).toThrow(TypeError)
    settings.saveBackup({ backupFolder: '/media/pendrive/counter', backupStaleDays: 3 })
    const after = settings.current
    expect(after).not.toBe(before)
    expect(after).toMatchObject({ backupFolder: '/media/pendrive/counter', backupStaleDays: 3 })
    expect(before.backupFolder).not.toBe('/media/pendrive/counter')
  })

  it('puts the environment on top as Counter started with it, trimmed, and keeps it there through a save', async () => {
    const env: NodeJS.ProcessEnv = { COUNTER_USER_ID: '  shop42 ', COUNTER_PAN_BASE_URL: '   ' }
    const settings = settingsWith(env)
    expect(settings.current).toMatchObject({ userId: 'shop42', panBaseUrl: '', rechargeBaseUrl: '' })
    env.COUNTER_USER_ID = 'shop43'
    env.COUNTER_RECHARGE_BASE_URL = 'http://127.0.0.1:9/'
    settings.saveBackup({ backupFolder: '/media/pendrive/counter', backupStaleDays: 3 })
    expect(settings.current).toMatchObject({ userId: 'shop42', panBaseUrl: '', rechargeBaseUrl: '', backupFolder: '/media/pendrive/counter' })
    expect((await settings.view()).fromEnvironment).toEqual(['userId', 'panBaseUrl'])
  })
})
