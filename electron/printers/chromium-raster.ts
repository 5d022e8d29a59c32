// An HtmlRasterizer that draws receipt HTML with a headless Chromium (browser mode, which has no
// Electron window, and the tests): one screenshot at the head's width in dots, decoded from PNG to
// RGBA and cropped below the last line drawn. The page is drawn inert: JavaScript off and a policy that
// lets it load nothing, since this Chromium runs without its sandbox (as root, in headless rigs).
import { spawn } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { PNG } from 'pngjs'
import { say } from '../shared/words'
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
  // Driven over the DevTools protocol, not with --screenshot: that one reads the page with JavaScript and writes
  // nothing once JavaScript is off (Chromium 156), while DevTools turns scripts off for the page alone.
  '--remote-debugging-pipe',
]

/**
 * What a page drawn here may load: its inline styles and the Devanagari font inlined as a data: URL
 * (counter/paper-fonts.ts), nothing else: no image, stylesheet, frame or font from any address.
 */
const PICTURE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; font-src data:"

/**
 * The page with PICTURE_POLICY as its first element, so it governs every load after it. Decision: right
 * after the doctype, not looked for inside `<head>`: a meta before `<html>` opens the head itself (the
 * page's own `<html>` attributes still apply, its `<head>` tag is then ignored), so any page gets it first.
 */
function withPicturePolicy(html: string): string {
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? ''
  return `${doctype}<meta http-equiv="Content-Security-Policy" content="${PICTURE_POLICY}">${html.slice(doctype.length)}`
}

/**
 * The first window height tried, and the most. A screenshot shows only the window, so a page drawn
 * down to near the window's bottom is shot again in a window twice as tall: 2000 px holds any sale's receipt
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

const failed = (path: string, detail: string) => new Error(say('raster.browserFailed', { path, detail }))

interface Waiter {
  resolve(result: Record<string, unknown>): void
  reject(error: Error): void
}

/**
 * A Chromium started for one picture, spoken to over its DevTools pipe: commands in on fd 3, answers and
 * events out on fd 4, each one JSON message ended by NUL. If the browser exits, cannot start or runs past
 * RUN_TIMEOUT_MS, whatever is awaited fails with its last words.
 */
function startBrowser(path: string, profileDir: string) {
  const child = spawn(path, [...FLAGS, `--user-data-dir=${profileDir}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] })
  const toBrowser = child.stdio[3] as Writable
  const fromBrowser = child.stdio[4] as Readable
  let lastWords = ''
  child.stderr!.on('data', (chunk: Buffer) => (lastWords = (lastWords + chunk.toString()).slice(-2_000)))
  // Keyed by command id, or by event name while one is awaited.
  const waiting = new Map<number | string, Waiter>()
  let failure: Error | null = null
  let closing = false
  const fail = (detail: string) => {
    failure ??= failed(path, lastWords.trim().split('\n').at(-1) || detail)
    for (const waiter of waiting.values()) waiter.reject(failure)
    waiting.clear()
    child.kill()
  }
  // Its exit, not the close of its pipes: a process it started may hold them open after it has gone.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.once('error', (error) => fail(error.message))
  child.once('exit', (code, signal) => closing || fail(say('raster.stopped', { how: String(signal ?? code) })))
  // A write to a browser that has just died fails here; its exit says why.
  toBrowser.on('error', () => undefined)
  const timer = setTimeout(() => fail(say('raster.noPicture', { seconds: RUN_TIMEOUT_MS / 1000 })), RUN_TIMEOUT_MS)

  let received = ''
  fromBrowser.setEncoding('utf8')
  fromBrowser.on('data', (chunk: string) => {
    received += chunk
    // A screenshot comes in many chunks: look for the end of a message only in one that may hold it.
    if (!chunk.includes('\0')) return
    for (let end = received.indexOf('\0'); end >= 0; end = received.indexOf('\0')) {
      const text = received.slice(0, end)
      received = received.slice(end + 1)
      let message: { id?: number; method?: string; result?: Record<string, unknown>; error?: { message: string } }
      try {
        message = JSON.parse(text)
      } catch {
        return fail(say('raster.notDevTools'))
      }
      const key = message.id ?? message.method ?? ''
      const waiter = waiting.get(key)
      waiting.delete(key)
      if (message.error) waiter?.reject(failed(path, message.error.message))
      else waiter?.resolve(message.result ?? {})
    }
  })

  let lastId = 0
  const awaiting = (key: number | string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => (failure ? reject(failure) : waiting.set(key, { resolve, reject })))
  return {
    send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
      const id = ++lastId
      const answer = awaiting(id)
      if (!failure) toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`)
      return answer
    },
    /** The next `method` event; ask before the command that causes it. */
    next: (method: string) => awaiting(method),
    /** Closes the browser and waits until it has gone (or the run's time is up), so its profile can be removed. */
    async close(): Promise<void> {
      closing = true
      // Nobody awaits these any more (a navigation that failed leaves its load event unawaited).
      waiting.clear()
      // A browser that never started has nothing to wait for.
      if (child.pid !== undefined) {
        if (!failure) toBrowser.write(`${JSON.stringify({ id: ++lastId, method: 'Browser.close' })}\0`)
        await exited
      }
      clearTimeout(timer)
    },
  }
}

export function chromiumRasterizer(chromiumPath: string | null = findChromium()): HtmlRasterizer {
  return {
    async rasterize(html: string, widthPx: number): Promise<RgbaImage> {
      if (!chromiumPath) {
        throw new Error(say('raster.noBrowser'))
      }
      const dir = mkdtempSync(join(tmpdir(), 'counter-raster-'))
      const browser = startBrowser(chromiumPath, join(dir, 'profile'))
      try {
        const page = join(dir, 'receipt.html')
        writeFileSync(page, withPicturePolicy(html))
        const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' })
        const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string }
        const tab = (method: string, params?: object) => browser.send(method, params, sessionId)
        // A picture needs no script: whatever a name or line smuggled past escaping cannot run.
        await tab('Emulation.setScriptExecutionDisabled', { value: true })
        await tab('Page.enable')
        const size = (height: number) => tab('Emulation.setDeviceMetricsOverride', { width: widthPx, height, deviceScaleFactor: 1, mobile: false })
        await size(FIRST_HEIGHT_PX)
        const loaded = browser.next('Page.loadEventFired')
        const { errorText } = await tab('Page.navigate', { url: pathToFileURL(page).href })
        if (errorText) throw failed(chromiumPath, String(errorText))
        await loaded
        for (let height = FIRST_HEIGHT_PX; ; height *= 2) {
          if (height > FIRST_HEIGHT_PX) await size(height)
          const { data } = await tab('Page.captureScreenshot', { format: 'png' })
          const png = PNG.sync.read(Buffer.from(String(data), 'base64'))
          if (png.width !== widthPx) throw new Error(say('raster.wrongWidth', { drawn: png.width, wanted: widthPx }))
          const image = cropBelowContent({ width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) })
          if (image.height <= png.height * (1 - ENDED_BLANK_FRACTION) || height >= MOST_HEIGHT_PX) return image
        }
      } finally {
        await browser.close()
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
