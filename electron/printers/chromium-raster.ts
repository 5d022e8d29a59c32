// An HtmlRasterizer that draws receipt HTML with a headless Chromium (browser mode, which has no
// Electron window, and the tests): one screenshot at the head's width in dots, decoded from PNG to
// RGBA and cropped below the last line drawn.
import { execFile } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PNG } from 'pngjs'
import type { HtmlRasterizer, RgbaImage } from './printer-ports'

/** Names a Chromium goes by on PATH (Linux, macOS with a package manager). */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']

function installedPaths(env: NodeJS.ProcessEnv): string[] {
  const programFiles = [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter((dir): dir is string => Boolean(dir))
  return [
    ...programFiles.flatMap((dir) => [join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(dir, 'Microsoft', 'Edge', 'Application', 'msedge.exe')]),
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    '/snap/bin/chromium',
  ]
}

const runnable = (path: string) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** COUNTER_CHROMIUM if set, else the first Chromium, Chrome or Edge found on PATH or where installers put them; null if none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.COUNTER_CHROMIUM) return env.COUNTER_CHROMIUM
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => NAMES.map((name) => join(dir, name)))
  return [...onPath, ...installedPaths(env)].find(runnable) ?? null
}

/** Headless, as root, and no traffic but to the page given (the e2e tests start Chromium with these too). */
export const HEADLESS_CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const FLAGS = [
  ...HEADLESS_CHROMIUM_FLAGS,
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
]

/**
 * The first window height tried, and the most. A screenshot shows only the window, so a page drawn
 * down to near the window's bottom is drawn again twice as tall: 2000 px holds any sale's receipt
 * (about 900 px on 80 mm); a long Z report takes another pass or two. Decision: "near" is the last
 * quarter of the window, blank rows there say the page has ended; a receipt or report has no gap that
 * tall between its lines (a gap at the window's edge between two lines must not end it).
 */
const FIRST_HEIGHT_PX = 2000
const MOST_HEIGHT_PX = 32000
const ENDED_BLANK_FRACTION = 1 / 4
const RUN_TIMEOUT_MS = 30_000

/** Decision: a pixel lighter than 0xF0 in every channel is paper; the printer's threshold (128) would print none of them. */
const isPaper = (data: Uint8Array, at: number) => data[at] >= 0xf0 && data[at + 1] >= 0xf0 && data[at + 2] >= 0xf0

/** The image down to its last row with anything drawn (at least one row). */
export function cropBelowContent(image: RgbaImage): RgbaImage {
  const rowBytes = image.width * 4
  let rows = image.height
  const blank = (row: number) => {
    for (let at = row * rowBytes; at < (row + 1) * rowBytes; at += 4) if (!isPaper(image.data, at)) return false
    return true
  }
  while (rows > 1 && blank(rows - 1)) rows--
  return { width: image.width, height: rows, data: image.data.subarray(0, rows * rowBytes) }
}

function run(path: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(path, args, { timeout: RUN_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve()
      const detail = (stderr.trim().split('\n').at(-1) ?? '') || error.message
      reject(new Error(`The receipt could not be drawn for the printer: the browser at ${path} failed (${detail}).`))
    })
  })
}

export function chromiumRasterizer(chromiumPath: string | null = findChromium()): HtmlRasterizer {
  return {
    async rasterize(html: string, widthPx: number): Promise<RgbaImage> {
      if (!chromiumPath) {
        throw new Error(
          'The receipt could not be drawn for the printer: no Chromium, Google Chrome or Microsoft Edge was found. Install one, or set COUNTER_CHROMIUM to its program file.',
        )
      }
      const dir = mkdtempSync(join(tmpdir(), 'counter-raster-'))
      try {
        const page = join(dir, 'receipt.html')
        const shot = join(dir, 'receipt.png')
        writeFileSync(page, html)
        for (let height = FIRST_HEIGHT_PX; ; height *= 2) {
          const size = `--window-size=${widthPx},${height}`
          await run(chromiumPath, [...FLAGS, `--user-data-dir=${join(dir, 'profile')}`, size, `--screenshot=${shot}`, pathToFileURL(page).href])
          const png = PNG.sync.read(readFileSync(shot))
          if (png.width !== widthPx) throw new Error(`The receipt could not be drawn for the printer: the browser drew it ${png.width} dots wide, not ${widthPx}.`)
          const image = cropBelowContent({ width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) })
          if (image.height <= png.height * (1 - ENDED_BLANK_FRACTION) || height >= MOST_HEIGHT_PX) return image
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
