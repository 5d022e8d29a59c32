// The installers and updates on paper (issue #29 part 4): electron-builder's configuration
// (resources/installer/electron-builder.json) checked by electron-builder's own validator against its schema, every
// file it names present, the Windows installer per-user and keeping the data folder, Linux's AppImage and .deb, the
// generic update server; the update feed (latest.yml, latest-linux.yml) read the way electron-updater reads it; the
// update server's address rule; and the updater glue (electron/updates.ts) with a stand-in for electron-updater.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { PNG } from 'pngjs'
import { afterAll, describe, expect, it } from 'vitest'
import type { Configuration } from 'electron-builder'
import { OWNER_ONLY_CHANNELS, SaveSettingsInputSchema, UpdateUrlSchema } from '../../electron/contract'
import { Settings } from '../../electron/counter/settings'
import { isUpdateUrl } from '../../electron/shared/update-url'
import { startUpdates, type Updater } from '../../electron/updates'
import packageJson from '../../package.json'

const ROOT = resolve(__dirname, '../..')
const CONFIG_PATH = 'resources/installer/electron-builder.json'
const readConfig = (): Configuration & Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, CONFIG_PATH), 'utf8'))
const config = readConfig()

// Decision: the validator and the feed reader are electron-builder's and electron-updater's own code, reached through
// those two packages (their dependencies app-builder-lib and the updater's providers), so this file checks what a
// release build and an installed Counter would run, not a copy of their rules. Neither loads Electron.
const here = createRequire(import.meta.url)
const fromElectronBuilder = createRequire(here.resolve('electron-builder'))
const fromElectronUpdater = createRequire(here.resolve('electron-updater'))

interface DebugLogger {
  isEnabled: boolean
  add(key: string, value: unknown): void
}
const { validateConfiguration } = fromElectronBuilder('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: DebugLogger): Promise<void>
}
const quiet: DebugLogger = { isEnabled: false, add: () => undefined }

interface FeedFile {
  url: string
  sha512: string
  size: number
}
interface UpdateInfo {
  version: string
  files: FeedFile[]
  path: string
  sha512: string
  releaseDate: string
}
interface ResolvedFile {
  url: URL
  info: FeedFile
}
const provider = fromElectronUpdater('./providers/Provider') as {
  parseUpdateInfo(rawData: string, channelFile: string, channelFileUrl: URL): UpdateInfo
  resolveFiles(updateInfo: UpdateInfo, baseUrl: URL): ResolvedFile[]
  findFile(files: ResolvedFile[], extension: string, not?: string[]): ResolvedFile | undefined
}
const updaterUrls = fromElectronUpdater('./util') as {
  newBaseUrl(url: string): URL
  newUrlFromBase(pathname: string, baseUrl: URL): URL
}

