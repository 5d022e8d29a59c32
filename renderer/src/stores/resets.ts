// Password resets of the agent on show: the list, asking the provider for a reset and checking one.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { PasswordReset, Result } from '../../../electron/contract'
import { call } from '../api'
import { busyWhile, busyWith } from '../busy'

export const useResetsStore = defineStore('resets', () => {
  const vleId = ref<string | null>(null)
  const resets = ref<PasswordReset[]>([])
  const loadError = ref<string | null>(null)
  const requesting = ref(false)
  const checkingAttemptId = ref<string | null>(null)
  let latestLoad = 0

  async function load(forVleId: string): Promise<void> {
    if (vleId.value !== forVleId) resets.value = []
    vleId.value = forVleId
    const request = ++latestLoad
    const result = await call('pan.resets.list', { vleId: forVleId })
    if (request !== latestLoad) return // another agent was picked meanwhile
    if (result.ok) {
      resets.value = result.value.resets
      loadError.value = null
    } else {
      loadError.value = result.error.message
    }
  }

  function apply(reset: PasswordReset): void {
    if (reset.vleId !== vleId.value) return
    const index = resets.value.findIndex((listed) => listed.attemptId === reset.attemptId)
    if (index >= 0) resets.value[index] = reset
    else resets.value = [reset, ...resets.value]
  }

  function request(forVleId: string): Promise<Result<PasswordReset>> {
    return busyWhile(requesting, async () => {
      const result = await call('pan.resets.request', { vleId: forVleId })
      if (result.ok) apply(result.value)
      return result
    })
  }

  function check(attemptId: string): Promise<Result<PasswordReset>> {
    return busyWith(checkingAttemptId, attemptId, async () => {
      const result = await call('pan.resets.check', { attemptId })
      if (result.ok) apply(result.value)
      return result
    })
  }

  return { vleId, resets, loadError, requesting, checkingAttemptId, load, request, check }
})
