// The bundled Devanagari font on paper (receipts, Z reports): resources/fonts/Lohit-Devanagari.ttf as an
// @font-face rule that receipt.css and the A4 report's font lists name, added only to pages that carry Devanagari.
//
// Decision: the font is inlined as a data: URL, not reached by a file or server address. Every place paper is
// drawn loads the page as a string with no base address to resolve a path against: the desktop app's hidden
// print window (a data: URL page; its policy allows font-src data:), the headless Chromium that draws ESC/POS
// pictures in browser mode, and the screen's preview and print frames (srcdoc, under the page's policy, which
// allows font-src data:). One data: URL reaches all of them, with no route for browser mode's server to serve.
// It costs about 207 KB of HTML, so a page without Devanagari (an English receipt of a shop with an English
// name) goes without it. Lohit Devanagari (OFL, resources/fonts/OFL.txt): clear matras at 10 px, and small.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEVANAGARI } from '../shared/words'

/** The family receipt.css and the A4 report name after their Latin fonts. */
export const PAPER_DEVANAGARI_FAMILY = 'Counter Devanagari'

/** Each resources folder's rule, read once: at the first receipt, test page or report that asks for it, not at start. */
const faces = new Map<string, string>()

/** The @font-face rule with the font inside it (one 207 KB string, shared by whoever draws paper). */
export function devanagariFontFace(resourcesDir: string): string {
  let face = faces.get(resourcesDir)
  if (face === undefined) {
    const font = readFileSync(join(resourcesDir, 'fonts', 'Lohit-Devanagari.ttf')).toString('base64')
    face = `@font-face { font-family: "${PAPER_DEVANAGARI_FAMILY}"; src: url(data:font/ttf;base64,${font}) format("truetype"); unicode-range: U+0900-097F, U+A8E0-A8FF, U+200C-200D, U+25CC; }`
    faces.set(resourcesDir, face)
  }
  return face
}

/** The font rule a page needs: `face` when any of its text is Devanagari, else nothing. */
export const fontFacesFor = (pageText: string, face: string): string => (DEVANAGARI.test(pageText) ? face : '')
