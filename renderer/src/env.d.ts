// Globals the page may find: the Electron preload's bridge (absent in browser mode).
import type { CounterEvent, Result } from '../../electron/contract'

declare global {
  interface Window {
    /** Set by electron/preload.ts through contextBridge; undefined when served by the browser-mode server. */
    counter?: {
      call(channel: string, input: unknown): Promise<Result<unknown>>
      onEvent(listener: (event: CounterEvent) => void): () => void
    }
  }
}

export {}
