// What printing needs from whoever starts Counter: the OS's printers through a window system (the
// desktop app's hidden window) and a way to turn receipt HTML into pixels for an ESC/POS raster.
// The core holds these; main (Electron) and browser mode (a headless Chromium) provide them.

/** Straight RGBA bytes, 4 a pixel, row by row: what Electron's capture and a decoded PNG both give. */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8Array
}

export interface OsPrinter {
  name: string
  isDefault: boolean
}

/** The OS's printers, reached through their drivers. Only the desktop app has them. */
export interface SystemPrinter {
  /** Prints without a dialog on a page as tall as the content; resolves to the printer's name. */
  print(html: string, options: { deviceName: string; widthMm: 58 | 80 }): Promise<string>
  /** Saves a PDF; a page with no height is as tall as its content (receipts), A4 gives both (reports). */
  savePdf(html: string, page: { widthMm: number; heightMm?: number }, path: string): Promise<void>
  list(): Promise<OsPrinter[]>
}

/** Renders receipt HTML at a width in printer dots and returns its pixels, cropped to the content. */
export interface HtmlRasterizer {
  rasterize(html: string, widthPx: number): Promise<RgbaImage>
}
