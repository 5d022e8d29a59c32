// The settings as the core shows them (secrets only as "stored or not"), saving and the connection test.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Output, Result, SaveSettingsInput, SettingsView } from '../../../electron/contract'
import type { DateStyle } from '../../../electron/shared/dates'
import { call, platform } from '../api'
import { busyWhile } from '../busy'
import { switchLanguage } from '../words'
import { useStatusStore } from './status'

export const useSettingsStore = defineStore('settings', () => {
  const view = ref<SettingsView | null>(null)
  const loadError = ref<string | null>(null)
  const saving = ref(false)
  const testing = ref(false)
  /** The shop's time zone and clock, for showing times as the receipts do; the machine's zone until loaded. */
  const dateStyle = computed<DateStyle>(() => ({ timeZone: view.value?.timezone || undefined, clock: view.value?.clock ?? '24h' }))
  /**
   * Whether Print goes to the core (receipt.print, day.printReport) rather than the browser's dialog: always in
   * the desktop app; in a browser only for an ESC/POS printer, which the core reaches without a driver.
   */
  const printsInCore = computed(() => platform === 'electron' || view.value?.printerKind === 'escpos')
  let loading: Promise<void> | null = null

  async function fetchView(): Promise<void> {
    const result = await call('settings.get', {})
    if (result.ok) {
      view.value = result.value
      switchLanguage(result.value.screenLanguage)
      loadError.value = null
    } else {
      loadError.value = result.error.message
    }
  }

  /** Screens asking at the same moment share one request. */
  function load(): Promise<void> {
    loading ??= fetchView().finally(() => (loading = null))
    return loading
  }

  async function ensureLoaded(): Promise<void> {
    if (!view.value) await load()
  }

  function save(input: SaveSettingsInput): Promise<Result<SettingsView>> {
    return busyWhile(saving, async () => {
      const result = await call('settings.save', input)
      if (result.ok) {
        view.value = result.value
        // The screen language changes the moment it is saved, on every screen.
        switchLanguage(result.value.screenLanguage)
        // Saving can switch between TRAINING and REAL; the badge must not wait for an event.
        await useStatusStore().load()
      }
      return result
    })
  }

  function testConnection(): Promise<Result<Output<'settings.testConnection'>>> {
    return busyWhile(testing, () => call('settings.testConnection', {}))
  }

  return { view, loadError, saving, testing, dateStyle, printsInCore, load, ensureLoaded, save, testConnection }
})
