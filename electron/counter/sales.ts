// The day's sales and their receipts (recharges and coupons): listing, receipt HTML, silent
// printing and Save PDF.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { HandlersFor } from '../contract'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { receiptRenderer } from './receipts'

/** Printing needs a window system: Electron main provides one; browser mode prints in the browser. */
export interface ReceiptPrinter {
  /** Prints without a dialog; resolves to the printer's name. */
  print(html: string, options: { deviceName: string; widthMm: 58 | 80 }): Promise<string>
  /** Thermal receipts give only a width (the roll is continuous); reports give A4's 210 x 297. */
  savePdf(html: string, page: { widthMm: number; heightMm?: number }, path: string): Promise<void>
}

type SalesChannels = 'sales.today' | 'receipt.html' | 'receipt.print' | 'receipt.savePdf'

export function salesHandlers(ctx: CounterContext, options: { resourcesDir: string; dataDir: string; printer?: ReceiptPrinter }): HandlersFor<SalesChannels> {
  const render = receiptRenderer(options.resourcesDir)
  /** Recharge order ids and coupon attempt ids never collide (their prefixes differ). */
  const receiptOf = async (orderId: string): Promise<string> => {
    const sales = ctx.answers.reads(ctx.session())
    const recharge = await sales.sale(orderId)
    if (recharge) return render.recharge(recharge, ctx.settings.current)
    const coupon = await sales.couponSale(orderId)
    if (coupon) return render.coupon(coupon, ctx.settings.current)
    throw new CounterError('not_found', `There is no sale with order id ${orderId}.`)
  }
  const printer = (): ReceiptPrinter => {
    if (!options.printer) {
      throw new CounterError('unsupported', "Counter's silent printing works in the desktop app. Here, use your browser's Print (choose 'Save as PDF' for a file).")
    }
    return options.printer
  }

  return {
    async 'sales.today'() {
      const businessDay = ctx.businessDay(ctx.now())
      return { businessDay, sales: await ctx.answers.reads(ctx.session()).salesForDay(businessDay) }
    },
    async 'receipt.html'({ orderId }) {
      return { html: await receiptOf(orderId) }
    },
    async 'receipt.print'({ orderId }) {
      const { printerName, receiptWidthMm } = ctx.settings.current
      const to = printer()
      const used = await to.print(await receiptOf(orderId), { deviceName: printerName, widthMm: receiptWidthMm })
      return { printer: used }
    },
    async 'receipt.savePdf'({ orderId }) {
      const folder = join(options.dataDir, 'receipts')
      mkdirSync(folder, { recursive: true })
      const path = join(folder, `${orderId}.pdf`)
      const to = printer()
      await to.savePdf(await receiptOf(orderId), { widthMm: ctx.settings.current.receiptWidthMm }, path)
      return { path }
    },
  }
}
