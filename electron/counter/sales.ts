// The day's sales and their receipts (recharges and coupons): listing, receipt HTML, printing
// (receipt-printing.ts decides where to), Save PDF and sharing on WhatsApp (receipt-share.ts writes the message).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { MobileNumberSchema, type HandlersFor } from '../contract'
import type { ReceiptContent } from '../shared/receipt-content'
import type { SystemPrinter } from '../printers/printer-ports'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import type { Paper, SaleReceipt } from './receipt-printing'
import { receiptChatText, whatsAppUrl } from './receipt-share'
import { couponReceipt, paymentReceipt, rechargeReceipt, receiptRenderer } from './receipts'
import { say } from '../shared/words'

type SalesChannels = 'sales.today' | 'receipt.html' | 'receipt.print' | 'receipt.savePdf' | 'receipt.share'

/**
 * A receipt as it is shared: what goes in the chat, and the mobile number the receipt itself names (a mobile
 * recharge's, a payment's customer's), if any.
 */
interface Shareable {
  chat: ReceiptContent
  ownMobile: string | null
}

export function salesHandlers(
  ctx: CounterContext,
  options: { resourcesDir: string; dataDir: string; systemPrinter?: SystemPrinter; paper: Paper },
): HandlersFor<SalesChannels> {
  const render = receiptRenderer(options.resourcesDir)
  /** Recharge order ids, coupon attempt ids and payment receipt ids never collide (their prefixes differ). */
  const receiptOf = async (orderId: string): Promise<SaleReceipt & Shareable> => {
    const shop = ctx.settings.current
    const session = ctx.session()
    const sales = ctx.answers.reads(session)
    const recharge = await sales.sale(orderId)
    const coupon = recharge ? null : await sales.couponSale(orderId)
    const sale = recharge ?? coupon
    // A payment of a due prints as a receipt of its own; taken in cash, its first print opens the drawer as a cash sale's does.
    const payment = sale ? null : await session.ledger.read('creditPayment', orderId)
    if (payment) {
      const content = paymentReceipt({ ...payment, training: session.mode === 'training' }, shop)
      return { id: orderId, content, html: render.html(content, shop), sale: { state: 'SUCCESS', paymentMode: payment.mode }, chat: content, ownMobile: payment.number }
    }
    if (!sale) throw new CounterError('not_found', say('sale.noSuchOrder', { orderId }))
    const content = recharge ? rechargeReceipt(recharge, shop) : couponReceipt(coupon!, shop)
    // Decision: a coupon's old and new balance (`after`) are the shop's wallet at the provider: on paper for the
    // counter's records, left out of a chat with the agent.
    const chat = recharge ? content : { ...content, after: [] }
    // Decision: a DTH subscriber id is no phone, and a coupon's agent may not be the one at the counter: for those
    // the screen asks for the customer's 10-digit mobile (and may give one for any sale, replacing its own).
    const ownMobile = recharge?.kind === 'mobile' ? recharge.number : null
    return { id: orderId, content, html: render.html(content, shop), sale, chat, ownMobile }
  }

  return {
    async 'sales.today'() {
      const businessDay = ctx.businessDay(ctx.now())
      return { businessDay, sales: await ctx.answers.reads(ctx.session()).salesForDay(businessDay) }
    },
    async 'receipt.html'({ orderId }) {
      return { html: (await receiptOf(orderId)).html }
    },
    async 'receipt.print'({ orderId }) {
      // The sale is only read: a print that fails leaves it, and the books, as they were.
      return options.paper.printSale(await receiptOf(orderId))
    },
    async 'receipt.savePdf'({ orderId }) {
      if (!options.systemPrinter) {
        throw new CounterError('unsupported', say('pdf.receiptInBrowser'))
      }
      const folder = join(options.dataDir, 'receipts')
      mkdirSync(folder, { recursive: true })
      const path = join(folder, `${orderId}.pdf`)
      await options.systemPrinter.savePdf((await receiptOf(orderId)).html, { widthMm: ctx.settings.current.receiptWidthMm }, path)
      return { path }
    },
    async 'receipt.share'({ orderId, mobile }) {
      const { chat, ownMobile } = await receiptOf(orderId)
      const to = MobileNumberSchema.safeParse(mobile ?? ownMobile ?? '')
      if (!to.success) {
        throw new CounterError('invalid_input', say('share.mobile'), { mobile: say('share.mobile') })
      }
      return { url: whatsAppUrl(to.data, receiptChatText(chat, ctx.settings.current)) }
    },
  }
}
