import { Notification } from 'electron'
import { errorMessage } from '@shared/guards'
import type { DesktopNotifier } from '../core/watch/watch-service'

export interface NotifierOptions {
  /** Brings the main window forward when the user clicks the notification (the watchlists view). */
  onClick?: () => void
  log?: { warn(message: string): void }
}

/**
 * The desktop notification of a watch check that found changes. Where the
 * system has no notifications (some Linux desktops), it stays quiet: the watchlists view
 * still shows the "new" marks. Notifications are few by design: one per check that found
 * something not seen before.
 */
export function desktopNotifier(options: NotifierOptions = {}): DesktopNotifier {
  return (title, body) => {
    try {
      if (!Notification.isSupported()) return
      const n = new Notification({ title, body, silent: false })
      if (options.onClick) n.on('click', options.onClick)
      n.show()
    } catch (error) {
      options.log?.warn(`notification failed: ${errorMessage(error)}`)
    }
  }
}
