// The renderer's only door to the core: one call function and one event subscription over two
// fixed IPC channels. No raw ipcRenderer, no Node. Main checks the channel name and validates the
// input against the contract.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type * as Contract from './contract'

// A sandboxed preload cannot load modules, so the contract is imported for its types only; the
// annotations make the compiler hold these strings equal to the contract's.
const IPC_CALL: typeof Contract.IPC_CALL = 'counter:call'
const IPC_EVENT: typeof Contract.IPC_EVENT = 'counter:event'

const counter = {
  call: (channel: string, input: unknown): Promise<Contract.Result<unknown>> => ipcRenderer.invoke(IPC_CALL, channel, input),
  onEvent(listener: (event: Contract.CounterEvent) => void): () => void {
    const forward = (_event: IpcRendererEvent, payload: Contract.CounterEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT, forward)
    return () => void ipcRenderer.removeListener(IPC_EVENT, forward)
  },
}

contextBridge.exposeInMainWorld('counter', counter)
