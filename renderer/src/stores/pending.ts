// The pending queue: sales without a final answer, kept current by events; checking one now and settling one by phone.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Input, Output, PendingItem, Result } from '../../../electron/contract'
import { call } from '../api'
import { busyWhile, busyWith } from '../busy'
import { useCouponsStore } from './coupons'
import { useSalesStore } from './sales'

/** Sale events come in bursts (a sale, then its answer): one reload after the burst is enough. */
const RELOAD_AFTER_MS = 150

export const usePendingStore = defineStore('pending', () => {
  const items = ref<PendingItem[]>([])
  const loadError = ref<string | null>(null)
  /** The item a status check is under way for, as "kind:id". */
  const checkingKey = ref<string | null>(null)
  const settling = ref(false)
  /** The sale last settled by phone here, for the screen to confirm (its item leaves the list at once). */
  const lastSettled = ref<{ id: string; outcome: Input<'pending.settle'>['outcome'] } | null>(null)
  const count = computed(() => items.value.length)
  let latestLoad = 0
  let reloadTimer: ReturnType<typeof setTimeout> | undefined

  const keyOf = (item: Pick<PendingItem, 'kind' | 'id'>) => `${item.kind}:${item.id}`

  function apply(next: PendingItem[]): void {
    latestLoad++ // an answer still on its way is older than this
    items.value = next
    loadError.value = null
  }

  async function load(): Promise<void> {
    const request = ++latestLoad
    const result = await call('pending.list', {})
    if (request !== latestLoad) return
    if (result.ok) apply(result.value.items)
    else loadError.value = result.error.message
  }

  /**
   * The core announces the queue when it checks or settles an item, not when a sale first goes
   * unanswered: a changed sale makes the list be asked for again.
   */
  function reloadSoon(): void {
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => void load(), RELOAD_AFTER_MS)
  }

  /** Asks the provider about one item through the screen stores that show the sale, then reloads the queue. */
  function checkNow(item: PendingItem): Promise<string | null> {
    return busyWith(checkingKey, keyOf(item), async () => {
      const result = item.kind === 'recharge' ? await useSalesStore().checkStatus(item.id) : await useCouponsStore().checkStatus(item.id)
      await load()
      return result.ok ? null : result.error.message
    })
  }

  function settle(input: Input<'pending.settle'>): Promise<Result<Output<'pending.settle'>>> {
    return busyWhile(settling, async () => {
      const result = await call('pending.settle', input)
      if (result.ok) {
        lastSettled.value = { id: input.id, outcome: input.outcome }
        apply(result.value.items)
      }
      return result
    })
  }

  return { items, loadError, checkingKey, settling, lastSettled, count, keyOf, apply, load, reloadSoon, checkNow, settle }
})
