import type { Session } from 'electron'
import type { Logger } from '../core/util/logger'
import { APP_ORIGIN } from './app-origin'

/**
 * The explorer needs no camera, microphone, location, notifications, clipboard reads, devices
 * or anything else a page can ask for: every request and every check is denied, so no prompt
 * ever appears and nothing is granted silently.
 */
export function denyAllPermissions(session: Session, log: Logger): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn(`denied permission request: ${permission}`)
    callback(false)
  })
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler(() => false)
  // Exports are saved from blobs the app made itself; a download from anywhere else is refused.
  session.on('will-download', (event, item) => {
    if (isOwnDownload(item.getURL())) return
    event.preventDefault()
    log.warn('refused a download that did not come from the app')
  })
}

/** `blob:app://chainscope/…` (an export the renderer built) or an inline `data:` URL. */
export function isOwnDownload(url: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`) || url.startsWith('data:')
}
