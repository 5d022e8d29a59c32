// The desktop app's printing (electron/printing.ts) at the Electron boundary: a fake BrowserWindow records
// what Counter asks of Electron, and runs Counter's own measuring script against a page of a given height.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../integration/helpers'
import { english } from '../../electron/shared/words'

/** A rejection's said words (printing.ts says them for the screen's language) in English. */
const inEnglish = <T>(work: Promise<T>) =>
  work.catch((error: Error) => {
    throw new Error(english(error.message))
  })

const fake = vi.hoisted(() => {
  interface FakeImage {
    width: number
    height: number
    bgra: Uint8Array
  }
  const scene = {
    contentHeightPx: 0,
    print: { success: true, reason: '' },
    printers: [] as { name: string; displayName: string; description: string; options: object }[],
    capture: null as FakeImage | null,
    loadFails: false,
  }
  const imageOf = (image: FakeImage) => ({
    getSize: () => ({ width: image.width, height: image.height }),
    toBitmap: () => Buffer.from(image.bgra),
    resize: ({ width }: { width: number }) => {
      resized.push(width)
      // A 2× capture brought back to 1×: every other pixel of every other row.
      const height = Math.round((image.height * width) / image.width)
      const bgra = new Uint8Array(width * height * 4)
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bgra.set(image.bgra.subarray(((y * 2) * image.width + x * 2) * 4, ((y * 2) * image.width + x * 2) * 4 + 4), (y * width + x) * 4)
      return imageOf({ width, height, bgra })
    },
  })
  const resized: number[] = []

  class FakeWindow {
    static made: FakeWindow[] = []
    destroyed = false
    url = ''
    contentSize: [number, number] | null = null
    readonly calls: { method: string; args: unknown[] }[] = []
    constructor(readonly options: { width?: number; webPreferences?: Record<string, unknown> }) {
      FakeWindow.made.push(this)
    }
    async loadURL(url: string) {
      this.url = url
      if (scene.loadFails) throw new Error('ERR_FAILED (-2) loading data:text/html')
    }
    setContentSize(width: number, height: number) {
      this.contentSize = [width, height]
    }
    destroy() {
      this.destroyed = true
    }
    readonly webContents = {
      // Evaluates the very script Counter sends, against a page whose content is scene.contentHeightPx tall.
      executeJavaScript: async (script: string) => {
        this.calls.push({ method: 'executeJavaScript', args: [script] })
        const document = { fonts: { ready: Promise.resolve() }, documentElement: { getBoundingClientRect: () => ({ height: scene.contentHeightPx }) } }
        const requestAnimationFrame = (painted: () => void) => setTimeout(painted, 1)
        return new Function('document', 'requestAnimationFrame', `return ${script}`)(document, requestAnimationFrame)
      },
      print: (options: unknown, callback: (success: boolean, reason: string) => void) => {
        this.calls.push({ method: 'print', args: [options] })
        setTimeout(() => callback(scene.print.success, scene.print.reason), 1)
      },
      printToPDF: async (options: unknown) => {
        this.calls.push({ method: 'printToPDF', args: [options] })
        return Buffer.from('%PDF-1.4 fake')
      },
      getPrintersAsync: async () => scene.printers,
      capturePage: async (rect: unknown, options: unknown) => {
        this.calls.push({ method: 'capturePage', args: [rect, options] })
        return imageOf(scene.capture!)
      },
    }
  }
  return { FakeWindow, scene, resized }
})

vi.mock('electron', () => ({ BrowserWindow: fake.FakeWindow }))

const { electronPrinter, electronRasterizer } = await import('../../electron/printing')

