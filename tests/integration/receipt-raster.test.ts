// Receipt pictures drawn by browser mode's headless Chromium (printers/chromium-raster.ts), which runs without its
// sandbox: a page carrying script or outside addresses draws with no script run and nothing fetched, while the
// receipt's own inline styles and inlined font still draw. A local HTTP server counts what the page asks for.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { receiptRenderer } from '../../electron/counter/receipts'
import { devanagariFontFace } from '../../electron/counter/paper-fonts'
import { chromiumRasterizer } from '../../electron/printers/chromium-raster'
import { ROLL_DOTS } from '../../electron/printers/escpos'
import type { RgbaImage } from '../../electron/printers/printer-ports'
import { sampleSale, sampleShop } from '../helpers/sample-sale'
import { resourcesDir } from './helpers'

const rasterizer = chromiumRasterizer()
const render = receiptRenderer(resourcesDir)
const WIDTH = ROLL_DOTS[80]

const fetched: string[] = []
let server: Server
let origin: string

beforeAll(async () => {
  server = createServer((req, res) => {
    fetched.push(req.url ?? '')
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  fetched.length = 0
})

/** Rows solid black from edge to edge: what the pages' scripts would paint over the whole window, and no receipt line ever is. */
function solidRows(image: RgbaImage): number {
  let rows = 0
  for (let y = 0; y < image.height; y++) {
    const row = image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4)
    if (row.every((value, at) => at % 4 === 3 || value < 0x40)) rows++
  }
  return rows
}

/** Pixels that are not paper: the receipt was drawn. */
const inked = (image: RgbaImage) => image.data.filter((value, at) => at % 4 !== 3 && value < 0x80).length

/** Paints the whole window black: in the picture only if a script ran. */
const PAINT = `document.body.insertAdjacentHTML('beforeend', '<div style=position:fixed;inset:0;background:#000></div>')`

describe('a receipt picture is drawn inert', () => {
  it('draws a receipt whose shop name, address and lines carry script and addresses as text, fetching nothing', async () => {
    const shop = sampleShop({
      receiptWidthMm: 80,
      shopName: `Sharma <script>${PAINT}; fetch('${origin}/name')</script>`,
      shopAddress: `MG Road <img src=x onerror="${PAINT}">`,
    })
    const sale = sampleSale({ state: 'FAILED', message: `Operator down <img src="${origin}/message">`, customerName: `Asha <img src="${origin}/customer">` })
    const image = await rasterizer.rasterize(render.recharge(sale, shop), WIDTH)
    expect(fetched).toEqual([])
    expect(solidRows(image)).toBe(0)
    expect(inked(image)).toBeGreaterThan(1_000)
  })

  it('runs no script and fetches nothing even from markup that escaping missed', async () => {
    const hostile = [
      `<script>${PAINT}; fetch('${origin}/script')</script>`,
      `<img src=x onerror="${PAINT}">`,
      `<img src="${origin}/img">`,
      `<link rel="stylesheet" href="${origin}/stylesheet">`,
      `<div style="height:8px;background:url(${origin}/background)"></div>`,
      `<style>@font-face { font-family: Outside; src: url(${origin}/font) } .footer { font-family: Outside }</style>`,
      `<iframe src="${origin}/frame"></iframe>`,
      `<object data="${origin}/object"></object>`,
    ].join('\n')
    const html = render.recharge(sampleSale(), sampleShop({ receiptWidthMm: 80 })).replace('</body>', `${hostile}\n</body>`)
    const image = await rasterizer.rasterize(html, WIDTH)
    expect(fetched).toEqual([])
    expect(solidRows(image)).toBe(0)
    expect(inked(image)).toBeGreaterThan(1_000)
  })

  it('still draws the font inlined in the page (the policy lets data: fonts in)', async () => {
    // The bundled font under a family of its own, for every character: its Latin letters differ from the fallback's.
    const inlined = devanagariFontFace(resourcesDir).replace(/font-family: "[^"]+"/, 'font-family: "Inlined"').replace(/unicode-range:[^;]+;/, '')
    const page = (family: string) =>
      `<!doctype html><html><head><style>${inlined} body { margin: 0; font: 40px ${family} }</style></head><body>Counter 1234 WMW</body></html>`
    const [withFont, fallback] = await Promise.all([rasterizer.rasterize(page('"Inlined", serif'), WIDTH), rasterizer.rasterize(page('serif'), WIDTH)])
    expect(inked(withFont)).toBeGreaterThan(500)
    expect(Buffer.from(withFont.data).equals(Buffer.from(fallback.data))).toBe(false)
  })
})
