// The bytes an ESC/POS receipt printer is sent: a receipt as text (header, justified rows, bold
// amount, a UPI sale's payment QR, QR of its reference, cut, drawer kick), any page as a raster image, and the test page.
// Pure functions of their input; sending them is printer-link.ts's job.
//
// Decision: the byte stream comes from @point-of-sale/receipt-printer-encoder (MIT, typed, pure JS;
// correct GS V cut, ESC p kick and GS v 0 raster). node-thermal-printer was the other candidate; it is
// CommonJS and brings its own transport, where Counter keeps the link (status, timeouts, messages).
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder'
import CodepageEncoder from '@point-of-sale/codepage-encoder'
import { formatPaise } from '../shared/money'
import { paperWords } from '../shared/words'
import type { ReceiptContent, ShopHeader } from '../shared/receipt-content'
import type { RgbaImage } from './printer-ports'

export type RollWidthMm = 58 | 80

/** Characters a line holds in the printer's standard font A (12 x 24 dots): 32 on 58 mm, 48 on 80 mm. */
export const ROLL_COLUMNS: Record<RollWidthMm, number> = { 58: 32, 80: 48 }
/** The print head's width at 203 dpi: 384 dots on a 58 mm roll (48 mm printable), 576 on 80 mm (72 mm). */
export const ROLL_DOTS: Record<RollWidthMm, number> = { 58: 384, 80: 576 }

/**
 * Decision: text goes in code page 0 (PC437), the table every ESC/POS printer starts in; other tables'
 * numbers differ from maker to maker. Nothing prints as "?": text with a character PC437 lacks makes
 * the whole receipt an image (needsImage). Our own typography has printed forms: no code page in the
 * library's tables has the rupee sign, and "Rs." is how Indian thermal receipts print it; dashes
 * print as "-" and any Unicode space (Intl puts U+202F before "am") as a space.
 */
const PRINTED_FORMS: [RegExp, string][] = [
  [/₹/g, 'Rs.'],
  [/[\u2012-\u2015]/g, '-'],
  [/\p{Zs}/gu, ' '],
]
const CP437_PRINTABLE = new Set(CodepageEncoder.getEncoding('cp437').codepoints.filter((_, byte) => (byte >= 0x20 && byte < 0x7f) || byte >= 0x80))

export function printedForm(text: string): string {
  return PRINTED_FORMS.reduce((out, [pattern, printed]) => out.replace(pattern, printed), text)
}

const printable = (text: string) => [...printedForm(text)].every((char) => char === '\n' || CP437_PRINTABLE.has(char.codePointAt(0)!))

function receiptTexts(content: ReceiptContent): string[] {
  const rows = [...content.rows, ...content.after].flat()
  const total = content.total ? [content.total.label, formatPaise(content.total.paise)] : []
  const words = paperWords(content.language).receipt
  const banner = content.training ? [words.training] : []
  const upi = content.upi ? [content.upi.label] : []
  return [...banner, content.title, content.reference, ...rows, ...total, `${words.status} ${content.status}`, content.note, ...upi, content.footer]
}

/** True when some text of the receipt (or the shop's header) cannot be printed as text, so it must go as an image. */
export function needsImage(content: ReceiptContent, shop: ShopHeader): boolean {
  return ![shop.shopName, shop.shopAddress, ...receiptTexts(content)].every(printable)
}

function encoder(widthMm: RollWidthMm) {
  // Decision: 4 lines fed before the cut carry the last printed line past the cutter on the common
  // 58/80 mm mechanisms (the head-to-cutter gap is 10-15 mm; a line is 3.75 mm).
  return new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: ROLL_COLUMNS[widthMm],
    imageMode: 'raster',
    newline: '\n',
    codepageMapping: 'epson',
    feedBeforeCut: 4,
  })
    .initialize()
    .codepage('cp437')
}
type Encoder = ReturnType<typeof encoder>

