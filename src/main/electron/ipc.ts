import { BrowserWindow, ipcMain, type IpcMainInvokeEvent, type WebFrameMain } from 'electron'
import { IPC_CHANNELS } from '@shared/bridge/contract'
import { fail, type BridgeResult } from '@shared/bridge/errors'
import type { BridgeHost } from '../core/bridge/bridge-host'
import type { Logger } from '../core/util/logger'
import { isAppUrl } from './app-origin'

export interface BridgeIpcOptions {
  bridge: BridgeHost
  log: Logger
}

/**
 * The app's own page: the top frame of a window, showing `app://chainscope/…`. An iframe, a
 * page navigated elsewhere or a frame already gone is not (VS Code checks the sender the same way).
 */
export function isAppSenderFrame(frame: WebFrameMain | null | undefined): boolean {
  if (!frame) return false
  try {
    return frame.parent === null && isAppUrl(frame.url)
  } catch {
    // A disposed frame throws on access: it is certainly not the app's page any more.
    return false
  }
}

type InvokeHandler = (event: IpcMainInvokeEvent, name: unknown, input: unknown) => Promise<BridgeResult<unknown>>

/**
 * Wires the bridge to IPC, from the contract, in this one place: one `handle` per renderer→main
 * channel of `IPC_CHANNELS` and the main→renderer event channel; nothing else is registered.
 * Returns a function that removes both.
 */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  const { bridge, log } = options
  const handlers: Record<typeof IPC_CHANNELS.invoke, InvokeHandler> = {
    [IPC_CHANNELS.invoke]: async (event, name, input) => {
      if (!isAppSenderFrame(event.senderFrame) || BrowserWindow.fromWebContents(event.sender) === null) {
        log.warn(
          `refused a bridge call from a frame that is not the app's own page (${senderDescription(event.senderFrame)})`,
        )
        return fail({
          kind: 'invalid-input',
          message: "Only the Chainscope window's own page may use the bridge.",
          field: 'sender',
        })
      }
      return bridge.dispatch(name, input)
    },
  }
  for (const [channel, handler] of Object.entries(handlers)) ipcMain.handle(channel, handler)

  const unsubscribe = bridge.subscribe((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) {
      if (window.isDestroyed()) continue
      // Only a window still showing the app's own page receives events.
      if (!isAppSenderFrame(window.webContents.mainFrame)) continue
      window.webContents.send(IPC_CHANNELS.event, event, payload)
    }
  })

  return () => {
    for (const channel of Object.keys(handlers)) ipcMain.removeHandler(channel)
    unsubscribe()
  }
}

function senderDescription(frame: WebFrameMain | null | undefined): string {
  try {
    if (!frame) return 'frame gone'
    const url = new URL(frame.url)
    return `${frame.parent === null ? 'top' : 'sub'} frame at ${url.protocol}//${url.host}`
  } catch {
    return 'unparseable URL'
  }
}
