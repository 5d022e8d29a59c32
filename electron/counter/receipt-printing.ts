// The one place a receipt or report goes to paper: through the OS's driver (the desktop app), or
// straight to an ESC/POS printer as text or as a picture of its HTML, opening the cash drawer on a cash
// sale's first print; and the printer tools in Settings: the OS's printers, the test page, the status.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { HandlersFor, PaymentMode, PrinterState, SaleState } from '../contract'
import { imageBytes, needsImage, receiptBytes, ROLL_DOTS, testPageBytes } from '../printers/escpos'
import { PrinterError, queryPrinterStatus, sendToPrinter } from '../printers/printer-link'
import type { HtmlRasterizer, SystemPrinter } from '../printers/printer-ports'
import { mmToPx, withLastRules } from '../shared/paper'
import { describePrinterAddress, parsePrinterAddress, type PrinterAddress } from '../shared/printer-address'
import type { ReceiptContent } from '../shared/receipt-content'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import type { StoredSettings } from './settings'
import { testPageHtml } from './test-page'
import { devanagariFontFace } from './paper-fonts'
import { say, type Said } from '../shared/words'

type PrinterChannels = 'printer.list' | 'printer.testPage' | 'printer.status'

export interface PaperOptions {
  /** The OS's printers: only the desktop app has them. */
  systemPrinter?: SystemPrinter
  /** Turns receipt HTML into pixels for an ESC/POS raster (the desktop app's window, browser mode's Chromium). */
  rasterizer?: HtmlRasterizer
  /** Where resources/receipt.css is, for the test page. */
  resourcesDir: string
}

/** A sale's receipt on its way to paper: what it says, its HTML, and what of the sale decides the drawer. */
export interface SaleReceipt {
  /** The id the sale is found by (a recharge's order id, a coupon sale's attempt id). */
  id: string
  content: ReceiptContent
  html: string
  sale: { state: SaleState; paymentMode: PaymentMode }
}

const BROWSER_PRINT = say('printer.browserPrint')

/** Dots a CSS px covers on a 203 dpi thermal head (8 dots a millimetre). */
const DOTS_PER_CSS_PX = ROLL_DOTS[80] / mmToPx(72)

/**
 * The HTML as the print head's dots should show it. Decision: laid out at the head's printable width
 * (72 mm of an 80 mm roll, 48 of 58) and zoomed to 203 dpi, so `widthPx` CSS px hold exactly the page and
 * its text prints at the size the screen shows in millimetres; a rasterizer renders at one device pixel
 * per CSS px (printer-ports.ts). The rule goes last in the head, after the receipt's own body width.
 */
export function atHeadWidth(html: string, widthMm: 58 | 80): string {
  const printableMm = ROLL_DOTS[widthMm] / DOTS_PER_CSS_PX / mmToPx(1)
  return withLastRules(html, `html { zoom: ${DOTS_PER_CSS_PX} } body { width: ${printableMm}mm }`)
}

