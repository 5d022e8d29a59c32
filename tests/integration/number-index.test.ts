// Searching a number across archived years through each archive's index of numbers: the same answers as the same books never archived, whether the index is there, missing, edited, stale or cut off by a crash.
import fs from 'node:fs'
import path from 'node:path'
import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARCHIVE_DIR } from '../../electron/ledger/archive'
import { Ledger, type HistoryPage, type HistoryQuery } from '../../electron/ledger/ledger'
import { NUMBER_INDEX_DIR } from '../../electron/ledger/number-index'
import { JOURNAL_DIR, listSegments } from '../../electron/ledger/segments'
import { couponAnswer, couponIntent, rechargeIntent, rechargeOutcome, useLedgerRig } from './ledger-rig'
import { english } from '../../electron/shared/words'
import { thrownInEnglish } from '../helpers/english-replies'

const rig = useLedgerRig('counter-number-index-')

/** Forty regulars' mobiles, and two DTH ids where one is the start of the other. */
const NUMBERS = [...Array.from({ length: 40 }, (_, i) => `98765${String(i * 7).padStart(5, '0')}`), '301234', '3012345678']
/**
 * Sales per financial year (FY2022-23 to the current FY2025-26): FY2023-24 holds more than one
 * block of the index (512 recharges), so a number's sales straddle blocks there.
 */
const YEARS = [
  { first: '2022-06-01', sales: 30 },
  { first: '2023-04-03', sales: 600 },
  { first: '2024-04-02', sales: 45 },
  { first: '2025-04-01', sales: 20 },
]
const TODAY = '2025-04-10'
/** The sale of FY2024-25 that never got its answer: it stays in the active books as archiving runs. */
const WAITING = 'Y2-7'

let template = ''
let clock = 0
const now = () => new Date(clock)

/**
 * Four years of one shop: recharges across the numbers (every seventh refused), an agent whose id
 * holds digits, and a coupon sale every forty recharges. Built once, unarchived; each test copies it.
 */
async function trade(dir: string): Promise<void> {
  const ledger = await Ledger.open({ dir, snapshotEvery: 100_000, now })
  try {
    YEARS.forEach(({ first, sales }, year) => {
      for (let i = 0; i < sales; i++) {
        const day = new Date(Date.parse(`${first}T00:00:00.000Z`) + Math.floor(i / 3) * 86_400_000).toISOString().slice(0, 10)
        clock = Date.parse(`${day}T05:00:00.000Z`) + i * 1000
        const id = `Y${year}-${i}`
        const number = NUMBERS[(i * 13 + year) % NUMBERS.length]
        ledger.append('recharge.intent', rechargeIntent(id, 1000 + i, { businessDay: day, number, kind: number.length < 10 ? 'dth' : 'mobile' }))
        if (id !== WAITING) ledger.append('recharge.outcome', rechargeOutcome(id, i % 7 === 3 ? { outcome: 'FAILED', providerStatus: 'Failure', message: 'Refused', fpayId: null, operatorRef: null } : {}))
        if (i % 40 === 5) {
          const attemptId = `K${year}0${i}`
          ledger.append('pan.coupon.intent', couponIntent(attemptId, { businessDay: day, vleId: i % 80 === 5 ? 'VLE98765' : 'VLE1' }))
          ledger.append('pan.coupon.outcome', couponAnswer(attemptId))
        }
      }
    })
  } finally {
    await ledger.close()
  }
}

beforeAll(async () => {
  template = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-number-index-template-'))
  await trade(path.join(template, 'ledger'))
}, 120_000)
afterAll(() => fs.rmSync(template, { recursive: true, force: true }))

/** The template's books in the test's folder, or in `dir`. */
async function openCopy(dir = rig.dir): Promise<Ledger> {
  fs.cpSync(path.join(template, 'ledger'), dir, { recursive: true })
  return rig.open({ dir, now })
}

const openAt = (dir: string) => Ledger.open({ dir, now })

/** Digit searches of every shape: whole numbers, prefixes, digits inside agents' and coupons' ids, with each filter. */
const QUERIES: Partial<HistoryQuery>[] = [
  ...NUMBERS.filter((_, i) => i % 5 === 0).map((text) => ({ text })),
  { text: NUMBERS[3], state: 'FAILED' },
  { text: NUMBERS[3], state: 'SUCCESS', kind: 'recharge' },
  { text: NUMBERS[(7 * 13 + 2) % NUMBERS.length] },
  { text: NUMBERS[(7 * 13 + 2) % NUMBERS.length], state: 'SENDING' },
  { text: '98765' },
  { text: '9876500' },
  { text: '301234' },
  { text: '3012345' },
  { text: '98765', from: '2023-01-01', to: '2024-12-31' },
  { text: '98765', to: '2022-12-31' },
  { text: '98765', from: '2025-04-01' },
  { text: '98765', kind: 'coupon' },
  { text: '10', kind: 'coupon' },
  { text: '2' },
  { text: '123' },
]