describe("electron-builder's configuration", () => {
  it('passes the validator electron-builder runs before a build, against its published schema', async () => {
    await expect(validateConfiguration(config, quiet)).resolves.toBeUndefined()
  })

  it('is refused by that validator when broken: an unknown option, a wrong type, a target that does not exist', async () => {
    // Guards the check above: a validator that took anything would pass every configuration.
    const broken: Record<string, unknown>[] = [
      { ...config, nsis: { ...config.nsis, oneclick: true } },
      { ...config, nsis: { ...config.nsis, perMachine: 'no' } },
      { ...config, publish: [{ provider: 'generic' }] },
      { ...config, appID: config.appId },
    ]
    for (const configuration of broken) await expect(validateConfiguration(configuration, quiet)).rejects.toThrow(/configuration/i)
  })

  it('names only files that exist: the icons, the build resources, the schema and what it packages', () => {
    const named = [config.win?.icon, config.linux?.icon, config.directories?.buildResources, config.$schema && join(dirname(CONFIG_PATH), String(config.$schema))]
    for (const path of named) {
      expect(path, 'a path the configuration names').toBeTruthy()
      expect(existsSync(join(ROOT, String(path))), `${path} exists`).toBe(true)
    }
    const files = config.files as string[]
    // What the app reads at run time (main.ts's resourcesDir): the operator lists, the receipt stylesheet, the font.
    expect(files).toContain('resources/**/*')
    for (const resource of ['operators.json', 'states.json', 'receipt.css', 'fonts/Lohit-Devanagari.ttf']) {
      expect(existsSync(join(ROOT, 'resources', resource)), resource).toBe(true)
    }
    // electron-vite's three bundles, one of which is package.json's main; the installer's own files stay out.
    for (const bundle of ['main', 'preload', 'renderer']) expect(files).toContain(`out/${bundle}/**/*`)
    expect(packageJson.main.startsWith('out/main/')).toBe(true)
    expect(files).toContain('!resources/installer/**/*')
    expect(files).toContain('package.json')
    // The installers are written under out/ (ignored by git), never into a new folder at the fixed top level.
    expect(config.directories?.output).toBe('out/installers')
  })

  it('has an icon electron-builder can make a Windows .ico and the Linux sizes from: a square PNG of 512 pixels', () => {
    for (const icon of new Set([config.win?.icon, config.linux?.icon])) {
      const png = PNG.sync.read(readFileSync(join(ROOT, String(icon))))
      expect([png.width, png.height]).toEqual([512, 512])
    }
  })

  it('makes a per-user Windows installer that needs no administrator and keeps the data folder', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }])
    expect(config.win?.requestedExecutionLevel ?? 'asInvoker').toBe('asInvoker')
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false, deleteAppDataOnUninstall: false })
    // One-click with perMachine false installs for this user alone; an assisted one would offer "all users" (admin).
    expect(config.nsis?.oneClick).toBe(true)
    // The data folder is %APPDATA%\Counter (counter/app.ts dataDirFrom), the folder NSIS would delete on uninstall
    // were deleteAppDataOnUninstall set: named after productName, which must stay "Counter".
    expect(config.productName).toBe('Counter')
    expect(readFileSync(join(ROOT, 'electron/counter/app.ts'), 'utf8')).toContain(`join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Counter')`)
  })

  it('makes an AppImage and a .deb for Linux, the .deb with a maintainer (dpkg refuses a package without one)', () => {
    const targets = (config.linux?.target as { target: string }[]).map((entry) => entry.target)
    expect(targets.sort()).toEqual(['AppImage', 'deb'])
    expect(config.linux?.maintainer).toMatch(/<[^@\s]+@[^>\s]+>/)
  })

  it('publishes to a generic update server and names the app in.counter.pos', () => {
    expect(config.appId).toBe('in.counter.pos')
    const publish = config.publish as { provider: string; url: string }[]
    expect(publish.map((entry) => entry.provider)).toEqual(['generic'])
    // The packaged address is a placeholder (a reserved .invalid name): the one checked is the owner's, from Settings.
    expect(new URL(publish[0].url).hostname.endsWith('.invalid')).toBe(true)
  })

  it('is built by npm run dist, with electron-builder installed for it and electron-updater packaged with the app', () => {
    expect(packageJson.scripts.dist).toBe(`electron-vite build && electron-builder --config ${CONFIG_PATH} --publish never`)
    expect(Object.keys(packageJson.devDependencies)).toContain('electron-builder')
    expect(Object.keys(packageJson.dependencies)).toContain('electron-updater')
    expect(packageJson.productName).toBe(config.productName)
  })
})

/** An artifact's name as electron-builder expands the configuration's artifactName. */
function artifactName(pattern: string | null | undefined, version: string, arch: string, ext: string): string {
  return String(pattern).replace('${version}', version).replace('${arch}', arch).replace('${ext}', ext)
}

/** Base64 SHA-512, as electron-builder writes it in the feed and electron-updater checks a download against. */
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64')

/** The feed file electron-builder writes beside a release's installers: its first file is also path and sha512. */
function feed(version: string, files: { name: string; bytes: Buffer }[], releaseDate: string): string {
  const lines = [`version: ${version}`, 'files:']
  for (const file of files) lines.push(`  - url: ${file.name}`, `    sha512: ${sha512(file.bytes)}`, `    size: ${file.bytes.length}`)
  lines.push(`path: ${files[0].name}`, `sha512: ${sha512(files[0].bytes)}`, `releaseDate: '${releaseDate}'`)
  return `${lines.join('\n')}\n`
}

