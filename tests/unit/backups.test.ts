// Daily backups on real files: what is copied, once a day, pruned after 14 days, and a backup cut
// short never passing for a complete one.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runDailyBackup, type DailyBackupOptions } from '../../electron/counter/backups'
import { copyLedgerFolder } from '../../electron/ledger/backup-copy'

let dataDir: string
let ledgerDir: string
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-backups-'))
  ledgerDir = path.join(dataDir, 'ledger')
  write('ledger/journal/000001.ndjson', '{"seq":1}\n{"seq":2}\n')
  write('ledger/journal/000002.ndjson', '{"seq":3}\n')
  write('ledger/ledger.sqlite', 'snapshot bytes')
  write('ledger/ledger.sqlite.check', 'its check')
  write('ledger/ledger.sqlite.tmp', 'half a snapshot')
  write('ledger/archive/2023-24.sqlite', 'closed year')
  write('settings.json', '{"shopName":"Ravi Digital Seva"}')
  write('training-ledger/journal/000001.ndjson', '{"seq":1}\n')
})
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }))

function write(relative: string, content: string): void {
  const file = path.join(dataDir, relative)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

/** Every file under `dir`, as relative paths with their contents. */
function contents(dir: string): Record<string, string> {
  const found: Record<string, string> = {}
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    found[path.relative(dir, file).split(path.sep).join('/')] = fs.readFileSync(file, 'utf8')
  }
  return found
}

const backupsDir = () => path.join(dataDir, 'backups')

/** As the core runs it, with the ledger copied as the chores thread copies it (here with no snapshot being written). */
const backUp = (options: Omit<DailyBackupOptions, 'dataDir' | 'ledgerDir' | 'copyLedger'>) =>
  runDailyBackup({ dataDir, ledgerDir, copyLedger: async (into) => copyLedgerFolder(ledgerDir, into), ...options })

describe('runDailyBackup', () => {
  it("copies the journal segments, the snapshot with its check, the archives and the settings into today's folder", async () => {
    const result = await backUp({ today: '2024-05-15' })
    expect(result).toEqual({ path: path.join(backupsDir(), '2024-05-15'), pruned: [] })
    expect(contents(result.path!)).toEqual({
      'ledger/journal/000001.ndjson': '{"seq":1}\n{"seq":2}\n',
      'ledger/journal/000002.ndjson': '{"seq":3}\n',
      'ledger/ledger.sqlite': 'snapshot bytes',
      'ledger/ledger.sqlite.check': 'its check',
      'ledger/archive/2023-24.sqlite': 'closed year',
      'settings.json': '{"shopName":"Ravi Digital Seva"}',
    })
  })

  it('links files that are never written again and copies the segment still being appended to', async () => {
    const { path: made } = await backUp({ today: '2024-05-15' })
    const inode = (file: string) => fs.statSync(file).ino
    expect(inode(path.join(made!, 'ledger/journal/000001.ndjson'))).toBe(inode(path.join(ledgerDir, 'journal/000001.ndjson')))
    expect(inode(path.join(made!, 'ledger/archive/2023-24.sqlite'))).toBe(inode(path.join(ledgerDir, 'archive/2023-24.sqlite')))
    expect(inode(path.join(made!, 'ledger/journal/000002.ndjson'))).not.toBe(inode(path.join(ledgerDir, 'journal/000002.ndjson')))
    // The live segment grows after the backup; the backup keeps what it had.
    fs.appendFileSync(path.join(ledgerDir, 'journal/000002.ndjson'), '{"seq":4}\n')
    expect(fs.readFileSync(path.join(made!, 'ledger/journal/000002.ndjson'), 'utf8')).toBe('{"seq":3}\n')
  })

  it('backs up a ledger that has no snapshot yet and no settings file', async () => {
    fs.rmSync(path.join(ledgerDir, 'ledger.sqlite'))
    fs.rmSync(path.join(ledgerDir, 'archive'), { recursive: true })
    fs.rmSync(path.join(dataDir, 'settings.json'))
    const { path: made } = await backUp({ today: '2024-05-15' })
    expect(Object.keys(contents(made!)).sort()).toEqual(['ledger/journal/000001.ndjson', 'ledger/journal/000002.ndjson'])
  })

  it('makes one backup a day: a second run the same day leaves the first as it was', async () => {
    const first = await backUp({ today: '2024-05-15' })
    write('ledger/journal/000003.ndjson', '{"seq":4}\n')
    expect(await backUp({ today: '2024-05-15' })).toEqual({ path: null, pruned: [] })
    expect(contents(first.path!)).not.toHaveProperty(['ledger/journal/000003.ndjson'])
    const next = await backUp({ today: '2024-05-16' })
    expect(contents(next.path!)).toHaveProperty(['ledger/journal/000003.ndjson'], '{"seq":4}\n')
  })

  it('keeps the last 14 days and removes older backups, leaving anything else in the folder alone', async () => {
    for (const day of ['2024-04-20', '2024-05-01', '2024-05-02', '2024-05-14']) write(`backups/${day}/settings.json`, '{}')
    write('backups/notes.txt', 'the owner keeps this here')
    const { pruned } = await backUp({ today: '2024-05-15' })
    expect(pruned.sort()).toEqual([path.join(backupsDir(), '2024-04-20'), path.join(backupsDir(), '2024-05-01')])
    expect(fs.readdirSync(backupsDir()).sort()).toEqual(['2024-05-02', '2024-05-14', '2024-05-15', 'notes.txt'])
  })

  it('honours a shorter keepDays across a month end', async () => {
    for (const day of ['2024-02-27', '2024-02-28', '2024-02-29']) write(`backups/${day}/settings.json`, '{}')
    const { pruned } = await backUp({ today: '2024-03-01', keepDays: 3 })
    expect(pruned).toEqual([path.join(backupsDir(), '2024-02-27')])
  })

  it('never takes a backup cut short for a complete one: it is removed and the day backed up afresh', async () => {
    write('backups/2024-05-15.partial/ledger/journal/000001.ndjson', '{"seq":1}\n')
    write('backups/2024-05-14.partial/settings.json', '{')
    const { path: made } = await backUp({ today: '2024-05-15' })
    expect(made).toBe(path.join(backupsDir(), '2024-05-15'))
    expect(contents(made!)).toHaveProperty(['ledger/journal/000002.ndjson'], '{"seq":3}\n')
    expect(fs.readdirSync(backupsDir())).toEqual(['2024-05-15'])
  })

  it('leaves no partial folder behind when the copy fails, and tries again next time', async () => {
    // A folder where the snapshot file should be: the copy fails part-way, whoever runs the test.
    fs.rmSync(path.join(ledgerDir, 'ledger.sqlite'))
    fs.mkdirSync(path.join(ledgerDir, 'ledger.sqlite'))
    await expect(backUp({ today: '2024-05-15' })).rejects.toThrow()
    expect(fs.readdirSync(backupsDir())).toEqual([])
    fs.rmdirSync(path.join(ledgerDir, 'ledger.sqlite'))
    expect((await backUp({ today: '2024-05-15' })).path).toBe(path.join(backupsDir(), '2024-05-15'))
  })
})
