// The test printer's decoder read against ESC/POS bytes written out by hand from the command
// reference, so what it reports is checked apart from the encoder whose output it decodes.
import { describe, expect, it } from 'vitest'
import { blackDots, decodeEscPos } from '../helpers/escpos-printer'

const ESC = 0x1b
const GS = 0x1d
const ascii = (text: string) => [...Buffer.from(text, 'latin1')]
const bytes = (...parts: (number | number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? ascii(part) : typeof part === 'number' ? [part] : part)))

describe('decodeEscPos', () => {
  it('reads text lines, bold and large runs, and drops carriage returns and trailing spaces', () => {
    const decoded = decodeEscPos(
      bytes(ESC, 0x40, GS, 0x21, 0x11, '  SHOP', GS, 0x21, 0x00, '  \n\r', 'Order id   ', ESC, 0x45, 1, 'ORD-1', ESC, 0x45, 0, '\n', ESC, 0x21, 0x08, 'Amount', ESC, 0x21, 0, ' Rs.199.00\n'),
    )
    expect(decoded.lines).toEqual(['  SHOP', 'Order id   ORD-1', 'Amount Rs.199.00'])
    expect(decoded.bold).toEqual(['ORD-1', 'Amount'])
    expect(decoded.large).toEqual(['SHOP'])
  })

  it('splits a bold run at the end of a line and reads PC437 bytes above 0x7f', () => {
    const decoded = decodeEscPos(bytes(ESC, 0x47, 1, 'one\ntwo ', 0x82, ESC, 0x47, 0, '\n'))
    expect(decoded.bold).toEqual(['one', 'two é'])
    expect(decoded.lines).toEqual(['one', 'two é'])
  })

  it('feeds blank lines for ESC d and counts cuts of both forms and drawer kicks', () => {
    const decoded = decodeEscPos(bytes('last', ESC, 0x64, 3, ESC, 0x70, 0, 25, 250, GS, 0x56, 0x41, 0x10, GS, 0x56, 0x00))
    expect(decoded.lines).toEqual(['last', '', ''])
    expect(decoded.cuts).toBe(2)
    expect(decoded.drawerKicks).toBe(1)
  })

  it('reports a QR code only when printed, with the data stored before it', () => {
    const store = (data: string) => [GS, 0x28, 0x6b, data.length + 3, 0, 0x31, 0x50, 0x30, ...ascii(data)]
    const print = [GS, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30]
    const size = [GS, 0x28, 0x6b, 3, 0, 0x31, 0x43, 6]
    expect(decodeEscPos(bytes(size, store('NOT-PRINTED'))).qr).toEqual([])
    expect(decodeEscPos(bytes(size, store('ORD-7'), print)).qr).toEqual(['ORD-7'])
  })

  it('joins raster bands of one width printed back to back into one image and counts its ink', () => {
    // 16 dots wide (2 bytes), a band of 2 rows then a band of 1 row; only the first row is inked, 9 dots.
    const band1 = [GS, 0x76, 0x30, 0, 2, 0, 2, 0, 0xff, 0x80, 0, 0]
    const band2 = [GS, 0x76, 0x30, 0, 2, 0, 1, 0, 0, 0]
    const decoded = decodeEscPos(bytes(band1, band2, '\n', band2))
    expect(decoded.images.map(({ width, height }) => ({ width, height }))).toEqual([
      { width: 16, height: 3 },
      { width: 16, height: 1 },
    ])
    expect(blackDots(decoded.images[0], 0, 1)).toBe(9)
    expect(blackDots(decoded.images[0], 1, 3)).toBe(0)
  })

  it('lists status queries apart from what is printed', () => {
    const decoded = decodeEscPos(bytes(0x10, 0x04, 1, 0x10, 0x04, 4))
    expect(decoded.statusQueries).toEqual([1, 4])
    expect(decoded.lines).toEqual([])
  })

  it('refuses bytes it does not understand and streams cut short', () => {
    expect(() => decodeEscPos(bytes(ESC, 0x2a, 0, 1, 0, 0xff))).toThrow(/Unknown ESC\/POS command ESC 0x2a at byte 0/)
    expect(() => decodeEscPos(bytes(GS, 0x76, 0x30, 0, 2, 0, 5, 0, 1, 2))).toThrow(/ends inside raster data/)
    expect(() => decodeEscPos(bytes(ESC, 0x74, 16, 'x'))).toThrow(/only code page 0/)
  })
})
