// The office view's HTTP server on 127.0.0.1: GET / with the per-launch token answers a day's or a range's page (with the tamper check it runs on a schedule), or one of its tables as CSV; nothing else is served.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { readDay } from '../shared/dates'
import { checkLaunchToken, foreignCaller, listenOnLoopback, loopbackCallers, newLaunchToken, sameSecret } from '../shared/loopback-guard'
import { officeCsv, officeDayPage, problemPage, type TamperState } from './office-page'
import { officeToday, type OfficeReader } from './office-view'

/**
 * Decision: the tamper check runs at the start, then again 10 minutes after each run ends, or twenty times as long
 * as the run took if that is longer: a row changed at the office is on the page within 10 minutes in an office of a
 * few million lines (or at once, with "Check now"), and however many lines it holds, the check (which reads them all,
 * chain-check.ts) keeps the database busy at most a twentieth of the time.
 */
const CHECK_EVERY_MS = 10 * 60_000
const MAX_RANGE_DAYS = 366
const CHECK_REST = 20

export interface OfficeServerOptions {
  reader: Pick<OfficeReader, 'day' | 'problemWords' | 'checkChains'>
  timeZone: string
  port?: number
  token?: string
  /** The least time between two scheduled tamper checks; CHECK_EVERY_MS unless a test says otherwise. */
  checkEveryMs?: number
}

export interface OfficeServer {
  origin: string
  /** The address to open, token included. */
  url: string
  token: string
  close(): Promise<void>
}

const HEADERS = {
  // No script, no frames, nothing fetched from elsewhere: the page is its HTML and its inline style.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  // The address carries the token: it must not leave in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Content-Type': 'text/html; charset=utf-8',
}

function send(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { ...HEADERS, 'Content-Length': Buffer.byteLength(html) })
  res.end(html)
}

/**
 * Decision: the token is taken from the address (?token=, as `npm run office` prints it) or an
 * Authorization: Bearer header. A page without script cannot keep it anywhere else; the page is
 * read-only, on the loopback, links nowhere else, and sends no Referer.
 */
export async function startOfficeServer(options: OfficeServerOptions): Promise<OfficeServer> {
  checkLaunchToken(options.token, 'COUNTER_OFFICE_TOKEN')
  const token = options.token ?? newLaunchToken()
  let allowed = loopbackCallers(-1)
  let tamper: TamperState = { kind: 'pending' }
  let checking: Promise<void> | null = null
  /** Runs the tamper check, or joins the one running; the page shows whichever finished last. */
  const check = () => {
    checking ??= options.reader
      .checkChains()
      .then(
        (result) => {
          tamper = { kind: 'done', check: result }
        },
        (error: unknown) => {
          tamper = { kind: 'failed', at: new Date(), words: options.reader.problemWords(error) }
        },
      )
      .finally(() => {
        checking = null
      })
    return checking
  }
  let schedule: NodeJS.Timeout | undefined
  let closed = false
  const scheduled = async () => {
    const started = Date.now()
    await check()
    if (!closed) schedule = setTimeout(() => void scheduled(), Math.max(options.checkEveryMs ?? CHECK_EVERY_MS, CHECK_REST * (Date.now() - started)))
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const foreign = foreignCaller(req, allowed)
    if (foreign) return send(res, 403, problemPage('Refused', foreign === 'host' ? 'The office view only answers on its own loopback address.' : 'Requests from other sites are refused.'))
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://localhost')
    } catch {
      return send(res, 400, problemPage('Bad address', 'The address of this request is malformed.'))
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, problemPage('Not allowed', 'The office view is read-only: it only shows pages.'))
    const given = url.searchParams.get('token') ?? (req.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!sameSecret(given, token)) return send(res, 401, problemPage('Token needed', 'Open this page with the address `npm run office` printed when it started (it carries a token).'))
    if (url.pathname !== '/') return send(res, 404, problemPage('Not found', 'The office view has one page: /.'))
    const today = officeToday(new Date(), options.timeZone)
    const asked = url.searchParams.get('day')
    // The form's date field sends YYYY-MM-DD; readDay (DD-MM-YYYY) is what refuses a day the calendar has not got.
    const dayOf = (text: string) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? readDay(text.split('-').reverse().join('-')) : null)
    const day = asked === null || asked === '' ? today : dayOf(asked)
    if (day === null) return send(res, 400, problemPage('Not a day', 'That day is not a calendar date: choose one in the form, or write it as YYYY-MM-DD.'))
    const askedTo = url.searchParams.get('to')
    const to = askedTo === null || askedTo === '' ? day : dayOf(askedTo)
    if (to === null) return send(res, 400, problemPage('Not a day', 'The last day is not a calendar date: choose one in the form, or write it as YYYY-MM-DD.'))
    // Decision: at most a year at once, from the first day on: the page sums the days' rows, and a year is what an owner compares.
    if (to < day || Date.parse(to) - Date.parse(day) > MAX_RANGE_DAYS * 86_400_000) {
      return send(res, 400, problemPage('Not a range', `The last day must be on or after the first, and at most ${MAX_RANGE_DAYS} days after it.`))
    }
    const address = { token, day: day === today && to === day ? null : day, to: to === day ? null : to, refresh: url.searchParams.get('refresh') === 'on' }
    if (url.searchParams.get('check') === 'now') {
      // One that began before this request may have read the office before a change it is asked about: a fresh one after it.
      await checking
      await check()
    }
    try {
      const view = await options.reader.day(day, options.timeZone, to)
      const table = url.searchParams.get('csv')
      if (table !== null) {
        const csv = officeCsv(view, { timeZone: options.timeZone, now: new Date() }, table)
        if (!csv) return send(res, 404, problemPage('Not found', 'The page has no table of that name.', address))
        res.writeHead(200, { ...HEADERS, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${csv.filename}"`, 'Content-Length': Buffer.byteLength(csv.content) })
        return res.end(csv.content)
      }
      send(res, 200, officeDayPage(view, { timeZone: options.timeZone, now: new Date(), address, tamper }))
    } catch (error) {
      send(res, 503, problemPage('Office database unavailable', options.reader.problemWords(error), address))
    }
  }

  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    void handle(req, res).catch(() => {
      if (res.headersSent) return res.destroy()
      send(res, 500, problemPage('Could not answer', 'The office view could not answer that request.'))
    })
  })
  const { allowed: callers, ...address } = await listenOnLoopback(server, options.port ?? 0, token)
  allowed = callers
  // Only once it listens: a server that could not start leaves no schedule running.
  void scheduled()
  return {
    ...address,
    token,
    async close() {
      closed = true
      clearTimeout(schedule)
      await new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
      // The reader is closed after this: a check still running ends first.
      await checking
    },
  }
}
