// Coupon sales: the quote before selling, the sale on show (just sold or picked from the list), the orders list, status checks and live updates.
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { CounterEvent, CouponSale, Input, Output, Result } from '../../../electron/contract'
import { call, onEvent } from '../api'
import { busyWith } from '../busy'
import { isStale } from '../freshness'
import { t } from '../words'

function isCouponEvent(event: CounterEvent): event is CounterEvent<'coupon.changed'> {
  return event.name === 'coupon.changed'
}

/**
 * Events can arrive after the answer they preceded (the SENDING copy after the sale's result, both
 * stamped the same millisecond): a copy older than the one shown, or SENDING beside a settled one of
 * the same moment, is not applied.
 */

/** An order on its way to the provider, kept so a screen opened meanwhile shows it and takes its answer. */
export interface SendingOrder {
  input: Input<'pan.coupons.sell'>
  /** What the quote said it would cost when it was sent; null when no quote had come. */
  expectedPaise: number | null
  answer: Promise<Result<CouponSale>>
}

export const useCouponsStore = defineStore('coupons', () => {
  const sales = ref<CouponSale[]>([])
  const loadError = ref<string | null>(null)
  /** The sale whose result panel and receipt are on screen. */
  const selectedSale = ref<CouponSale | null>(null)
  const selling = ref(false)
  const sending = shallowRef<SendingOrder | null>(null)
  const checkingAttemptId = ref<string | null>(null)

  async function load(): Promise<void> {
    const result = await call('pan.coupons.list', {})
    if (result.ok) {
      sales.value = result.value.sales
      loadError.value = null
    } else {
      loadError.value = result.error.message
    }
  }

  /** A newer version of a sale, from an answer or a coupon.changed event. */
  function applySale(sale: CouponSale): void {
    const shown = selectedSale.value
    if (shown?.attemptId === sale.attemptId && !isStale(sale, shown)) selectedSale.value = sale
    const index = sales.value.findIndex((listed) => listed.attemptId === sale.attemptId)
    if (index < 0) sales.value = [sale, ...sales.value]
    else if (!isStale(sale, sales.value[index])) sales.value[index] = sale
  }

  function select(sale: CouponSale | null): void {
    selectedSale.value = sale
  }

  function quote(input: Input<'pan.coupons.quote'>): Promise<Result<Output<'pan.coupons.quote'>>> {
    return call('pan.coupons.quote', input)
  }

  async function sell(input: Input<'pan.coupons.sell'>, expectedPaise: number | null): Promise<Result<CouponSale>> {
    if (selling.value) return { ok: false, error: { code: 'internal', message: t('coupons.alreadySending') } }
    selling.value = true
    const answer = call('pan.coupons.sell', input)
    sending.value = { input, expectedPaise, answer }
    try {
      const result = await answer
      if (result.ok) {
        selectedSale.value = result.value
        applySale(result.value)
      }
      return result
    } finally {
      selling.value = false
      sending.value = null
    }
  }

  function checkStatus(attemptId: string): Promise<Result<CouponSale>> {
    return busyWith(checkingAttemptId, attemptId, async () => {
      const result = await call('pan.coupons.checkStatus', { attemptId })
      if (result.ok) applySale(result.value)
      return result
    })
  }

  /** Follows coupon.changed events (sales resolved at start-up, another window); returns the unsubscribe. */
  function followEvents(): () => void {
    return onEvent((event) => {
      if (isCouponEvent(event)) applySale(event.payload)
    })
  }

  return { sales, loadError, selectedSale, selling, sending, checkingAttemptId, load, applySale, select, quote, sell, checkStatus, followEvents }
})
