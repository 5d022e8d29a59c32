// The pending list and the status bar are refreshed by one read at a time, and one more after it for every ask made meanwhile; the pending list's no sooner than its spacing after the one before.
import { describe, expect, it } from 'vitest'
import { singleFlight } from '../../electron/counter/single-flight'

/** A run the test ends by hand, recording what it saw when it began. */
function gatedRuns() {
  const began: number[] = []
  const gates: (() => void)[] = []
  let version = 0
  const run = () => {
    began.push(version)
    return new Promise<void>((done) => gates.push(done))
  }
  const finish = async () => {
    gates.shift()!()
    // Lets the chained run after it begin.
    for (let i = 0; i < 5; i++) await Promise.resolve()
  }
  return { began, run, finish, change: () => (version += 1) }
}

describe('singleFlight', () => {
  it('runs at once when idle, and once more after the run for all asks made meanwhile, which then see every change', async () => {
    const runs = gatedRuns()
    const refresh = singleFlight(runs.run)
    const first = refresh()
    expect(runs.began).toEqual([0])
    runs.change()
    const second = refresh()
    runs.change()
    const third = refresh()
    expect(second).toBe(third)
    expect(runs.began).toEqual([0])
    await runs.finish()
    await first
    expect(runs.began).toEqual([0, 2])
    await runs.finish()
    await second
    expect(runs.began).toEqual([0, 2])
    refresh()
    expect(runs.began).toEqual([0, 2, 2])
    await runs.finish()
  })

  it('goes on after a run that failed: the ask after it still runs, and the failure reaches only its own askers', async () => {
    let calls = 0
    let release: () => void = () => undefined
    const refresh = singleFlight(async () => {
      calls += 1
      if (calls === 1) {
        await new Promise<void>((done) => (release = done))
        throw new Error('the books are closing')
      }
    })
    const failing = refresh()
    const after = refresh()
    release()
    await expect(failing).rejects.toThrow('the books are closing')
    await expect(after).resolves.toBeUndefined()
    expect(calls).toBe(2)
  })

  it('with a spacing: an ask at a quiet moment runs at once, and asks soon after one run join one more, begun once the spacing is up', async () => {
    const SPACING_MS = 80
    const startedAt: number[] = []
    const refresh = singleFlight(async () => {
      startedAt.push(performance.now())
    }, SPACING_MS)
    await refresh()
    expect(startedAt).toHaveLength(1)
    // The first run has ended; these come within its spacing.
    const second = refresh()
    const third = refresh()
    expect(second).toBe(third)
    expect(startedAt).toHaveLength(1)
    await second
    expect(startedAt).toHaveLength(2)
    // Node's timers count from the loop's cached millisecond, so one can fire a millisecond or two early by performance.now().
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(SPACING_MS - 5)
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS + 20))
    void refresh()
    expect(startedAt).toHaveLength(3)
  })

  it('with a spacing: a run that fails (the books closing under it) still spaces the next, which runs for the asks that joined it', async () => {
    const SPACING_MS = 60
    const startedAt: number[] = []
    const refresh = singleFlight(async () => {
      startedAt.push(performance.now())
      if (startedAt.length === 1) throw new Error('the books are closing')
    }, SPACING_MS)
    await expect(refresh()).rejects.toThrow('the books are closing')
    const joined = refresh()
    expect(refresh()).toBe(joined)
    await expect(joined).resolves.toBeUndefined()
    expect(startedAt).toHaveLength(2)
    // Node's timers count from the loop's cached millisecond, so one can fire a millisecond or two early by performance.now().
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(SPACING_MS - 5)
  })
})
