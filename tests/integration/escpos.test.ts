// ESC/POS printing end to end: receipts encoded by printers/escpos.ts, sent by printers/printer-link.ts
// over real TCP on 127.0.0.1 to a fake network printer (or written to a real file, as to a device
// path), and decoded from the bytes the printer received; images drawn by the real headless Chromium.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rechargeReceipt, receiptRenderer } from '../../electron/counter/receipts'
import { chromiumRasterizer, findChromium } from '../../electron/printers/chromium-raster'
import { imageBytes, needsImage, receiptBytes, ROLL_COLUMNS, ROLL_DOTS, rulerLines, testPageBytes } from '../../electron/printers/escpos'
import { PrinterError, queryPrinterStatus, sendToPrinter } from '../../electron/printers/printer-link'
import { parsePrinterAddress, type PrinterAddress } from '../../electron/shared/printer-address'
import { blackDots, decodeEscPos, startFakePrinter, startStalledPrinter, type DecodedPrint, type FakePrinter, type FakePrinterStatus } from '../helpers/escpos-printer'
import { startPtyPrinter } from '../helpers/pty-printer'
import { resourcesDir, tempDir } from './helpers'
import { english } from '../../electron/shared/words'
import { sampleSale, sampleShop } from '../helpers/sample-sale'

const shop = sampleShop({ receiptWidthMm: 80 })
const sale = sampleSale({ message: 'Recharge successful' })

const LINK = { timeoutMs: 1500 }
const addressOf = (printer: { address: string }) => parsePrinterAddress(printer.address) as PrinterAddress
/** What reached paper: everything but the status queries. */
const printed = (decoded: DecodedPrint) => ({ lines: decoded.lines.filter(Boolean), cuts: decoded.cuts, images: decoded.images.length, kicks: decoded.drawerKicks })
/** The text printed, as words: centring and wrapping undone. */
const words = (decoded: DecodedPrint) => decoded.lines.join(' ').replace(/ +/g, ' ').trim()
const nothingPrinted = { lines: [], cuts: 0, images: 0, kicks: 0 }

async function failure(work: Promise<unknown>): Promise<PrinterError> {
  const error = await work.then(
    () => null,
    (err: unknown) => err,
  )
  expect(error).toBeInstanceOf(PrinterError)
  return error as PrinterError
}

