// Receipts and the Z report on paper through the real core: sales over real HTTP against the
// simulator, printed to a network ESC/POS printer played on 127.0.0.1 and decoded as it would print
// them; the drawer kick, printer failures that change nothing, the test page, status and settings.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ledgerDir } from '../../electron/counter/session'
import { chromiumRasterizer } from '../../electron/printers/chromium-raster'
import type { OsPrinter, SystemPrinter } from '../../electron/printers/printer-ports'
import { parsePrinterAddress } from '../../electron/shared/printer-address'
import { startPtyPrinter } from '../helpers/pty-printer'
import { blackDots, startFakePrinter, startStalledPrinter, type DecodedImage, type FakePrinter } from '../helpers/escpos-printer'
import { approvedAgent, realApiKey, realCredentials, startRealModeRig, valueOf, type RealModeRig } from './helpers'
import { english } from '../../electron/shared/words'

const SHOP = 'Sharma Mobile Point'
const cashSale = { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '199.50' } as const

let rig: RealModeRig | undefined
let printer: FakePrinter | undefined
afterEach(async () => {
  await rig?.close()
  await printer?.close()
  rig = printer = undefined
})

/** The core with the headless Chromium rasterizer (browser mode's), set to print on a fresh fake printer. */
async function escposCounter(settings: Record<string, unknown> = {}): Promise<{ rig: RealModeRig; printer: FakePrinter }> {
  printer = await startFakePrinter()
  rig = await startRealModeRig({ pan: { balancePaise: 5_000_00 } }, { rasterizer: chromiumRasterizer() })
  valueOf(await rig.counter.call('settings.save', { shopName: SHOP, printerKind: 'escpos', printerAddress: printer.address, openDrawerOnCash: true, ...settings }))
  return { rig, printer }
}

/** Everything the books keep on disk for the real mode's journal, file by file. */
function journalBytes(rig: RealModeRig): Record<string, string> {
  const dir = join(ledgerDir(rig.dataDir, 'real'), 'journal')
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString('base64')]))
}

/** Black dots in the columns [from, to) of an image: where across the roll something was drawn. */
function blackDotsInColumns(image: DecodedImage, from: number, to: number): number {
  let count = 0
  for (let row = 0; row < image.height; row++) {
    for (let x = from; x < to; x++) if (image.data[row * (image.width / 8) + (x >> 3)] & (0x80 >> (x & 7))) count++
  }
  return count
}

