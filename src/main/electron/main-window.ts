import { type BrowserWindow, type Rectangle, screen } from 'electron'
import { errorMessage } from '@shared/guards'
import type { Logger } from '../core/util/logger'
import { APP_ENTRY_URL, appRouteUrl } from './app-origin'
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
  const window = appWindow({ ...options, bounds: state.bounds, url: APP_ENTRY_URL })
  if (state.maximized) window.maximize()
  options.windowState.track(window)
  return window
}

export interface RouteWindowOptions {
  preloadPath: string
  /** One of the app's own hash routes (`appRouteUrl`); anything else is refused. */
  url: string
  log: Logger
}

/**
 * Another window of the app at one of its routes (a pivot opened with Ctrl+click or
 * middle-click): hardened like the main window, the same preload; its size is not remembered.
 */
export function createRouteWindow(options: RouteWindowOptions): BrowserWindow | null {
  const url = appRouteUrl(options.url)
  if (url === null) {
    options.log.warn("refused to open a window at a page that is not one of the app's routes")
    return null
  }
  return appWindow({ ...options, bounds: null, url })
}

/** A hardened window of the app at `url` of its own origin, shown once painted. */
function appWindow(options: {
  preloadPath: string
  url: string
  log: Logger
  bounds: Rectangle | null
}): BrowserWindow {
  const window = hardenedWindow(
    {
      ...(options.bounds ?? { width: 1280, height: 800 }),
      minWidth: MIN_WIDTH,
      minHeight: MIN_HEIGHT,
      show: false,
      title: 'Chainscope',
      backgroundColor: '#111418',
    },
    // The preload exposes exactly the bridge contract (invoke/on) through contextBridge and nothing else; it runs sandboxed.
    { preload: options.preloadPath },
  )
  window.once('ready-to-show', () => window.show())
  window
    .loadURL(options.url)
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
