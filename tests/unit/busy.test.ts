// The stores' busy flag: held while the work runs, put back when it ends or throws, so no button stays disabled.
import { describe, expect, it } from 'vitest'
import { ref } from 'vue'
import { busyWhile, busyWith } from '../../renderer/src/busy'

describe('busyWhile', () => {
  it('is true while the work runs and false after, and answers what the work answered', async () => {
    const saving = ref(false)
    let seen: boolean | undefined
    const answer = await busyWhile(saving, async () => {
      seen = saving.value
      return 42
    })
    expect([seen, saving.value, answer]).toEqual([true, false, 42])
  })

  it('is set before the first await, so a second click in the same moment sees it', () => {
    const selling = ref(false)
    let finish = () => {}
    const running = busyWhile(selling, () => new Promise<void>((resolve) => (finish = resolve)))
    expect(selling.value).toBe(true)
    finish()
    return running.then(() => expect(selling.value).toBe(false))
  })

  it('is put back when the work throws, and the error reaches the caller', async () => {
    const closing = ref(false)
    await expect(busyWhile(closing, () => Promise.reject(new Error('gone')))).rejects.toThrow('gone')
    expect(closing.value).toBe(false)
  })
})

describe('busyWith', () => {
  it('names what is under way, then null, thrown or not', async () => {
    const checking = ref<string | null>(null)
    let seen: string | null = null
    await busyWith(checking, 'R-1', async () => {
      seen = checking.value
    })
    expect([seen, checking.value]).toEqual(['R-1', null])
    await expect(busyWith(checking, 'R-2', () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(checking.value).toBeNull()
  })
})
