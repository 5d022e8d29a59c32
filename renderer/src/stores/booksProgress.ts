// How far the books' long work has got (the whole-journal audit at day close, archiving closed years at start, a copy off the PC), per task, from the core's events.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { BooksProgress } from '../../../electron/contract'

export type BooksTask = BooksProgress['task']

/**
 * Decision: a task that has said nothing for this long is taken as over, so a bar never stays up for
 * good when its last word was lost (the event stream reconnected, the core restarted). The audit
 * speaks about a hundred times in a run (every ~150 ms at 1M sales), as a copy off the PC does (each
 * hundredth, a few seconds apart on a slow USB stick); archiving speaks once per closed year, and one busy
 * year takes a few seconds to write: ten seconds leaves room for all three.
 */
export const SILENT_FOR_MS = 10_000

/** One running task as the screen shows it. */
export interface RunningTask {
  task: BooksTask
  /** 0–99: a task at 100 is over and no longer shown. */
  percent: number
  /** Archiving: the closed year being written, counted from 1 (done + 1), of `total`. */
  step: number
  total: number
}

interface Heard extends BooksProgress {
  /** Date.now() when the core last told of this task. */
  heardAt: number
}

export type ProgressByTask = Partial<Record<BooksTask, Heard>>

/** The state after the core told `progress`: a task whose done reached its total is over and leaves. */
export function heard(state: ProgressByTask, progress: BooksProgress, at: number): ProgressByTask {
  const { [progress.task]: _before, ...others } = state
  return progress.done >= progress.total ? others : { ...others, [progress.task]: { ...progress, heardAt: at } }
}

/** The state at `at` without the tasks silent for SILENT_FOR_MS or more. */
export function withoutSilent(state: ProgressByTask, at: number): ProgressByTask {
  return Object.fromEntries(Object.entries(state).filter(([, task]) => at - task.heardAt < SILENT_FOR_MS))
}

/** A task still in the state has done < total, so its percent stays below 100 and its step within total. */
export function runningTask({ task, done, total }: BooksProgress): RunningTask {
  return { task, percent: Math.max(0, Math.floor((done * 100) / total)), step: Math.max(0, done) + 1, total }
}

export const useBooksProgressStore = defineStore('booksProgress', () => {
  const state = ref<ProgressByTask>({})
  let silenceTimer: ReturnType<typeof setTimeout> | undefined

  const running = computed(() => Object.values(state.value).map(runningTask))

  /** One timer for every task, set for the moment the longest-silent one has been silent too long. */
  function lookForSilenceLater(): void {
    clearTimeout(silenceTimer)
    const heardAt = Object.values(state.value).map((task) => task.heardAt)
    if (heardAt.length === 0) return
    silenceTimer = setTimeout(() => {
      state.value = withoutSilent(state.value, Date.now())
      lookForSilenceLater()
    }, Math.min(...heardAt) + SILENT_FOR_MS - Date.now())
  }

  function apply(progress: BooksProgress): void {
    state.value = heard(state.value, progress, Date.now())
    lookForSilenceLater()
  }

  return { running, apply }
})
