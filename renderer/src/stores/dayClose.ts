// One business day's books on show: its summary (live, or as stored at close), top-ups, closing the day and the Z report.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { DaySummary, Input, Result, TopUp } from '../../../electron/contract'
import { call, platform } from '../api'
import { printHtml } from '../browserPrint'
import { busyWhile, busyWith } from '../busy'
import { downloadText } from '../download'
import { t } from '../words'
import { useSettingsStore } from './settings'

type Notice = { text: string; isError: boolean }
type ReportAction = 'print' | 'pdf' | 'csv'

export const useDayCloseStore = defineStore('dayClose', () => {
  const summary = ref<DaySummary | null>(null)
  const loadError = ref<string | null>(null)
  const loading = ref(false)
  const closing = ref(false)
  const addingTopUp = ref(false)
  const reportBusy = ref<ReportAction | null>(null)
  /** What the last print, save or export did, or why it did not. */
  const reportNotice = ref<Notice | null>(null)
  let latestLoad = 0

  /** The day's summary; without a day, today's. */
  async function load(businessDay?: string): Promise<void> {
    const request = ++latestLoad
    if (summary.value?.businessDay !== businessDay) reportNotice.value = null
    loading.value = true
    try {
      const result = await call('day.summary', businessDay ? { businessDay } : {})
      if (request !== latestLoad) return // another day was picked meanwhile
      if (result.ok) {
        summary.value = result.value
        loadError.value = null
      } else {
        loadError.value = result.error.message
      }
    } finally {
      if (request === latestLoad) loading.value = false
    }
  }

  function close(input: Input<'day.close'>): Promise<Result<DaySummary>> {
    return busyWhile(closing, async () => {
      const result = await call('day.close', input)
      if (result.ok) {
        latestLoad++
        summary.value = result.value
      }
      return result
    })
  }

  function addTopUp(input: Input<'topups.add'>): Promise<Result<TopUp>> {
    return busyWhile(addingTopUp, async () => {
      const result = await call('topups.add', input)
      // The top-up changes the expected balance and may explain a break: the summary is read again.
      if (result.ok && summary.value) await load(summary.value.businessDay)
      return result
    })
  }

  async function report(kind: ReportAction, action: (businessDay: string) => Promise<Notice>): Promise<void> {
    const businessDay = summary.value?.businessDay
    if (!businessDay || reportBusy.value) return
    await busyWith(reportBusy, kind, async () => {
      reportNotice.value = await action(businessDay)
    })
  }

  /** The desktop app writes the file itself, into its reports folder, and says where. */
  async function saveInReportsFolder(businessDay: string, format: 'pdf' | 'csv'): Promise<Notice> {
    const saved = await call('day.saveReport', { businessDay, format })
    return saved.ok ? { text: t('receipt.savedTo', { path: saved.value.path }), isError: false } : { text: saved.error.message, isError: true }
  }

  /** The 80 mm Z report: where receipts print (settings' printsInCore), else through the browser's print dialog. */
  function print(): Promise<void> {
    return report('print', async (businessDay) => {
      const settings = useSettingsStore()
      await settings.ensureLoaded()
      if (settings.printsInCore) {
        const printed = await call('day.printReport', { businessDay })
        return printed.ok ? { text: t('receipt.sentToPrinter', { printer: printed.value.printer }), isError: false } : { text: printed.error.message, isError: true }
      }
      const result = await call('day.report', { businessDay, format: 'receipt' })
      if (!result.ok) return { text: result.error.message, isError: true }
      await printHtml(result.value.content)
      return { text: t('receipt.printDialogClosed'), isError: false }
    })
  }

  function savePdf(): Promise<void> {
    return report('pdf', async (businessDay) => {
      if (platform === 'electron') return saveInReportsFolder(businessDay, 'pdf')
      const result = await call('day.report', { businessDay, format: 'a4' })
      if (!result.ok) return { text: result.error.message, isError: true }
      const hint = { text: t('receipt.saveAsPdfHint'), isError: false }
      reportNotice.value = hint // shown while the dialog is open
      await printHtml(result.value.content)
      return hint
    })
  }

  function exportCsv(): Promise<void> {
    return report('csv', async (businessDay) => {
      if (platform === 'electron') return saveInReportsFolder(businessDay, 'csv')
      const result = await call('day.report', { businessDay, format: 'csv' })
      if (!result.ok) return { text: result.error.message, isError: true }
      downloadText(result.value.content, result.value.filename)
      return { text: t('dayClose.report.downloaded', { filename: result.value.filename }), isError: false }
    })
  }

  return { summary, loadError, loading, closing, addingTopUp, reportBusy, reportNotice, load, close, addTopUp, print, savePdf, exportCsv }
})
