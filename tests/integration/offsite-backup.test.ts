// The copy of the books off this PC (issue #30) through the whole core in real mode, on real files: a copy made while
// sales run verifies and opens as the books, and a sale made meanwhile is in the next one; a drive that fills up mid-copy
// (a small tmpfs mounted for the test) fails plainly and leaves the copy before it whole; the status bar warns once the
// last copy is older than the set days (the clock moved 8 days), or the folder is gone or on the books' own disk; each
// day close makes a copy; staff are refused; no secret and no PIN hash reach the drive. And the read-back itself: a copy
// the drive spoiled after writing it (a changed journal line, a changed saved copy) or one that stops short is refused.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterEvent } from '../../electron/contract'
import { copyLedgerOffDisk, CopyCheckError } from '../../electron/ledger/backup-copy'
import { Ledger } from '../../electron/ledger/ledger'
import { english } from '../../electron/shared/words'
import { eventually, realApiKey, realCredentials, startRealModeRig, tempDir, valueOf, type RealModeRig } from './helpers'
import { rechargeIntent, rechargeOutcome, useLedgerRig } from './ledger-rig'

const DAY_MS = 86_400_000
const PIN = '4821'
const sale = (number: string) => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount: '199' }) as const

let rig: RealModeRig | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await rig?.close()
  rig = undefined
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

/** A folder on another file system than the data folder's (in /tmp): /dev/shm is a tmpfs. */
function otherDisk(): string {
  const folder = fs.mkdtempSync('/dev/shm/counter-offsite-')
  cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }))
  return folder
}

/** The copies of this counter at the target (its one Counter-… folder), oldest first, each a folder named by its local time. */
function copiesIn(folder: string): string[] {
  const [home, ...others] = fs.readdirSync(folder).filter((name) => name.startsWith('Counter-'))
  expect(others).toEqual([])
  return fs
    .readdirSync(path.join(folder, home))
    .sort()
    .map((name) => path.join(folder, home, name))
}

/** Every file under `dir` with its sha256: what "left whole" is judged on. */
function digests(dir: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    found[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex')
  }
  return found
}

/** The copy opened on its own, as a restore would: no problem found, and these sales in it (or not). */
async function expectBooks(copy: string, holds: Record<string, boolean>): Promise<void> {
  const books = await Ledger.open({ dir: path.join(copy, 'ledger') })
  try {
    expect(books.report.problems).toEqual([])
    for (const [orderId, held] of Object.entries(holds)) expect(books.read('getSale', orderId)?.state, orderId).toBe(held ? 'SUCCESS' : undefined)
  } finally {
    await books.close()
  }
}

const backupOf = async (r: RealModeRig) => valueOf(await r.counter.call('app.status', {})).backup

