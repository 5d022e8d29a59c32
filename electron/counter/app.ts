// Composition root of the core: builds settings, the mode's session and every domain's handlers
// into the one map the transports (Electron IPC, browser mode, tests) dispatch into.
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { version } from '../../package.json'
import type { AppStatus, CounterEvent, EventName, EventPayload, Handlers, HandlersFor, Role } from '../contract'
import { lookupAnswered } from '../partners/recharge-api'
import { ClockUnconfirmedError } from '../ledger/clock-sense'
import { DayClosedError, LedgerWriteError } from '../ledger/ledger-errors'
import { businessDayOf } from './business-day'
import { clockRefusal, clockStatus } from './clock'
import { loadCatalog } from './catalog'
import type { CounterContext } from './context'
import { keychainSecrets, type Keychain } from './credentials'
import type { directClient, dispatch, Log } from './dispatch'
import { CounterError } from './errors'
import { english, type Language, say, speak, speakAll } from '../shared/words'
import { HeldAnswers } from './held-answers'
import { undoCutRestore } from './restore-folders'
import { serialQueue } from './serial'
import type { HtmlRasterizer, SystemPrinter } from '../printers/printer-ports'
import { ledgerDir, openSession, type Session, type SessionOptions } from './session'
import { Settings } from './settings'
import { singleFlight } from './single-flight'
import { startupTimeline } from '../shared/startup-timeline'

export interface CounterOptions {
  dataDir: string
  resourcesDir: string
  platform: AppStatus['platform']
  /** The keychain, shared by every data folder of the OS user; the counter uses the entries named for `dataDir`. */
  secrets: Keychain
  env?: NodeJS.ProcessEnv
  /** The OS's printers (the desktop app); without them receipts print through the browser or on an ESC/POS printer. */
  systemPrinter?: SystemPrinter
  /** Draws receipt HTML as pixels for an ESC/POS printer (₹, Devanagari, the Z report). */
  rasterizer?: HtmlRasterizer
  /** Whole-request limit for provider calls. */
  providerTimeoutMs?: number
  /** How often a provider answer the disk refused is tried again (held-answers.ts); it is also tried before every write. */
  heldRetryMs?: number
  now?: () => Date
  log?: Log
  /** Starts the provider training mode practises on (see TrainingProvider). */
  startTraining: SessionOptions['startTraining']
}

export interface CounterApp {
  handlers: Handlers
  /** Typed direct calls through the same validation and envelope as IPC. */
  call: ReturnType<typeof directClient>
  dispatch(channel: unknown, input: unknown): ReturnType<typeof dispatch>
  onEvent(listener: (event: CounterEvent) => void): () => void
  session(): Session
  /**
   * Resolves once the year's archive check and today's backup, asked for so far, are done: they run after the counter
   * answers (a start, a change of mode, a restore, a confirmed clock). Never rejects: what failed is logged.
   */
  housekeeping(): Promise<void>
  /**
   * Stops the core. Resolves to what went wrong, one plain line each in the screen language, for the launcher
   * to show (e.g. the ledger's saved copy could not be written on a full disk: nothing is lost); never
   * rejects for that.
   */
  close(): Promise<string[]>
  /** The language the shop's screens show: for what the launchers say themselves (browser mode's refusals, a stop). */
  screenLanguage(): Language
}