describe('receipts on an ESC/POS printer', () => {
  it('prints a cash sale as text with header, order id, bold amount, QR and cut, kicking the drawer on the first print only', async () => {
    const { rig, printer } = await escposCounter()
    const sale = valueOf(await rig.counter.call('recharge.sell', { ...cashSale, paymentMode: 'cash' }))
    expect(sale.state).toBe('SUCCESS')

    expect(valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))).toEqual({ printer: printer.address, drawerOpened: true })
    const first = printer.decoded()
    expect(first.large).toContain(SHOP)
    expect(first.lines.some((line) => line.startsWith('Order id') && line.endsWith(sale.orderId))).toBe(true)
    expect(first.lines.some((line) => line.endsWith(sale.fpayId!))).toBe(true)
    expect(first.bold.some((run) => run.startsWith('Amount') && run.endsWith('Rs.199.50'))).toBe(true)
    expect(first.qr).toEqual([sale.orderId])
    expect(first.images).toEqual([])
    expect([first.cuts, first.drawerKicks, first.feedsAfterCut]).toEqual([1, 1, 0])
    // DLE EOT 1, 2 and 4 in one write on the job's connection.
    expect(printer.statusWrites()).toEqual([1])

    printer.clear()
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))).toEqual({ printer: printer.address, drawerOpened: false })
    const reprint = printer.decoded()
    expect(reprint.qr).toEqual([sale.orderId])
    expect([reprint.cuts, reprint.drawerKicks]).toEqual([1, 0])
  })

  it('prints what a customer paid with a service charge: the amount, the charge, the total in bold and the payment mode', async () => {
    const { rig, printer } = await escposCounter()
    const sale = valueOf(await rig.counter.call('recharge.sell', { ...cashSale, amount: '199', collected: '209', paymentMode: 'upi' }))
    expect([sale.state, sale.collectedPaise]).toEqual(['SUCCESS', 209_00])
    valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))
    const { lines, bold, large } = printer.decoded()
    const row = (label: string, value: string) => `${label}${' '.repeat(48 - label.length - value.length)}${value}`
    expect(lines).toContain(row('Amount', 'Rs.199.00'))
    expect(lines).toContain(row('Service charge', 'Rs.10.00'))
    expect(bold).toContain(row('Total', 'Rs.209.00'))
    expect(large).toContain(row('Total', 'Rs.209.00'))
    expect(lines).toContain(row('Paid by', 'UPI'))
  })

  it('opens no drawer for a UPI sale or a FAILED one, and prints a coupon sale', async () => {
    const { rig, printer } = await escposCounter()
    const upi = valueOf(await rig.counter.call('recharge.sell', { ...cashSale, paymentMode: 'upi' }))
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: upi.orderId })).drawerOpened).toBe(false)
    rig.provider.setFault({ kind: 'failed', times: 1 })
    const failed = valueOf(await rig.counter.call('recharge.sell', { ...cashSale, number: '9876543211', paymentMode: 'cash' }))
    expect(failed.state).toBe('FAILED')
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: failed.orderId })).drawerOpened).toBe(false)
    const both = printer.decoded()
    expect([both.cuts, both.drawerKicks]).toEqual([2, 0])
    expect(both.lines).toContain('Status: FAILED')

    printer.clear()
    await approvedAgent(rig.counter)
    const coupon = valueOf(await rig.counter.call('pan.coupons.sell', { vleId: 'VLE1001', type: 1, qty: 2, paymentMode: 'upi' }))
    expect(coupon.state).toBe('SUCCESS')
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: coupon.attemptId }))).toEqual({ printer: printer.address, drawerOpened: false })
    const decoded = printer.decoded()
    expect(decoded.lines.some((line) => line.startsWith('Our ref') && line.endsWith(coupon.attemptId))).toBe(true)
    expect(decoded.lines.some((line) => line.startsWith('Qty') && line.endsWith('2'))).toBe(true)
    expect(decoded.qr).toEqual([coupon.orderId])
    expect(decoded.cuts).toBe(1)
  })

  it('prints a receipt with a Devanagari shop name, and the Z report, as pictures the width of the head', async () => {
    const { rig, printer } = await escposCounter({ shopName: 'शर्मा मोबाइल', receiptWidthMm: 80 })
    const sale = valueOf(await rig.counter.call('recharge.sell', cashSale))
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))).toEqual({ printer: printer.address, drawerOpened: true })
    const receipt = printer.decoded()
    expect(receipt.lines.filter(Boolean)).toEqual([])
    expect([receipt.images.length, receipt.cuts, receipt.drawerKicks, receipt.feedsAfterCut]).toEqual([1, 1, 1, 0])
    // The picture carries the order id's QR as the text receipt does.
    expect(receipt.qr).toEqual([sale.orderId])
    const [picture] = receipt.images
    expect(picture.width).toBe(576)
    // A receipt of a dozen lines at the screen's size in millimetres: some 60 to 150 mm of paper at 8 dots a mm.
    expect(picture.height).toBeGreaterThan(480)
    expect(picture.height).toBeLessThan(1200)
    // Laid out across the whole head, not in the left half of it.
    expect(blackDotsInColumns(picture, 400, 576)).toBeGreaterThan(200)
    expect(blackDots(picture, 0, 40)).toBeGreaterThan(0)

    printer.clear()
    const today = valueOf(await rig.counter.call('day.summary', {})).businessDay
    expect(valueOf(await rig.counter.call('day.printReport', { businessDay: today }))).toEqual({ printer: printer.address })
    const report = printer.decoded()
    expect([report.images.length, report.cuts, report.drawerKicks, report.feedsAfterCut]).toEqual([1, 1, 0, 0])
    expect(report.qr).toEqual([])
    expect(report.images[0].width).toBe(576)
    expect(report.images[0].height).toBeGreaterThan(picture.height)
  }, 90_000) // two pictures, each Chromium started afresh until the page fits: 20 s alone here, 33 s beside another file

  it('says in plain words, naming the address, when the printer is off, out of paper or stalled, and changes nothing', async () => {
    const { rig, printer: first } = await escposCounter()
    let device = first
    const sale = valueOf(await rig.counter.call('recharge.sell', cashSale))
    const before = { sale: valueOf(await rig.counter.call('receipt.html', { orderId: sale.orderId })), today: valueOf(await rig.counter.call('sales.today', {})), journal: journalBytes(rig) }
    const unchanged = async () => {
      expect(valueOf(await rig.counter.call('receipt.html', { orderId: sale.orderId }))).toEqual(before.sale)
      expect(valueOf(await rig.counter.call('sales.today', {}))).toEqual(before.today)
      expect(journalBytes(rig)).toEqual(before.journal)
    }
    const refusedWithin = async (ms: number, words: RegExp, address = device.address) => {
      const started = Date.now()
      const printed = await rig.counter.call('receipt.print', { orderId: sale.orderId })
      expect(Date.now() - started).toBeLessThan(ms)
      expect(printed).toMatchObject({ ok: false, error: { code: 'printer_error', message: expect.stringMatching(words) } })
      if (!printed.ok) expect(printed.error.message).toContain(address)
    }

    device.status = 'paper-out'
    await refusedWithin(2_000, /out of paper/)
    await unchanged()
    expect(device.decoded()).toMatchObject({ cuts: 0, drawerKicks: 0 })

    device.status = 'ready'
    const port = device.port
    await device.refuse()
    await refusedWithin(2_000, /switched on/)
    await unchanged()

    const stalled = await startStalledPrinter()
    try {
      valueOf(await rig.counter.call('settings.save', { printerAddress: stalled.address }))
      await refusedWithin(6_000, /did not answer|stopped taking/, stalled.address)
      await unchanged()
    } finally {
      await stalled.close()
    }

    // Switched on again at its address: the reprint goes through, and opens the drawer no failed print opened.
    await device.close()
    printer = device = await startFakePrinter({ port })
    valueOf(await rig.counter.call('settings.save', { printerAddress: device.address }))
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))).toEqual({ printer: device.address, drawerOpened: true })
    expect(device.decoded()).toMatchObject({ qr: [sale.orderId], cuts: 1, drawerKicks: 1 })
    await unchanged()
  })

  it('sends no secret to the printer', async () => {
    const { rig, printer } = await escposCounter({ printAsImage: false })
    const sale = valueOf(await rig.counter.call('recharge.sell', cashSale))
    valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))
    valueOf(await rig.counter.call('printer.testPage', {}))
    valueOf(await rig.counter.call('settings.save', { printAsImage: true }))
    valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))
    const sent = Buffer.from(printer.received()).toString('latin1')
    expect(sent).toContain(sale.orderId)
    for (const secret of [realCredentials.token, realCredentials.secretKey, realApiKey]) expect(sent).not.toContain(secret)
    expect(Buffer.from(printer.received()).includes(Buffer.from(realCredentials.secretKey, 'hex'))).toBe(false)
  })

  it('prints the test page and reports the status', async () => {
    const { rig, printer } = await escposCounter()
    expect(valueOf(await rig.counter.call('printer.testPage', {}))).toEqual({ printer: printer.address })
    const page = printer.decoded()
    expect(page.large).toContain(SHOP)
    expect(page.bold).toContain('Printer test page')
    expect([page.cuts, page.drawerKicks]).toEqual([1, 0])

    expect(valueOf(await rig.counter.call('printer.status', {}))).toMatchObject({ state: 'ready', message: expect.stringContaining(printer.address) })
    printer.status = 'paper-near-end'
    expect(valueOf(await rig.counter.call('printer.status', {})).state).toBe('paper-low')
    printer.status = 'cover-open'
    expect(valueOf(await rig.counter.call('printer.status', {})).state).toBe('cover-open')
    await printer.refuse()
    expect(valueOf(await rig.counter.call('printer.status', {}))).toMatchObject({ state: 'unreachable', message: expect.stringContaining(printer.address) })
  })
})