/** Every query's total and rows, read whole and then in pages of seven: the first ten, and the last few rows (pages cross the archives). */
function answers(ledger: Ledger, queries = QUERIES): unknown[] {
  const page = (query: Partial<HistoryQuery>, offset: number, limit: number): Omit<HistoryPage, 'archives'> => {
    const { rows, total } = ledger.read('historySearch', { ...query, offset, limit })
    return { rows, total }
  }
  return queries.map((query) => {
    const whole = page(query, 0, 500)
    const paged: unknown[] = []
    for (let offset = 0; offset < Math.min(whole.total, 70); offset += 7) paged.push(...page(query, offset, 7).rows)
    paged.push(...page(query, Math.max(0, whole.total - 3), 7).rows)
    return { query, whole, paged }
  })
}

const indexDir = (dir = rig.dir) => path.join(dir, NUMBER_INDEX_DIR)
const indexFiles = (dir = rig.dir) => (fs.existsSync(indexDir(dir)) ? fs.readdirSync(indexDir(dir)).sort() : [])
const ARCHIVES = ['FY2022-23', 'FY2023-24', 'FY2024-25']
const ALL_INDEXES = ARCHIVES.map((name) => `${name}.numbers`)

/** What the same books answer never archived: every row in the one active database. */
async function unarchivedAnswers(): Promise<unknown[]> {
  const plain = await openAt((await copyOf('plain')).dir)
  try {
    expect(plain.read('historySearch', { offset: 0, limit: 1 }).archives).toEqual([])
    return answers(plain)
  } finally {
    await plain.close()
  }
}

async function copyOf(name: string): Promise<{ dir: string }> {
  const dir = path.join(rig.root, name)
  fs.cpSync(path.join(template, 'ledger'), dir, { recursive: true })
  return { dir }
}

/** The archived books, closed and reopened fresh: nothing of the archiving run is left in memory. */
async function archivedAndReopened(): Promise<Ledger> {
  const ledger = await openCopy()
  expect(await ledger.archiveClosedYears(TODAY)).toEqual(ARCHIVES)
  await rig.close(ledger)
  return rig.open({ now })
}