const RECEIPT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt</title><style>@page { margin: 0 } body { width: 80mm }</style></head>
<body class="w80"><h1>Sharma Digital Seva</h1><div>Order id RCH123</div></body></html>`

const onlyWindow = () => {
  expect(fake.FakeWindow.made).toHaveLength(1)
  return fake.FakeWindow.made[0]
}
const callsOf = (window: InstanceType<typeof fake.FakeWindow>, method: string) => window.calls.filter((call) => call.method === method).map((call) => call.args)

beforeEach(() => {
  fake.FakeWindow.made = []
  fake.resized.length = 0
  Object.assign(fake.scene, { contentHeightPx: 0, print: { success: true, reason: '' }, printers: [], capture: null, loadFails: false })
})

describe('printing a receipt without a dialog', () => {
  it('prints on a page as tall as the measured content, in microns, with no margins, silently', async () => {
    // A short recharge receipt as Chromium lays it out at 80 mm: 185.47 px = 49.07 mm; + 1 mm, rounded up = 51 mm.
    fake.scene.contentHeightPx = 185.46875
    expect(await electronPrinter.print(RECEIPT, { deviceName: 'TM-T82', widthMm: 80 })).toBe('TM-T82')

    const window = onlyWindow()
    expect(callsOf(window, 'print')).toEqual([
      [{ silent: true, deviceName: 'TM-T82', printBackground: false, margins: { marginType: 'none' }, pageSize: { width: 80_000, height: 51_000 } }],
    ])
    // Laid out at the roll's width (80 mm = 302.4 CSS px), measured by Counter's script, then destroyed.
    expect(window.options.width).toBe(303)
    expect(window.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: true, zoomFactor: 1 })
    expect(callsOf(window, 'executeJavaScript')[0][0]).toContain('getBoundingClientRect')
    expect(window.destroyed).toBe(true)
  })

  it('loads the receipt unchanged but for a policy that lets no script in it run', async () => {
    fake.scene.contentHeightPx = 300
    await electronPrinter.print(RECEIPT, { deviceName: 'TM-T82', widthMm: 80 })
    const loaded = decodeURIComponent(onlyWindow().url.replace(/^data:text\/html;charset=utf-8,/, ''))
    const policy = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`
    expect(loaded).toBe(RECEIPT.replace('<head>', `<head>${policy}`))
  })

  it('prints a 58 mm receipt on the default printer when none is chosen', async () => {
    fake.scene.contentHeightPx = 1000 // 264.58 mm + 1 mm, rounded up: 266 mm
    expect(english(await electronPrinter.print(RECEIPT, { deviceName: '', widthMm: 58 }))).toBe("the computer's default printer")
    const [[options]] = callsOf(onlyWindow(), 'print')
    expect(options).toEqual({ silent: true, deviceName: undefined, printBackground: false, margins: { marginType: 'none' }, pageSize: { width: 58_000, height: 266_000 } })
    expect(onlyWindow().options.width).toBe(220) // 58 mm = 219.2 CSS px
  })

  it.each([
    ['Invalid deviceName provided', 'Nothing was printed: the printer "TM-T82" is not among this computer\'s printers. Choose the printer again in Settings, then print again.'],
    ['No printers available on the network', "Nothing was printed: this computer has no printer set up. Add the receipt printer in the computer's printer settings, then print again."],
    ['Print job canceled', 'Nothing was printed: the printing was cancelled. Print again when the printer is ready.'],
    ['Print job failed', 'Nothing was printed: the printer did not take the page. Check that it is switched on, connected and has paper, then print again.'],
  ])('says in plain words why nothing was printed (%s) and still closes the window', async (reason, message) => {
    fake.scene.contentHeightPx = 300
    fake.scene.print = { success: false, reason }
    await expect(inEnglish(electronPrinter.print(RECEIPT, { deviceName: 'TM-T82', widthMm: 80 }))).rejects.toThrow(message)
    expect(onlyWindow().destroyed).toBe(true)
  })

  it('prints nothing when the page measures empty, and closes the window', async () => {
    fake.scene.contentHeightPx = 0
    await expect(inEnglish(electronPrinter.print(RECEIPT, { deviceName: 'TM-T82', widthMm: 80 }))).rejects.toThrow('The page to print came out empty, so nothing was printed.')
    expect(callsOf(onlyWindow(), 'print')).toEqual([])
    expect(onlyWindow().destroyed).toBe(true)
  })

  it('closes the window when the page cannot even load', async () => {
    fake.scene.loadFails = true
    await expect(electronPrinter.print(RECEIPT, { deviceName: 'TM-T82', widthMm: 80 })).rejects.toThrow()
    expect(onlyWindow().destroyed).toBe(true)
  })
})

