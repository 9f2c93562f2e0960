import type { MenuItemConstructorOptions } from 'electron'
import type { BridgeEvents } from '@shared/bridge/contract'
import { checkAddress } from '@shared/domain/address'

export interface AppMenuOptions {
  platform: NodeJS.Platform
  /** Developer tools only in unpackaged builds. */
  isPackaged: boolean
  /** Asks the renderer to show a screen or open an address (bridge events). */
  openView: (view: BridgeEvents['open.view']['view']) => void
  openAddress: (request: BridgeEvents['open.address']) => void
  /** The clipboard's text, for "Open Address from Clipboard". */
  readClipboard: () => Promise<string>
  /** Tells the user something went wrong (a non-blocking message box). */
  notify: (message: string, detail: string) => void
}

/**
 * The application menu: the platform's standard roles (edit, window, quit, services…) and the
 * app's own actions, each of which only asks the renderer, through a bridge event, to act.
 * Accelerators avoid Ctrl/Cmd+K, which the renderer uses to focus the search field.
 */
export function buildMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin'
  const settings: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: () => options.openView('settings'),
  }

  const openFromClipboard = async (): Promise<void> => {
    let text: string
    try {
      text = (await options.readClipboard()).trim().slice(0, 200)
    } catch {
      text = ''
    }
    const check = checkAddress(text)
    if (check.ok) options.openAddress({ address: check.address, network: null })
    else options.notify('The clipboard does not hold an address.', check.message)
  }

  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          role: 'appMenu',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            settings,
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : []

  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Address…', accelerator: 'CmdOrCtrl+L', click: () => options.openView('search') },
      { label: 'Open Address from Clipboard', accelerator: 'CmdOrCtrl+Shift+O', click: () => openFromClipboard() },
      { type: 'separator' },
      { label: 'Watchlists', accelerator: 'CmdOrCtrl+Shift+L', click: () => options.openView('watchlists') },
      { label: 'RPC Console', accelerator: 'CmdOrCtrl+Alt+R', click: () => options.openView('rpc') },
      ...(mac ? [] : [{ type: 'separator' } as const, settings]),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  }

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  }

  const help: MenuItemConstructorOptions = { role: 'help', submenu: mac ? [] : [{ role: 'about' }] }

  return [...appMenu, file, { role: 'editMenu' }, view, { role: 'windowMenu' }, help]
}
