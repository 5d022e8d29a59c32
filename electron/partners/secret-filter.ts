// Blanks our partner secrets (token, secret key, api_key) out of anything a provider answer hands back, in whatever
// form the answer holds them: the one place that decides what counts as an echo.
//
// Decisions:
// - Text is compared normalised: ASCII letters in lower case, separators (whitespace, - _ . : /) dropped, so a token
//   spaced out, an api_key without its dashes or a key in dashed groups or upper case reads as the secret itself.
//   Only ASCII folds: every secret's shape is ASCII (hex, base64, a UUID), and a one-for-one fold keeps each
//   normalised character at one place of the original, where its mask goes.
// - Forms: each secret as it is held. The secret key is held in hex, so its own text is its hex form; it is also
//   matched as base64 (standard and url-safe) of the bytes its hex stands for, the key the checksum really uses.
//   Padding is left out of the form: an answer with or without it matches, and an "=" left after the mask says nothing.
// - A form of MATCH_RUN normalised characters or more matches wherever any MATCH_RUN or more consecutive characters
//   of it appear (a token's 16-character prefix, a stretch of the key): found as every MATCH_RUN-character window of
//   the form, since a run of n >= MATCH_RUN characters is exactly the union of its windows. A shorter run is too
//   common a text to hide (4 hex digits are in many an order id or amount). A form shorter than MATCH_RUN matches only
//   whole, and one shorter than MIN_SECRET_LENGTH not at all: hiding it would garble ordinary words.
// - A false match would mask a word, an order id or an amount: one window of a random hex key equals a given
//   8-character stretch of an answer about once in 10^8 (all digits) to 16^8 (hex), so they come through.
// - Masking: the original text from the first to the last character of a match, separators between them included,
//   becomes HIDDEN; separators at its edges stay ("token: [hidden]"). Matches that overlap or touch are one mask.
// - Cost: the windows are a set built once per client; each text is one pass, a set lookup per character, however
//   long the secrets. Measured on a busy 2-core machine: a 200-byte answer 15-30 µs, 64 KB 7-16 ms, 1 MiB (http.ts's
//   cap) 0.1-0.25 s; looking for every 8+ character substring of the forms instead took 0.3 ms, 75-135 ms and
//   0.8 s. tests/unit/secret-filter.test.ts holds 64 KB to a bound.
import type { ProviderReply } from './outcome'

const HIDDEN = '[hidden]'
const MIN_SECRET_LENGTH = 4
const MATCH_RUN = 8
const SEPARATOR = /[\s\-_.:/]/

/** The text's normalised characters, and where each one stands in the original. */
function normalise(text: string): { chars: string; at: Int32Array } {
  // Written as UTF-16LE code units and decoded once: adding one character at a time to a string took 2 to 6 times
  // as long on a 1 MiB answer (http.ts's cap), and varied as much from run to run.
  const units = Buffer.allocUnsafe(text.length * 2)
  const at = new Int32Array(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    if (SEPARATOR.test(text[i])) continue
    const unit = text.charCodeAt(i)
    const folded = unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit
    units[2 * length] = folded & 0xff
    units[2 * length + 1] = folded >> 8
    at[length++] = i
  }
  return { chars: units.toString('utf16le', 0, 2 * length), at }
}

export class SecretFilter {
  /** Every MATCH_RUN-character window of every long form, normalised. */
  private readonly windows = new Set<string>()
  /** Forms shorter than MATCH_RUN (and at least MIN_SECRET_LENGTH), normalised: matched whole. */
  private readonly shortForms: string[] = []

  /**
   * `texts`: secrets matched as they are held (token, api_key); `hexKeys`: secrets held in hex, matched in base64
   * too, of the bytes Buffer.from(key, 'hex') gives, as the checksum (recharge-api.ts signChecksum) reads them.
   */
  constructor(secrets: { texts?: readonly string[]; hexKeys?: readonly string[] }) {
    const hexKeys = secrets.hexKeys ?? []
    const forms = [
      ...(secrets.texts ?? []),
      ...hexKeys,
      ...hexKeys.flatMap((key) => {
        const bytes = Buffer.from(key, 'hex')
        return [bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url')]
      }),
    ]
    for (const form of forms) {
      const { chars } = normalise(form)
      if (chars.length >= MATCH_RUN) {
        for (let i = 0; i + MATCH_RUN <= chars.length; i++) this.windows.add(chars.slice(i, i + MATCH_RUN))
      } else if (chars.length >= MIN_SECRET_LENGTH) {
        this.shortForms.push(chars)
      }
    }
  }

  hide(text: string): string {
    const { chars, at } = normalise(text)
    const hidden = new Uint8Array(chars.length)
    for (let i = 0; i + MATCH_RUN <= chars.length; i++) {
      if (this.windows.has(chars.slice(i, i + MATCH_RUN))) hidden.fill(1, i, i + MATCH_RUN)
    }
    for (const form of this.shortForms) {
      for (let i = chars.indexOf(form); i !== -1; i = chars.indexOf(form, i + 1)) hidden.fill(1, i, i + form.length)
    }
    let out = ''
    let copied = 0
    for (let start = hidden.indexOf(1); start !== -1; start = hidden.indexOf(1, start)) {
      out += text.slice(copied, at[start]) + HIDDEN
      while (start < chars.length && hidden[start] === 1) start++
      copied = at[start - 1] + 1
    }
    return out + text.slice(copied)
  }

  /** A classify() result with every echo of a secret blanked: status word, message, and the whole body. */
  reply(reply: ProviderReply): ProviderReply {
    return {
      ...reply,
      providerStatus: reply.providerStatus === null ? null : this.hide(reply.providerStatus),
      message: this.hide(reply.message),
      body: reply.body === null ? null : (this.hideAll(reply.body) as Record<string, unknown>),
    }
  }

  private hideAll(value: unknown): unknown {
    if (typeof value === 'string') return this.hide(value)
    if (Array.isArray(value)) return value.map((item) => this.hideAll(item))
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.hide(key), this.hideAll(item)]))
    }
    return value
  }
}
