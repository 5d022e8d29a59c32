// Restoring the books inside Counter (issue #30) through the whole core in real mode, on real files: from a daily
// backup and from a copy off this PC, the sales made after the copy are listed with their outcome and kept in the books
// moved aside, the restored books are what the counter opens (now and after a restart) and it goes on selling; a copy
// spoiled on its drive is refused and changes nothing, and so does a restore the data folder's disk has no room for; a restore cut off between its two renames (a power cut) comes
// back to the books as they were at the next start.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterApp } from '../../electron/counter/app'
import { startRealModeRig, tempDir, valueOf, type RealModeRig } from './helpers'

const DAY_MS = 86_400_000
const sale = (number: string, amount = '199') => ({ kind: 'mobile', number, operatorCode: 'AT', circle: 'DL', amount }) as const

let rig: RealModeRig | undefined
/** Undone after each test, last first: folders made and disks mounted for it. */
const undo: (() => void)[] = []
afterEach(async () => {
  await rig?.close()
  rig = undefined
  for (const step of undo.splice(0).reverse()) step()
})

/** The backup drive: a folder on another file system than the data folder's /tmp. */
function otherDisk(): string {
  const drive = tempDir('counter-restore-drive-', '/dev/shm')
  undo.push(drive.remove)
  return drive.path
}

async function sell(counter: CounterApp, number: string, amount?: string): Promise<string> {
  const sold = valueOf(await counter.call('recharge.sell', sale(number, amount)))
  expect(sold.state).toBe('SUCCESS')
  return sold.orderId
}

/** The sale's state in the books the counter has open; undefined when they do not hold it. */
const stateIn = async (counter: CounterApp, orderId: string) => (await counter.session().ledger.read('getSale', orderId))?.state

/** The journal's files in a ledger folder, name → content: what "changed nothing" is judged on. */
function journalOf(ledger: string): Record<string, string> {
  const dir = path.join(ledger, 'journal')
  return Object.fromEntries(fs.readdirSync(dir).sort().map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]))
}

const asideFolders = (dataDir: string) => fs.readdirSync(dataDir).filter((name) => name.startsWith('ledger.before-restore-'))