describe('receipts through the OS driver', () => {
  it('prints receipts and the test page on the named printer, lists printers and tells whether it is set up', async () => {
    const printed: { html: string; deviceName: string; widthMm: number }[] = []
    const installed: OsPrinter[] = [{ name: 'TVS RP3160', isDefault: false }]
    // Stands in for Electron's webContents.print and getPrintersAsync, the part that needs a window system.
    const systemPrinter: SystemPrinter = {
      print: async (html, options) => {
        printed.push({ html, ...options })
        return options.deviceName
      },
      savePdf: async () => undefined,
      list: async () => installed,
    }
    rig = await startRealModeRig({}, { systemPrinter })
    valueOf(await rig.counter.call('settings.save', { shopName: SHOP, printerName: 'TVS RP3160', receiptWidthMm: 58, openDrawerOnCash: true }))
    const sale = valueOf(await rig.counter.call('recharge.sell', cashSale))
    expect(valueOf(await rig.counter.call('receipt.print', { orderId: sale.orderId }))).toEqual({ printer: 'TVS RP3160', drawerOpened: false })
    expect(printed[0]).toEqual({ html: valueOf(await rig.counter.call('receipt.html', { orderId: sale.orderId })).html, deviceName: 'TVS RP3160', widthMm: 58 })

    expect(valueOf(await rig.counter.call('printer.testPage', {}))).toEqual({ printer: 'TVS RP3160' })
    expect(printed[1].html).toContain(SHOP)
    expect(printed[1].html).toContain('class="ruler"')
    expect(printed[1].html.match(/<i style/g)).toHaveLength(59)
    expect(printed[1].html).toContain('<div class="title">Printer test page</div>')
    // In the receipt language, drawn in the bundled Devanagari font; the screens' language does not move it.
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'hi' }))
    valueOf(await rig.counter.call('printer.testPage', {}))
    expect(printed[2].html).toContain('<html lang="hi">')
    expect(printed[2].html).toContain('<div class="title">प्रिंटर टेस्ट पेज</div>')
    expect(printed[2].html).toContain('58 mm रोल। पैमाना कागज़ की पूरी चौड़ाई में है')
    expect(printed[2].html).toContain('@font-face { font-family: "Counter Devanagari"; src: url(data:font/ttf')
    expect(printed[2].html).not.toContain('Printer test page')
    valueOf(await rig.counter.call('settings.save', { receiptLanguage: 'en', screenLanguage: 'hi' }))
    valueOf(await rig.counter.call('printer.testPage', {}))
    expect(printed[3].html).toContain('<div class="title">Printer test page</div>')
    expect(printed[3].html).not.toContain('data:font/ttf')
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))

    expect(valueOf(await rig.counter.call('printer.list', {}))).toEqual({ printers: installed })
    expect(valueOf(await rig.counter.call('printer.status', {})).state).toBe('unknown')
    valueOf(await rig.counter.call('settings.save', { printerName: 'Gone Printer' }))
    expect(valueOf(await rig.counter.call('printer.status', {}))).toMatchObject({ state: 'unreachable', message: expect.stringContaining('Gone Printer') })
    expect(await rig.counter.call('receipt.print', { orderId: sale.orderId })).toMatchObject({ ok: true })

    await rig.close()
    rig = await startRealModeRig()
    const browser = valueOf(await rig.counter.call('recharge.sell', cashSale))
    for (const call of [rig.counter.call('receipt.print', { orderId: browser.orderId }), rig.counter.call('printer.list', {}), rig.counter.call('printer.testPage', {})]) {
      expect(await call).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('Print') } })
    }
    expect(valueOf(await rig.counter.call('printer.status', {})).state).toBe('unknown')
  })
})

