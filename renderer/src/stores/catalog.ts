// Operators and circles for the recharge form (loaded once: they do not change while the app runs) and the number lookup.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Circle, Operator, Output, RechargeKind, Result } from '../../../electron/contract'
import { call } from '../api'

export const useCatalogStore = defineStore('catalog', () => {
  const operators = ref<Operator[]>([])
  const circles = ref<Circle[]>([])
  const loadError = ref<string | null>(null)
  let loaded = false

  async function ensureLoaded(): Promise<void> {
    if (loaded) return
    const result = await call('catalog.operators', {})
    if (result.ok) {
      operators.value = result.value.operators
      circles.value = result.value.circles
      loadError.value = null
      loaded = true
    } else {
      loadError.value = result.error.message
    }
  }

  function operatorsFor(kind: RechargeKind): Operator[] {
    return operators.value.filter((operator) => operator.kind === kind)
  }

  /** The operator and circle a mobile number belongs to, or the core's words for why the lookup could not tell. */
  function lookupOperator(number: string): Promise<Result<Output<'recharge.lookupOperator'>>> {
    return call('recharge.lookupOperator', { number })
  }

  return { operators, circles, loadError, ensureLoaded, operatorsFor, lookupOperator }
})
