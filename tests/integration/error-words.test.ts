// The core's refusals in the screen language, through the real core: with Settings' screen language Hindi, a
// recharge to a bad number, a service charge past the cap, a top-up past its bound, a settings field and an
// owner-only channel called by staff are each refused in Hindi words, in the message and beside the field;
// with English, in English. Each refusal changes nothing in the journal.
import { afterEach, describe, expect, it } from 'vitest'
import type { Result } from '../../electron/contract'
import type { Language } from '../../electron/shared/words'
import { journalOf, startRealModeRig, valueOf, type RealModeRig } from './helpers'

const PIN = '73915286'

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

interface Refusal {
  what: string
  call: (r: RealModeRig) => Promise<Result<unknown>>
  code: string
  /** The field the screen shows the words beside. */
  field: string
  words: Record<Language, string>
  /** The form's one message, when it is not the field's words. */
  message?: Record<Language, string>
}

const refusals: Refusal[] = [
  {
    what: 'a recharge to a bad number',
    call: (r) => r.counter.call('recharge.sell', { kind: 'mobile', number: '98765', operatorCode: 'AT', circle: 'DL', amount: '199' }),
    code: 'invalid_input',
    field: 'number',
    words: { en: 'Mobile number must be exactly 10 digits', hi: 'मोबाइल नंबर ठीक 10 अंकों का होना चाहिए' },
  },
  {
    what: 'a recharge collecting more than the service-charge cap (the core checks it against Settings)',
    call: (r) => r.counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', circle: 'DL', amount: '199', collected: '400' }),
    code: 'invalid_input',
    field: 'collected',
    words: {
      en: 'Collected must not be more than ₹299.00: the amount and a service charge of at most ₹100.00 (set in Settings)',
      hi: 'लिया गया पैसा ₹299.00 से ज़्यादा नहीं हो सकता: राशि और ज़्यादा से ज़्यादा ₹100.00 सर्विस चार्ज (सेटिंग्स में तय)',
    },
  },
  {
    what: 'a top-up past its bound',
    call: (r) => r.counter.call('topups.add', { amount: '10,00,001', reference: 'UTR778812' }),
    code: 'invalid_input',
    field: 'amount',
    words: { en: 'Amount must not be more than ₹10,00,000', hi: 'राशि ₹10,00,000 से ज़्यादा नहीं हो सकती' },
  },
  {
    what: 'a settings field',
    call: (r) => r.counter.call('settings.save', { timezone: 'Mars/Olympus' }),
    code: 'invalid_input',
    field: 'timezone',
    words: { en: 'Not a known time zone (for India: Asia/Kolkata)', hi: 'यह कोई जाना-पहचाना टाइम ज़ोन नहीं है (भारत के लिए: Asia/Kolkata)' },
  },
  {
    what: 'a settings rule the core checks (an ESC/POS printer without an address)',
    call: (r) => r.counter.call('settings.save', { printerKind: 'escpos' }),
    code: 'invalid_input',
    field: 'printerAddress',
    words: {
      en: "Type the printer's network address (for example 192.168.1.50) or its device path.",
      hi: 'प्रिंटर का नेटवर्क पता (जैसे 192.168.1.50) या उसका डिवाइस पाथ टाइप करें।',
    },
    message: {
      en: "Enter the receipt printer's address to print on it directly (ESC/POS).",
      hi: 'रसीद प्रिंटर पर सीधे (ESC/POS) छापने के लिए उसका पता डालें।',
    },
  },
]

const ownerOnly: Record<Language, string> = {
  en: 'Only the owner can do this. Unlock with the owner PIN (the lock in the status bar), then try again. Nothing was changed.',
  hi: 'सिर्फ़ मालिक यह कर सकते हैं। मालिक के PIN से अनलॉक करें (स्टेटस बार का ताला), फिर कोशिश करें। कुछ नहीं बदला।',
}

describe("the core's refusals in the screen language", () => {
  it('refuses in Hindi with a Hindi screen and in English with an English one, beside the field, changing nothing', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    for (const language of ['hi', 'en'] as const) {
      valueOf(await counter.call('settings.save', { screenLanguage: language }))
      const lines = journalOf(rig).length
      for (const refusal of refusals) {
        const message = (refusal.message ?? refusal.words)[language]
        expect({ [refusal.what]: await refusal.call(rig) }).toEqual({
          [refusal.what]: { ok: false, error: { code: refusal.code, message, fields: { [refusal.field]: refusal.words[language] } } },
        })
      }
      // An owner-only channel, called by staff.
      valueOf(await counter.call('roles.lock', {}))
      expect(await counter.call('settings.save', { shopName: 'Changed By Staff' })).toEqual({ ok: false, error: { code: 'owner_only', message: ownerOnly[language] } })
      valueOf(await counter.call('roles.unlock', { pin: PIN }))
      expect(journalOf(rig).length).toBe(lines)
    }
    expect(valueOf(await counter.call('settings.get', {}))).toMatchObject({ screenLanguage: 'en', timezone: 'Asia/Kolkata', printerKind: 'system' })
  })

  it('words a wrong PIN in Hindi, counting down in Hindi too', async () => {
    rig = await startRealModeRig()
    const { counter } = rig
    valueOf(await counter.call('settings.save', { screenLanguage: 'hi' }))
    valueOf(await counter.call('roles.setPin', { pin: PIN, repeat: PIN }))
    valueOf(await counter.call('roles.lock', {}))
    expect(await counter.call('roles.unlock', { pin: '00000000' })).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'यह PIN गलत है। 4 और गलत PIN पर PIN डालना एक मिनट के लिए लॉक हो जाएगा।' },
    })
    expect(await counter.call('roles.unlock', { pin: '00000001' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('यह PIN गलत है। 3 और गलत PIN') } })
    expect(await counter.call('roles.setPin', { pin: '12', repeat: '12', oldPin: PIN })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: { pin: 'PIN 4 से 8 अंकों का होता है (सिर्फ़ 0-9)' } },
    })
  })
})