describe('the copy of the books off this PC', () => {
  it('copies while sales run: the copy verifies and opens as the books, a sale made meanwhile is in the next copy; staff are refused; no secret goes', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    const folder = otherDisk()
    expect((await backupOf(rig)).warning).toMatch(/^No copy of the books is made off this PC/)
    expect(valueOf(await counter.call('backup.save', { folder, staleDays: 7 }))).toMatchObject({ folder, staleDays: 7, lastCopy: null, warning: expect.stringMatching(/^No copy of the books off this PC yet/) })
    // A PIN: settings.json now holds its hash and salt, which must not reach the drive.
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))

    const before: string[] = []
    for (let i = 0; i < 20; i++) before.push(valueOf(await counter.call('recharge.sell', sale(`98765432${String(i).padStart(2, '0')}`))).orderId)
    const progress: number[] = []
    counter.onEvent((event) => {
      const { payload } = event as CounterEvent<'books.progress'>
      if (event.name === 'books.progress' && payload.task === 'backup') progress.push(payload.done / payload.total)
    })
    // Sales go on, one after another, for as long as the copy takes (and at least one once it has begun).
    let copied = false
    const copying = counter.call('backup.run', {}).finally(() => (copied = true))
    const during: string[] = []
    while (!copied || during.length === 0) during.push(valueOf(await counter.call('recharge.sell', sale(`97000000${String(during.length % 100).padStart(2, '0')}`))).orderId)
    const first = valueOf(await copying)

    expect(copiesIn(folder)).toEqual([first.path])
    expect(progress.at(-1)).toBe(1)
    await expectBooks(first.path, Object.fromEntries(before.map((id) => [id, true])))
    expect(fs.readdirSync(first.path).sort()).toEqual(['copy.json', 'ledger', 'settings.json'])
    expect(JSON.parse(fs.readFileSync(path.join(first.path, 'copy.json'), 'utf8'))).toMatchObject({ at: first.at, entries: first.entries })
    // The settings as the shop saved them, less the PIN's hash; no secret in any file (they live in the keychain, here the environment).
    const settings = JSON.parse(fs.readFileSync(path.join(first.path, 'settings.json'), 'utf8')) as Record<string, unknown>
    expect(settings).toMatchObject({ backupFolder: folder })
    expect(settings).not.toHaveProperty('ownerPin')
    expect('ownerPin' in JSON.parse(fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8'))).toBe(true)
    const everything = Object.keys(digests(first.path)).map((file) => fs.readFileSync(path.join(first.path, file), 'latin1')).join('\n')
    for (const secret of [realCredentials.token, realCredentials.secretKey, realApiKey]) expect(everything).not.toContain(secret)

    // Staff may not change the folder nor make a copy; nothing changes.
    valueOf(await counter.call('roles.lock', {}))
    const settingsBefore = fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8')
    for (const refused of [await counter.call('backup.save', { folder: '', staleDays: 3 }), await counter.call('backup.run', {})]) {
      expect(refused).toMatchObject({ ok: false, error: { code: 'owner_only' } })
    }
    expect(fs.readFileSync(path.join(rig.dataDir, 'settings.json'), 'utf8')).toBe(settingsBefore)
    expect(copiesIn(folder)).toEqual([first.path])
    valueOf(await counter.call('roles.unlock', { pin: PIN }))

    const second = valueOf(await counter.call('backup.run', {}))
    expect(second.entries).toBeGreaterThan(first.entries)
    expect(copiesIn(folder)).toEqual([first.path, second.path])
    await expectBooks(second.path, Object.fromEntries([...before, ...during].map((id) => [id, true])))
    expect((await backupOf(rig)).lastCopy).toEqual(second)

    // The last three are kept: two more copies and the first is gone, the rest untouched.
    const kept = digests(second.path)
    const later = [valueOf(await counter.call('backup.run', {})), valueOf(await counter.call('backup.run', {}))]
    expect(copiesIn(folder)).toEqual([second.path, ...later.map((copy) => copy.path)])
    expect(digests(second.path)).toEqual(kept)
  })

  it.skipIf(process.getuid?.() !== 0)('a drive that fills up mid-copy fails plainly, leaves the copy before it whole, and the next copy goes once there is room', async () => {
    const drive = tempDir('counter-small-drive-')
    cleanups.push(drive.remove)
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', drive.path])
    cleanups.push(() => execFileSync('umount', [drive.path]))
    rig = await startRealModeRig()
    const { counter } = rig
    valueOf(await counter.call('backup.save', { folder: drive.path, staleDays: 7 }))
    const first = valueOf(await counter.call('recharge.sell', sale('9876543210'))).orderId
    const previous = valueOf(await counter.call('backup.run', {}))
    const whole = digests(previous.path)
    const size = Object.keys(whole).reduce((sum, file) => sum + fs.statSync(path.join(previous.path, file)).size, 0)

    // The drive filled by something else, up to half a copy's room short.
    const filler = path.join(drive.path, 'filler')
    const fd = fs.openSync(filler, 'w')
    try {
      const block = Buffer.alloc(64 * 1024)
      for (;;) fs.writeSync(fd, block)
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
    } finally {
      fs.closeSync(fd)
    }
    fs.truncateSync(filler, fs.statSync(filler).size - Math.floor(size / 2))
    const second = valueOf(await counter.call('recharge.sell', sale('9876543211'))).orderId

    const refused = await counter.call('backup.run', {})
    expect(refused).toMatchObject({ ok: false, error: { code: 'backup_failed', message: expect.stringMatching(/^The backup drive \(.+\) is full: the copy was not finished and has been removed\. The copies made before it are untouched/) } })
    expect(copiesIn(drive.path)).toEqual([previous.path])
    expect(digests(previous.path)).toEqual(whole)
    await expectBooks(previous.path, { [first]: true, [second]: false })
    const failed = await backupOf(rig)
    expect(failed.lastCopy).toEqual(previous)
    expect(failed.warning).toMatch(/^The last backup failed: The backup drive \(.+\) is full/)
    // The books never noticed: sales go on.
    expect(await counter.call('recharge.sell', sale('9876543212'))).toMatchObject({ ok: true, value: { state: 'SUCCESS' } })

    fs.rmSync(filler)
    const next = valueOf(await counter.call('backup.run', {}))
    expect(copiesIn(drive.path)).toEqual([previous.path, next.path])
    await expectBooks(next.path, { [first]: true, [second]: true })
    expect((await backupOf(rig)).warning).toBeNull()
  })

  it('warns once the last copy is older than the set days, or the folder is gone or on the books’ disk; a day close makes a copy', async () => {
    let shift = 0
    rig = await startRealModeRig({}, { now: () => new Date(Date.now() + shift) })
    const { counter } = rig
    const folder = otherDisk()
    valueOf(await counter.call('backup.save', { folder, staleDays: 7 }))
    valueOf(await counter.call('recharge.sell', sale('9876543210')))

    // Each day close sends that day's books off the PC, while the close answers at once.
    const { businessDay } = valueOf(await counter.call('app.status', {}))
    valueOf(await counter.call('day.close', { businessDay, openingFloat: '0', counted: { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coins: '199' } }))
    const afterClose = await eventually(async () => (await backupOf(rig!)).lastCopy, 'the copy after the day close')
    expect(copiesIn(folder)).toEqual([afterClose.path])
    expect((await backupOf(rig)).warning).toBeNull()

    shift = 6 * DAY_MS
    expect((await backupOf(rig)).warning).toBeNull()
    shift = 8 * DAY_MS
    expect((await backupOf(rig)).warning).toBe('The last copy of the books off this PC is 8 days old: plug in the backup drive and press Back up now (Settings, Backup).')
    // The same after a restart: the last verified copy is remembered in the data folder.
    await rig.restart()
    expect((await backupOf(rig)).warning).toMatch(/is 8 days old/)
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    expect((await backupOf(rig)).warning).toMatch(/^PC से बाहर खातों की आख़िरी कॉपी 8 दिन पुरानी है/)
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(valueOf(await rig.counter.call('backup.save', { folder, staleDays: 10 })).warning).toBeNull()
    expect(await rig.counter.call('backup.save', { folder, staleDays: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { staleDays: 'Type a number of days from 1 to 90' } } })

    // The drive taken out: the bar says so, and a copy is refused in the same words.
    fs.rmSync(folder, { recursive: true })
    expect((await backupOf(rig)).warning).toBe(`The backup folder ${folder} is not there: plug in the drive, or choose the folder again.`)
    expect(await rig.counter.call('backup.run', {})).toMatchObject({ ok: false, error: { code: 'backup_failed', message: `The backup folder ${folder} is not there: plug in the drive, or choose the folder again.` } })
    expect(await rig.counter.call('backup.save', { folder, staleDays: 7 })).toMatchObject({ ok: false, error: { code: 'invalid_input', fields: { folder: expect.stringContaining('is not there') } } })
    expect(await rig.counter.call('backup.save', { folder: 'backup', staleDays: 7 })).toMatchObject({ ok: false, error: { fields: { folder: expect.stringContaining('whole path') } } })

    // A folder on the books' own disk is kept, with a warning; a copy made there is no copy off this PC.
    const sameDisk = fs.mkdtempSync(path.join(path.dirname(rig.dataDir), 'counter-same-disk-'))
    cleanups.push(() => fs.rmSync(sameDisk, { recursive: true, force: true }))
    expect(valueOf(await rig.counter.call('backup.save', { folder: sameDisk, staleDays: 7 })).warning).toBe(
      'The backup folder is on the same disk as the books, and a dead disk would take both: choose a folder on another disk or a USB drive.',
    )
    const onSameDisk = valueOf(await rig.counter.call('backup.run', {}))
    expect(copiesIn(sameDisk)).toEqual([onSameDisk.path])
    expect((await backupOf(rig)).lastCopy).toEqual(afterClose)

    expect(valueOf(await rig.counter.call('backup.save', { folder: '', staleDays: 7 })).warning).toMatch(/^No copy of the books is made off this PC/)
  })
})

