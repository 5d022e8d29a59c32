// The screen's record of the books' long work: the latest word per task, gone when the task is done or has gone silent.
import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { heard, runningTask, SILENT_FOR_MS, useBooksProgressStore, withoutSilent } from '../../renderer/src/stores/booksProgress'

const T0 = 1_700_000_000_000

describe('the latest progress per task', () => {
  it('keeps the newest word of each task and both tasks side by side', () => {
    let state = heard({}, { task: 'audit', done: 10, total: 400 }, T0)
    state = heard(state, { task: 'archive', done: 0, total: 3 }, T0 + 5)
    state = heard(state, { task: 'audit', done: 200, total: 400 }, T0 + 10)
    expect(state).toEqual({
      audit: { task: 'audit', done: 200, total: 400, heardAt: T0 + 10 },
      archive: { task: 'archive', done: 0, total: 3, heardAt: T0 + 5 },
    })
  })

  it('drops a task once its done reaches its total, and one that had nothing to do', () => {
    let state = heard({}, { task: 'audit', done: 399, total: 400 }, T0)
    state = heard(state, { task: 'archive', done: 1, total: 3 }, T0)
    expect(Object.keys(heard(state, { task: 'audit', done: 400, total: 400 }, T0 + 1))).toEqual(['archive'])
    expect(Object.keys(heard(state, { task: 'audit', done: 401, total: 400 }, T0 + 1))).toEqual(['archive'])
    expect(heard({}, { task: 'archive', done: 0, total: 0 }, T0)).toEqual({})
  })

  it(`forgets a task silent for ${SILENT_FOR_MS / 1000} s, not one heard from since`, () => {
    let state = heard({}, { task: 'archive', done: 1, total: 4 }, T0)
    state = heard(state, { task: 'audit', done: 5, total: 100 }, T0 + 4_000)
    expect(Object.keys(withoutSilent(state, T0 + SILENT_FOR_MS - 1)).sort()).toEqual(['archive', 'audit'])
    expect(Object.keys(withoutSilent(state, T0 + SILENT_FOR_MS))).toEqual(['audit'])
    expect(withoutSilent(state, T0 + 4_000 + SILENT_FOR_MS)).toEqual({})
  })
})

describe('what the screen shows of a running task', () => {
  it('the audit as a whole percent, never 100 while it runs', () => {
    expect(runningTask({ task: 'audit', done: 0, total: 859_000_000 })).toMatchObject({ percent: 0 })
    expect(runningTask({ task: 'audit', done: 386_550_000, total: 859_000_000 })).toMatchObject({ percent: 45 })
    expect(runningTask({ task: 'audit', done: 858_999_999, total: 859_000_000 })).toMatchObject({ percent: 99 })
  })

  it('archiving as the year being written of the years to look at', () => {
    expect(runningTask({ task: 'archive', done: 0, total: 4 })).toEqual({ task: 'archive', percent: 0, step: 1, total: 4 })
    expect(runningTask({ task: 'archive', done: 3, total: 4 })).toEqual({ task: 'archive', percent: 75, step: 4, total: 4 })
  })
})

describe('the store the events feed', () => {
  it('shows a task from its first word until its last', () => {
    setActivePinia(createPinia())
    const store = useBooksProgressStore()
    expect(store.running).toEqual([])
    store.apply({ task: 'audit', done: 0, total: 1000 })
    store.apply({ task: 'audit', done: 450, total: 1000 })
    expect(store.running).toEqual([{ task: 'audit', percent: 45, step: 451, total: 1000 }])
    store.apply({ task: 'audit', done: 1000, total: 1000 })
    expect(store.running).toEqual([])
  })
})
