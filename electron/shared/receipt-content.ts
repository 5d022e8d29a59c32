// What a receipt says, apart from its look: the model counter/receipts.ts fills for each kind of sale
// and both the HTML layout and the ESC/POS text printer (printers/escpos.ts) draw, in the words of its language.
import type { Language } from './words'

/** A label and its value; rows whose value is unknown are left off the receipt. */
export type ReceiptRow = [label: string, value: string]

/** The shop's header at the top of every receipt, from the settings. */
export interface ShopHeader {
  shopName: string
  shopAddress: string
}

export interface ReceiptContent {
  /** The receipt language its words are in; the banner and the status line's label come from its dictionary. */
  language: Language
  title: string
  /** Printed as the dictionary's training banner above and below the sale. */
  training: boolean
  /** What the receipt's QR code holds: the id staff search History by. */
  reference: string
  /** From the sale's date and time down to the amount. */
  rows: ReceiptRow[]
  /** Printed large between dashed rules; left off while the amount is unknown. */
  total: { label: string; paise: number } | null
  after: ReceiptRow[]
  status: string
  note: string
  footer: string
  /**
   * A sale paid by UPI, when the shop has a UPI id (shared/upi.ts): the upi://pay link for its exact amount, drawn as a
   * QR under `label` (an image in HTML, the printer's own QR on ESC/POS text). Absent otherwise.
   */
  upi?: { link: string; label: string }
}
