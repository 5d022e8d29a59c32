// Today's sales and the sale on show (just sold, or picked from the list): selling, status checks, live updates.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Input, Result, Sale } from '../../../electron/contract'
import { call } from '../api'
import { busyWith } from '../busy'
import { isStale } from '../freshness'
import { t } from '../words'

function newestFirst(a: Sale, b: Sale): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt)
}

export const useSalesStore = defineStore('sales', () => {
  const today = ref<Sale[]>([])
  const businessDay = ref('')
  const loadError = ref<string | null>(null)
  /** The sale whose result panel and receipt are on screen. */
  const selectedSale = ref<Sale | null>(null)
  const selling = ref(false)
  /** What is being sold right now, so a screen opened meanwhile shows it instead of a blank locked form. */
  const sending = ref<Input<'recharge.sell'> | null>(null)
  const checkingOrderId = ref<string | null>(null)

  async function refreshToday(): Promise<void> {
    const result = await call('sales.today', {})
    if (!result.ok) {
      loadError.value = result.error.message
      return
    }
    loadError.value = null
    businessDay.value = result.value.businessDay
    // An event may have overtaken this answer: keep whichever copy of a sale is newer.
    const listed = new Map(today.value.map((sale) => [sale.orderId, sale]))
    today.value = result.value.sales
      .map((sale) => {
        const known = listed.get(sale.orderId)
        return known && isStale(sale, known) ? known : sale
      })
      .sort(newestFirst)
  }

  /** Replaces the listed copy of the sale; false when the sale is not in today's list. */
  function replaceListed(sale: Sale): boolean {
    const index = today.value.findIndex((listed) => listed.orderId === sale.orderId)
    if (index < 0) return false
    if (!isStale(sale, today.value[index])) today.value[index] = sale
    return true
  }

  /** A newer version of a sale, from an answer or a sale.changed event. */
  function applySale(sale: Sale): void {
    const shown = selectedSale.value
    if (shown?.orderId === sale.orderId && !isStale(sale, shown)) selectedSale.value = sale
    // A sale we have not listed may be today's (another window) or an older one resolved at start-up: ask.
    if (!replaceListed(sale)) void refreshToday()
  }

  /** A customer named, renamed or forgotten (customer.changed): every listed sale to the number shows it. */
  function nameCustomer(number: string, name: string | null): void {
    today.value = today.value.map((sale) => (sale.number === number ? { ...sale, customerName: name } : sale))
    if (selectedSale.value?.number === number) selectedSale.value = { ...selectedSale.value, customerName: name }
  }

  function select(sale: Sale | null): void {
    selectedSale.value = sale
  }

  async function sell(input: Input<'recharge.sell'>): Promise<Result<Sale>> {
    if (selling.value) return { ok: false, error: { code: 'internal', message: t('recharge.alreadySending') } }
    selling.value = true
    sending.value = input
    try {
      const result = await call('recharge.sell', input)
      if (result.ok) {
        selectedSale.value = result.value
        if (!replaceListed(result.value)) today.value = [result.value, ...today.value]
      }
      return result
    } finally {
      selling.value = false
      sending.value = null
    }
  }

  function checkStatus(orderId: string): Promise<Result<Sale>> {
    return busyWith(checkingOrderId, orderId, async () => {
      const result = await call('recharge.checkStatus', { orderId })
      if (result.ok) applySale(result.value)
      return result
    })
  }

  return { today, businessDay, loadError, selectedSale, selling, sending, checkingOrderId, refreshToday, applySale, nameCustomer, select, sell, checkStatus }
})