describe('a receipt as text on a network printer', () => {
  let printer: FakePrinter
  beforeAll(async () => {
    printer = await startFakePrinter()
  })
  afterEach(() => {
    printer.status = 'ready'
    printer.clear()
  })
  afterAll(() => printer.close())

  it('prints the header, the rows, the amount in bold, a QR of the order id and one cut, without opening the drawer', async () => {
    const content = rechargeReceipt(sale, shop)
    expect(needsImage(content, shop)).toBe(false)
    const before = await sendToPrinter(addressOf(printer), receiptBytes(content, shop, { widthMm: 80, drawerKick: false }), LINK)
    expect(before.state).toBe('ready')

    const decoded = printer.decoded()
    const text = decoded.lines.map((line) => line.trim())
    expect(decoded.large).toContain('Sharma Mobile Point')
    expect(text).toContain('12 MG Road, Pune')
    expect(decoded.lines).toContain(`Order id${' '.repeat(48 - 8 - sale.orderId.length)}${sale.orderId}`)
    expect(text).toContain(`Txn id${' '.repeat(48 - 6 - 8)}FP778812`)
    expect(decoded.bold).toContain(`Amount${' '.repeat(48 - 6 - 9)}Rs.199.00`)
    expect(decoded.large).toContain(`Amount${' '.repeat(48 - 6 - 9)}Rs.199.00`)
    expect(text).toContain('Status: SUCCESSFUL')
    expect(decoded.qr).toEqual([sale.orderId])
    expect(decoded.cuts).toBe(1)
    expect(decoded.feedsAfterCut).toBe(0)
    expect(decoded.drawerKicks).toBe(0)
    expect(decoded.statusQueries).toEqual([1, 2, 4])
    // The three questions in one write (one packet), answered together.
    expect(printer.statusWrites()).toEqual([1])
    // Nothing became "?", and no line runs past the roll's 48 columns.
    expect(decoded.lines.join('\n')).not.toContain('?')
    expect(Math.max(...decoded.lines.map((line) => line.length))).toBeLessThanOrEqual(ROLL_COLUMNS[80])
  })

  it("prints a UPI sale's payment request as the printer's own QR of the same upi:// link, its line above it, before the order id's", async () => {
    const upiShop = sampleShop({ receiptWidthMm: 58, upiVpa: 'shop.ramesh@okaxis', upiPayee: 'Sharma & Sons Mobile' })
    const upiSale = sampleSale({ paymentMode: 'upi', collectedPaise: 210_50 })
    const content = rechargeReceipt(upiSale, upiShop)
    const link = `upi://pay?pa=shop.ramesh@okaxis&pn=Sharma%20%26%20Sons%20Mobile&am=210.50&cu=INR&tn=${upiSale.orderId}&tr=${upiSale.orderId}`
    expect(content.upi?.link).toBe(link)
    expect(needsImage(content, upiShop)).toBe(false)
    await sendToPrinter(addressOf(printer), receiptBytes(content, upiShop, { widthMm: 58, drawerKick: false }), LINK)
    const decoded = printer.decoded()
    expect(decoded.qr).toEqual([link, upiSale.orderId])
    expect(words(decoded)).toContain('Pay Rs.210.50 by UPI: scan with any UPI app')
    expect(Math.max(...decoded.lines.map((line) => line.length))).toBeLessThanOrEqual(ROLL_COLUMNS[58])
    // A cash sale of the same shop carries none.
    printer.clear()
    await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(sale, upiShop), upiShop, { widthMm: 58, drawerKick: false }), LINK)
    expect(printer.decoded().qr).toEqual([sale.orderId])
  })

  it('kicks the drawer once, before the cut, only when asked', async () => {
    await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 58, drawerKick: true }), LINK)
    const bytes = printer.received()
    const kick = Buffer.from(bytes).indexOf(Buffer.of(0x1b, 0x70))
    const cut = Buffer.from(bytes).indexOf(Buffer.of(0x1d, 0x56))
    expect(printer.decoded().drawerKicks).toBe(1)
    expect(kick).toBeGreaterThan(0)
    expect(kick).toBeLessThan(cut)
    // On 58 mm the rows fit 32 columns.
    expect(printer.decoded().lines).toContain(`Order id${' '.repeat(32 - 8 - sale.orderId.length)}${sale.orderId}`)
  })

  it('wraps a value too long for its row under the label, inside the columns', async () => {
    const long = { ...sale, operatorName: 'Bharat Sanchar Nigam Limited Special Tariff Voucher' }
    await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(long, shop), shop, { widthMm: 58, drawerKick: false }), LINK)
    const lines = printer.decoded().lines
    const at = lines.indexOf('Operator')
    expect(at).toBeGreaterThan(0)
    expect(lines.slice(at + 1, at + 3).map((line) => line.trim())).toEqual(['Bharat Sanchar Nigam Limited', 'Special Tariff Voucher'])
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(32)
  })

  it('says what the customer paid when the shop took a service charge: amount, charge, the total large, and how', async () => {
    const charged = sampleSale({ collectedPaise: 20_900, paymentMode: 'upi' })
    await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(charged, shop), shop, { widthMm: 80, drawerKick: false }), LINK)
    const decoded = printer.decoded()
    const row = (label: string, value: string) => `${label}${' '.repeat(48 - label.length - value.length)}${value}`
    const at = decoded.lines.indexOf(row('Amount', 'Rs.199.00'))
    expect(at).toBeGreaterThan(0)
    expect(decoded.lines[at + 1]).toBe(row('Service charge', 'Rs.10.00'))
    expect(decoded.bold).toContain(row('Total', 'Rs.209.00'))
    expect(decoded.large).toEqual(['Sharma Mobile Point', row('Total', 'Rs.209.00')])
    expect(decoded.lines).toContain(row('Paid by', 'UPI'))
    expect(decoded.bold).not.toContain(row('Amount', 'Rs.199.00'))
  })

  it('prints a training receipt with its banner in printable dashes', async () => {
    await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt({ ...sale, training: true }, shop), shop, { widthMm: 80, drawerKick: false }), LINK)
    expect(printer.decoded().bold.filter((run) => run === 'TRAINING - NOT A REAL SALE')).toHaveLength(2)
  })
})

