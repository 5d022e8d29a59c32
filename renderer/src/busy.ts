// The stores' and screens' one way of showing that a call is under way: a flag held while the work runs and put back when it
// ends, thrown or not, so a failed call never leaves a button disabled. A second click while busy is the caller's
// to refuse (or not), as before: each store answers it in its own way.
import type { Ref } from 'vue'

async function hold<V, T>(flag: Ref<V>, busy: V, idle: V, work: () => Promise<T>): Promise<T> {
  flag.value = busy
  try {
    return await work()
  } finally {
    flag.value = idle
  }
}

/** `flag` is true while `work` runs. */
export function busyWhile<T>(flag: Ref<boolean>, work: () => Promise<T>): Promise<T> {
  return hold(flag, true, false, work)
}

/** `flag` names what is under way (the sale being checked, the report being printed) while `work` runs, then null. */
export function busyWith<V, T>(flag: Ref<V | null>, what: V, work: () => Promise<T>): Promise<T> {
  return hold<V | null, T>(flag, what, null, work)
}
