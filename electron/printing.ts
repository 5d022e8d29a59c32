// Printing in the desktop app: a hidden window renders receipt or report HTML at the paper's width and
// measures it, then prints it silently on a page as tall as the content, saves it as a PDF, or captures
// its pixels for an ESC/POS raster. Electron-only; main hands these to the core.
import { BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import type { HtmlRasterizer, OsPrinter, RgbaImage, SystemPrinter } from './printers/printer-ports'
import { say, type Said } from './shared/words'
import { CONTENT_HEIGHT_SCRIPT, inInches, inMicrons, mmToPx, pageForContent, type PaperSize } from './shared/paper'

// Decision: the hidden window runs JavaScript, because the measurement is a script and
// webContents.executeJavaScript does not run in a page whose JavaScript is switched off. The page itself
// still runs none: every document gets this policy first thing in its head (scripts we inject from here
// are not bound by it), and the window stays sandboxed, isolated and without Node. Receipts carry text
// from staff and the provider; it is escaped, and this keeps a slip there from ever running.
const NO_SCRIPTS = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`

/** Resolves once the page has painted a frame after now: a capture taken then shows the page at its present size. */
const NEXT_FRAME_SCRIPT = 'new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(() => painted(true))))'

function withoutScripts(html: string): string {
  const head = /<head[^>]*>/i.exec(html)
  if (!head) throw new Error('The page to print has no head to carry its script policy.')
  const at = head.index + head[0].length
  return `${html.slice(0, at)}${NO_SCRIPTS}${html.slice(at)}`
}

/** A hidden window `widthPx` CSS px wide with the html loaded in it, destroyed when the work ends however it ends. */
async function withPage<T>(
  html: string,
  widthPx: number,
  work: (window: BrowserWindow, contentHeightPx: number) => Promise<T>,
  options: { offscreen?: boolean } = {},
): Promise<T> {
  const window = new BrowserWindow({
    show: false,
    width: widthPx,
    height: 600,
    useContentSize: true,
    // Offscreen rendering paints without being shown, and at one device pixel per CSS px: what a capture needs.
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: true, zoomFactor: 1, offscreen: options.offscreen ?? false },
  })
  try {
    await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(withoutScripts(html))}`)
    const heightPx: unknown = await window.webContents.executeJavaScript(CONTENT_HEIGHT_SCRIPT)
    if (typeof heightPx !== 'number' || !(heightPx > 0)) throw new Error(say('printer.emptyPage'))
    return await work(window, heightPx)
  } finally {
    window.destroy()
  }
}

const paperPx = (widthMm: number) => Math.ceil(mmToPx(widthMm))

/**
 * Electron's failure reasons are developer words; staff get what happened and what to do, as a said
 * reference (shared/words) the core speaks in the screen's language.
 */
function notPrinted(reason: string, deviceName: string): Said {
  if (/invalid devicename/i.test(reason)) return say('printer.notAmong', { name: deviceName })
  if (/no printers|enumerate printers/i.test(reason)) return say('printer.noPrinters')
  if (/cancel/i.test(reason)) return say('printer.cancelled')
  return say('printer.notTaken')
}

export const electronPrinter: SystemPrinter = {
  print(html, { deviceName, widthMm }) {
    return withPage(
      html,
      paperPx(widthMm),
      (window, heightPx) =>
        new Promise<string>((resolve, reject) => {
          window.webContents.print(
            {
              silent: true,
              deviceName: deviceName || undefined,
              printBackground: false,
              margins: { marginType: 'none' },
              // Without an explicit size Electron prints on A4; a roll is cut where the page ends.
              pageSize: inMicrons(pageForContent(widthMm, heightPx)),
            },
            (success, reason) => (success ? resolve(deviceName || say('printer.systemDefault')) : reject(new Error(notPrinted(reason, deviceName)))),
          )
        }),
    )
  },

  savePdf(html, { widthMm, heightMm }, path) {
    return withPage(html, paperPx(widthMm), async (window, heightPx) => {
      const page: PaperSize = heightMm === undefined ? pageForContent(widthMm, heightPx) : { widthMm, heightMm }
      const pdf = await window.webContents.printToPDF({
        pageSize: inInches(page),
        margins: { top: 0, bottom: 0, left: 0, right: 0 },
        printBackground: false,
      })
      await writeFile(path, pdf)
    })
  },

  async list(): Promise<OsPrinter[]> {
    const window = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false } })
    try {
      // Decision: Electron no longer says which printer is the OS default (PrinterInfo lost isDefault with
      // Chromium's removal of it), so none is marked; an empty printer name in Settings prints on the default.
      return (await window.webContents.getPrintersAsync()).map((printer) => ({ name: printer.name, isDefault: false }))
    } finally {
      window.destroy()
    }
  },
}

/** The capture in straight RGBA, `height` rows from the top (Electron's bitmaps are BGRA, as Skia keeps them). */
function rgbaRows(bgra: Uint8Array, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4)
  for (let at = 0; at < data.length; at += 4) {
    data[at] = bgra[at + 2]
    data[at + 1] = bgra[at + 1]
    data[at + 2] = bgra[at]
    data[at + 3] = bgra[at + 3]
  }
  return { width, height, data }
}

export const electronRasterizer: HtmlRasterizer = {
  rasterize(html, widthPx) {
    return withPage(
      html,
      widthPx,
      async (window, heightPx) => {
        const height = Math.ceil(heightPx)
        window.setContentSize(widthPx, height)
        await window.webContents.executeJavaScript(NEXT_FRAME_SCRIPT)
        let image = await window.webContents.capturePage({ x: 0, y: 0, width: widthPx, height }, { stayHidden: true })
        // A screen that scales its pixels captures more of them than CSS px: bring the width back to the printer's dots.
        if (image.getSize().width !== widthPx) image = image.resize({ width: widthPx, quality: 'best' })
        const size = image.getSize()
        if (size.height < height) throw new Error(say('printer.tooLong'))
        return rgbaRows(image.toBitmap(), widthPx, height)
      },
      { offscreen: true },
    )
  },
}