export async function startCounter(options: CounterOptions): Promise<CounterApp> {
  const { dataDir, resourcesDir, platform, log = console.error } = options
  const mark = startupTimeline(options.env ?? {})
  mark('core: starting')
  mkdirSync(dataDir, { recursive: true })
  const secrets = options.secrets.forFolder(dataDir)
  const settings = new Settings(dataDir, options.env ?? {}, secrets)
  const catalog = loadCatalog(resourcesDir)
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.providerTimeoutMs ?? 30_000
  const listeners = new Set<(event: CounterEvent) => void>()
  undoCutRestore(dataDir, log)
  mark('core: settings and catalog read')
  // Started together: the ledger thread opens the books on the other core while this thread loads the rest of the
  // core, a turn of the event loop from now, once the thread is asked for (and a page request waiting is served).
  const domainsLoading = nextTurn().then(() => import('./domains'))
  // Who stamps each journal line is asked at each write, none of which comes before the roles exist (below).
  const by = (): Role => roles.role()
  const sessionOptions = { dataDir, settings, timeoutMs, now, startTraining: options.startTraining, by }
  const opening = openSession(sessionOptions)
  // Awaited below, once the domains are loaded: a failed open is not left unheard meanwhile.
  opening.catch(() => undefined)
  const {
    createRoles, panBalanceOf, runDailyBackup, officeShipping, offsiteBackup, rechargeHandlers, panHandlers, TEST_CONNECTION_NUMBER, createPendingQueue,
    receiptPrinting, dayCloseHandlers, salesHandlers, upiHandlers, reconcileHandlers, historyHandlers, marginHandlers, creditHandlers,
    drawerHandlers, customerHandlers, restoreHandlers, directClient, dispatch,
  } = await domainsLoading.catch(async (error: unknown) => {
    // A broken install: the books opening meanwhile are closed again, not left locked by a counter that never answers.
    await opening.then((opened) => opened.close(), () => undefined)
    throw error
  })
  mark('core: domains loaded')
  const roles = createRoles({
    dataDir,
    store: settings,
    secrets,
    now,
    log,
    announce: (current) => emit('roles.changed', current),
    pinWasSet: () => announceStatus(),
  })
  let session = await opening.catch((error: unknown) => {
    roles.stop()
    throw error
  })
  mark('core: books open')
  // Before the counter answers anyone: a reset asked for is journaled in the books it opened with, then done.
  await roles.resetIfAsked((file) => session.ledger.append('owner.pin.reset', { file, businessDay: businessDayOf(now(), settings.current.timezone) }))
  /** The provider as the status bar shows it; not known again after a change of mode (another provider). */
  const NOT_ASKED_YET = { connectivity: 'unknown', lastContactAt: null, unreachableSince: null } as const
  let contact: Pick<AppStatus, 'connectivity' | 'lastContactAt' | 'unreachableSince'> = NOT_ASKED_YET

  // The one place events leave the core for the screens: their said messages are spoken here, as answers are in the dispatch.
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    const spoken = speakAll(payload, settings.current.screenLanguage)
    for (const listener of listeners) listener({ name, payload: spoken } as CounterEvent)
    // Any sale that changes may join or leave the pending list.
    if (name === 'sale.changed' || name === 'coupon.changed') pending.publish()
  }
  const clockNow = (of: Session = session) => clockStatus(of.ledger.clockCheck(), settings.current.timezone)
  const status = async (): Promise<AppStatus> => {
    // All of one session's books, even should the mode switch while the balance is read.
    const current = session
    // Asked together: the screen's first call waits for the slowest, not for the three one after another.
    const [panBalance, pinReset, backup] = await Promise.all([panBalanceOf(current), roles.pinSet() ? null : current.ledger.read('lastPinReset'), offsite.status()])
    return {
      mode: current.mode,
      platform,
      ...contact,
      shopName: settings.current.shopName,
      businessDay: ctx.businessDay(now()),
      panBalance,
      version,
      books: { readOnly: current.ledger.readOnly, notices: current.ledger.notices },
      clock: clockNow(current),
      office: office.status(),
      pinReset,
      backup,
    }
  }
  /** For changes the caller need not wait on; a status the books cannot give now (a closing session) comes with the next change. */
  const announceSoon = singleFlight(async () => emit('status.changed', await status()))
  const announceStatus = () => {
    announceSoon().catch(() => undefined)
  }

  const serial = serialQueue()
  const answers = new HeldAnswers(options.heldRetryMs ?? 5_000, () => session, serial)
  const ctx: CounterContext = {
    session: () => session,
    settings,
    catalog,
    now,
    businessDay: (at) => businessDayOf(at, settings.current.timezone),
    emit,
    status,
    answers,
    serial,
    async recordWrite(write, consequence) {
      await answers.flush()
      try {
        return await serial(write)
      } catch (err) {
        if (err instanceof LedgerWriteError) {
          throw new CounterError('ledger_unavailable', consequence ? say('ledger.refusedThen', { problem: err.message, consequence }) : say('ledger.refused', { problem: err.message }))
        }
        if (err instanceof DayClosedError) throw new CounterError('day_closed', say('day.closedNothingMore', { problem: say('ledger.dayClosed', { day: err.businessDay }) }))
        if (err instanceof ClockUnconfirmedError) {
          // The clock may have drifted out while the counter was open: the bar at the top shows it now.
          emit('status.changed', await status())
          throw clockRefusal(err.check, settings.current.timezone)
        }
        throw err
      }
    },
    async saleChanged(owner, changed) {
      const reads = answers.reads(owner)
      const sale = typeof changed === 'string' ? await reads.sale(changed) : reads.shown(changed)
      if (!sale) throw new CounterError('internal', say('ledger.lostOrder', { orderId: String(changed) }))
      if (owner === session) emit('sale.changed', sale)
      return sale
    },
    /*
     * Decision: the bar speaks of one provider, not of its recharge and PAN addresses apart. What most often takes the
     * provider away is the shop's own line, and that takes both at once; a shop sells recharges all day and calls PAN
     * now and then, and nothing asks an address nobody is using (a balance read is a journal line), so a bar per address
     * would go on saying PAN cannot be reached long after the line came back. The last call, to either, decides.
     */
    noteContact({ httpStatus }) {
      const at = now().toISOString()
      const before = contact
      contact =
        httpStatus !== null
          ? { connectivity: 'online', lastContactAt: at, unreachableSince: null }
          : { ...contact, connectivity: 'offline', unreachableSince: contact.unreachableSince ?? at }
      // Every answer moves the last contact on, but the bar shows it to the minute: an answer within the minute
      // it shows tells the screens nothing new (and each telling reads the books), nor does another call that reached no one.
      const minuteOf = (iso: string | null) => (iso === null ? null : Math.floor(Date.parse(iso) / 60_000))
      if (contact.connectivity !== before.connectivity || minuteOf(contact.lastContactAt) !== minuteOf(before.lastContactAt)) announceStatus()
    },
  }

  const office = officeShipping(ctx, dataDir, announceStatus, log)
  /** The office shipper's starts and restarts, one at a time (one may still be under way when settings change). */
  let officeTurn: Promise<void> = Promise.resolve()
  const refreshOffice = () => (officeTurn = officeTurn.catch(() => undefined).then(() => office.refresh()))
  const offsite = offsiteBackup(ctx, dataDir, announceStatus, log)
  const recharge = rechargeHandlers(ctx)
  const pan = panHandlers(ctx)
  const settingsAndStatus: HandlersFor<'app.status' | 'app.confirmClock' | 'settings.get' | 'settings.save' | 'settings.testConnection'> = {
    async 'app.status'() {
      return status()
    },
    async 'app.confirmClock'() {
      const check = session.ledger.clockCheck()
      // A clock that already agrees needs no line in the journal.
      if (check !== null && check.state !== 'ok') {
        await ctx.recordWrite(() => session.ledger.append('clock.confirmed', { clockAt: check.clockAt, lastEntryAt: check.floorAt }))
        // Waited for here: the owner who confirms is told at once what the archive check found (a year brought back).
        tidyInBackground()
        await tidying
      }
      const confirmed = await status()
      emit('status.changed', confirmed)
      return confirmed
    },
    async 'settings.get'() {
      return settings.view()
    },
    async 'settings.save'(input) {
      const before = settings.mode
      await settings.save(input)
      if (settings.mode !== before) await switchSession()
      else {
        session.dropClients()
        await refreshOffice()
      }
      emit('status.changed', await status())
      return settings.view()
    },
    async 'settings.testConnection'() {
      const api = await session.rechargeApi()
      const reply = await api.fetchOperator(TEST_CONNECTION_NUMBER)
      const answered = lookupAnswered(reply)
      ctx.noteContact(reply)
      // Decision: a refusal carries the provider's own words (its answer's message) as it sent them, inside ours;
      // no answer (a lookup never sent included) is said without the network's detail, which is English developer words.
      const message =
        reply.outcome === 'SUCCESS'
          ? say('connection.answered')
          : answered
            ? say('connection.refused', { answer: reply.message })
            : say('connection.noAnswer')
      return { outcome: reply.outcome, message }
    },
  }
  const pending = createPendingQueue(ctx, {
    recharge: (orderId) => recharge['recharge.checkStatus']({ orderId }),
    coupon: (attemptId) => pan['pan.coupons.checkStatus']({ attemptId }),
  })
  const { systemPrinter } = options
  const paper = receiptPrinting(ctx, { resourcesDir, systemPrinter, rasterizer: options.rasterizer })
  const dayClose = dayCloseHandlers(ctx, { resourcesDir, dataDir, systemPrinter, paper, role: roles.role })
  const handlers: Handlers = {
    ...recharge,
    ...pan,
    ...salesHandlers(ctx, { resourcesDir, dataDir, systemPrinter, paper }),
    ...upiHandlers(ctx),
    ...settingsAndStatus,
    ...pending.handlers,
    ...reconcileHandlers(ctx),
    ...dayClose,
    async 'day.close'(input) {
      const closed = await dayClose['day.close'](input)
      // Each closed day goes off the PC too (issue #30), while the shop goes on.
      offsite.afterDayClose()
      return closed
    },
    ...historyHandlers(ctx),
    ...marginHandlers(ctx),
    ...paper.handlers,
    ...creditHandlers(ctx),
    ...drawerHandlers(ctx, roles.role),
    ...roles.handlers,
    ...customerHandlers(ctx),
    ...offsite.handlers,
    ...restoreHandlers(ctx, { dataDir, backupRunning: async () => (await offsite.status()).running, reopenBooks, log }),
    async 'office.registerAnew'({ terminalId }) {
      const registered = await office.registerAnew(terminalId)
      emit('status.changed', await status())
      return { terminalId: registered }
    },
  }

  async function switchSession() {
    // The last chance for held answers to reach these books; any still held are settled by that mode's start-up check.
    await answers.flush()
    const old = session
    session = await openSession(sessionOptions)
    watchBooks()
    contact = NOT_ASKED_YET
    await pending.stop()
    await tidying
    for (const problem of await old.close()) log(`counter: ${english(problem)}`)
    tidyInBackground()
    await refreshOffice()
    background = catchUp()
  }

  /**
   * A restore's swap of the real books' folder (restore.ts): the books closed first, as at exit, so nothing writes to the
   * folder being moved; opened again after, with everything a start does. Should the new books not open, `undo` puts
   * the old ones back and they are opened. In training the real books are not open: only the folders move.
   */
  async function reopenBooks(swap: () => void, undo: () => void) {
    if (session.mode !== 'real') return swap()
    await answers.flush()
    await pending.stop()
    await background
    await tidying
    for (const problem of await session.close()) log(`counter: ${english(problem)}`)
    swap()
    try {
      session = await openSession(sessionOptions)
    } catch (error) {
      undo()
      session = await openSession(sessionOptions)
      throw new CounterError('restore_failed', say('restore.failed', { problem: english(error instanceof Error ? error.message : String(error)) }))
    } finally {
      watchBooks()
      tidyInBackground()
      await refreshOffice()
      background = catchUp()
      announceStatus()
    }
  }

  /**
   * At start, beside tidyBooks: the queue that asks the provider about sales a
   * crash or a lost answer left open, and the PAN balance. Housekeeping that fails is logged and
   * retried at the next start; it never stops the counter or the pending checks.
   * Both at once, as soon as the counter opens: the queue's first look finds only what the last run
   * left open (a sale left open after it waits for its schedule), and the balance is read first thing.
   */
  async function catchUp() {
    await Promise.all([pending.start(), pan['pan.balance.refresh']({}).catch(() => undefined)])
  }

  /**
   * The year's archive and today's backup, both dated by the clock: while the owner has not
   * confirmed a clock that disagrees with the journal they wait (a clock months ahead would archive
   * the year still being sold in, and prune every backup as old); app.confirmClock runs them.
   */
  async function tidyBooks() {
    // The books as the work began: a change of mode meanwhile waits for it (switchSession), and must not have it back up the new books.
    const books = session
    const clock = clockNow(books)
    if (clock.state !== 'ok') {
      log(`counter: archiving and today's backup wait until the clock is confirmed (${english(clock.message ?? '')})`)
      return
    }
    const housekeeping = async (what: string, work: () => unknown) => {
      try {
        await work()
      } catch (err) {
        log(`counter: ${what} failed (${err instanceof Error ? english(err.message) : String(err)})`)
      }
    }
    const today = ctx.businessDay(now())
    // The active ledger holds the current financial year; closed years move to read-only archives.
    await housekeeping('archiving closed financial years', () => books.ledger.archiveClosedYears(today))
    if (books.mode === 'real') await housekeeping("today's backup", () => runDailyBackup({ dataDir, ledgerDir: ledgerDir(dataDir, 'real'), today, copyLedger: (into) => books.ledger.backUpInto(into) }))
  }

  /**
   * Decision: the archive check and today's backup run after the counter answers, one after another, never two at
   * once. At a million sales they were a second of a 2.5 s start (the backup copies the books); both take their turn
   * with the snapshots in the ledger's threads, so sales go on meanwhile, and an archive shows its progress on the
   * status bar. Whatever closes or swaps the books waits for them first.
   */
  function tidyInBackground() {
    tidying = tidying.then(tidyBooks).catch((error: unknown) => log(`counter: tidying the books failed (${error instanceof Error ? english(error.message) : String(error)})`))
  }

  /**
   * What the books find after start (the day close's audit, a failed snapshot) reaches the screen at
   * once, not at the next refusal; so does how far a long audit or archiving has got.
   */
  function watchBooks() {
    const watched = session
    watched.ledger.onBooksChanged(() => {
      if (watched === session) announceStatus()
    })
    watched.ledger.onProgress((progress) => {
      if (watched === session) emit('books.progress', progress)
    })
  }

  watchBooks()
  mark('core: handlers built')
  let tidying: Promise<void> = Promise.resolve()
  // Not awaited: the counter opens at once while the provider is asked. Started now, not later with the rest below:
  // its first look at the books must find only what the last run left open, before any sale of this one is written.
  let background = catchUp()
  /**
   * What the first sale does not need starts a turn of the event loop after the counter answers, so a call already
   * waiting (the screen's first) goes first: the year's archive and today's backup; the office shipper, which may
   * journal the counter's name and read the keychain.
   */
  const afterAnswering = nextTurn().then(() => {
    tidyInBackground()
    void tidying.then(() => mark("core: year archive checked, today's backup made (after the counter answers)"))
    refreshOffice().then(
      () => mark('core: office shipping started (after the counter answers)'),
      (error: unknown) => log(`counter: starting the office shipping failed (${error instanceof Error ? english(error.message) : String(error)})`),
    )
  })

  const screenLanguage = () => settings.current.screenLanguage
  return {
    handlers,
    call: directClient(handlers, log, roles, screenLanguage),
    dispatch: (channel, input) => dispatch(handlers, channel, input, log, roles, screenLanguage),
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    session: () => session,
    housekeeping: () => afterAnswering.then(() => tidying),
    screenLanguage,
    async close() {
      listeners.clear()
      roles.stop()
      await officeTurn.catch(() => undefined)
      await office.stop()
      await offsite.stop()
      await background
      await tidying
      await pending.stop()
      await answers.flush()
      answers.stop()
      return (await session.close()).map((problem) => speak(problem, screenLanguage()))
    },
  }
}

/** Where Counter keeps its files: COUNTER_DATA_DIR, else the same folder Electron's userData uses. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  if (env.COUNTER_DATA_DIR) return env.COUNTER_DATA_DIR
  const home = homedir()
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Counter')
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Counter')
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Counter')
}

/** How both the desktop app and browser mode start: environment, data folder and keychain. */
export function startCounterFromEnvironment(options: Pick<CounterOptions, 'platform' | 'resourcesDir' | 'systemPrinter' | 'rasterizer' | 'startTraining'>): Promise<CounterApp> {
  return startCounter({ ...options, env: process.env, dataDir: dataDirFrom(process.env), secrets: keychainSecrets() })
}