/** Breaks text into lines of at most `width` characters at spaces, splitting a word only when it alone is longer. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(' ').filter(Boolean)) {
      for (let rest = word; rest; ) {
        const room = line ? width - line.length - 1 : width
        if (rest.length <= room) {
          line = line ? `${line} ${rest}` : rest
          rest = ''
        } else if (line) {
          lines.push(line)
          line = ''
        } else {
          lines.push(rest.slice(0, width))
          rest = rest.slice(width)
        }
      }
    }
    lines.push(line)
  }
  return lines
}

/** A label at the left and its value at the right edge; a value too long for that goes under the label, right-aligned. */
export function justified(label: string, value: string, columns: number): string[] {
  const gap = columns - label.length - value.length
  if (gap >= 1) return [label + ' '.repeat(gap) + value]
  return [label, ...wrap(value, columns).map((line) => line.padStart(columns))]
}

function centred(to: Encoder, text: string, columns: number) {
  to.align('center')
  for (const line of wrap(printedForm(text), columns)) to.line(line)
  to.align('left')
}

function header(to: Encoder, shop: ShopHeader, columns: number) {
  // The name in double width and height: half as many characters fit.
  if (shop.shopName.trim()) {
    to.bold(true).size(2, 2)
    centred(to, shop.shopName, columns / 2)
    to.size(1, 1).bold(false)
  }
  if (shop.shopAddress.trim()) centred(to, shop.shopAddress, columns)
}

/** Drawer kick and paper cut, the end of every job. */
function finish(to: Encoder, drawerKick: boolean): Uint8Array {
  // Decision: the kick goes before the cut, so the drawer opens while the receipt is still being fed.
  // ESC p 0 (connector pin 2, where every cash drawer we know of is wired), 100 ms on and 500 ms off:
  // the library's default, inside the 50-200 ms drawer solenoids take.
  if (drawerKick) to.pulse(0, 100, 500)
  // Decision: a partial cut, the receipt hangs on a tab for staff to tear off instead of falling.
  const bytes = to.cut('partial').encode()
  // The encoder ends the cut's line with LF like any other, and a printer feeds it after the cut: blank paper at
  // the head of the next receipt, every job. The cut (GS V) is the job's last command.
  return bytes.at(-1) === 0x0a ? bytes.subarray(0, -1) : bytes
}

/**
 * The QR of the id a receipt is found by (or of a UPI sale's payment link): model 2, 6-dot modules (about 21 mm for an
 * order id, 34 mm for a UPI link), error level M: reads from a crumpled receipt.
 */
function qr(to: Encoder, text: string) {
  to.align('center').qrcode(text, { model: 2, size: 6, errorlevel: 'm' }).align('left')
}

export interface JobOptions {
  widthMm: RollWidthMm
  /** Opens the cash drawer wired to the printer (a cash sale, when the shop turned it on). */
  drawerKick: boolean
}

/** A receipt as text. Throws if any text needs an image: call needsImage first and send imageBytes instead. */
export function receiptBytes(content: ReceiptContent, shop: ShopHeader, { widthMm, drawerKick }: JobOptions): Uint8Array {
  if (needsImage(content, shop)) throw new Error('This receipt has characters the printer cannot print as text; it has to be printed as an image.')
  const columns = ROLL_COLUMNS[widthMm]
  const words = paperWords(content.language).receipt
  const to = encoder(widthMm)
  const lines = (rows: [string, string][]) => {
    for (const [label, value] of rows) for (const line of justified(label, printedForm(value), columns)) to.line(line)
  }
  const rule = () => to.line('-'.repeat(columns))
  const banner = () => {
    if (!content.training) return
    centred(to.bold(true), words.training, columns)
    to.bold(false)
  }
  header(to, shop, columns)
  banner()
  centred(to, content.title, columns)
  rule()
  lines(content.rows)
  if (content.total) {
    rule()
    // Bold and twice as tall (not wide, so the row keeps the columns it is justified to).
    to.bold(true).size(1, 2)
    lines([[content.total.label, formatPaise(content.total.paise)]])
    to.size(1, 1).bold(false)
    rule()
  }
  lines(content.after)
  to.bold(true).line(`${words.status} ${content.status}`).bold(false)
  if (content.note) for (const line of wrap(printedForm(content.note), columns)) to.line(line)
  // A UPI sale's request for its exact amount (shared/upi.ts), the printer's own QR of the same link as the screen's,
  // with its line above it; the same size as the order id's, whose modules a phone reads at arm's length.
  if (content.upi) {
    to.newline()
    centred(to, content.upi.label, columns)
    qr(to, content.upi.link)
  }
  banner()
  to.newline()
  qr(to, content.reference)
  centred(to, content.footer, columns)
  return finish(to, drawerKick)
}