describe('reading a copy back', () => {
  const books = useLedgerRig('counter-offsite-check-')

  /** Copies the rig's ledger into `name`; `spoil` changes the copy as the drive would, once it is written and before it is read back. */
  function copy(name: string, through: number, spoil?: (into: string) => void): string {
    const into = path.join(books.root, name)
    let spoiled = false
    try {
      const copied = copyLedgerOffDisk(books.dir, into, through, (done, total) => {
        if (spoil && !spoiled && done >= total / 2) {
          spoiled = true
          spoil(into)
        }
      })
      return `verified: ${copied.entries} entries, saved copy at #${copied.snapshotSeq}`
    } catch (error) {
      expect(error).toBeInstanceOf(CopyCheckError)
      return english((error as Error).message)
    }
  }

  /** One byte of `file` changed, at `at` from its end. */
  const flip = (file: string, at: number) => {
    const bytes = fs.readFileSync(file)
    bytes[bytes.length - at] ^= 0x01
    fs.writeFileSync(file, bytes)
  }

  it('refuses a copy whose journal or saved copy does not read back as written, or that stops short of the books', async () => {
    const ledger = await books.open({ snapshotEvery: 1_000 })
    for (let i = 0; i < 10; i++) {
      ledger.append('recharge.intent', rechargeIntent(`S${i}`))
      ledger.append('recharge.outcome', rechargeOutcome(`S${i}`))
    }
    await ledger.snapshot()
    await books.close(ledger)
    const segment = path.basename(books.segments()[0])

    expect(copy('good', 20)).toBe('verified: 20 entries, saved copy at #20')
    expect(copy('line-changed', 20, (into) => flip(path.join(into, 'journal', segment), 200))).toMatch(/^its journal does not check: Line 20 \(000000000001\.ndjson\): /)
    expect(copy('saved-copy-changed', 20, (into) => flip(path.join(into, 'ledger.sqlite'), 100))).toBe('its saved copy of the books does not match its check')
    expect(copy('short', 21)).toBe("its journal ends at entry #20, the books' at #21")
  })
})
