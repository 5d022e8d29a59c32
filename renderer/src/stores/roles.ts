// Owner or staff: the role as the core says, kept current by its roles.changed event, and the PIN dialog's state.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Input, RolesStatus } from '../../../electron/contract'
import { call, onEvent } from '../api'
import { busyWhile } from '../busy'

export const useRolesStore = defineStore('roles', () => {
  const status = ref<RolesStatus | null>(null)
  /** The PIN dialog is open (the status bar's Unlock, or an "Owner only — unlock" button). */
  const asking = ref(false)
  const error = ref<string | null>(null)
  const busy = ref(false)

  const isOwner = computed(() => status.value?.role === 'owner')

  async function load(): Promise<void> {
    const result = await call('roles.status', {})
    if (result.ok) status.value = result.value
  }

  function followEvents(): () => void {
    return onEvent((event) => {
      if (event.name === 'roles.changed') status.value = event.payload as RolesStatus
    })
  }

  function ask(): void {
    error.value = null
    asking.value = true
  }

  /** Answers the status, or null with `error` set (a wrong PIN, the lock-out and its time left). */
  function run<K extends 'roles.unlock' | 'roles.lock' | 'roles.setPin'>(channel: K, input: Input<K>): Promise<{ ok: boolean; fields?: Record<string, string> }> {
    return busyWhile(busy, async () => {
      const result = await call(channel, input)
      if (result.ok) {
        status.value = result.value as RolesStatus
        error.value = null
        return { ok: true }
      }
      error.value = result.error.message
      // A refused PIN changes the lock-out: read it again.
      void load()
      return { ok: false, fields: result.error.fields }
    })
  }

  async function unlock(pin: string): Promise<boolean> {
    const done = await run('roles.unlock', { pin })
    if (done.ok) asking.value = false
    return done.ok
  }

  return {
    status,
    asking,
    error,
    busy,
    isOwner,
    load,
    followEvents,
    ask,
    unlock,
    lock: () => run('roles.lock', {}),
    setPin: (input: Input<'roles.setPin'>) => run('roles.setPin', input),
  }
})
