// Blanks our partner secrets (token, secret key, api_key) out of anything a provider answer hands back.
import type { ProviderReply } from './outcome'

const HIDDEN = '[hidden]'
// A provider may echo what it was sent; anything shorter than this is too common a text to be a
// real token or key, and hiding it would garble ordinary words.
const MIN_SECRET_LENGTH = 4

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export class SecretFilter {
  private readonly pattern: RegExp | null

  constructor(secrets: readonly string[]) {
    const hideable = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH)
    // Case-insensitive: a hex key may come back in the other case.
    this.pattern = hideable.length === 0 ? null : new RegExp(hideable.map(escapeRegExp).join('|'), 'gi')
  }

  hide(text: string): string {
    return this.pattern === null ? text : text.replace(this.pattern, HIDDEN)
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
