// The app's status (mode, connectivity, shop, business day): loaded at start, then kept current by events.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppStatus } from '../../../electron/contract'
import { call } from '../api'

export const useStatusStore = defineStore('status', () => {
  const status = ref<AppStatus | null>(null)
  const loadError = ref<string | null>(null)

  const isTraining = computed(() => status.value?.mode === 'training')

  async function load(): Promise<void> {
    const result = await call('app.status', {})
    if (result.ok) {
      status.value = result.value
      loadError.value = null
    } else {
      loadError.value = result.error.message
    }
  }

  function apply(next: AppStatus): void {
    status.value = next
    loadError.value = null
  }

  return { status, loadError, isTraining, load, apply }
})
