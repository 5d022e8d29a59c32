// The desktop app's main process: starts the core, opens one hardened window, and carries the
// contract over IPC. Thin glue: every decision about sales lives in electron/counter/.
import { app, dialog, ipcMain, session as electronSession, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { autoUpdater } from 'electron-updater'
import { join } from 'node:path'
import { IPC_CALL, IPC_EVENT } from './contract'
import { dataDirFrom, startCounterFromEnvironment, type CounterApp } from './counter/app'
import { createCounterWindow } from './counter-window'
import { openOutside } from './external-links'
import { electronPrinter, electronRasterizer } from './printing'
import { closeCounter } from './shutdown'
import { startTrainingSimulator } from './simulator/server'
import { english } from './shared/words'
import { startUpdates } from './updates'

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The bundled Devanagari font: the screens' from the app's files, paper's inlined (counter/paper-fonts.ts).
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' about: data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/** The core, from the moment it starts: a quit while it is still starting waits for it and closes it as any other. */
let starting: Promise<CounterApp> | undefined
let mainWindow: BrowserWindow | undefined

// Electron's own files (cache, window state) go beside Counter's data.
app.setPath('userData', dataDirFrom(process.env))

// A second start shows the window already open (the ledger also refuses a second writer).
if (!app.requestSingleInstanceLock()) app.quit()
app.on('second-instance', () => {
  if (mainWindow?.isMinimized()) mainWindow.restore()
  mainWindow?.focus()
})

/** Only our own page in our own window may call the core. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  if (!mainWindow || event.sender !== mainWindow.webContents || !frame || frame !== mainWindow.webContents.mainFrame) return false
  const url = new URL(frame.url)
  return process.env.ELECTRON_RENDERER_URL ? url.origin === new URL(process.env.ELECTRON_RENDERER_URL).origin : url.protocol === 'file:'
}

function createWindow(): BrowserWindow {
  const window = createCounterWindow(join(__dirname, '../preload/index.js'))
  window.once('ready-to-show', () => window.show())
  window.webContents.setWindowOpenHandler(openOutside)
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL)
  else void window.loadFile(join(__dirname, '../renderer/index.html'))
  return window
}

function harden(): void {
  const ses = electronSession.defaultSession
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } })
  })
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  })
}

app.whenReady().then(async () => {
  harden()
  // Decision: the window opens while the core starts, so its page loads and paints meanwhile; a call it makes before
  // the core is ready waits for it (as browser mode's bridge does, web/server.ts).
  const core = startCounterFromEnvironment({
    platform: 'electron',
    resourcesDir: join(app.getAppPath(), 'resources'),
    systemPrinter: electronPrinter,
    rasterizer: electronRasterizer,
    startTraining: startTrainingSimulator,
  })
  starting = core
  ipcMain.handle(IPC_CALL, async (event, channel: unknown, input: unknown) => {
    if (!isTrustedSender(event)) return { ok: false, error: { code: 'forbidden', message: 'This window may not use Counter.' } }
    return (await core).dispatch(channel, input)
  })
  mainWindow = createWindow()
  mainWindow.on('closed', () => (mainWindow = undefined))
  let counter: CounterApp
  try {
    counter = await core
  } catch (err) {
    dialog.showErrorBox('Counter could not start', err instanceof Error ? english(err.message) : String(err))
    app.exit(1)
    return
  }
  counter.onEvent((event) => mainWindow?.webContents.send(IPC_EVENT, event))
  // The owner's update server, checked once a start; what it finds installs when Counter next quits (updates.ts).
  const settings = await counter.call('settings.get', {})
  if (settings.ok) startUpdates(autoUpdater, { url: settings.value.updateUrl, packaged: app.isPackaged, log: console.log })
})

let closing = false
app.on('before-quit', (event) => {
  // The ledger writes its snapshot on close: finish that before the process exits.
  if (closing || !starting) return
  event.preventDefault()
  closing = true
  // A core that could not start has said so and exits (above): nothing to close.
  void starting.then(closeCounter, () => []).then((problems) => {
    for (const problem of problems) console.error(problem)
    if (problems.length > 0) dialog.showErrorBox('Counter', problems.join('\n'))
    app.quit()
  })
})

app.on('window-all-closed', () => app.quit())