describe('the update feed, read as electron-updater reads it', () => {
  const server = 'https://updates.example.in/counter'
  const version = '0.2.0'
  const releaseDate = '2026-11-28T05:00:00.000Z'
  const installer = Buffer.from('a Windows installer')
  const appImage = Buffer.from('an AppImage')
  const deb = Buffer.from('a Debian package')

  it('latest.yml: the version, the installer by its name, sha512 and size, path and releaseDate', () => {
    const name = artifactName(config.nsis?.artifactName, version, 'x64', 'exe')
    expect(name).toBe('Counter-Setup-0.2.0.exe')
    const base = updaterUrls.newBaseUrl(server)
    const channelUrl = updaterUrls.newUrlFromBase('latest.yml', base)
    expect(channelUrl.href).toBe('https://updates.example.in/counter/latest.yml')
    const info = provider.parseUpdateInfo(feed(version, [{ name, bytes: installer }], releaseDate), 'latest.yml', channelUrl)
    expect(info).toMatchObject({ version, path: name, sha512: sha512(installer), releaseDate })
    expect(info.files).toEqual([{ url: name, sha512: sha512(installer), size: installer.length }])
    const [file] = provider.resolveFiles(info, base)
    expect(file.url.href).toBe(`https://updates.example.in/counter/${name}`)
    expect(provider.findFile([file], 'exe')?.info.sha512).toBe(createHash('sha512').update(installer).digest('base64'))
  })

  it('latest-linux.yml: the AppImage and the .deb side by side, each found by its kind', () => {
    const names = {
      AppImage: artifactName(config.appImage?.artifactName, version, 'x86_64', 'AppImage'),
      deb: artifactName(config.deb?.artifactName, version, 'amd64', 'deb'),
    }
    const base = updaterUrls.newBaseUrl(`${server}/`)
    const channelUrl = updaterUrls.newUrlFromBase('latest-linux.yml', base)
    const text = feed(version, [{ name: names.AppImage, bytes: appImage }, { name: names.deb, bytes: deb }], releaseDate)
    const files = provider.resolveFiles(provider.parseUpdateInfo(text, 'latest-linux.yml', channelUrl), base)
    expect(provider.findFile(files, 'AppImage', ['rpm', 'deb', 'pacman'])?.url.href).toBe(`https://updates.example.in/counter/${names.AppImage}`)
    expect(provider.findFile(files, 'deb', ['AppImage', 'rpm', 'pacman'])?.info).toEqual({ url: names.deb, sha512: sha512(deb), size: deb.length })
  })

  it('refuses a feed without a checksum, as the updater would before downloading', () => {
    const info = provider.parseUpdateInfo(`version: ${version}\nfiles:\n  - url: x.exe\n    size: 1\npath: x.exe\nreleaseDate: '${releaseDate}'\n`, 'latest.yml', new URL(`${server}/latest.yml`))
    expect(() => provider.resolveFiles(info, updaterUrls.newBaseUrl(server))).toThrow(/checksum/)
  })
})

