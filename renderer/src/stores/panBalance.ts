// Reading the PAN balance on demand; otherwise the balance arrives with the app status (status.changed).
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call } from '../api'
import { busyWhile } from '../busy'
import { useStatusStore } from './status'

export const usePanBalanceStore = defineStore('panBalance', () => {
  const refreshing = ref(false)
  /** Why the last read failed; the last known balance stays on show with its time. */
  const error = ref<string | null>(null)

  async function refresh(): Promise<void> {
    if (refreshing.value) return
    await busyWhile(refreshing, async () => {
      const result = await call('pan.balance.refresh', {})
      error.value = result.ok ? null : result.error.message
      // The status event carries the same reading; this shows it even if the event stream is reconnecting.
      const status = useStatusStore()
      if (result.ok && status.status) status.apply({ ...status.status, panBalance: result.value })
    })
  }

  return { refreshing, error, refresh }
})