describe('a printer that cannot print', () => {
  let printer: FakePrinter
  beforeAll(async () => {
    printer = await startFakePrinter()
  })
  afterEach(() => printer.clear())
  afterAll(() => printer.close())

  const refusals: [FakePrinterStatus, string, RegExp][] = [
    ['paper-out', 'no-paper', /out of paper: load a paper roll/],
    ['cover-open', 'cover-open', /cover open: close the cover/],
    ['offline', 'offline', /is offline: look for a paper jam/],
  ]
  it.each(refusals)('refuses the job when it says %s, and sends no receipt bytes', async (status, state, words) => {
    printer.status = status
    const started = Date.now()
    const error = await failure(sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 80, drawerKick: true }), LINK))
    expect(Date.now() - started).toBeLessThan(LINK.timeoutMs)
    expect(error.state).toBe(state)
    expect(error.message).toMatch(words)
    expect(error.message).toContain(`The printer at ${printer.address}`)
    expect(printed(printer.decoded())).toEqual(nothingPrinted)
    expect(await queryPrinterStatus(addressOf(printer), LINK)).toEqual({ state, message: error.said })
  })

  it('prints on a printer low on paper, and says so', async () => {
    printer.status = 'paper-near-end'
    const before = await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 80, drawerKick: false }), LINK)
    expect({ ...before, message: english(before.message) }).toEqual({ state: 'paper-low', message: `The printer at ${printer.address} is running out of paper: load a new roll soon.` })
    expect(printer.decoded().qr).toEqual([sale.orderId])
  })

  it('asks a printer that answers only the first status query once, and waits for the rest no longer than for one answer', async () => {
    printer.status = 'first-only'
    const started = Date.now()
    const status = await queryPrinterStatus(addressOf(printer), LINK)
    // One wait of 500 ms for all three answers (it was 500 ms for each of the two never given: 1 s).
    expect(Date.now() - started).toBeLessThan(900)
    expect(status.state).toBe('ready')
    expect(printer.statusWrites()).toEqual([1])
  })

  it('prints on a printer that answers no status query', async () => {
    printer.status = 'silent'
    const status = await queryPrinterStatus(addressOf(printer), LINK)
    expect(status.state).toBe('silent')
    expect(english(status.message)).toMatch(/does not report paper or cover/)
    printer.clear()
    const before = await sendToPrinter(addressOf(printer), receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 80, drawerKick: false }), LINK)
    expect(before.state).toBe('silent')
    expect(printer.decoded().qr).toEqual([sale.orderId])
    expect(printer.decoded().cuts).toBe(1)
  })
})

describe('a printer that cannot be reached', () => {
  const bytes = receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 80, drawerKick: false })

  it('says the printer refused the connection once it stops listening, and sent nothing', async () => {
    const printer = await startFakePrinter()
    await printer.refuse()
    const started = Date.now()
    const error = await failure(sendToPrinter(addressOf(printer), bytes, LINK))
    expect(Date.now() - started).toBeLessThan(LINK.timeoutMs)
    expect(error.state).toBe('unreachable')
    expect(error.message).toBe(
      `The printer at ${printer.address} refused the connection: is it switched on, and is its address right in Settings (receipt printers take jobs on port 9100)?`,
    )
    expect(printer.received()).toHaveLength(0)
    await printer.close()
  })

  it('says so for a port where nothing ever listened', async () => {
    const probe = createServer().listen(0, '127.0.0.1')
    await new Promise((resolve) => probe.once('listening', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    const status = await queryPrinterStatus({ kind: 'network', host: '127.0.0.1', port }, LINK)
    expect(status.state).toBe('unreachable')
    expect(english(status.message)).toMatch(new RegExp(`^The printer at 127\\.0\\.0\\.1:${port} refused the connection`))
  })

  it('gives up on a printer that never takes the connection within the timeout', async () => {
    const stalled = await startStalledPrinter()
    try {
      const started = Date.now()
      const error = await failure(sendToPrinter(parsePrinterAddress(stalled.address) as PrinterAddress, bytes, { timeoutMs: 800 }))
      const took = Date.now() - started
      expect(took).toBeGreaterThanOrEqual(780)
      expect(took).toBeLessThan(1500)
      expect(error.state).toBe('unreachable')
      expect(error.message).toBe(`The printer at ${stalled.address} did not answer: is it switched on and on the shop's network?`)
    } finally {
      await stalled.close()
    }
  })
})

