// The receipt on show: its HTML from the core, and printing or saving it (through the core in Electron or to an ESC/POS
// printer, via the browser's dialog otherwise), or sharing it on WhatsApp.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { call, platform } from '../api'
import { printHtml } from '../browserPrint'
import { busyWith } from '../busy'
import { focusScreenStart } from '../keyboard'
import { t } from '../words'
import { useSettingsStore } from './settings'

type Notice = { text: string; isError: boolean }

export const useReceiptStore = defineStore('receipt', () => {
  const orderId = ref<string | null>(null)
  const html = ref('')
  const loadError = ref<string | null>(null)
  const busy = ref<'print' | 'pdf' | 'share' | null>(null)
  /** What the last print, save or share did, or why it did not. */
  const notice = ref<Notice | null>(null)
  /** The core asked for the customer's mobile to share this receipt (DTH, coupons): the screen shows a field for it. */
  const askMobile = ref(false)
  /** What is wrong with the mobile typed for sharing. */
  const mobileError = ref<string | null>(null)
  let latestRequest = 0
  /** The receipt asked for last, on its way from the core: a print asked for meanwhile waits for it. */
  let loading: Promise<void> = Promise.resolve()

  function show(id: string): Promise<void> {
    if (orderId.value !== id) {
      html.value = ''
      notice.value = null
      askMobile.value = false
      mobileError.value = null
    }
    orderId.value = id
    const request = ++latestRequest
    loading = call('receipt.html', { orderId: id }).then((result) => {
      if (request !== latestRequest) return // a newer receipt (or a newer version of this one) was asked for
      if (result.ok) {
        html.value = result.value.html
        loadError.value = null
      } else {
        loadError.value = result.error.message
      }
    })
    return loading
  }

  async function run(kind: 'print' | 'pdf' | 'share', action: (id: string) => Promise<Notice | null>): Promise<void> {
    const id = orderId.value
    if (!id || busy.value) return
    await busyWith(busy, kind, async () => {
      notice.value = await action(id)
    })
  }

  /**
   * Prints the receipt on show. Decision: a print asked for while the receipt is still on its way (Ctrl+P pressed the
   * moment the outcome shows, before a Hindi receipt's font has come with it) waits for it rather than doing nothing.
   */
  async function print(): Promise<void> {
    await loading
    if (!html.value) return // it could not be loaded: loadError says why
    await run('print', async (id) => {
      const settings = useSettingsStore()
      await settings.ensureLoaded()
      if (!settings.printsInCore) {
        await printHtml(html.value)
        return { text: t('receipt.printDialogClosed'), isError: false }
      }
      const result = await call('receipt.print', { orderId: id })
      if (!result.ok) return { text: result.error.message, isError: true }
      const { printer, drawerOpened } = result.value
      return { text: t(drawerOpened ? 'printer.sentDrawerOpened' : 'receipt.sentToPrinter', { printer }), isError: false }
    })
    focusScreenStart()
  }

  function savePdf(): Promise<void> {
    return run('pdf', async (id) => {
      if (platform === 'web') {
        const hint = { text: t('receipt.saveAsPdfHint'), isError: false }
        notice.value = hint // shown while the dialog is open
        await printHtml(html.value)
        return hint
      }
      const result = await call('receipt.savePdf', { orderId: id })
      return result.ok
        ? { text: t('receipt.savedTo', { path: result.value.path }), isError: false }
        : { text: result.error.message, isError: true }
    })
  }

  /** `mobile`: typed once the core asked for it. The address comes from the core, built from the sale alone. */
  function share(mobile?: string): Promise<void> {
    return run('share', async (id) => {
      const result = await call('receipt.share', mobile === undefined ? { orderId: id } : { orderId: id, mobile })
      if (!result.ok) {
        const problem = result.error.fields?.mobile
        if (!problem) return { text: result.error.message, isError: true }
        // Asked for the first time: the field appears, empty and without a complaint.
        mobileError.value = askMobile.value ? problem : null
        askMobile.value = true
        return null
      }
      askMobile.value = false
      mobileError.value = null
      // A new tab in the browser; in the desktop app, main hands a wa.me address to the OS browser (external-links.ts).
      // Never this window: the counter stays where it is.
      window.open(result.value.url, '_blank', 'noopener')
      return { text: t(platform === 'web' ? 'share.opened' : 'share.openedOutside'), isError: false }
    })
  }

  return { orderId, html, loadError, busy, notice, askMobile, mobileError, show, print, savePdf, share }
})
