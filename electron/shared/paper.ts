// The one rule that sizes receipt paper to its content, shared by the desktop app's hidden print window
// and browser mode's print frame: what a receipt declares, how its height is measured, the page it gets.
// A leaf module. The measuring functions run inside the receipt's document, so they use nothing from
// outside themselves (the desktop app sends one to its window as source text).

const MM_PER_INCH = 25.4
/** CSS pixels: 96 to the inch on screen and on paper alike. */
const PX_PER_INCH = 96
const MICRONS_PER_MM = 1000

/**
 * Decision: the page is the measured content rounded up to a whole millimetre, plus 1 mm. Measured in
 * real Chromium: a page even 0.2 mm shorter than the content spills its last line onto a second page
 * (a whole extra page on a roll), and Chromium and printer drivers round page sizes to their own units
 * (1/72 inch in a PDF, 1/203 inch on a thermal head). The receipt's own bottom padding is the white
 * space; this millimetre only absorbs those roundings, so a page stays within 2 mm of its content.
 */
const BOTTOM_ALLOWANCE_MM = 1

/** The custom property a receipt's stylesheet declares its paper width in: how browser mode tells a receipt from an A4 report. */
const WIDTH_PROPERTY = '--receipt-width-mm'

export interface PaperSize {
  widthMm: number
  heightMm: number
}

/** The stylesheet head of every thermal receipt (sales and the Z report): no page margin, the body as wide as the roll. */
export function receiptPageCss(widthMm: number): string {
  return `@page { margin: 0 } :root { ${WIDTH_PROPERTY}: ${widthMm} } body { width: ${widthMm}mm }`
}

/**
 * The rendered content's height in CSS px, once its fonts are in. Runs in the receipt's document. Decision:
 * the root element's box, not `documentElement.scrollHeight`: in Chromium scrollHeight is never less than
 * the window's height (a 5-line receipt in an 860 px window measured 860), while the root box is the
 * content whatever the window (measured equal to the body's box for receipts of 5 to 80 lines).
 */
export async function contentHeightPx(doc: { fonts: { ready: Promise<unknown> }; documentElement: { getBoundingClientRect(): { height: number } } }): Promise<number> {
  await doc.fonts.ready
  return doc.documentElement.getBoundingClientRect().height
}

/** The same measurement as an expression, for `webContents.executeJavaScript` in the desktop app's hidden window. */
export const CONTENT_HEIGHT_SCRIPT = `(${contentHeightPx.toString()})(document)`

/** The paper width a receipt declares (see receiptPageCss), read from its root's computed style; null for any other document (an A4 report). */
export function declaredReceiptWidthMm(rootStyle: { getPropertyValue(name: string): string }): number | null {
  const declared = Number.parseFloat(rootStyle.getPropertyValue(WIDTH_PROPERTY))
  return Number.isFinite(declared) && declared > 0 ? declared : null
}

export const mmToPx = (mm: number) => (mm * PX_PER_INCH) / MM_PER_INCH

/** The page for content `heightPx` tall on a roll `widthMm` wide. */
export function pageForContent(widthMm: number, heightPx: number): PaperSize {
  const contentMm = (heightPx * MM_PER_INCH) / PX_PER_INCH
  return { widthMm, heightMm: Math.ceil(contentMm + BOTTOM_ALLOWANCE_MM) }
}

/** As Electron's `webContents.print` takes a page size. */
export const inMicrons = (page: PaperSize) => ({ width: Math.round(page.widthMm * MICRONS_PER_MM), height: Math.round(page.heightMm * MICRONS_PER_MM) })

/** As Electron's `webContents.printToPDF` takes a page size. */
export const inInches = (page: PaperSize) => ({ width: page.widthMm / MM_PER_INCH, height: page.heightMm / MM_PER_INCH })

/** The receipt with its page size written into it, for a browser's print (which reads the size only from CSS). */
export function withPageSize(html: string, page: PaperSize): string {
  return withLastRules(html, `@page { size: ${page.widthMm}mm ${page.heightMm}mm; margin: 0 }`)
}

/** The html with `css` as the last style in its head, so it wins over the receipt's own rules. */
export function withLastRules(html: string, css: string): string {
  const style = `<style>${css}</style>`
  const headEnd = html.search(/<\/head>/i)
  return headEnd < 0 ? `${style}${html}` : `${html.slice(0, headEnd)}${style}${html.slice(headEnd)}`
}
