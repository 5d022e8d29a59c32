// The one typed client over the contract: Electron's preload bridge when present, otherwise the
// browser-mode HTTP bridge on 127.0.0.1, authorised by the per-launch token.
import { WEB_API_PREFIX, WEB_EVENTS_PATH } from '../../electron/contract'
import type { Channel, CounterEvent, Input, Output, Result } from '../../electron/contract'
import { t } from './words'

const TOKEN_STORAGE_KEY = 'counter.token'
const RECONNECT_DELAY_MS = 2000

const bridge = window.counter

export const platform: 'electron' | 'web' = bridge ? 'electron' : 'web'

/**
 * The browser-mode server opens the page as /?token=...; keep the token for this tab only and take
 * it out of the address bar so it does not end up in history, bookmarks or a screenshot. Runs when
 * this module loads, i.e. before the router reads the URL.
 */
function adoptLaunchToken(): string {
  const params = new URLSearchParams(location.search)
  const fromUrl = params.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl)
    params.delete('token')
    const rest = params.toString()
    history.replaceState(history.state, '', location.pathname + (rest ? `?${rest}` : '') + location.hash)
  }
  return sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? ''
}

const webToken = bridge ? '' : adoptLaunchToken()
const authorization = `Bearer ${webToken}`

function failure(message: string): Result<never> {
  return { ok: false, error: { code: 'internal', message } }
}

function isEnvelope(body: unknown): body is Result<unknown> {
  return typeof body === 'object' && body !== null && typeof (body as { ok?: unknown }).ok === 'boolean'
}

async function callOverHttp(channel: Channel, input: unknown): Promise<Result<unknown>> {
  let response: Response
  try {
    response = await fetch(WEB_API_PREFIX + channel, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: authorization },
      body: JSON.stringify(input),
    })
  } catch {
    return failure(t('errors.unreachable'))
  }
  // The server answers 4xx with an envelope too, so the body decides, not the status code.
  const body: unknown = await response.json().catch(() => undefined)
  return isEnvelope(body) ? body : failure(t('errors.badAnswer', { status: response.status }))
}

async function callOverBridge(channel: Channel, input: unknown): Promise<Result<unknown>> {
  try {
    return await bridge!.call(channel, input)
  } catch {
    return failure(t('errors.unreachable'))
  }
}

export function call<K extends Channel>(channel: K, input: Input<K>): Promise<Result<Output<K>>> {
  const pending = bridge ? callOverBridge(channel, input) : callOverHttp(channel, input)
  return pending as Promise<Result<Output<K>>>
}

// ---------- events ----------

const listeners = new Set<(event: CounterEvent) => void>()
let streaming = false

function deliver(event: CounterEvent): void {
  for (const listener of listeners) {
    try {
      listener(event)
    } catch (error) {
      console.error('event listener failed', error)
    }
  }
}

/** One server-sent-events block: its data lines joined are one JSON CounterEvent. */
function deliverBlock(block: string): void {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n')
  if (!data) return
  try {
    deliver(JSON.parse(data) as CounterEvent)
  } catch {
    console.warn('ignored an event that is not JSON')
  }
}

async function readEventStream(): Promise<void> {
  const response = await fetch(WEB_EVENTS_PATH, { headers: { Authorization: authorization, Accept: 'text/event-stream' } })
  if (!response.ok || !response.body) return
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n')
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      deliverBlock(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf('\n\n')
    }
  }
}

async function streamEventsForever(): Promise<void> {
  for (;;) {
    await readEventStream().catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS))
  }
}

export function onEvent(listener: (event: CounterEvent) => void): () => void {
  if (bridge) return bridge.onEvent(listener)
  listeners.add(listener)
  if (!streaming) {
    streaming = true
    void streamEventsForever()
  }
  return () => {
    listeners.delete(listener)
  }
}
