// What reaches the screen from below the core, in the screen language, through the real core: a printer that is
// off (its refusal and printer.status), Test connection's answer, the office that cannot be reached (app.status and
// the status events) and a books notice (a damaged journal line, in app.status and the status events). Hindi with a
// Hindi screen, with no English sentence left in it; English with an English one.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppStatus } from '../../electron/contract'
import { ledgerDir } from '../../electron/counter/session'
import { JOURNAL_DIR, segmentName } from '../../electron/ledger/journal'
import { SNAPSHOT_FILE } from '../../electron/ledger/snapshot'
import { closeCounter } from '../../electron/shutdown'
import { DEVANAGARI } from '../../electron/shared/words'
import { startFakePrinter, type FakePrinter } from '../helpers/escpos-printer'
import { eventually, startRealModeRig, statusEvents, valueOf, type RealModeRig } from './helpers'

let rig: RealModeRig | undefined
let printer: FakePrinter | undefined
afterEach(async () => {
  await rig?.close()
  await printer?.close()
  rig = undefined
  printer = undefined
})

/** Three Latin words in a row: an English sentence, or a piece of one, left on a Hindi screen. */
const ENGLISH_WORDS = /[A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}[,;:'"]? [A-Za-z]{2,}/

function hindiOnly(text: string | null | undefined): void {
  expect(text).toMatch(DEVANAGARI)
  expect(text).not.toMatch(ENGLISH_WORDS)
}

/** A port on 127.0.0.1 that nothing listens on: an office database that is not there. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('a printer that is off', () => {
  it('is refused, and its status told, in Hindi on a Hindi screen and in English on an English one', async () => {
    rig = await startRealModeRig()
    printer = await startFakePrinter()
    const where = printer.address
    valueOf(await rig.counter.call('settings.save', { printerKind: 'escpos', printerAddress: where, screenLanguage: 'hi' }))
    await printer.refuse()

    const refusedHi = await rig.counter.call('printer.testPage', {})
    expect(refusedHi).toEqual({
      ok: false,
      error: {
        code: 'printer_error',
        message: `${where} वाले प्रिंटर ने कनेक्शन लेने से मना किया: क्या वह चालू है, और क्या सेटिंग्स में उसका पता सही है (रसीद प्रिंटर पोर्ट 9100 पर काम लेते हैं)? प्रिंटर जाँचें, फिर टेस्ट पेज दोबारा छापें।`,
      },
    })
    hindiOnly(!refusedHi.ok ? refusedHi.error.message : null)
    const statusHi = valueOf(await rig.counter.call('printer.status', {}))
    expect(statusHi.state).toBe('unreachable')
    expect(statusHi.message).toContain(where)
    hindiOnly(statusHi.message)

    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(await rig.counter.call('printer.testPage', {})).toEqual({
      ok: false,
      error: {
        code: 'printer_error',
        message: `The printer at ${where} refused the connection: is it switched on, and is its address right in Settings (receipt printers take jobs on port 9100)? Check the printer, then print the test page again.`,
      },
    })
    expect(valueOf(await rig.counter.call('printer.status', {})).message).toBe(`The printer at ${where} refused the connection: is it switched on, and is its address right in Settings (receipt printers take jobs on port 9100)?`)
  })
})

describe('Test connection', () => {
  it("answers in the screen's language", async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    const hi = valueOf(await rig.counter.call('settings.testConnection', {}))
    expect(hi).toEqual({ outcome: 'SUCCESS', message: 'प्रोवाइडर ने ऑपरेटर की जाँच का जवाब दिया: यूज़र ID, टोकन और सीक्रेट की काम कर रहे हैं।' })
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(valueOf(await rig.counter.call('settings.testConnection', {}))).toEqual({
      outcome: 'SUCCESS',
      message: 'The provider answered the operator lookup: the user id, token and secret key work.',
    })
  })
})

describe('the office that cannot be reached', () => {
  it('is shown in the status bar in Hindi on a Hindi screen, in app.status and in the status events, and in English on an English one', async () => {
    rig = await startRealModeRig()
    const seen = statusEvents(rig.counter)
    const port = await closedPort()
    const where = `127.0.0.1:${port}`
    valueOf(
      await rig.counter.call('settings.save', {
        screenLanguage: 'hi',
        shopName: 'Sharma Mobile',
        counterName: 'Counter 1',
        officeHost: '127.0.0.1',
        officePort: port,
        officeDatabase: 'office',
        officeUser: 'counter',
        officeTls: false,
        officePassword: 'not-a-real-password',
      }),
    )
    const away = `${where} वाले ऑफ़िस डेटाबेस ने कनेक्शन लेने से मना किया (क्या वह चल रहा है?)।`
    const office = await eventually(async () => {
      const now = valueOf(await rig!.counter.call('app.status', {})).office
      return now?.state === 'unreachable' ? now : null
    }, 'the office unreachable')
    expect(office.message).toBe(away)
    hindiOnly(office.message)
    await eventually(async () => seen.some((status) => status.office?.message === away), 'a status event in Hindi')
    expect(seen.every((status) => !status.office?.message || DEVANAGARI.test(status.office.message))).toBe(true)

    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    const english = `The office database at ${where} refused the connection (is it running?).`
    await eventually(async () => valueOf(await rig!.counter.call('app.status', {})).office?.message === english, 'the office unreachable, in English')
    await eventually(async () => seen.at(-1)?.office?.message === english, 'a status event in English')
  })
})

describe('a books notice', () => {
  it('is shown in Hindi on a Hindi screen, in app.status and the status events, and in English on an English one', async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    valueOf(await rig.counter.call('topups.add', { amount: '1000', reference: 'UTR 5512 9987' }))
    const segment = join(ledgerDir(rig.dataDir, 'real'), JOURNAL_DIR, segmentName(1))
    let line = 0
    await rig.restart(() => {
      const lines = readFileSync(segment, 'utf8').split('\n')
      line = lines.length - 1
      lines[line - 1] = lines[line - 1].replace(/}$/, '#')
      writeFileSync(segment, lines.join('\n'))
    })
    const seen = statusEvents(rig.counter)

    const damage = { hi: `जर्नल लाइन ${line} पर खराब है: वह जर्नल की लाइन नहीं है (${segmentName(1)} में)।`, en: `The journal is damaged at line ${line}: it is not a journal line (in ${segmentName(1)}).` }
    const readOnly = { hi: `${damage.hi} जब तक इसे देखा न जाए, लेजर सिर्फ़ पढ़ने के लिए है।`, en: `${damage.en} The ledger is read-only until this is looked into.` }
    const books = (status: AppStatus) => status.books
    const hi = books(valueOf(await rig.counter.call('app.status', {})))
    expect(hi.readOnly).toBe(readOnly.hi)
    expect(hi.notices).toContain(damage.hi)
    for (const notice of hi.notices) hindiOnly(notice)
    // A refusal for the damaged books carries the notice, in Hindi too.
    const refused = await rig.counter.call('topups.add', { amount: '500', reference: 'UTR 5512 9988' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'ledger_unavailable', message: expect.stringContaining(readOnly.hi) } })
    hindiOnly(!refused.ok ? refused.error.message : null)

    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(books(seen.at(-1)!)).toMatchObject({ readOnly: readOnly.en, notices: expect.arrayContaining([damage.en]) })
    expect(books(valueOf(await rig.counter.call('app.status', {})))).toMatchObject({ readOnly: readOnly.en, notices: expect.arrayContaining([damage.en]) })
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    expect(books(seen.at(-1)!)).toMatchObject({ readOnly: readOnly.hi, notices: expect.arrayContaining([damage.hi]) })
  })
})

describe("the status bar's clock", () => {
  it('says the clock disagrees in Hindi on a Hindi screen and in English on an English one', async () => {
    const base = Date.parse('2026-11-23T05:00:00.000Z')
    let clock = base
    rig = await startRealModeRig({}, { now: () => new Date(clock) })
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    expect(valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812345601', operatorCode: 'AT', amount: '10' })).state).toBe('SUCCESS')
    clock = base + 200 * 24 * 60 * 60 * 1000
    await rig.restart()
    const seen = statusEvents(rig.counter)
    expect(valueOf(await rig.counter.call('app.status', {})).clock.message).toBe(
      'कंप्यूटर की घड़ी 11-06-2027 10:30 बता रही है, पर हिसाब की आखिरी एंट्री 23-11-2026 10:30 पर थी। तारीख और समय जाँचें; अगर सही हैं, तो ऊपर की पट्टी में उनकी पुष्टि करें।',
    )
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'en' }))
    expect(seen.at(-1)?.clock.message).toBe(
      "The computer's clock says 11-06-2027 10:30 but the last entry in the books was at 23-11-2026 10:30. Check the date and time; if they are right, confirm them in the bar at the top.",
    )
  })
})

describe('a stop on a full disk', () => {
  it("says the books' saved copy could not be written, in Hindi on a Hindi screen", async () => {
    rig = await startRealModeRig()
    valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9812300005', operatorCode: 'AT', circle: 'DL', amount: '199' }))
    valueOf(await rig.counter.call('settings.save', { screenLanguage: 'hi' }))
    // /dev/full takes the open and fails every write with ENOSPC, exactly like a full disk.
    symlinkSync('/dev/full', join(ledgerDir(rig.dataDir, 'real'), `${SNAPSHOT_FILE}.tmp`))
    const problems = await closeCounter(rig.counter)
    expect(problems).toEqual(['बंद करते समय लेजर की सेव की हुई कॉपी नहीं लिखी जा सकी (डिस्क भरी है); हर बिक्री जर्नल में है और अगली बार चालू होने पर कॉपी फिर बन जाएगी।'])
    for (const problem of problems) hindiOnly(problem)
  })
})

