// Starts the journal shipper in its own worker thread and relays its status; the only way the core runs it.
import type { OfficeStatus } from '../contract/office'
import { startThread } from '../ledger/threads'
import type { ShipperOptions } from './shipper'
import { say } from '../shared/words'

export interface ShipperLink {
  stop(): Promise<void>
}

/** A thread that ends on its own (an error in it) is started again after this long; what it had committed stays acknowledged. */
const RESTART_MS = 5_000

export function startShipperThread(options: Omit<ShipperOptions, 'onStatus'>, onStatus: (status: OfficeStatus) => void): ShipperLink {
  let stopping = false
  let exited = false
  let restart: NodeJS.Timeout | null = null
  let worker = start()

  function start() {
    exited = false
    const started = startThread('shipper-thread', options)
    started.on('message', (message: { status?: OfficeStatus }) => {
      if (message.status && !stopping) onStatus(message.status)
    })
    started.on('error', () => undefined)
    started.on('exit', () => {
      exited = true
      if (stopping) return
      onStatus({ state: 'unreachable', terminalId: options.terminal.terminalId, behind: null, acknowledged: null, unreachableSince: new Date().toISOString(), message: say('office.shipperStopped'), fork: null })
      restart = setTimeout(() => {
        if (!stopping) worker = start()
      }, RESTART_MS)
    })
    return started
  }

  return {
    async stop() {
      stopping = true
      if (restart) clearTimeout(restart)
      if (exited) return
      const ending = worker
      await new Promise<void>((resolve) => {
        const done = setTimeout(() => void ending.terminate().then(() => resolve()), 5_000)
        ending.on('exit', () => {
          clearTimeout(done)
          resolve()
        })
        ending.on('message', (message: { stopped?: boolean }) => {
          if (message.stopped) void ending.terminate()
        })
        ending.postMessage('stop')
      })
    },
  }
}
