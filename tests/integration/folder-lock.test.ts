// The folder lock on real files and real processes: racing starts never both own a folder, the
// lock carries its owner from the moment it exists, and a takeover in progress or abandoned by a
// crash is respected.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LedgerInUseError, lockFolder, takeoverMarkerName } from '../../electron/ledger/folder-lock'
import { runLockRace } from '../faults/lock-race'
import { tempDir } from './helpers'
import { sample } from '../tiers'

const SAMPLE_STARTS = Number(process.env.LOCK_RACE_STARTS ?? sample('lockRaceStarts'))

let dir: ReturnType<typeof tempDir>
const lockFile = () => join(dir.path, 'counter.lock')
const deadPid = () => spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid!

beforeEach(() => (dir = tempDir('counter-lock-')))
afterEach(() => dir.remove())

describe('folder lock', () => {
  it(`lets exactly one of ${SAMPLE_STARTS} racing starts own the folder at a time, fresh or stale`, async () => {
    const race = await runLockRace({ starts: SAMPLE_STARTS })
    expect(race.problems).toEqual([])
    expect(race.rounds).toBeGreaterThanOrEqual(4) // every kind of round at least once
    expect(race.overlaps).toBe(0)
    expect(race.roundsWithoutOwner).toBe(0)
  }, 120_000)

  it('names its owner and a nonce from the moment the lock exists, and releases only its own lock', () => {
    const release = lockFolder(dir.path)
    const content = readFileSync(lockFile(), 'utf8')
    expect(content).toMatch(new RegExp(`^${process.pid} [0-9a-f]{32}$`))
    expect(readdirSync(dir.path)).toEqual(['counter.lock'])
    // As if another start had taken the folder over meanwhile: its lock stays.
    writeFileSync(lockFile(), '999999 ffffffffffffffffffffffffffffffff')
    release()
    expect(readFileSync(lockFile(), 'utf8')).toBe('999999 ffffffffffffffffffffffffffffffff')
  })

  it("honours an older Counter's lock (a bare pid) while its process lives, and takes it or an empty one over after", async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      writeFileSync(lockFile(), String(other.pid))
      expect(() => lockFolder(dir.path)).toThrow(LedgerInUseError)
    } finally {
      other.kill('SIGKILL')
      await once(other, 'exit')
    }
    for (const left of [String(other.pid), '']) {
      writeFileSync(lockFile(), left)
      const release = lockFolder(dir.path)
      expect(readFileSync(lockFile(), 'utf8')).toMatch(new RegExp(`^${process.pid} `))
      release()
    }
  })

  it('moves past takeovers whose starts died, and clears what they left', () => {
    const stale = `${deadPid()} 0123456789abcdef0123456789abcdef`
    const abandoned = `${deadPid()} 11111111111111111111111111111111`
    writeFileSync(lockFile(), stale)
    writeFileSync(join(dir.path, takeoverMarkerName(stale)), abandoned)
    writeFileSync(join(dir.path, takeoverMarkerName(abandoned)), `${deadPid()} 22222222222222222222222222222222`)
    writeFileSync(join(dir.path, `counter.lock.tmp-${deadPid()}-33333333333333333333333333333333`), 'x')
    const release = lockFolder(dir.path)
    expect(readFileSync(lockFile(), 'utf8')).toMatch(new RegExp(`^${process.pid} `))
    expect(readdirSync(dir.path)).toEqual(['counter.lock'])
    release()
    expect(readdirSync(dir.path)).toEqual([])
  })

  it('waits on a takeover another live start holds, then says the folder is in use, leaving the lock alone', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      const stale = `${deadPid()} 0123456789abcdef0123456789abcdef`
      writeFileSync(lockFile(), stale)
      writeFileSync(join(dir.path, takeoverMarkerName(stale)), `${other.pid} 44444444444444444444444444444444`)
      const began = Date.now()
      expect(() => lockFolder(dir.path, { patienceMs: 300 })).toThrow(`process ${other.pid}`)
      expect(Date.now() - began).toBeGreaterThanOrEqual(300)
      expect(readFileSync(lockFile(), 'utf8')).toBe(stale)
    } finally {
      other.kill('SIGKILL')
      await once(other, 'exit')
    }
  })
})
