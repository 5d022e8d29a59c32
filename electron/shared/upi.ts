// A UPI payment request for the exact amount of a sale (issue #29): the shop's UPI id and payee name as the owner
// sets them, the upi://pay link a customer's UPI app opens, and the one QR maker that draws it on the screen
// (renderer) and on paper (HTML receipts; the ESC/POS printer draws its own from the same link). A leaf of the
// shared floor: it imports nothing of ours, so the renderer imports it too.
import { encode } from 'uqr'

/**
 * A UPI id (VPA) as NPCI's handles have it: `name@handle`, letters, digits, dot, hyphen and underscore before the @
 * and letters after it ("shop.ramesh@okaxis", "9876543210@ybl").
 */
export const UPI_VPA = /^[a-zA-Z0-9.\-_]{2,256}@[a-zA-Z]{2,64}$/
/** What the settings show as an example of a UPI id. */
export const UPI_VPA_EXAMPLE = 'shop.ramesh@okaxis'
/**
 * The payee name the customer's app shows before they pay. Decision: letters, spaces and the marks shop names use
 * (`. & ' -`), up to 50 characters (what UPI apps show whole); Devanagari is refused since some UPI apps show it
 * as boxes. `&` and spaces are why the link encodes the name.
 */
export const UPI_PAYEE = /^[A-Za-z][A-Za-z .&'-]{0,49}$/
export const UPI_PAYEE_MAX = 50

export const isUpiVpa = (text: string) => UPI_VPA.test(text)
export const isUpiPayee = (text: string) => UPI_PAYEE.test(text)

/** Where the payment goes: empty `vpa` is the feature off (no QR anywhere). */
export interface UpiPayee {
  vpa: string
  payee: string
}

/** Paise as the link's amount: rupees with exactly 2 decimals ("209.00", "0.50"), never through a float. */
export function upiAmount(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise <= 0) throw new Error(`A UPI request needs a whole number of paise above 0, not ${paise}`)
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`
}

/**
 * The NPCI deep link for one sale: pa (the shop's UPI id), pn (the payee name), am (the exact amount), cu (INR), and
 * the sale's id as both tn (the note the customer sees) and tr (the reference the shop's bank statement carries), so
 * a payment is matched to its sale. Null when the shop has set no UPI id, and when the id or payee is one the settings
 * refuse (a hand-edited settings.json): a link to a mistyped account is never shown.
 */
export function upiLink(to: UpiPayee, sale: { amountPaise: number; orderId: string }): string | null {
  if (!isUpiVpa(to.vpa) || !isUpiPayee(to.payee)) return null
  const query = [
    ['pa', to.vpa],
    ['pn', encodeURIComponent(to.payee)],
    ['am', upiAmount(sale.amountPaise)],
    ['cu', 'INR'],
    ['tn', encodeURIComponent(sale.orderId)],
    ['tr', encodeURIComponent(sale.orderId)],
  ]
  return `upi://pay?${query.map(([key, value]) => `${key}=${value}`).join('&')}`
}

/** The quiet zone around a QR, in modules: the 4 its standard asks for, so a phone finds it beside other print. */
export const QR_QUIET_MODULES = 4

/**
 * A QR as one SVG path of unit squares, the quiet zone included in `size`. Decision: error level M, as the receipt's
 * order-id QR on ESC/POS (printers/escpos.ts): a UPI link of about 100 characters is a version 6 or 7 code, 49 to 53
 * modules wide with its quiet zone, so drawn 300 px wide on a screen a module is nearly 6 px: a phone reads it from
 * 40 cm.
 */
export function qrPath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: QR_QUIET_MODULES })
  const squares: string[] = []
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) squares.push(`M${x} ${y}h1v1h-1z`)
    }),
  )
  return { size, path: squares.join('') }
}

/** The QR as an SVG element `size` square (a CSS length), black on white with its quiet zone: for receipts. */
export function qrSvg(text: string, size: string, label: string): string {
  const { size: modules, path } = qrPath(text)
  const escaped = label.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escaped}" width="${size}" height="${size}" viewBox="0 0 ${modules} ${modules}" shape-rendering="crispEdges"><rect width="${modules}" height="${modules}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
}
