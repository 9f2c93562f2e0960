import type { Event, HandlerDetails, WebContents } from 'electron'
import { errorMessage } from '@shared/guards'
import type { Logger } from '../core/util/logger'
import { appRouteUrl, isAppUrl } from './app-origin'
import { checkExternalUrl, type UserGestureTracker } from './external-links'

export interface WebContentsGuardOptions {
  gestures: UserGestureTracker
  /** Opens a checked https link in the OS browser (`shell.openExternal`). */
  openExternal: (url: string) => Promise<void>
  /** Opens one of the app's own hash routes in a new app window (a pivot link, Ctrl+click or middle-click). */
  openAppWindow: (url: string) => void
  log: Logger
}

/**
 * Hardens one web contents (every one the app creates, through `web-contents-created`):
 * navigation leaves the app's own pages never; a new window is never the one the page asks for:
 * an https link the user just clicked is handed to the OS browser instead, and one of the app's
 * own routes opens in a new app window the app makes (hardened as every window); `<webview>`
 * never attaches.
 */
export function guardWebContents(contents: WebContents, options: WebContentsGuardOptions): void {
  const { gestures, log } = options

  const blockForeign = (event: Event<{ url: string }>, what: string): void => {
    if (isAppUrl(event.url)) return
    event.preventDefault()
    log.warn(`blocked ${what} away from the app to ${describe(event.url)}`)
  }
  contents.on('will-navigate', (event) => blockForeign(event, 'navigation'))
  contents.on('will-frame-navigate', (event) => blockForeign(event, 'frame navigation'))
  contents.on('will-redirect', (event) => blockForeign(event, 'redirect'))

  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
    log.warn('blocked a <webview>')
  })

  contents.on('input-event', (_event, input) => gestures.note(contents.id, input.type))
  contents.once('destroyed', () => gestures.forget(contents.id))

  contents.setWindowOpenHandler((details) => {
    void handleWindowOpen(contents.id, details, options)
    return { action: 'deny' }
  })
}

/**
 * The window-open policy: always deny the page's own window; right after the user's click or
 * key press, open one of the app's routes in a new app window, or a checked https link outside.
 */
export async function handleWindowOpen(
  contentsId: number,
  details: Pick<HandlerDetails, 'url'>,
  options: WebContentsGuardOptions,
): Promise<'opened' | 'refused'> {
  const route = appRouteUrl(details.url)
  if (route !== null) {
    if (!options.gestures.consume(contentsId)) {
      options.log.warn('refused to open an app window: not the result of a click or key press')
      return 'refused'
    }
    options.openAppWindow(route)
    return 'opened'
  }
  const check = checkExternalUrl(details.url)
  if (!check.ok) {
    options.log.warn(`refused to open ${describe(details.url)}: ${check.reason}`)
    return 'refused'
  }
  if (!options.gestures.consume(contentsId)) {
    options.log.warn(`refused to open ${describe(details.url)}: not the result of a click or key press`)
    return 'refused'
  }
  try {
    // Accepted OPEN_EXTERNAL_JS_CHECK: only an https URL that passed checkExternalUrl, right after the user's own click or key press.
    await options.openExternal(check.url) // eng-disable OPEN_EXTERNAL_JS_CHECK
    return 'opened'
  } catch (error) {
    options.log.warn(`the OS browser could not open ${describe(details.url)}: ${errorMessage(error)}`)
    return 'refused'
  }
}

/** Scheme and host only: a refused URL may carry anything in its path or query. */
function describe(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol
  } catch {
    return 'an invalid URL'
  }
}