export function receiptPrinting(ctx: CounterContext, options: PaperOptions) {
  const { systemPrinter, rasterizer } = options
  const receiptCss = readFileSync(join(options.resourcesDir, 'receipt.css'), 'utf8')
  /**
   * Sales whose receipt has opened the drawer in this run of Counter, by mode and id. Decision: kept in
   * memory, not in the journal: printing writes nothing to the books (a failed print must change
   * nothing, and paper is not money), so a reprint in this run never opens the drawer again, while the
   * first print after Counter restarts may. A sale is marked before its job is sent (two prints at
   * once open it once) and unmarked if the job fails: no drawer opened, so the next print may open it.
   */
  const drawerOpenedFor = new Set<string>()

  const osPrinter = (): SystemPrinter => {
    if (!systemPrinter) throw new CounterError('unsupported', BROWSER_PRINT)
    return systemPrinter
  }

  const escposAddress = (settings: StoredSettings): PrinterAddress => {
    const parsed = parsePrinterAddress(settings.printerAddress)
    if ('error' in parsed) throw new CounterError('not_configured', say('printer.addressUnusable', { problem: parsed.error }))
    return parsed
  }

  /**
   * Runs a step of printing whose failures the ports word for staff (printer-ports.ts, printer-link.ts),
   * and says them with what is still true. Anything else is no printer's fault and stays unexpected.
   */
  const onPaper = async <T>(work: () => Promise<T>, afterwards: Said, portErrors: boolean): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      if (err instanceof CounterError || !(err instanceof Error) || !(portErrors || err instanceof PrinterError)) throw err
      // A port's failure (printing.ts) is said in its message; the link's in its own said words.
      throw new CounterError('printer_error', say('printer.failed', { problem: err instanceof PrinterError ? err.said : err.message, afterwards }))
    }
  }

  const send = async (address: PrinterAddress, bytes: Uint8Array, afterwards: Said): Promise<string> => {
    await onPaper(() => sendToPrinter(address, bytes), afterwards, false)
    return describePrinterAddress(address)
  }

  /** A page as the head's dots. */
  const picture = (html: string, widthMm: 58 | 80, afterwards: Said) => {
    if (!rasterizer) throw new CounterError('unsupported', say('printer.noPicture'))
    return onPaper(() => rasterizer.rasterize(atHeadWidth(html, widthMm), ROLL_DOTS[widthMm]), afterwards, true)
  }

  /** Through the OS's driver. */
  const viaDriver = (html: string, settings: StoredSettings, afterwards: Said): Promise<string> => {
    const printer = osPrinter()
    return onPaper(() => printer.print(html, { deviceName: settings.printerName, widthMm: settings.receiptWidthMm }), afterwards, true)
  }

  const drawerKey = (id: string) => `${ctx.session().mode}:${id}`

  return {
    /**
     * Prints a sale's receipt. Decision: the drawer opens only for a successful sale paid in cash (a
     * failed or pending one took no money for the provider; UPI money is not in the drawer), training
     * sales included, since staff practise the whole sale with the drawer.
     */
    async printSale(receipt: SaleReceipt): Promise<{ printer: string; drawerOpened: boolean }> {
      const settings = ctx.settings.current
      const afterwards = say('printer.afterReceipt')
      if (settings.printerKind === 'system') return { printer: await viaDriver(receipt.html, settings, afterwards), drawerOpened: false }
      const address = escposAddress(settings)
      const key = drawerKey(receipt.id)
      const drawerKick = settings.openDrawerOnCash && receipt.sale.state === 'SUCCESS' && receipt.sale.paymentMode === 'cash' && !drawerOpenedFor.has(key)
      if (drawerKick) drawerOpenedFor.add(key)
      try {
        const job = { widthMm: settings.receiptWidthMm, drawerKick }
        const bytes =
          settings.printAsImage || needsImage(receipt.content, settings)
            ? imageBytes(await picture(receipt.html, settings.receiptWidthMm, afterwards), { ...job, qr: receipt.content.reference })
            : receiptBytes(receipt.content, settings, job)
        return { printer: await send(address, bytes, afterwards), drawerOpened: drawerKick }
      } catch (err) {
        if (drawerKick) drawerOpenedFor.delete(key)
        throw err
      }
    },

    /** Prints a report (the Z report) on the receipt roll: on ESC/POS always as a picture, its tables are too wide for text. */
    async printReport(html: string): Promise<{ printer: string }> {
      const settings = ctx.settings.current
      const afterwards = say('printer.afterReport')
      if (settings.printerKind === 'system') return { printer: await viaDriver(html, settings, afterwards) }
      const address = escposAddress(settings)
      const bytes = imageBytes(await picture(html, settings.receiptWidthMm, afterwards), { widthMm: settings.receiptWidthMm, drawerKick: false })
      return { printer: await send(address, bytes, afterwards) }
    },

    handlers: {
      async 'printer.list'() {
        if (!systemPrinter) throw new CounterError('unsupported', say('printer.listInBrowser'))
        return { printers: await systemPrinter.list() }
      },

      async 'printer.testPage'() {
        const settings = ctx.settings.current
        const afterwards = say('printer.afterTestPage')
        if (settings.printerKind === 'system') return { printer: await viaDriver(testPageHtml(settings, receiptCss, devanagariFontFace(options.resourcesDir)), settings, afterwards) }
        return { printer: await send(escposAddress(settings), testPageBytes(settings, { widthMm: settings.receiptWidthMm }), afterwards) }
      },

      async 'printer.status'() {
        const settings = ctx.settings.current
        if (settings.printerKind === 'escpos') return queryPrinterStatus(escposAddress(settings))
        return driverStatus(systemPrinter, settings.printerName)
      },
    } satisfies HandlersFor<PrinterChannels>,
  }
}

/**
 * A driver's printer says nothing of its paper to Counter: only whether it is set up on this computer.
 * Decision: a printer that is set up is 'unknown' (the test page tells), one that is not is 'unreachable'.
 */
async function driverStatus(systemPrinter: SystemPrinter | undefined, printerName: string): Promise<{ state: PrinterState; message: Said }> {
  if (!systemPrinter) return { state: 'unknown', message: say('printer.driverInBrowser') }
  const printers = await systemPrinter.list()
  if (printerName === '') {
    if (printers.length === 0) return { state: 'unreachable', message: say('printer.noneSetUp') }
    return { state: 'unknown', message: say('printer.defaultDriver') }
  }
  if (!printers.some((printer) => printer.name === printerName)) return { state: 'unreachable', message: say('printer.notInstalled', { name: printerName }) }
  return { state: 'unknown', message: say('printer.driverSetUp', { name: printerName }) }
}

export type Paper = ReturnType<typeof receiptPrinting>
