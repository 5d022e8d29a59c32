// The ledger at scale on real files: journal segments read only from the newest snapshot on, snapshots off the sale's path, closed years archived, and a backup before any migration.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ARCHIVE_DIR } from '../../electron/ledger/archive'
import { JOURNAL_DIR, LEGACY_JOURNAL_FILE, segmentName } from '../../electron/ledger/journal'
import { DayClosedError, verifyJournal, type HistoryQuery, type Ledger } from '../../electron/ledger/ledger'
import { BACKUP_DIR } from '../../electron/ledger/ledger-open'
import { LATEST_SCHEMA_VERSION } from '../../electron/ledger/migrations'
import { PREVIOUS_SNAPSHOT_FILE, SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { couponAnswer, couponIntent, DAY, editSnapshot, rechargeIntent, rechargeOutcome, rollBackSnapshot, useLedgerRig } from './ledger-rig'
import { speakAll } from '../../electron/shared/words'

const rig = useLedgerRig('counter-ledger-scale-')
const snapshotPath = () => path.join(rig.dir, SNAPSHOT_FILE)

/** n sales, each an intent and its outcome. */
function sell(ledger: Ledger, first: number, n: number): void {
  for (let i = first; i < first + n; i++) {
    ledger.append('recharge.intent', rechargeIntent(`A${i}`))
    ledger.append('recharge.outcome', rechargeOutcome(`A${i}`))
  }
}

const allSales = (ledger: Ledger) => ledger.read('salesForDay', DAY)

describe('journal segments', () => {
  it('start a new segment at a snapshot once the current one is large, and reopen reading only the newest', async () => {
    const ledger = await rig.open({ snapshotEvery: 1000, segmentBytes: 2000 })
    sell(ledger, 1, 5)
    await rig.close(ledger) // snapshot at #10, then a new segment from #11
    expect(rig.segments().map((file) => path.basename(file))).toEqual([segmentName(1), segmentName(11)])

    const reopened = await rig.open({ snapshotEvery: 1000, segmentBytes: 2000 })
    expect(reopened.report).toEqual({ snapshotSeq: 10, replayed: 0, tornTail: false, problems: [] })
    sell(reopened, 6, 2)
    const before = allSales(reopened)
    rig.crashCopy()
    // The old segment is unreadable now: an open that only reads the newest segment does not notice.
    fs.writeFileSync(path.join(rig.dir, JOURNAL_DIR, segmentName(1)), 'this is not the journal any more\n')

    const afterCrash = await rig.open({ snapshotEvery: 1000, segmentBytes: 2000 })
    expect(afterCrash.report).toEqual({ snapshotSeq: 10, replayed: 4, tornTail: false, problems: [] })
    expect(afterCrash.readOnly).toBeNull()
    expect(allSales(afterCrash)).toEqual(before)
    expect(afterCrash.append('recharge.intent', rechargeIntent('A8')).seq).toBe(15)
    // The full audit reads every segment and finds it.
    expect(speakAll(verifyJournal(rig.dir), 'en')).toEqual({
      entries: 0,
      ok: false,
      problem: `Line 1 (${segmentName(1)}): it is not a journal line.`,
    })
  })

  it('carry the chain across segments, which the full audit checks end to end', async () => {
    const ledger = await rig.open({ snapshotEvery: 4, segmentBytes: 1000 })
    for (let i = 1; i <= 6; i++) {
      sell(ledger, i, 1)
      await ledger.snapshotsSettled()
    }
    await rig.close(ledger)
    expect(rig.segments().length).toBeGreaterThan(2)
    expect(speakAll(verifyJournal(rig.dir), 'en')).toEqual({ entries: 12, ok: true, problem: null })
    const lines = rig.journalLines().map((line) => JSON.parse(line))
    expect(lines.map((line) => line.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    const reopened = await rig.open()
    expect(allSales(reopened)).toHaveLength(6)
  })

  it('adopt the single journal.ndjson of an earlier version as the first segment', async () => {
    const ledger = await rig.open()
    sell(ledger, 1, 3)
    const before = allSales(ledger)
    await rig.close(ledger)
    const journalDir = path.join(rig.dir, JOURNAL_DIR)
    fs.renameSync(path.join(journalDir, segmentName(1)), path.join(rig.dir, LEGACY_JOURNAL_FILE))
    fs.rmSync(journalDir, { recursive: true })

    const reopened = await rig.open()
    expect(reopened.report).toEqual({ snapshotSeq: 6, replayed: 0, tornTail: false, problems: [] })
    expect(allSales(reopened)).toEqual(before)
    expect(fs.existsSync(path.join(rig.dir, LEGACY_JOURNAL_FILE))).toBe(false)
    expect(reopened.append('recharge.intent', rechargeIntent('A4')).seq).toBe(7)
    expect(rig.journalLines()).toHaveLength(7)
  })
})

describe('snapshots', () => {
  it('are written after the append that reaches snapshotEvery has returned', async () => {
    const ledger = await rig.open({ snapshotEvery: 2 })
    ledger.append('recharge.intent', rechargeIntent('A1'))
    ledger.append('recharge.outcome', rechargeOutcome('A1'))
    expect(fs.existsSync(snapshotPath())).toBe(false)
    await ledger.snapshotsSettled()
    expect(fs.existsSync(snapshotPath())).toBe(true)
    ledger.append('recharge.intent', rechargeIntent('A2'))
    rig.crashCopy()
    const reopened = await rig.open()
    expect(reopened.report).toMatchObject({ snapshotSeq: 2, replayed: 1 })
  })

  it('can still be taken at once, and a close takes the one that was scheduled', async () => {
    const ledger = await rig.open({ snapshotEvery: 1 })
    ledger.append('recharge.intent', rechargeIntent('A1'))
    await ledger.snapshot()
    expect(fs.existsSync(snapshotPath())).toBe(true)
    ledger.append('recharge.outcome', rechargeOutcome('A1'))
    await rig.close(ledger)
    const reopened = await rig.open()
    expect(reopened.report).toEqual({ snapshotSeq: 2, replayed: 0, tornTail: false, problems: [] })
    expect(fs.existsSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE))).toBe(true)
  })
})

describe('a migration', () => {
  it('is preceded by a copy of the snapshot it changes, once', async () => {
    const ledger = await rig.open()
    sell(ledger, 1, 2)
    const before = allSales(ledger)
    await rig.close(ledger)
    await rollBackSnapshot(rig.dir, 2)
    const version2 = fs.readFileSync(snapshotPath())

    const reopened = await rig.open({ now: () => new Date('2025-03-14T10:15:30.123Z') })
    expect(reopened.report).toEqual({ snapshotSeq: 4, replayed: 0, tornTail: false, problems: [] })
    expect(allSales(reopened)).toEqual(before)
    const backups = fs.readdirSync(path.join(rig.dir, BACKUP_DIR))
    expect(backups).toEqual([`pre-migration-v2-to-v${LATEST_SCHEMA_VERSION}-2025-03-14T10-15-30-123Z.sqlite`])
    expect(fs.readFileSync(path.join(rig.dir, BACKUP_DIR, backups[0])).equals(version2)).toBe(true)
    await rig.close(reopened)

    await rig.open()
    expect(fs.readdirSync(path.join(rig.dir, BACKUP_DIR))).toHaveLength(1)
  })
})

describe('archiving closed financial years', () => {
  /** Opens a ledger whose clock reads whatever `at` was last set to. */
  async function openAt(): Promise<{ ledger: Ledger; at: (iso: string) => void }> {
    let clock = Date.parse('2023-06-10T05:00:00.000Z')
    const ledger = await rig.open({ now: () => new Date(clock) })
    return { ledger, at: (iso) => (clock = Date.parse(iso)) }
  }

  /** Three financial years of trade: one sale of FY2024-25 never got its answer. */
  async function openThreeYears(): Promise<{ ledger: Ledger; at: (iso: string) => void }> {
    const opened = await openAt()
    const { ledger, at } = opened
    const sale = (id: string, iso: string, settled = true) => {
      at(iso)
      ledger.append('recharge.intent', rechargeIntent(id, 10000, { businessDay: iso.slice(0, 10), number: `98${id.padStart(8, '0')}` }))
      if (settled) ledger.append('recharge.outcome', rechargeOutcome(id))
    }
    sale('Y1', '2023-06-10T05:00:00.000Z')
    sale('Y2', '2024-03-30T05:00:00.000Z')
    sale('Y3', '2024-05-01T05:00:00.000Z')
    at('2024-05-01T06:00:00.000Z')
    ledger.append('pan.coupon.intent', couponIntent('K1', { businessDay: '2024-05-01' }))
    ledger.append('pan.coupon.outcome', couponAnswer('K1'))
    ledger.append('pan.topup', { topupId: 'T1', amountPaise: 100000, reference: 'UTR1', note: '', businessDay: '2024-05-01' })
    ledger.append('pan.balance.read', { balancePaise: 567900, source: 'balance', businessDay: '2024-05-01' })
    sale('Y4', '2024-11-20T05:00:00.000Z', false)
    sale('Y5', '2025-03-31T05:00:00.000Z')
    at('2025-03-31T12:00:00.000Z')
    ledger.append('day.closed', {
      businessDay: '2025-03-31', openingFloatPaise: 0, counted: { n500: 0, n200: 0, n100: 1, n50: 0, n20: 0, n10: 0, coinsPaise: 0 },
      countedPaise: 10000, expectedCashPaise: 10000, closingPanBalancePaise: null, openingPanBalancePaise: null, overrideNote: null, summary: {},
    })
    sale('Y6', '2025-04-02T05:00:00.000Z')
    sale('Y7', '2025-04-03T05:00:00.000Z')
    return opened
  }

  const NEWEST_FIRST = ['Y7', 'Y6', 'Y5', 'Y4', 'K1', 'Y3', 'Y2', 'Y1']
  const ids = (ledger: Ledger, query: Partial<HistoryQuery> = {}) => ledger.read('historySearch', { offset: 0, limit: 100, ...query })

  /** Reads the whole history two rows at a time. */
  function pagedIds(ledger: Ledger, query: Partial<HistoryQuery> = {}): string[] {
    const seen: string[] = []
    for (let offset = 0; ; offset += 2) {
      const page = ledger.read('historySearch', { ...query, offset, limit: 2 })
      if (page.rows.length === 0) return seen
      seen.push(...page.rows.map((row) => row.id))
    }
  }

  it('moves settled rows of closed years into one file per year, leaving what still waits for an answer', async () => {
    const { ledger } = await openThreeYears()
    expect(await ledger.archiveClosedYears('2025-04-10')).toEqual(['FY2023-24', 'FY2024-25'])
    expect(fs.readdirSync(path.join(rig.dir, ARCHIVE_DIR)).sort()).toEqual(['FY2023-24.sqlite', 'FY2024-25.sqlite'])
    expect(['Y1', 'Y2', 'Y3', 'Y5'].map((id) => ledger.read('getSale', id))).toEqual([null, null, null, null])
    expect(ledger.read('couponSale', 'K1')).toBeNull()
    expect(ledger.read('topups')).toEqual([])
    expect(ledger.read('balanceFacts')).toEqual([])
    expect(ledger.read('getSale', 'Y4')?.state).toBe('SENDING')
    expect(ledger.read('unresolved').map((entry) => entry.sale.createdAt)).toEqual(['2024-11-20T05:00:00.000Z'])
    expect(ledger.read('salesForDay', '2025-04-02').map((sale) => sale.orderId)).toEqual(['Y6'])
    // The closure of an archived day is read from its year's archive.
    expect(ledger.read('dayClosure', '2025-03-31')?.data.countedPaise).toBe(10000)
  })

  it('keeps every sale in history, archives listed, across the boundary and after a reopen', async () => {
    const { ledger } = await openThreeYears()
    await ledger.archiveClosedYears('2025-04-10')
    const everything = ids(ledger)
    expect(everything.rows.map((row) => row.id)).toEqual(NEWEST_FIRST)
    expect(everything).toMatchObject({ total: 8, archives: ['FY2024-25', 'FY2023-24'] })
    expect(pagedIds(ledger)).toEqual(NEWEST_FIRST)
    expect(ids(ledger, { text: '00000Y1' })).toMatchObject({ total: 1, rows: [{ id: 'Y1', businessDay: '2023-06-10', state: 'SUCCESS' }] })
    expect(ids(ledger, { kind: 'coupon' })).toMatchObject({ total: 1, rows: [{ id: 'K1', detail: 'P-Coupon × 3' }] })
    expect(ids(ledger, { from: '2025-04-01' })).toMatchObject({ total: 2, archives: [] })
    expect(ids(ledger, { from: '2024-04-01', to: '2024-12-31' })).toMatchObject({ total: 3, archives: ['FY2024-25'] })
    expect(ids(ledger, { state: 'SENDING' }).rows.map((row) => row.id)).toEqual(['Y4'])
    expect(ids(ledger, { offset: 6, limit: 1 }).rows.map((row) => row.id)).toEqual(['Y2'])
    await rig.close(ledger)

    const reopened = await rig.open()
    expect(reopened.report.problems).toEqual([])
    expect(pagedIds(reopened)).toEqual(NEWEST_FIRST)
    expect(pagedIds(reopened, { text: '98' })).toEqual(NEWEST_FIRST.filter((id) => id !== 'K1'))
  })

  it('refuses new sales and top-ups on days of an archived year', async () => {
    const { ledger } = await openThreeYears()
    await ledger.archiveClosedYears('2025-04-10')
    expect(() => ledger.append('recharge.intent', rechargeIntent('Z1', 1000, { businessDay: '2025-02-01' }))).toThrow(DayClosedError)
    expect(() => ledger.append('pan.topup', { topupId: 'T9', amountPaise: 1, reference: 'x', note: '', businessDay: '2024-04-01' })).toThrow(
      'The books for 01-04-2024 are closed.',
    )
    // The sale still waiting from that year can get its answer.
    ledger.append('recharge.outcome', rechargeOutcome('Y4'))
    expect(ledger.read('getSale', 'Y4')?.state).toBe('SUCCESS')
    ledger.append('recharge.intent', rechargeIntent('Z2', 1000, { businessDay: '2025-04-10' }))
  })

  it('is idempotent: a second run, or a run after a replay re-created the rows, merges into the same archives', async () => {
    const { ledger, at } = await openThreeYears()
    await ledger.archiveClosedYears('2025-04-10')
    expect(await ledger.archiveClosedYears('2025-04-11')).toEqual([])
    at('2025-04-11T05:00:00.000Z')
    ledger.append('recharge.outcome', rechargeOutcome('Y4'))
    expect(await ledger.archiveClosedYears('2025-04-11')).toEqual(['FY2024-25'])
    expect(ledger.read('getSale', 'Y4')).toBeNull()
    expect(pagedIds(ledger)).toEqual(NEWEST_FIRST)
    await rig.close(ledger)

    // Without snapshots the journal replays every sale back into the active database.
    fs.rmSync(snapshotPath())
    fs.rmSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE))
    const replayed = await rig.open()
    expect(replayed.read('getSale', 'Y1')?.state).toBe('SUCCESS')
    expect(await replayed.archiveClosedYears('2025-04-11')).toEqual(['FY2023-24', 'FY2024-25'])
    expect(replayed.read('getSale', 'Y1')).toBeNull()
    expect(ids(replayed)).toMatchObject({ total: 8 })
    expect(pagedIds(replayed)).toEqual(NEWEST_FIRST)
    expect(pagedIds(replayed, { state: 'SUCCESS' })).toEqual(NEWEST_FIRST)
  })

  it('survives a snapshot that fails its check: rebuilt from the whole journal, archived again, every sale once', async () => {
    const { ledger } = await openThreeYears()
    await ledger.archiveClosedYears('2025-04-10')
    await rig.close(ledger)
    const archives = () => fs.readdirSync(path.join(rig.dir, ARCHIVE_DIR)).sort()
    const before = archives()
    await editSnapshot(rig.dir, (db) => db.run("UPDATE sales SET state = 'FAILED' WHERE order_id = 'Y6'"))
    expect(fs.existsSync(path.join(rig.dir, PREVIOUS_SNAPSHOT_FILE))).toBe(false)

    const rebuilt = await rig.open()
    expect(speakAll(rebuilt.report, 'en')).toMatchObject({ snapshotSeq: 0, problems: ['The saved copy ledger.sqlite did not match its check and was rebuilt from the journal.'] })
    // The journal holds the archived years' lines too: they are back in the active tables until archived again.
    expect(rebuilt.read('getSale', 'Y1')?.state).toBe('SUCCESS')
    expect(await rebuilt.archiveClosedYears('2025-04-10')).toEqual(['FY2023-24', 'FY2024-25'])
    expect(archives()).toEqual(before)
    expect(rebuilt.read('getSale', 'Y6')?.state).toBe('SUCCESS')
    expect(ids(rebuilt)).toMatchObject({ total: 8 })
    expect(pagedIds(rebuilt)).toEqual(NEWEST_FIRST)
    expect(() => rebuilt.append('recharge.intent', rechargeIntent('Z1', 1000, { businessDay: '2025-02-01' }))).toThrow(DayClosedError)
  })
})