/**
 * Any page as a raster image (GS v 0): scaled to the roll's width in dots (a capture on a HiDPI screen
 * is wider), thresholded to black and white, its height padded to whole 8-dot rows by the encoder.
 * Decision: a threshold, not dithering: a receipt is black text on white, and dithering speckles the
 * antialiased edges of small glyphs. A receipt's picture is followed by the QR of its reference (`qr`), as
 * the text receipt has it: the printer's own QR (GS ( k) draws whole-dot modules, where one drawn into the page,
 * scaled and thresholded with it, could blur its modules unevenly. A report has no reference, and no QR.
 */
export function imageBytes(image: RgbaImage, { widthMm, drawerKick, qr: reference }: JobOptions & { qr?: string }): Uint8Array {
  const dots = ROLL_DOTS[widthMm]
  const height = Math.max(1, Math.round((image.height * dots) / image.width))
  const to = encoder(widthMm).image({ width: image.width, height: image.height, data: image.data }, dots, height, 'threshold', 128)
  if (reference) qr(to, reference)
  return finish(to, drawerKick)
}

/** A scale of the head's dots: a tick every 8 dots (1 mm), longer every 40 (5 mm) and 80 (10 mm). */
function dotScale(dots: number): RgbaImage {
  const height = 24
  const data = new Uint8Array(dots * height * 4).fill(0xff)
  for (let x = 0; x < dots; x++) {
    const tick = x === dots - 1 || x % 80 === 0 ? height : x % 40 === 0 ? 16 : x % 8 === 0 ? 8 : 2
    for (let y = height - tick; y < height; y++) data.fill(0, (y * dots + x) * 4, (y * dots + x) * 4 + 3)
  }
  return { width: dots, height, data }
}

/** The column numbers to the full width: tens above units, so "1" over "0" marks column 10. */
export function rulerLines(columns: number): [string, string] {
  const numbers = Array.from({ length: columns }, (_, index) => index + 1)
  return [numbers.map((n) => (n % 10 === 0 ? String(n / 10).slice(-1) : ' ')).join(''), numbers.map((n) => String(n % 10)).join('')]
}

/** The test page: the shop's header, the roll's ruler in columns and in dots, then a cut. */
export function testPageBytes(shop: ShopHeader, { widthMm }: { widthMm: RollWidthMm }): Uint8Array {
  const columns = ROLL_COLUMNS[widthMm]
  const dots = ROLL_DOTS[widthMm]
  const to = encoder(widthMm)
  // Decision: the page's words are English whatever the receipt language: it tests the printer's own text columns,
  // whose code page has no Devanagari (a Hindi page would be a picture and test nothing of them).
  const words = paperWords('en').testPage
  // Decision: a header the code page cannot print is not printed as "?": the page says receipts go as images.
  if (printable(shop.shopName) && printable(shop.shopAddress)) header(to, shop, columns)
  else centred(to, words.text.pictureHeader, columns)
  centred(to.bold(true), words.title, columns)
  to.bold(false)
  centred(to, words.text.roll(widthMm, columns, dots), columns)
  to.newline()
  for (const line of rulerLines(columns)) to.line(line)
  to.image(dotScale(dots), dots, 24, 'threshold', 128)
  centred(to, words.text.rulers, columns)
  return finish(to, false)
}
