// The receipt printer as Settings sets it up: its fields in the form, the OS's printers, a test page and the printer's state.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Output, PrinterState, SaveSettingsInput, SettingsView } from '../../../electron/contract'
import { call } from '../api'
import { busyWith } from '../busy'
import { t } from '../words'

export const PRINTER_FIELDS = ['printerKind', 'receiptWidthMm', 'printerName', 'printerAddress', 'printAsImage', 'openDrawerOnCash'] as const
export type PrinterDraft = Pick<SettingsView, (typeof PRINTER_FIELDS)[number]>
export type OsPrinter = Output<'printer.list'>['printers'][number]

/** What a test page or a check came to, in the staff's words; `problem` makes it an alert. */
export type PrinterOutcome = { text: string; problem: boolean; state?: PrinterState }

/**
 * The states a shop can print in. Decision: 'silent' (took the connection, answers no status query) and
 * 'unknown' (a driver's printer) are good news, since printing goes on; 'paper-low' is a problem to fix
 * before the roll runs out mid-receipt.
 */
const PRINTABLE: readonly PrinterState[] = ['ready', 'silent', 'unknown']

export function printerDraftOf(view: SettingsView): PrinterDraft {
  return Object.fromEntries(PRINTER_FIELDS.map((key) => [key, view[key]])) as PrinterDraft
}

/** The draft's fields to save, leaving out those fixed by the environment. */
export function printerInput(draft: PrinterDraft, fixed: (key: string) => boolean): SaveSettingsInput {
  return Object.fromEntries(PRINTER_FIELDS.filter((key) => !fixed(key)).map((key) => [key, draft[key]]))
}

export const usePrinterStore = defineStore('printer', () => {
  const printers = ref<OsPrinter[]>([])
  const listError = ref<string | null>(null)
  const busy = ref<'test' | 'check' | null>(null)

  async function loadList(): Promise<void> {
    const result = await call('printer.list', {})
    if (result.ok) {
      printers.value = result.value.printers
      listError.value = null
    } else {
      listError.value = t('printer.listFailed', { message: result.error.message })
    }
  }

  async function run(kind: 'test' | 'check', action: () => Promise<PrinterOutcome>): Promise<PrinterOutcome | null> {
    if (busy.value) return null
    return busyWith(busy, kind, action)
  }

  function testPage(): Promise<PrinterOutcome | null> {
    return run('test', async () => {
      const result = await call('printer.testPage', {})
      return result.ok ? { text: t('printer.testPrinted', { printer: result.value.printer }), problem: false } : { text: result.error.message, problem: true }
    })
  }

  function check(): Promise<PrinterOutcome | null> {
    return run('check', async () => {
      const result = await call('printer.status', {})
      if (!result.ok) return { text: result.error.message, problem: true }
      const { state, message } = result.value
      return { text: t('printer.stateLine', { state: t(`printer.state.${state}`), message }), problem: !PRINTABLE.includes(state), state }
    })
  }

  return { printers, listError, busy, loadList, testPage, check }
})
