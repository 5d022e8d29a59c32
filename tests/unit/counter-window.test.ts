// The desktop window's shell (electron/counter-window.ts) at the Electron boundary: a fake app says whether the build
// is packaged, a fake Menu records the application menu set, a fake BrowserWindow the options the window is made with.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const shell = vi.hoisted(() => ({
  packaged: false,
  menus: [] as unknown[],
  windows: [] as { webPreferences: Record<string, unknown> }[],
}))
vi.mock('electron', () => ({
  app: {
    get isPackaged() {
      return shell.packaged
    },
  },
  Menu: {
    setApplicationMenu: (menu: unknown) => void shell.menus.push(menu),
    buildFromTemplate: (template: unknown) => ({ template }),
  },
  BrowserWindow: class {
    constructor(options: { webPreferences: Record<string, unknown> }) {
      shell.windows.push(options)
    }
  },
}))

const { createCounterWindow } = await import('../../electron/counter-window')

const hardened = { preload: '/app/out/preload/index.js', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true }

beforeEach(() => {
  shell.menus.length = 0
  shell.windows.length = 0
})

describe('the desktop window and its menu', () => {
  it.each(['win32', 'linux'] as const)('a packaged build on %s has no application menu and no devTools, and stays sandboxed', (platform) => {
    shell.packaged = true
    createCounterWindow(hardened.preload, platform)
    expect(shell.menus).toEqual([null])
    expect(shell.windows).toHaveLength(1)
    expect(shell.windows[0].webPreferences).toMatchObject({ ...hardened, devTools: false })
  })

  it('a packaged build on macOS keeps only the app and Edit menus (Quit, copy and paste), and no devTools', () => {
    shell.packaged = true
    createCounterWindow(hardened.preload, 'darwin')
    expect(shell.menus).toEqual([{ template: [{ role: 'appMenu' }, { role: 'editMenu' }] }])
    expect(shell.windows[0].webPreferences).toMatchObject({ ...hardened, devTools: false })
  })

  it('a development run keeps Electron’s default menu and devTools, still sandboxed', () => {
    shell.packaged = false
    createCounterWindow(hardened.preload, 'linux')
    expect(shell.menus).toEqual([])
    expect(shell.windows[0].webPreferences).toMatchObject({ ...hardened, devTools: true })
  })
})
