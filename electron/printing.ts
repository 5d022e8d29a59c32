// Printing in the desktop app: a hidden window renders receipt or report HTML, then prints it
// silently to the configured printer or writes a PDF. Electron-only; main hands it to the core.
import { BrowserWindow } from 'electron'
import { writeFile } from 'node:fs/promises'
import type { ReceiptPrinter } from './counter/sales'

const MICRONS_PER_MM = 1000
const MM_PER_INCH = 25.4
// Thermal rolls are continuous; a tall page keeps a receipt on one page and the printer cuts it.
const RECEIPT_HEIGHT_MM = 297

async function withReceiptWindow<T>(html: string, work: (window: BrowserWindow) => Promise<T>): Promise<T> {
  const window = new BrowserWindow({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
  })
  try {
    await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`)
    return await work(window)
  } finally {
    window.destroy()
  }
}

export const electronPrinter: ReceiptPrinter = {
  print(html, { deviceName, widthMm }) {
    return withReceiptWindow(
      html,
      (window) =>
        new Promise<string>((resolve, reject) => {
          window.webContents.print(
            {
              silent: true,
              deviceName: deviceName || undefined,
              printBackground: false,
              margins: { marginType: 'none' },
              // Without an explicit size Electron prints on A4.
              pageSize: { width: widthMm * MICRONS_PER_MM, height: RECEIPT_HEIGHT_MM * MICRONS_PER_MM },
            },
            (success, reason) =>
              success ? resolve(deviceName || 'the default printer') : reject(new Error(`The receipt was not printed: ${reason}`)),
          )
        }),
    )
  },
  savePdf(html, { widthMm, heightMm = RECEIPT_HEIGHT_MM }, path) {
    return withReceiptWindow(html, async (window) => {
      const pdf = await window.webContents.printToPDF({
        pageSize: { width: widthMm / MM_PER_INCH, height: heightMm / MM_PER_INCH },
        margins: { top: 0, bottom: 0, left: 0, right: 0 },
        printBackground: false,
      })
      await writeFile(path, pdf)
    })
  },
}
