// The day's recharge sales and their receipts: shown, printed silently, or saved as a PDF.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { ByOrderId, None } from './fields'
import { SaleSchema } from './recharge'

export const salesChannels = {
  'sales.today': { input: None, output: z.object({ businessDay: z.string(), sales: z.array(SaleSchema) }) },
  'receipt.html': { input: ByOrderId, output: z.object({ html: z.string() }) },
  /** `drawerOpened`: the cash drawer was kicked with this print (a cash sale's first print on an ESC/POS printer, when enabled). */
  'receipt.print': { input: ByOrderId, output: z.object({ printer: z.string(), drawerOpened: z.boolean() }) },
  'receipt.savePdf': { input: ByOrderId, output: z.object({ path: z.string() }) },
} as const
export type SalesHandlers = HandlersOf<typeof salesChannels>
