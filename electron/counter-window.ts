// The desktop app's one window and the shell around it: hardened page preferences, and in a packaged build
// no devTools and none of Electron's default menu (its View menu reloads the page and opens devTools).
import { app, BrowserWindow, Menu, type MenuItemConstructorOptions } from 'electron'

/**
 * Decision: macOS binds copy, paste and Quit to the application menu, so a packaged build there keeps the app
 * and Edit menus' roles and nothing else; on Windows and Linux it has no menu, and text fields keep their keys.
 */
const MAC_MENU: MenuItemConstructorOptions[] = [{ role: 'appMenu' }, { role: 'editMenu' }]

/** Sets the menu this build may have and makes the counter's window (hidden; the caller loads and shows it). */
export function createCounterWindow(preload: string, platform: NodeJS.Platform = process.platform): BrowserWindow {
  // A development run keeps Electron's default menu and devTools: they are how the page is debugged.
  if (app.isPackaged) Menu.setApplicationMenu(platform === 'darwin' ? Menu.buildFromTemplate(MAC_MENU) : null)
  return new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    title: 'Counter',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  })
}