describe("the update server's address", () => {
  it('takes https, and plain http only to 127.0.0.1', () => {
    for (const good of ['https://updates.example.in/counter/', 'https://updates.example.in', 'https://10.0.0.5:8443/releases', 'http://127.0.0.1:8080/counter/']) {
      expect(isUpdateUrl(good), good).toBe(true)
    }
    for (const bad of [
      'http://updates.example.in/counter/',
      'http://localhost:8080/',
      'http://127.0.0.2/',
      'ftp://updates.example.in/',
      'file:///C:/updates/',
      'https://owner:secret@updates.example.in/',
      'https://updates.example.in/counter/?token=1',
      'https://updates.example.in/#latest',
      'updates.example.in/counter',
      'https://',
      '',
    ]) {
      expect(isUpdateUrl(bad), bad).toBe(false)
    }
  })

  it("is checked by Settings' save, empty allowed (no checks), saved only by the owner", () => {
    expect(SaveSettingsInputSchema.safeParse({ updateUrl: '  https://updates.example.in/counter/ ' }).data?.updateUrl).toBe('https://updates.example.in/counter/')
    expect(UpdateUrlSchema.safeParse('').success).toBe(true)
    const refused = SaveSettingsInputSchema.safeParse({ updateUrl: 'http://updates.example.in/' })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0].path).toEqual(['updateUrl'])
    expect(OWNER_ONLY_CHANNELS).toContain('settings.save')
  })

  const folders: string[] = []
  afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

  it('is kept in settings.json and shown back, none at first', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'counter-updates-'))
    folders.push(dataDir)
    const secrets = { get: async () => null, set: async () => undefined, delete: async () => undefined }
    const settings = new Settings(dataDir, {}, secrets)
    expect((await settings.view()).updateUrl).toBe('')
    await settings.save(SaveSettingsInputSchema.parse({ updateUrl: 'https://updates.example.in/counter/' }))
    expect(statSync(join(dataDir, 'settings.json')).isFile()).toBe(true)
    expect((await new Settings(dataDir, {}, secrets).view()).updateUrl).toBe('https://updates.example.in/counter/')
  })
})

/** A stand-in for electron-updater's autoUpdater, recording what the glue asks of it. */
function fakeUpdater(check: () => Promise<unknown> = async () => null) {
  const calls: string[] = []
  const listeners = new Map<string, (value: never) => void>()
  const updater: Updater = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    allowDowngrade: true,
    setFeedURL: (options) => calls.push(`feed ${options.provider} ${options.url}`),
    checkForUpdates: () => {
      calls.push('check')
      return check()
    },
    on: (event: string, listener: (value: never) => void) => listeners.set(event, listener),
  }
  return { updater, calls, listeners }
}

describe('the updater glue (electron/updates.ts)', () => {
  it('checks the owner\'s server at start, downloads in the background and installs only when Counter quits', () => {
    const { updater, calls, listeners } = fakeUpdater()
    const log: string[] = []
    expect(startUpdates(updater, { url: 'https://updates.example.in/counter/', packaged: true, log: (line) => log.push(line) })).toBe('checking')
    expect(calls).toEqual(['feed generic https://updates.example.in/counter/', 'check'])
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, allowDowngrade: false })
    // Nothing in the glue restarts Counter: quitAndInstall is not even part of what it may call.
    expect('quitAndInstall' in updater).toBe(false)
    ;(listeners.get('update-downloaded') as (event: { version: string }) => void)({ version: '0.2.0' })
    expect(log).toEqual(['Updates: Counter 0.2.0 downloaded; it installs when Counter next closes'])
  })

  it('logs an unreachable server instead of throwing, and a failed check rejects nothing', async () => {
    const { updater, listeners } = fakeUpdater(() => Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')))
    const log: string[] = []
    startUpdates(updater, { url: 'https://updates.example.in/', packaged: true, log: (line) => log.push(line) })
    ;(listeners.get('error') as (error: Error) => void)(new Error('net::ERR_NAME_NOT_RESOLVED'))
    await new Promise((settle) => setTimeout(settle, 0))
    expect(log).toEqual(['Updates: net::ERR_NAME_NOT_RESOLVED'])
  })

  it('checks nothing from the source folder, without a server, or at an address Settings would refuse', () => {
    const cases = [
      { url: 'https://updates.example.in/', packaged: false, state: 'not installed' },
      { url: '', packaged: true, state: 'no server' },
      { url: 'http://updates.example.in/', packaged: true, state: 'refused address' },
    ] as const
    for (const { url, packaged, state } of cases) {
      const { updater, calls } = fakeUpdater()
      expect(startUpdates(updater, { url, packaged, log: () => undefined })).toBe(state)
      expect(calls).toEqual([])
      expect(updater.autoInstallOnAppQuit).toBe(false)
    }
  })
})