describe('a printer at a device path', () => {
  const dir = tempDir('counter-escpos-')
  afterAll(() => dir.remove())

  it('writes the job to a character device (a pseudo-terminal standing in for /dev/usb/lp0)', async () => {
    const device = await startPtyPrinter()
    try {
      const before = await sendToPrinter({ kind: 'path', path: device.path }, receiptBytes(rechargeReceipt(sale, shop), shop, { widthMm: 80, drawerKick: true }), LINK)
      expect(before.state).toBe('silent')
      await expect.poll(() => decodeEscPos(device.received()).cuts).toBe(1)
      const decoded = decodeEscPos(device.received())
      expect(decoded.qr).toEqual([sale.orderId])
      expect(decoded.drawerKicks).toBe(1)
      expect(decoded.statusQueries).toEqual([])
    } finally {
      device.close()
    }
  })

  it('refuses a path that is a file, a folder or a pipe, writing nothing: a file keeps every byte', async () => {
    // A file the user can write, as the journal's own segment was when "Print test page" wrote over its first bytes.
    const file = join(dir.path, 'journal-000001.ndjson')
    writeFileSync(file, '{"seq":1}\n')
    const pipe = join(dir.path, 'lp-pipe')
    execFileSync('mkfifo', [pipe])
    for (const path of [file, dir.path, pipe]) {
      const error = await failure(sendToPrinter({ kind: 'path', path }, Uint8Array.of(0x1b, 0x40, 0x41), LINK))
      expect(error).toMatchObject({ state: 'unreachable', message: `${path} is not a printer but a file, folder or pipe: nothing was written to it. Check the printer's path in Settings (on Linux like /dev/usb/lp0).` })
      expect(await queryPrinterStatus({ kind: 'path', path }, LINK)).toEqual({ state: 'unreachable', message: error.said })
    }
    expect(readFileSync(file, 'utf8')).toBe('{"seq":1}\n')
  })

  it('names a path with no printer and creates nothing there', async () => {
    // Its folder exists, as /dev/usb does once any USB printer was plugged in.
    const path = join(dir.path, 'lp1')
    const error = await failure(sendToPrinter({ kind: 'path', path }, Uint8Array.of(0x1b, 0x40), LINK))
    expect(error.state).toBe('unreachable')
    expect(error.message).toBe(`No printer at ${path}: is it plugged in and switched on?`)
    expect(existsSync(path)).toBe(false)
    expect(await queryPrinterStatus({ kind: 'path', path }, LINK)).toEqual({ state: 'unreachable', message: error.said })
  })
})

