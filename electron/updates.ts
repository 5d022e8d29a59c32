// Updates for the desktop app: electron-updater reads the generic server the owner set in Settings (a folder holding
// latest.yml / latest-linux.yml beside the installers), downloads a newer release in the background at start, and
// installs it once Counter has quit: main's before-quit closes the ledger first, so an update never lands during a
// sale. main.ts hands in electron-updater's autoUpdater; a test hands in a fake (this file never loads Electron).
import { isUpdateUrl } from './shared/update-url'

/** What of electron-updater's AppUpdater this file uses. */
export interface Updater {
  autoDownload: boolean
  autoInstallOnAppQuit: boolean
  allowDowngrade: boolean
  setFeedURL(options: { provider: 'generic'; url: string }): void
  checkForUpdates(): Promise<unknown>
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'update-downloaded', listener: (event: { version: string }) => void): unknown
}

export interface UpdateOptions {
  /** settings.json's updateUrl; empty checks for none. */
  url: string
  /** Only an installed Counter updates itself: `npm start` runs from the source folder (app.isPackaged). */
  packaged: boolean
  log: (line: string) => void
}

/** What startUpdates did: the test's handle on it, and the log's. */
export type UpdateStart = 'not installed' | 'no server' | 'refused address' | 'checking'

export function startUpdates(updater: Updater, { url, packaged, log }: UpdateOptions): UpdateStart {
  if (!packaged) return 'not installed'
  if (url === '') return 'no server'
  // Settings refuses such an address; this one came from a settings.json edited by hand.
  if (!isUpdateUrl(url)) {
    log(`Updates: not checked: ${url} is not an https:// address (http:// only for 127.0.0.1)`)
    return 'refused address'
  }
  updater.autoDownload = true
  // Decision: installed only when Counter quits, never by quitAndInstall: quitting is the shop's choice, made between sales.
  updater.autoInstallOnAppQuit = true
  updater.allowDowngrade = false
  // An 'error' event with no listener would throw in the main process: an unreachable server is only a line in the log.
  updater.on('error', (error) => log(`Updates: ${error.message}`))
  updater.on('update-downloaded', (event) => log(`Updates: Counter ${event.version} downloaded; it installs when Counter next closes`))
  updater.setFeedURL({ provider: 'generic', url })
  // The 'error' listener above logs a failed check; the rejection carries the same error.
  updater.checkForUpdates().catch(() => undefined)
  return 'checking'
}