describe('printer settings', () => {
  it('stores the printer fields with their defaults, and refuses ESC/POS without an address or with a bad one, changing nothing', async () => {
    rig = await startRealModeRig()
    const settingsFile = join(rig.dataDir, 'settings.json')
    const initial = valueOf(await rig.counter.call('settings.get', {}))
    expect(initial).toMatchObject({ printerKind: 'system', printerAddress: '', printAsImage: false, openDrawerOnCash: false })
    valueOf(await rig.counter.call('settings.save', { shopName: SHOP }))
    const saved = readFileSync(settingsFile, 'utf8')

    expect(await rig.counter.call('settings.save', { printerKind: 'escpos', openDrawerOnCash: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('address'), fields: { printerAddress: expect.any(String) } },
    })
    const typo = 'printer 50:9100'
    const words = english((parsePrinterAddress(typo) as { error: string }).error)
    expect(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: typo })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: words, fields: { printerAddress: words } },
    })
    expect(readFileSync(settingsFile, 'utf8')).toBe(saved)
    expect(valueOf(await rig.counter.call('settings.get', {}))).toMatchObject({ printerKind: 'system', printerAddress: '', openDrawerOnCash: false })

    const set = valueOf(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: '192.168.1.50', printAsImage: true, openDrawerOnCash: true }))
    expect(set).toMatchObject({ printerKind: 'escpos', printerAddress: '192.168.1.50', printAsImage: true, openDrawerOnCash: true })
    const escpos = readFileSync(settingsFile, 'utf8')
    // The address stored with the kind cannot be cleared while the kind needs it.
    expect(await rig.counter.call('settings.save', { printerAddress: '' })).toMatchObject({ ok: false, error: { fields: { printerAddress: expect.any(String) } } })
    expect(readFileSync(settingsFile, 'utf8')).toBe(escpos)
    await rig.restart()
    expect(valueOf(await rig.counter.call('settings.get', {}))).toMatchObject({ printerKind: 'escpos', printerAddress: '192.168.1.50', printAsImage: true, openDrawerOnCash: true })
  })

  it('refuses at save a printer path that is a file, a folder or a pipe, changing nothing; a device, or nothing there yet, is saved', async () => {
    rig = await startRealModeRig()
    const settingsFile = join(rig.dataDir, 'settings.json')
    valueOf(await rig.counter.call('settings.save', { shopName: SHOP }))
    const saved = readFileSync(settingsFile, 'utf8')
    const pipe = join(rig.dataDir, 'lp-pipe')
    execFileSync('mkfifo', [pipe])
    for (const path of [settingsFile, rig.dataDir, pipe]) {
      const words = `${path} is not a printer but a file, folder or pipe: nothing was written to it. Check the printer's path in Settings (on Linux like /dev/usb/lp0).`
      expect(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: path })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: words, fields: { printerAddress: words } },
      })
      expect(readFileSync(settingsFile, 'utf8')).toBe(saved)
    }
    const device = await startPtyPrinter()
    try {
      expect(valueOf(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: device.path }))).toMatchObject({ printerAddress: device.path })
    } finally {
      device.close()
    }
    // A printer unplugged now is plugged in later: nothing at the path is saved (and nothing made there); printing looks again.
    const unplugged = join(rig.dataDir, 'lp1')
    expect(valueOf(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: unplugged }))).toMatchObject({ printerAddress: unplugged })
    expect(existsSync(unplugged)).toBe(false)
  })
})
