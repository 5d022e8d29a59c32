// The day's recharge sales and their receipts: shown, printed silently, saved as a PDF, or shared on WhatsApp.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { ByOrderId, MobileNumberSchema, None, OrderIdSchema } from './fields'
import { SaleSchema } from './recharge'

/** Every shared receipt opens a chat at this address, and nothing else; the desktop app's main opens only these (external-links.ts). */
export const WHATSAPP_ADDRESS = 'https://wa.me/'

export const salesChannels = {
  'sales.today': { input: None, output: z.object({ businessDay: z.string(), sales: z.array(SaleSchema) }) },
  'receipt.html': { input: ByOrderId, output: z.object({ html: z.string() }) },
  /** `drawerOpened`: the cash drawer was kicked with this print (a cash sale's first print on an ESC/POS printer, when enabled). */
  'receipt.print': { input: ByOrderId, output: z.object({ printer: z.string(), drawerOpened: z.boolean() }) },
  'receipt.savePdf': { input: ByOrderId, output: z.object({ path: z.string() }) },
  /**
   * The receipt as a WhatsApp message: a wa.me address the core builds from the sale it finds by its id (the screen
   * sends no address and no text, so it can open nothing else). `mobile`: the customer's, when the sale has no
   * mobile number of its own (DTH, coupons); it replaces the sale's own when given.
   */
  'receipt.share': {
    input: z.object({ orderId: OrderIdSchema, mobile: MobileNumberSchema.optional() }),
    output: z.object({ url: z.string().startsWith(WHATSAPP_ADDRESS) }),
  },
  /**
   * "UPI received": staff saw the customer's UPI app show the sale (a recharge, a coupon order, a payment of a due, by
   * its id) paid, and say so; journaled once (counter/upi.ts). Counter cannot see the payment itself. Staff may.
   */
  'sales.upiReceived': { input: ByOrderId, output: z.object({ orderId: z.string(), upiConfirmedAt: z.string() }) },
} as const
export type SalesHandlers = HandlersOf<typeof salesChannels>