describe('the index of numbers', () => {
  it('is written with each archive, and answers exactly what the unarchived books answer', async () => {
    const expected = await unarchivedAnswers()
    const ledger = await archivedAndReopened()
    expect(indexFiles()).toEqual(ALL_INDEXES)
    expect(fs.readdirSync(path.join(rig.dir, ARCHIVE_DIR)).sort()).toEqual(ARCHIVES.map((name) => `${name}.sqlite`))
    expect(ledger.read('historySearch', { text: NUMBERS[0], offset: 0, limit: 1 }).archives).toEqual([...ARCHIVES].reverse())
    expect(answers(ledger)).toEqual(expected)
    // The waiting sale of an archived year is found too (it is still in the active books).
    expect(ledger.read('historySearch', { text: NUMBERS[(7 * 13 + 2) % NUMBERS.length], state: 'SENDING', offset: 0, limit: 10 }).rows.map((row) => row.id)).toEqual([WAITING])
  })

  it('serves a search by number without opening the archive', async () => {
    const ledger = await archivedAndReopened()
    const expected = answers(ledger)
    // Give FY2023-24 a time that survives being set again, and its index that time.
    const archive = path.join(rig.dir, ARCHIVE_DIR, 'FY2023-24.sqlite')
    fs.utimesSync(archive, 1_700_000_000, 1_700_000_000)
    fs.rmSync(path.join(indexDir(), 'FY2023-24.numbers'))
    expect(answers(ledger)).toEqual(expected)
    expect(indexFiles()).toEqual(ALL_INDEXES)
    // Now the archive's bytes become noise of the same size and time: only what reads the archive notices.
    fs.writeFileSync(archive, Buffer.alloc(fs.statSync(archive).size, 7))
    fs.utimesSync(archive, 1_700_000_000, 1_700_000_000)
    expect(answers(ledger)).toEqual(expected)
    expect(thrownInEnglish(() => ledger.read('historySearch', { text: 'Asha', offset: 0, limit: 10 }))).toContain('The archive FY2023-24.sqlite could not be read')
  })

  it('is built again when missing (archives of an older Counter), with the same answers before and after', async () => {
    const expected = await unarchivedAnswers()
    const ledger = await archivedAndReopened()
    fs.rmSync(indexDir(), { recursive: true })
    // The first search by number answers from the archives and writes their indexes.
    expect(ledger.read('historySearch', { text: NUMBERS[0], offset: 0, limit: 500 })).toEqual(ledger.read('historySearch', { text: NUMBERS[0], offset: 0, limit: 500 }))
    expect(indexFiles()).toEqual(ALL_INDEXES)
    fs.rmSync(indexDir(), { recursive: true })
    expect(answers(ledger)).toEqual(expected)
    expect(indexFiles()).toEqual(ALL_INDEXES)
    expect(answers(ledger)).toEqual(expected)
  })

  it('is not trusted once edited, in a block or in its header, and is built again', async () => {
    const expected = await unarchivedAnswers()
    const ledger = await archivedAndReopened()
    const file = path.join(indexDir(), 'FY2023-24.numbers')
    const pristine = fs.readFileSync(file)
    const text = pristine.toString('latin1')
    const firstLine = /^\S+ (\d+) \S+\n/.exec(text)!
    const bodyAt = firstLine[0].length + Number(firstLine[1])
    // A block edited: one of NUMBERS[0]'s sales now carries another number (the block's digest no longer matches).
    const at = text.indexOf(`"${NUMBERS[0]}"`, bodyAt)
    expect(at).toBeGreaterThan(bodyAt)
    fs.writeFileSync(file, Buffer.concat([pristine.subarray(0, at + 1), Buffer.from(NUMBERS[1]), pristine.subarray(at + 1 + NUMBERS[1].length)]))
    expect(answers(ledger)).toEqual(expected)
    expect(fs.readFileSync(file).equals(pristine)).toBe(true)

    // The header edited, its length kept: the first block's first number moved past NUMBERS[0], so
    // a search trusting it would skip that block.
    const headerEdit = text.replace(/"first":"(\d+)"/, (_, number: string) => `"first":"${'9'.repeat(number.length)}"`)
    expect(headerEdit.length).toBe(text.length)
    expect(headerEdit).not.toBe(text)
    fs.writeFileSync(file, Buffer.from(headerEdit, 'latin1'))
    expect(answers(ledger)).toEqual(expected)
    expect(fs.readFileSync(file).equals(pristine)).toBe(true)
  })

  it('of an earlier version of its archive is not trusted: the archive answers and it is built again', async () => {
    const ledger = await archivedAndReopened()
    const file = path.join(indexDir(), 'FY2024-25.numbers')
    const earlier = fs.readFileSync(file)
    // The waiting sale gets its answer and the next archiving moves it into FY2024-25's archive.
    clock = Date.parse(`${TODAY}T06:00:00.000Z`)
    ledger.append('recharge.outcome', rechargeOutcome(WAITING))
    expect(await ledger.archiveClosedYears(TODAY)).toEqual(['FY2024-25'])
    fs.writeFileSync(file, earlier)
    const number = NUMBERS[(7 * 13 + 2) % NUMBERS.length]
    const found = ledger.read('historySearch', { text: number, offset: 0, limit: 500 })
    expect(found.rows.find((row) => row.id === WAITING)?.state).toBe('SUCCESS')
    expect(fs.readFileSync(file).equals(earlier)).toBe(false)
    expect(ledger.read('historySearch', { text: number, offset: 0, limit: 500 })).toEqual(found)
    expect(ledger.read('historySearch', { text: number, state: 'SENDING', offset: 0, limit: 500 }).total).toBe(0)
  })

  it('cut off by a crash between the archive and its index leaves the books consistent', async () => {
    const ledger = await archivedAndReopened()
    clock = Date.parse(`${TODAY}T06:00:00.000Z`)
    ledger.append('recharge.outcome', rechargeOutcome(WAITING))
    await rig.close(ledger)
    // What the next archiving should give: the same folder archived with nothing in the way.
    const cleanDir = path.join(rig.root, 'clean')
    fs.cpSync(rig.dir, cleanDir, { recursive: true })
    const reference = await openAt(cleanDir)
    await reference.archiveClosedYears(TODAY)
    const expected = answers(reference)
    await reference.close()

    // The index's file cannot be made (its temporary name is taken by a folder): the disk then stands
    // as when the process dies between the archive's rename and the index's.
    const reopened = await rig.open()
    fs.mkdirSync(path.join(indexDir(), 'FY2024-25.numbers.tmp'))
    await expect(async () => reopened.archiveClosedYears(TODAY)).rejects.toThrow()
    rig.crashCopy()
    fs.rmSync(path.join(indexDir(), 'FY2024-25.numbers.tmp'), { recursive: true })
    // The new archive is in place and its old index is gone: never a new archive beside an old index.
    expect(indexFiles()).toEqual(['FY2022-23.numbers', 'FY2023-24.numbers'])

    // The next start archives again (the counter does at every start), merging the rows left in
    // both places, and writes the index.
    const restarted = await rig.open()
    expect(await restarted.archiveClosedYears(TODAY)).toEqual(['FY2024-25'])
    expect(indexFiles()).toEqual(ALL_INDEXES)
    expect(answers(restarted)).toEqual(expected)
    await rig.close(restarted)
    expect(answers(await rig.open())).toEqual(expected)
  })

  it('is not written while the ledger is read-only, whose files stay as found, and the archives still answer', async () => {
    const ledger = await archivedAndReopened()
    await rig.close(ledger)
    const written = path.join(rig.root, 'indexes')
    fs.renameSync(indexDir(), written)
    const segment = listSegments(path.join(rig.dir, JOURNAL_DIR)).at(-1)!.file
    fs.writeFileSync(segment, fs.readFileSync(segment, 'utf8').replace(/}\n$/, '#\n'))
    const damaged = await rig.open()
    expect(english(damaged.readOnly!)).toMatch(/damaged/)
    const fromArchives = answers(damaged)
    expect(indexFiles()).toEqual([])
    // The same books answer the same through the indexes archiving wrote.
    fs.renameSync(written, indexDir())
    expect(answers(damaged)).toEqual(fromArchives)
  })
})
