import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  BRIDGE_GLOBAL,
  IPC_CHANNELS,
  isBridgeEventName,
  type BridgeEventName,
  type BridgeEvents,
  type ChainscopeBridge,
} from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'

/**
 * Exposes exactly the bridge contract: two functions, never `ipcRenderer` itself
 * (docs/style.md rule 3). Main validates every input again; the checks here only fail fast.
 */
const api = {
  invoke: (name, input) => {
    // Main validates the name and input against the contract; this only fails fast.
    if (typeof name !== 'string') {
      return Promise.resolve({
        ok: false,
        error: { kind: 'invalid-input', message: 'Unknown bridge call.', field: 'name' },
      })
    }
    // Main answers every call with a BridgeResult (bridge-host.ts); IPC types it as any.
    return ipcRenderer.invoke(IPC_CHANNELS.invoke, name, input) as Promise<BridgeResult<never>>
  },
  on: <E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void) => {
    if (!isBridgeEventName(event) || typeof listener !== 'function') return () => {}
    const wrapped = (_e: IpcRendererEvent, name: unknown, payload: unknown): void => {
      // Main emits each event with the payload the contract names for it.
      if (name === event) listener(payload as BridgeEvents[E])
    }
    ipcRenderer.on(IPC_CHANNELS.event, wrapped)
    return () => {
      ipcRenderer.removeListener(IPC_CHANNELS.event, wrapped)
    }
  },
} satisfies ChainscopeBridge

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, api)
