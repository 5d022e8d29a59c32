// The shop's customers as the screens use them: suggestions for the digits typed (only the latest asked counts), one number's last recharge, naming and forgetting.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Customer, Result } from '../../../electron/contract'
import { call } from '../api'

/** Suggestions start at this many digits (the contract refuses fewer). */
export const SUGGEST_FROM_DIGITS = 4

export const useCustomersStore = defineStore('customers', () => {
  const suggestions = ref<Customer[]>([])
  let asked = 0

  /** Known numbers starting with `typed`; fewer than 4 digits, or anything else, clears them. */
  async function suggest(typed: string): Promise<void> {
    const ask = ++asked
    const digits = typed.trim()
    if (!new RegExp(`^\\d{${SUGGEST_FROM_DIGITS},15}$`).test(digits)) {
      suggestions.value = []
      return
    }
    const result = await call('customers.suggest', { digits })
    // Typed on meanwhile: a later answer is the one to show.
    if (ask !== asked) return
    // Once the whole number is typed and known, the list has nothing more to offer.
    suggestions.value = result.ok ? result.value.customers.filter((customer) => customer.number !== digits || result.value.customers.length > 1) : []
  }

  function close(): void {
    asked++
    suggestions.value = []
  }

  const get = (number: string): Promise<Result<{ customer: Customer | null }>> => call('customers.get', { number })
  const rename = (number: string, name: string): Promise<Result<Customer>> => call('customers.name', { number, name })
  const forget = (number: string): Promise<Result<{ number: string }>> => call('customers.forget', { number })

  return { suggestions, suggest, close, get, rename, forget }
})
