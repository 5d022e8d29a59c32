// The renderer's only door to the core: one call function and one event subscription over two
// fixed IPC channels. No raw ipcRenderer, no Node. Main checks the channel name and validates the
// input against the contract, so this stays free of the contract's runtime (sandboxed preloads
// cannot load modules).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { IPC_CALL, IPC_EVENT, type CounterEvent, type Result } from './contract'

const counter = {
  call: (channel: string, input: unknown): Promise<Result<unknown>> => ipcRenderer.invoke(IPC_CALL, channel, input),
  onEvent(listener: (event: CounterEvent) => void): () => void {
    const forward = (_event: IpcRendererEvent, payload: CounterEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT, forward)
    return () => void ipcRenderer.removeListener(IPC_EVENT, forward)
  },
}

contextBridge.exposeInMainWorld('counter', counter)
