// Day close: the day's summary (PAN balances, sales, top-ups, unresolved sales, balance breaks, the
// cash drawer), closing the books with the drawer count, and the Z report as HTML, PDF and CSV.
import { mkdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { banknotes, DaySummarySchema, type DaySummary, type DrawerCount, type DrawerMoves, type HandlersFor, type ParsedInput, type Role } from '../contract'
import type { LedgerPort } from '../ledger/ledger-port'
import { writeFileAtomically } from '../ledger/durable-files'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { paiseToDecimal } from '../shared/money'
import { refuseUnlessClockAgrees } from './clock'
import { panHandlers } from './pan'
import type { SystemPrinter } from '../printers/printer-ports'
import { pendingItemOf } from './pending'
import type { Paper } from './receipt-printing'
import { chainStart, dayBalances } from './reconcile'
import type { Session } from './session'
import { askOffice, judgeShopBalance, type OfficeAnswer, type OfficeAsk } from './sibling-counters'
import { devanagariFontFace } from './paper-fonts'
import { zReportA4, zReportCsv, zReportFilename, zReportReceipt, type ZReportOptions } from './z-report'
import { say } from '../shared/words'

type DayChannels = 'day.summary' | 'day.close' | 'day.report' | 'day.printReport' | 'day.saveReport' | 'drawer.saveCount'

const A4 = { widthMm: 210, heightMm: 297 }
const MIN_OVERRIDE_NOTE = 10

async function closedSummary(ledger: LedgerPort, businessDay: string): Promise<DaySummary | null> {
  const closure = await ledger.read('dayClosure', businessDay)
  return closure && { ...DaySummarySchema.parse(closure.data.summary), closed: true, closedAt: closure.closedAt }
}

async function refuseIfClosed(ledger: LedgerPort, businessDay: string): Promise<void> {
  const closure = await ledger.read('dayClosure', businessDay)
  if (closure) throw new CounterError('day_closed', say('day.alreadyClosed', { day: businessDay, at: closure.closedAt }))
}

/** What the day put into the drawer and took out of it, apart from the float. */
interface DrawerFigures {
  cashSalesPaise: number
  duesCashPaise: number
  moves: DrawerMoves | null
}

/**
 * What the drawer should hold: the float, cash sales, dues paid in cash (credit sales took no money), and the cash put
 * in apart from sales less what was taken out (issue #29).
 */
function expectedDrawerPaise(openingFloatPaise: number, day: DrawerFigures): number {
  return openingFloatPaise + day.cashSalesPaise + day.duesCashPaise + (day.moves?.inPaise ?? 0) - (day.moves?.outPaise ?? 0)
}

const drawerFiguresOf = (summary: DaySummary): DrawerFigures => ({
  cashSalesPaise: summary.cash.collectedCashPaise,
  duesCashPaise: summary.credit.paidCashPaise,
  moves: summary.drawerMoves,
})

/** A saved count with what the owner sees of it: the drawer expected by its float, and the difference. */
function countWithFigures(count: DrawerCount | null, day: DrawerFigures): DrawerCount | null {
  if (!count) return null
  const expectedPaise = expectedDrawerPaise(count.openingFloatPaise, day)
  return { ...count, expectedPaise, differencePaise: count.countedPaise - expectedPaise }
}

/**
 * Decision (issue #29, blind close): while the setting is on, every answer to staff leaves out the expected drawer and
 * the difference, of an open day and a closed one, of the summary, a saved count and the Z report built from it. The
 * day's sales stay (staff see them in Today and History): what is kept from them is the figure to count towards.
 */
function blindFor(summary: DaySummary): DaySummary {
  const { expectedPaise: _expected, differencePaise: _difference, ...count } = summary.drawerCount ?? {}
  return {
    ...summary,
    cash: { ...summary.cash, expectedPaise: null, differencePaise: null, blind: true },
    drawerCount: summary.drawerCount ? (count as DrawerCount) : null,
  }
}

/** The drawer as counted, in exact paise (the contract bounds each count and the coins; blank coins are none). */
function countedCash(counted: ParsedInput<'day.close'>['counted']): { countedPaise: number; coinsPaise: number } {
  const coinsPaise = counted.coins ?? 0
  return { coinsPaise, countedPaise: banknotes.reduce((sum, note) => sum + counted[note.key] * note.paise, coinsPaise) }
}

/**
 * Every input is bounded, so a day's sums stay exact; a sum past Number.MAX_SAFE_INTEGER can only
 * come from an impossible amount stored before the bounds existed. Said plainly, never 'internal'.
 */
function refuseAbsurdFigures(summary: DaySummary): DaySummary {
  const { recharges, coupons, topups, cash, credit, drawerMoves } = summary
  const figures = [drawerMoves?.inPaise ?? 0, drawerMoves?.outPaise ?? 0, cash.collectedCashPaise, cash.collectedUpiPaise, credit.salesPaise, credit.paidCashPaise, credit.paidUpiPaise, credit.outstandingPaise, ...recharges.map((r) => r.amountPaise), ...coupons.map((c) => c.amountPaise), ...topups.map((t) => t.amountPaise)]
  if (figures.every(Number.isSafeInteger)) return summary
  throw new CounterError('invalid_input', say('day.overflow', { day: summary.businessDay }))
}

/** Closing over unresolved sales needs the owner's reason; the note is kept with the day either way. */
function overrideNoteFor(unresolved: number, note: string | undefined): string | null {
  if (unresolved > 0 && (note ?? '').length < MIN_OVERRIDE_NOTE) {
    throw new CounterError('invalid_input', say('day.unresolved', { count: unresolved }), {
      overrideNote: say('day.unresolvedField', { count: unresolved, min: MIN_OVERRIDE_NOTE }),
    })
  }
  return note || null
}

export function dayCloseHandlers(
  ctx: CounterContext,
  options: { resourcesDir: string; dataDir: string; systemPrinter?: SystemPrinter; paper: Paper; role: () => Role },
): HandlersFor<DayChannels> {
  /** The blind close keeps the expected drawer from staff (blindFor); the owner, and everyone without it, see it all. */
  const blind = () => ctx.settings.current.blindClose && options.role() !== 'owner'
  const asSeen = (summary: DaySummary): DaySummary => (blind() ? blindFor(summary) : summary)

  const receiptCss = readFileSync(join(options.resourcesDir, 'receipt.css'), 'utf8')
  // The PAN desk's own balance read (journaled, status bar told), not a second copy of it.
  const readPanBalance = panHandlers(ctx)['pan.balance.refresh']

  /** Only the real books are the shop's, and only a counter the office knows by name has siblings there. */
  const officeAsk = async (session: Session): Promise<OfficeAsk | null> => {
    if (session.mode !== 'real') return null
    const office = await ctx.settings.officeConfig()
    const terminal = await session.ledger.read('terminal')
    return office && terminal ? { office, terminalId: terminal.terminalId } : null
  }

  // A sale left open on an earlier day still holds money in doubt; one made on a later day does not.
  const unresolvedBy = async (session: Session, businessDay: string) =>
    (await ctx.answers.reads(session).unresolved()).filter((entry) => ctx.businessDay(new Date(entry.sale.createdAt)) <= businessDay)

  /** The office's word on the shop for the day, from one visit. */
  const officeAnswer = async (session: Session, businessDay: string): Promise<OfficeAnswer> =>
    askOffice(await officeAsk(session), await session.ledger.read('balanceFacts', businessDay, businessDay), await chainStart(session.ledger, businessDay), options.dataDir)

  /** `answer`: the office's, asked beforehand (the close's section must not wait on the office); asked now without it. */
  const liveSummary = async (session: Session, businessDay: string, answer?: OfficeAnswer): Promise<DaySummary> => {
    const { ledger } = session
    const dayFacts = await ledger.read('balanceFacts', businessDay, businessDay)
    const start = await chainStart(ledger, businessDay)
    const { opening, closing, breaks: ownBreaks } = dayBalances(dayFacts, start)
    const { breaks, shop } = judgeShopBalance(ownBreaks, dayFacts, start, answer === undefined ? await askOffice(await officeAsk(session), dayFacts, start, options.dataDir) : answer)
    const totals = await ledger.read('dayTotals', businessDay)
    const credit = await ledger.read('creditDay', businessDay)
    const drawerMoves = await ledger.read('drawerMoves', businessDay)
    const drawerCount = countWithFigures(await ledger.read('drawerCount', businessDay), { cashSalesPaise: totals.collected.cashPaise, duesCashPaise: credit.paidCashPaise, moves: drawerMoves })
    const pending = await unresolvedBy(session, businessDay)
    const now = ctx.now()
    return refuseAbsurdFigures({
      businessDay,
      closed: false,
      closedAt: null,
      openingPanBalance: opening,
      closingPanBalance: closing,
      recharges: totals.recharges,
      coupons: totals.coupons,
      topups: await ledger.read('topups', businessDay, businessDay),
      pending: pending.map((entry) => pendingItemOf(entry, now)),
      breaks,
      cash: {
        openingFloatPaise: null,
        collectedCashPaise: totals.collected.cashPaise,
        collectedUpiPaise: totals.collected.upiPaise,
        expectedPaise: null,
        countedPaise: null,
        differencePaise: null,
        counted: null,
        blind: false,
      },
      overrideNote: null,
      earnings: totals.earnings,
      credit,
      byRole: totals.byRole,
      shop,
      pinResets: await ledger.read('pinResets', businessDay, businessDay),
      drawerMoves,
      drawerCount,
    })
  }

  /** A closed day shows what was shown at its close; an open one is built now, today's with a fresh balance read. */
  const summaryOf = async (businessDay: string, readBalance: boolean): Promise<DaySummary> => {
    const session = ctx.session()
    const closed = await closedSummary(session.ledger, businessDay)
    if (closed) return asSeen(closed)
    // An unreachable provider leaves the last balance known, with its time: the summary still opens.
    if (readBalance && businessDay === ctx.businessDay(ctx.now())) await readPanBalance({}).catch(() => undefined)
    return asSeen(await liveSummary(session, businessDay))
  }

  // The font is read at the first report, not at start (paper-fonts.ts keeps it once read).
  const reportOptions = (): ZReportOptions => ({ shop: ctx.settings.current, training: ctx.session().mode === 'training', fontFace: devanagariFontFace(options.resourcesDir) })

  return {
    async 'day.summary'({ businessDay }) {
      return summaryOf(businessDay ?? ctx.businessDay(ctx.now()), true)
    },

    async 'day.close'(input) {
      const session = ctx.session()
      const { businessDay } = input
      if (businessDay > ctx.businessDay(ctx.now())) {
        throw new CounterError('invalid_input', say('day.notBegun', { day: businessDay }), { businessDay: say('day.notBegunField') })
      }
      // Every check that refuses the close runs before the provider's balance is read (that read is a
      // journal line), and again in the closing section below, where no other write can come between.
      const refusals = async (answer: OfficeAnswer) => {
        await refuseIfClosed(session.ledger, businessDay)
        refuseUnlessClockAgrees(session.ledger.clockCheck(), ctx.settings.current.timezone)
        const unresolved = (await unresolvedBy(session, businessDay)).length
        const overrideNote = overrideNoteFor(unresolved, input.overrideNote)
        return { overrideNote, live: await liveSummary(session, businessDay, answer) }
      }
      const { countedPaise, coinsPaise } = countedCash(input.counted)
      const openingFloatPaise = input.openingFloat
      // The figures of this first pass are not kept: only its refusals count, so the office is not asked for them.
      await refusals(null)
      // An unreachable provider leaves the last balance known, with its time: the close still goes ahead.
      if (businessDay === ctx.businessDay(ctx.now())) await readPanBalance({}).catch(() => undefined)
      // Closing vouches for the books: the whole journal's chain is checked first, not only the part
      // past the snapshot that opening checks. Outside the section: a long audit must not hold up sales.
      const audit = await session.ledger.auditJournal()
      if (!audit.ok) throw new CounterError('ledger_unavailable', say('day.journalDamaged', { problem: audit.problem ?? '' }))
      // And the saved copy the next start loads: one changed on disk is written again from these books (a notice says so).
      await session.ledger.checkSavedCopy()
      const answer = await officeAnswer(session, businessDay)
      // Decision: the figures closed are read in the same section as the close is written, so a sale
      // booked while the audit ran is in the Z report, and another window's close cannot come between.
      await ctx.recordWrite(async () => {
        const { overrideNote, live } = await refusals(answer)
        // Credit sales took no money; dues paid in cash did, into this drawer, as did cash put in apart from sales.
        const expectedPaise = expectedDrawerPaise(openingFloatPaise, drawerFiguresOf(live))
        const counted = { ...input.counted, coins: paiseToDecimal(coinsPaise) }
        const summary: DaySummary = {
          ...live,
          closed: true,
          closedAt: ctx.now().toISOString(),
          cash: { ...live.cash, openingFloatPaise, expectedPaise, countedPaise, differencePaise: countedPaise - expectedPaise, counted },
          overrideNote,
        }
        await session.ledger.append('day.closed', {
          businessDay,
          openingFloatPaise,
          counted: { n500: counted.n500, n200: counted.n200, n100: counted.n100, n50: counted.n50, n20: counted.n20, n10: counted.n10, coinsPaise },
          countedPaise,
          expectedCashPaise: expectedPaise,
          closingPanBalancePaise: summary.closingPanBalance.balancePaise,
          openingPanBalancePaise: summary.openingPanBalance.balancePaise,
          overrideNote,
          summary,
        })
      })
      try {
        await session.ledger.snapshot()
      } catch {
        // The close is in the journal already; the ledger's next periodic snapshot saves it again.
      }
      return (await closedSummary(session.ledger, businessDay))!
    },

    async 'drawer.saveCount'(input) {
      const session = ctx.session()
      const { businessDay } = input
      if (businessDay > ctx.businessDay(ctx.now())) {
        throw new CounterError('invalid_input', say('day.notBegun', { day: businessDay }), { businessDay: say('day.notBegunField') })
      }
      const { countedPaise, coinsPaise } = countedCash(input.counted)
      const openingFloatPaise = input.openingFloat
      const { n500, n200, n100, n50, n20, n10 } = input.counted
      // A closed day refuses the line (the ledger's day-bound check), as it refuses a sale.
      await ctx.recordWrite(async () => {
        await refuseIfClosed(session.ledger, businessDay)
        await session.ledger.append('drawer.counted', { businessDay, openingFloatPaise, counted: { n500, n200, n100, n50, n20, n10, coinsPaise }, countedPaise })
      })
      const { drawerCount } = asSeen(await liveSummary(session, businessDay, null))
      return drawerCount!
    },

    async 'day.report'({ businessDay, format }) {
      const summary = await summaryOf(businessDay, false)
      const report = reportOptions()
      const content = format === 'csv' ? zReportCsv(summary, report) : format === 'a4' ? zReportA4(summary, report) : zReportReceipt(summary, report, receiptCss)
      return { content, filename: zReportFilename(businessDay, format, report.training) }
    },

    async 'day.printReport'({ businessDay }) {
      return options.paper.printReport(zReportReceipt(await summaryOf(businessDay, false), reportOptions(), receiptCss))
    },

    async 'day.saveReport'({ businessDay, format }) {
      const printer = options.systemPrinter
      if (format === 'pdf' && !printer) {
        throw new CounterError('unsupported', say('pdf.reportInBrowser'))
      }
      const summary = await summaryOf(businessDay, false)
      const report = reportOptions()
      const folder = join(options.dataDir, 'reports')
      mkdirSync(folder, { recursive: true })
      const path = join(folder, zReportFilename(businessDay, format, report.training))
      if (format === 'pdf') await printer!.savePdf(zReportA4(summary, report), A4, path)
      else writeFileAtomically(dirname(path), basename(path), Buffer.from(zReportCsv(summary, report)))
      return { path }
    },
  }
}