describe('restoring the books inside Counter', () => {
  it('from a daily backup: shows what it holds, lists the later sales, moves the books aside, opens the copy, sells on, and the restart keeps it', async () => {
    let shift = 0
    rig = await startRealModeRig({}, { now: () => new Date(Date.now() + shift) })
    const first = await sell(rig.counter, '9876500001')
    const second = await sell(rig.counter, '9876500002', '249')
    // The next morning: the start makes the day's backup, holding yesterday's two sales.
    shift = DAY_MS
    await rig.restart()
    const { counter } = rig
    // Made once the counter answers: the sales after it are the morning's, not the backup's.
    await counter.housekeeping()
    const today = valueOf(await counter.call('app.status', {})).businessDay
    const third = await sell(counter, '9876500003', '149')
    const fourth = await sell(counter, '9876500004', '99')

    const { sources, lastRestore } = valueOf(await counter.call('backup.sources', {}))
    expect(lastRestore).toBeNull()
    const daily = sources.find((source) => source.id === `daily:${today}`)
    expect(daily).toMatchObject({ kind: 'daily', where: path.join(rig.dataDir, 'backups', today) })

    const look = valueOf(await counter.call('backup.look', { source: daily!.id }))
    expect(look).toMatchObject({ problem: null, office: false, lastSale: { kind: 'recharge', id: second, whom: '9876500002', amountPaise: 24_900, outcome: 'SUCCESS' } })
    expect(look.laterSales.map(({ id, whom, amountPaise, outcome }) => ({ id, whom, amountPaise, outcome }))).toEqual([
      { id: third, whom: '9876500003', amountPaise: 14_900, outcome: 'SUCCESS' },
      { id: fourth, whom: '9876500004', amountPaise: 9_900, outcome: 'SUCCESS' },
    ])
    const before = journalOf(path.join(rig.dataDir, 'ledger'))

    // Not confirmed: refused in words, nothing moved.
    expect(await counter.dispatch('backup.restore', { source: daily!.id })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(asideFolders(rig.dataDir)).toEqual([])

    const done = valueOf(await counter.call('backup.restore', { source: daily!.id, confirmed: true }))
    expect(done).toMatchObject({ entries: look.entries, source: { id: daily!.id }, laterSales: look.laterSales })
    expect(asideFolders(rig.dataDir)).toEqual([path.basename(done.movedAside)])
    // The books replaced are kept whole: every line they had, the later sales with them.
    const aside = journalOf(done.movedAside)
    for (const [name, text] of Object.entries(before)) expect(aside[name]?.startsWith(text), name).toBe(true)
    expect(Object.values(aside).join('')).toContain(fourth)

    // The counter has the copy's books open: the first two sales, not the later two; it sells on.
    expect(await stateIn(counter, first)).toBe('SUCCESS')
    expect(await stateIn(counter, second)).toBe('SUCCESS')
    expect(await stateIn(counter, third)).toBeUndefined()
    expect(await stateIn(counter, fourth)).toBeUndefined()
    const fifth = await sell(counter, '9876500005')
    expect(valueOf(await counter.call('backup.sources', {})).lastRestore).toMatchObject({ movedAside: done.movedAside, laterSales: look.laterSales })

    // A restart opens the restored books, with the sale made after the restore.
    await rig.restart()
    expect(await stateIn(rig.counter, fifth)).toBe('SUCCESS')
    expect(await stateIn(rig.counter, third)).toBeUndefined()
    expect(valueOf(await rig.counter.call('backup.sources', {})).lastRestore?.laterSales.map((later) => later.id)).toEqual([third, fourth])
  })

  it('from a copy off this PC: the sale after the copy is listed; a copy spoiled on its drive is refused and changes nothing', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    const folder = otherDisk()
    valueOf(await counter.call('backup.save', { folder, staleDays: 7 }))
    const kept = await sell(counter, '9876500011')
    const copy = valueOf(await counter.call('backup.run', {}))
    const later = await sell(counter, '9876500012', '299')

    const { sources } = valueOf(await counter.call('backup.sources', {}))
    const offsite = sources.find((source) => source.kind === 'offsite')!
    expect(offsite).toMatchObject({ where: copy.path, at: copy.at })
    // The screens name a copy only by the id the core gave: a path, or a copy not in the list, is refused.
    expect(await counter.dispatch('backup.look', { source: copy.path })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await counter.dispatch('backup.look', { source: 'offsite:Counter-elsewhere/2020-01-01-000000' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })

    const look = valueOf(await counter.call('backup.look', { source: offsite.id }))
    expect(look).toMatchObject({ entries: copy.entries, problem: null, lastSale: { id: kept } })
    expect(look.laterSales.map((sold) => [sold.id, sold.amountPaise])).toEqual([[later, 29_900]])

    // The drive spoils a line of the copy (an amount changed): it does not check, and a restore of it changes nothing.
    const segments = path.join(copy.path, 'ledger', 'journal')
    const segment = path.join(segments, fs.readdirSync(segments).sort()[0])
    const original = fs.readFileSync(segment, 'utf8')
    fs.writeFileSync(segment, original.replace('"amountPaise":19900', '"amountPaise":19000'))
    const before = journalOf(path.join(rig.dataDir, 'ledger'))
    const spoiled = valueOf(await counter.call('backup.look', { source: offsite.id }))
    expect(spoiled.problem).toMatch(/^This copy does not check \(line \d+: .+\): it cannot be restored\. Choose another copy\.$/)
    expect(await counter.call('backup.restore', { source: offsite.id, confirmed: true })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: spoiled.problem } })
    expect(journalOf(path.join(rig.dataDir, 'ledger'))).toEqual(before)
    expect(asideFolders(rig.dataDir)).toEqual([])
    expect(fs.existsSync(path.join(rig.dataDir, 'ledger.restoring'))).toBe(false)
    expect(await stateIn(counter, later)).toBe('SUCCESS')

    // Mended, it restores: the later sale listed and in the books moved aside, not in the books open.
    fs.writeFileSync(segment, original)
    const done = valueOf(await counter.call('backup.restore', { source: offsite.id, confirmed: true }))
    expect(done.laterSales.map((sold) => sold.id)).toEqual([later])
    expect(await stateIn(counter, kept)).toBe('SUCCESS')
    expect(await stateIn(counter, later)).toBeUndefined()
    expect(Object.values(journalOf(done.movedAside)).join('')).toContain(later)
    await sell(counter, '9876500013')
  })

  it('a data folder whose disk fills up while the copy is put together: refused plainly, the books as they were; with room, it restores', async () => {
    // The data folder on a small disk of its own (a tmpfs mounted for the test), the copy on another.
    const disk = tempDir('counter-restore-full-')
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', disk.path])
    undo.push(disk.remove)
    undo.push(() => execFileSync('umount', [disk.path]))
    rig = await startRealModeRig({}, { dataDir: disk.path })
    const { counter } = rig
    valueOf(await counter.call('backup.save', { folder: otherDisk(), staleDays: 7 }))
    await sell(counter, '9876500031')
    valueOf(await counter.call('backup.run', {}))
    const later = await sell(counter, '9876500032')
    const offsite = valueOf(await counter.call('backup.sources', {})).sources.find((source) => source.kind === 'offsite')!

    // The disk filled to its last few kilobytes: the copy cannot be put together beside the books.
    const filler = path.join(disk.path, 'filler')
    const { bavail, bsize } = fs.statfsSync(disk.path)
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 8 * 1024)))
    const books = path.join(disk.path, 'ledger')
    const before = journalOf(books)
    const refused = await counter.call('backup.restore', { source: offsite.id, confirmed: true })
    expect(refused).toMatchObject({ ok: false, error: { code: 'restore_failed', message: expect.stringMatching(/^The restore stopped \(.*ENOSPC.*\): the books are as they were before it\.$/) } })
    expect(journalOf(books)).toEqual(before)
    expect(asideFolders(disk.path)).toEqual([])
    expect(fs.existsSync(path.join(disk.path, 'ledger.restoring'))).toBe(false)
    expect(await stateIn(counter, later)).toBe('SUCCESS')

    fs.rmSync(filler)
    const done = valueOf(await counter.call('backup.restore', { source: offsite.id, confirmed: true }))
    expect(done.laterSales.map((sold) => sold.id)).toEqual([later])
    expect(await stateIn(counter, later)).toBeUndefined()
  })

  it('a restore cut off between moving the books aside and putting the copy in place comes back to the books as they were', async () => {
    rig = await startRealModeRig()
    const sold = await sell(rig.counter, '9876500021')
    const books = path.join(rig.dataDir, 'ledger')
    await rig.restart(() => {
      // As the power cut leaves it: the copy staged whole beside, the books renamed aside, nothing in their place.
      fs.cpSync(books, path.join(rig!.dataDir, 'ledger.restoring'), { recursive: true })
      fs.rmSync(path.join(rig!.dataDir, 'ledger.restoring', 'journal'), { recursive: true })
      fs.renameSync(books, path.join(rig!.dataDir, 'ledger.before-restore-2026-11-28-101500'))
    })
    expect(await stateIn(rig.counter, sold)).toBe('SUCCESS')
    expect(asideFolders(rig.dataDir)).toEqual([])
    expect(fs.existsSync(path.join(rig.dataDir, 'ledger.restoring'))).toBe(false)
    await sell(rig.counter, '9876500022')
  })
})
