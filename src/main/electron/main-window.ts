import { type BrowserWindow, screen } from 'electron'
import { errorMessage } from '@shared/guards'
import type { Logger } from '../core/util/logger'
import { APP_ENTRY_URL } from './app-origin'
import { hardenedWindow } from './web-preferences'
import type { WindowStateStore } from './window-state'

export interface MainWindowOptions {
  /** The built, sandboxed preload (`out/preload/index.cjs`). */
  preloadPath: string
  windowState: WindowStateStore
  log: Logger
}

const MIN_WIDTH = 900
const MIN_HEIGHT = 600

/** The app's window: remembered bounds, shown once painted, the renderer from `app://`, hardened (web-preferences.ts). */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const state = options.windowState.load(screen.getAllDisplays().map((d) => d.workArea))
  const window = hardenedWindow(
    {
      ...(state.bounds ?? { width: 1280, height: 800 }),
      minWidth: MIN_WIDTH,
      minHeight: MIN_HEIGHT,
      show: false,
      title: 'Chainscope',
      backgroundColor: '#111418',
    },
    // The preload exposes exactly the bridge contract (invoke/on) through contextBridge and nothing else; it runs sandboxed.
    { preload: options.preloadPath },
  )
  if (state.maximized) window.maximize()
  options.windowState.track(window)
  window.once('ready-to-show', () => window.show())
  window
    .loadURL(APP_ENTRY_URL)
    .catch((error: unknown) => options.log.error(`could not load the app page: ${errorMessage(error)}`))
  return window
}

/** Brings the window forward for a second launch or a link: restored, shown, focused. */
export function revealWindow(window: BrowserWindow): void {
  if (window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  if (!window.isVisible()) window.show()
  window.focus()
}
