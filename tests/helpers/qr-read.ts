// Reading a QR code back as a phone would: from a PNG (a Chromium screenshot of the screen or of a receipt) or from
// the module path shared/upi.ts draws, with jsQR, a decoder that shares no code with the encoder.
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

/** The text of the one QR code in a PNG, or null when none can be read. */
export function readQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png)
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data ?? null
}

/** The text of a QR drawn as shared/upi.ts's path of unit squares, painted `scale` pixels a module, black on white. */
export function readQrPath({ size, path }: { size: number; path: string }, scale = 4): string | null {
  const width = size * scale
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255)
  for (const [, x, y] of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row++) {
      for (let column = Number(x) * scale; column < (Number(x) + 1) * scale; column++) pixels.fill(0, (row * width + column) * 4, (row * width + column) * 4 + 3)
    }
  }
  return jsQR(pixels, width, width)?.data ?? null
}