describe('a receipt the code page cannot print goes as an image', () => {
  const rasterizer = chromiumRasterizer()
  const render = receiptRenderer(resourcesDir)
  let printer: FakePrinter
  beforeAll(async () => {
    printer = await startFakePrinter()
  })
  afterEach(() => printer.clear())
  afterAll(() => printer.close())

  it('finds a browser to draw with', () => {
    expect(findChromium()).not.toBeNull()
  })

  it.each([80, 58] as const)('draws a Devanagari shop name into a raster the width of the %i mm head, with ink at the header', async (widthMm) => {
    const hindiShop = { ...shop, shopName: 'शर्मा मोबाइल', receiptWidthMm: widthMm }
    const content = rechargeReceipt(sale, hindiShop)
    expect(needsImage(content, hindiShop)).toBe(true)
    expect(() => receiptBytes(content, hindiShop, { widthMm, drawerKick: false })).toThrow(/has to be printed as an image/)

    const image = await rasterizer.rasterize(render.recharge(sale, hindiShop), ROLL_DOTS[widthMm])
    expect(image.width).toBe(ROLL_DOTS[widthMm])
    await sendToPrinter(addressOf(printer), imageBytes(image, { widthMm, drawerKick: true, qr: content.reference }), LINK)

    const decoded = printer.decoded()
    expect(decoded.images).toHaveLength(1)
    const [picture] = decoded.images
    expect(picture.width).toBe(ROLL_DOTS[widthMm])
    expect(picture.height % 8).toBe(0)
    expect(picture.height).toBeGreaterThanOrEqual(image.height)
    expect(picture.height).toBeLessThan(image.height + 8)
    // The header is the first thing on the page: ink in its top rows, a blank band under the
    // receipt's top padding (2 mm) above it, and ink further down for the rows.
    expect(blackDots(picture, 0, 4)).toBe(0)
    expect(blackDots(picture, 4, 40)).toBeGreaterThan(50)
    expect(blackDots(picture, Math.floor(picture.height / 2), picture.height)).toBeGreaterThan(50)
    expect(decoded.lines.filter(Boolean)).toEqual([])
    // The order id's QR, as on a text receipt: after the picture, before the cut.
    expect(decoded.qr).toEqual([sale.orderId])
    const sent = Buffer.from(printer.received())
    const qrAt = sent.indexOf(Buffer.of(0x1d, 0x28, 0x6b))
    expect(qrAt).toBeGreaterThan(sent.indexOf(Buffer.of(0x1d, 0x76, 0x30)))
    expect(qrAt).toBeLessThan(sent.indexOf(Buffer.of(0x1d, 0x56)))
    expect(decoded.cuts).toBe(1)
    expect(decoded.feedsAfterCut).toBe(0)
    expect(decoded.drawerKicks).toBe(1)
  })
})

describe('the test page', () => {
  let printer: FakePrinter
  beforeAll(async () => {
    printer = await startFakePrinter()
  })
  afterEach(() => printer.clear())
  afterAll(() => printer.close())

  it.each([80, 58] as const)('prints the %i mm ruler to the full width, a dot scale and the shop header, then cuts', async (widthMm) => {
    await sendToPrinter(addressOf(printer), testPageBytes(shop, { widthMm }), LINK)
    const decoded = printer.decoded()
    const columns = ROLL_COLUMNS[widthMm]
    const [tens, units] = rulerLines(columns)
    expect(units).toHaveLength(columns)
    expect(units.startsWith('1234567890123')).toBe(true)
    expect(tens.trimEnd().endsWith(String(Math.floor(columns / 10)))).toBe(true)
    expect(decoded.lines).toContain(units)
    expect(decoded.lines).toContain(tens.trimEnd())
    // In double width the name takes two lines of the 16 a 58 mm line holds.
    expect(decoded.large.join(' ')).toBe('Sharma Mobile Point')
    expect(decoded.lines.map((line) => line.trim())).toContain('Printer test page')
    expect(decoded.images.map(({ width }) => width)).toEqual([ROLL_DOTS[widthMm]])
    // The scale's baseline runs the whole width.
    expect(blackDots(decoded.images[0], 22, 24)).toBe(2 * ROLL_DOTS[widthMm])
    expect(decoded.cuts).toBe(1)
    expect(decoded.feedsAfterCut).toBe(0)
    expect(decoded.drawerKicks).toBe(0)
  })

  it('says receipts go as images instead of printing a shop name as "?"', async () => {
    await sendToPrinter(addressOf(printer), testPageBytes({ ...shop, shopName: 'शर्मा मोबाइल' }, { widthMm: 80 }), LINK)
    const decoded = printer.decoded()
    expect(decoded.lines.join('\n')).not.toContain('?')
    expect(words(decoded)).toMatch(/The shop name or address has letters this printer prints only in pictures: receipts will be printed as images\./)
  })
})