describe('saving a PDF', () => {
  let folder: ReturnType<typeof tempDir>
  beforeEach(() => {
    folder = tempDir('system-printer-')
  })
  afterEach(() => folder.remove())

  it('gives a receipt a page as tall as its content, in inches as printToPDF takes them', async () => {
    fake.scene.contentHeightPx = 185.46875 // 51 mm, as above
    const path = join(folder.path, 'receipt.pdf')
    await electronPrinter.savePdf(RECEIPT, { widthMm: 80 }, path)
    const [[options]] = callsOf(onlyWindow(), 'printToPDF') as [[{ pageSize: { width: number; height: number } }]]
    expect(options).toEqual({ pageSize: { width: expect.any(Number), height: expect.any(Number) }, margins: { top: 0, bottom: 0, left: 0, right: 0 }, printBackground: false })
    expect(options.pageSize.width).toBeCloseTo(80 / 25.4, 9)
    expect(options.pageSize.height).toBeCloseTo(51 / 25.4, 9)
    expect(readFileSync(path, 'utf8')).toBe('%PDF-1.4 fake')
    expect(onlyWindow().destroyed).toBe(true)
  })

  it('keeps a report on A4 whatever its content measures', async () => {
    fake.scene.contentHeightPx = 5000
    await electronPrinter.savePdf(RECEIPT, { widthMm: 210, heightMm: 297 }, join(folder.path, 'report.pdf'))
    const [[options]] = callsOf(onlyWindow(), 'printToPDF') as [[{ pageSize: { width: number; height: number } }]]
    expect(options.pageSize.width).toBeCloseTo(210 / 25.4, 9)
    expect(options.pageSize.height).toBeCloseTo(297 / 25.4, 9)
    expect(onlyWindow().options.width).toBe(794)
  })
})

describe('listing the OS printers', () => {
  it('gives each printer by the name the OS knows it by', async () => {
    fake.scene.printers = [
      { name: 'EPSON_TM_T82', displayName: 'EPSON TM-T82 Receipt', description: 'Epson TM-T82', options: {} },
      { name: 'Office', displayName: 'Office laser', description: '', options: {} },
    ]
    expect(await electronPrinter.list()).toEqual([
      { name: 'EPSON_TM_T82', isDefault: false },
      { name: 'Office', isDefault: false },
    ])
    expect(onlyWindow().destroyed).toBe(true)
  })
})

describe('turning a receipt into pixels for an ESC/POS raster', () => {
  /** A BGRA capture whose every pixel says where it is: B = x, G = y, R = 200, A = 255. */
  function capture(width: number, height: number) {
    const bgra = new Uint8Array(width * height * 4)
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bgra.set([x % 256, y % 256, 200, 255], (y * width + x) * 4)
    return { width, height, bgra }
  }

  it('renders at the printer width, captures the content and returns it as RGBA cropped to the content', async () => {
    fake.scene.contentHeightPx = 100.25 // 101 rows
    fake.scene.capture = capture(576, 130)
    const image = await electronRasterizer.rasterize(RECEIPT, 576)

    const window = onlyWindow()
    expect(window.options.width).toBe(576)
    expect(window.options.webPreferences).toMatchObject({ offscreen: true, zoomFactor: 1, javascript: true, sandbox: true })
    expect(window.contentSize).toEqual([576, 101])
    expect(callsOf(window, 'capturePage')).toEqual([[{ x: 0, y: 0, width: 576, height: 101 }, { stayHidden: true }]])
    expect(image.width).toBe(576)
    expect(image.height).toBe(101)
    expect(image.data).toHaveLength(576 * 101 * 4)
    const pixel = (x: number, y: number) => [...image.data.subarray((y * 576 + x) * 4, (y * 576 + x) * 4 + 4)]
    expect(pixel(0, 0)).toEqual([200, 0, 0, 255])
    expect(pixel(7, 3)).toEqual([200, 3, 7, 255])
    expect(pixel(575, 100)).toEqual([200, 100, 575 % 256, 255])
    expect(window.destroyed).toBe(true)
  })

  it('brings a capture from a scaled screen back to the printer width', async () => {
    fake.scene.contentHeightPx = 40
    fake.scene.capture = capture(768, 80) // 2× a 384-dot (58 mm) raster
    const image = await electronRasterizer.rasterize(RECEIPT, 384)
    expect(fake.resized).toEqual([384])
    expect([image.width, image.height, image.data.length]).toEqual([384, 40, 384 * 40 * 4])
    expect([...image.data.subarray((5 * 384 + 9) * 4, (5 * 384 + 9) * 4 + 4)]).toEqual([200, 10, 18, 255])
  })

  it('refuses a capture shorter than the content, in plain words, and closes the window', async () => {
    fake.scene.contentHeightPx = 200
    fake.scene.capture = capture(576, 150)
    await expect(inEnglish(electronRasterizer.rasterize(RECEIPT, 576))).rejects.toThrow('The receipt is too long to turn into a picture for the printer, so nothing was printed.')
    expect(onlyWindow().destroyed).toBe(true)
  })
})
