// Times what the shop waits for on a built ledger through the real core in real mode with no provider reachable: start-up, the day summary and close, history's first page and searches.
import net from 'node:net'
import type { Result } from '../../electron/contract'
import { startCounter, type CounterApp } from '../../electron/counter/app'
import { financialYearOf } from '../../electron/ledger/archive'
import type { HistoryPage } from '../../electron/ledger/ledger'
import { environmentOnlySecrets } from '../crash/real-core'
import type { BuiltLedger } from './build-ledgers'
import { withLoopDelay, type LoopDelay } from './event-loop'
import { processStartFloor, type ProcessStartFloor } from './process-start'
import { MEASURED_DAY_SALES } from './shop-history'
import { elapsedMs, median, timeRuns } from './stats'
import { startSimulator } from '../../electron/simulator/server'

const RUNS = 5
/** The evening of the measured day, in UTC: 23:00 in India, after its last sale (about 21:50), so the clock rule finds the clock right. */
const EVENING_UTC = 'T17:30:00.000Z'

export interface CoreTimes {
  /** startCounter until it returns, ready to answer: the ledger's open and the handlers. */
  startMs: number
  /** From then until the archiving check and today's backup, which run after the counter answers, are done. */
  housekeepingMs: number
  /** 'day.summary' for today: totals, balance facts and unresolved sales, after a balance read that fails fast. */
  daySummaryMs: number[]
  /** Of which the ledger's own reads: the day's totals, balance facts and the unresolved sales. */
  daySummaryLedgerMs: number[]
  /** The whole journal's audit the first time, when no segment is sealed yet. */
  firstAuditMs: number
  /** The main event loop while it ran. */
  firstAuditLoop: LoopDelay
  /** Just before it: the loop while a thread starts bare processes, as the audit starts its own. */
  processStart: ProcessStartFloor
  /** 'day.close' once: the summary again, the audit of what changed since the last one, the day.closed line, and the snapshot it takes. */
  dayCloseMs: number
  dayCloseLoop: LoopDelay
  historyFirstPageMs: number[]
  /** One run per number: each search is asked for the first time, as when a customer gives theirs. */
  searchThisYearMs: number[]
  searchAllYearsMs: number[]
  /** Sales the all-years searches found (median), and the archives they covered. */
  searchFound: number
  searchArchives: string[]
}

/** An address on this machine where nothing listens: the provider refuses at once, as when the shop's line is down. */
export async function deadAddress(): Promise<string> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

function valueOf<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: ${result.error.code} ${result.error.message}`)
  return result.value
}

/** `searchNumbers`: one per run, so no search finds its archive counts cached by an earlier one. */
export async function measureCore(built: BuiltLedger, resourcesDir: string, searchNumbers: string[]): Promise<CoreTimes> {
  const provider = await deadAddress()
  const log: string[] = []
  const started = process.hrtime.bigint()
  const counter: CounterApp = await startCounter({
    dataDir: built.dataDir,
    resourcesDir,
    platform: 'test',
    startTraining: () => startSimulator(),
    secrets: environmentOnlySecrets,
    env: {
      COUNTER_USER_ID: 'BENCH0001',
      COUNTER_TOKEN: 'bench-token',
      COUNTER_SECRET_KEY: 'bench-secret-key',
      COUNTER_RECHARGE_BASE_URL: provider,
      COUNTER_API_KEY: 'bench-api-key',
      COUNTER_PAN_BASE_URL: provider,
    },
    providerTimeoutMs: 1_000,
    now: () => new Date(`${built.today}${EVENING_UTC}`),
    log: (line) => log.push(line),
  })
  const startMs = elapsedMs(started)
  const answering = process.hrtime.bigint()
  await counter.housekeeping()
  const housekeepingMs = elapsedMs(answering)
  try {
    if (counter.session().mode !== 'real') throw new Error('The benchmark counter did not start in real mode')
    // Start-up's balance read and first pending checks hit the dead address; let them finish first.
    await new Promise((resolve) => setTimeout(resolve, 500))

    const summary = async () => valueOf(await counter.call('day.summary', { businessDay: built.today }), 'day.summary')
    const shown = await summary()
    const sales = shown.recharges.reduce((sum, row) => sum + row.count, 0) + shown.coupons.reduce((sum, row) => sum + row.orders, 0)
    if (sales !== MEASURED_DAY_SALES) throw new Error(`The measured day shows ${sales} sales, not ${MEASURED_DAY_SALES}`)
    const daySummaryMs = await timeRuns(RUNS, () => summary())
    const { ledger } = counter.session()
    // Awaited: through the ledger thread each read is a promise, and timing their creation measured nothing.
    const daySummaryLedgerMs = await timeRuns(RUNS, () =>
      Promise.all([ledger.read('dayTotals', built.today), ledger.read('creditDay', built.today), ledger.read('balanceFacts', built.today, built.today), ledger.read('unresolved')]),
    )

    const search = async (query: { text?: string; from?: string }) => valueOf(await counter.call('history.search', query), 'history.search')
    const historyFirstPageMs = await timeRuns(RUNS, () => search({}))
    const yearStart = financialYearOf(built.today).start
    const searchThisYearMs = await timeRuns(searchNumbers.length, (run) => search({ text: searchNumbers[run], from: yearStart }))
    const pages: HistoryPage[] = []
    const searchAllYearsMs = await timeRuns(searchNumbers.length, async (run) => pages.push(await search({ text: searchNumbers[run] })))

    // The first audit reads every line and seals the closed segments; each later close (as in a shop,
    // where yesterday's close sealed them) re-reads only what changed since.
    const processStart = await processStartFloor()
    const { result: [firstAuditMs], delay: firstAuditLoop } = await withLoopDelay(() => timeRuns(1, async () => ledger.auditJournal()))
    const { result: [dayCloseMs], delay: dayCloseLoop } = await withLoopDelay(() =>
      timeRuns(1, async () =>
        valueOf(
          await counter.call('day.close', {
            businessDay: built.today,
            openingFloat: '2000',
            counted: { n500: 100, n200: 50, n100: 40, n50: 20, n20: 10, n10: 10, coins: '37.50' },
            overrideNote: 'Benchmark close: any pending sale is checked tomorrow',
          }),
          'day.close',
        ),
      ),
    )
    return {
      startMs, housekeepingMs, daySummaryMs, daySummaryLedgerMs, firstAuditMs, firstAuditLoop, processStart, dayCloseMs, dayCloseLoop, historyFirstPageMs, searchThisYearMs, searchAllYearsMs,
      searchFound: median(pages.map((page) => page.total)), searchArchives: pages[0].archives,
    }
  } finally {
    await counter.close()
  }
}
