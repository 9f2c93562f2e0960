import type { BrowserWindow, PowerMonitor } from 'electron'

/** The parts of a window the tracker reads. */
export type WatchedWindow = Pick<BrowserWindow, 'isVisible' | 'isMinimized' | 'isDestroyed' | 'on' | 'removeListener'>
type PowerEvents = Pick<PowerMonitor, 'on' | 'removeListener'>

export interface VisibilityTrackerOptions {
  /** `core.setVisible`: while this says hidden, live polling stays off whatever the page reports. */
  setVisible: (visible: boolean) => void
  powerMonitor: PowerEvents
}

/**
 * Polling costs quota: it runs only while some app window can be seen. Every window hidden or
 * minimised, the system asleep or the screen locked pauses it; showing, restoring, waking or
 * unlocking resumes it. `setVisible` is called only when the answer changes.
 */
export class VisibilityTracker {
  readonly #windows = new Map<WatchedWindow, () => void>()
  readonly #options: VisibilityTrackerOptions
  readonly #onSuspend = (): void => this.#set('asleep', true)
  readonly #onResume = (): void => this.#set('asleep', false)
  readonly #onLock = (): void => this.#set('locked', true)
  readonly #onUnlock = (): void => this.#set('locked', false)
  #asleep = false
  #locked = false
  #last: boolean | null = null

  constructor(options: VisibilityTrackerOptions) {
    this.#options = options
    // One call per event: Electron types each event as its own overload.
    const power = options.powerMonitor
    power.on('suspend', this.#onSuspend)
    power.on('resume', this.#onResume)
    power.on('lock-screen', this.#onLock)
    power.on('unlock-screen', this.#onUnlock)
    this.update()
  }

  watch(window: WatchedWindow): void {
    const onChange = (): void => this.update()
    const onClosed = (): void => {
      window.removeListener('show', onChange)
      window.removeListener('hide', onChange)
      window.removeListener('minimize', onChange)
      window.removeListener('restore', onChange)
      this.#windows.delete(window)
      this.update()
    }
    window.on('show', onChange)
    window.on('hide', onChange)
    window.on('minimize', onChange)
    window.on('restore', onChange)
    window.on('closed', onClosed)
    this.#windows.set(window, onClosed)
    this.update()
  }

  /** Whether polling should run now. */
  get visible(): boolean {
    if (this.#asleep || this.#locked) return false
    for (const window of this.#windows.keys()) {
      if (!window.isDestroyed() && window.isVisible() && !window.isMinimized()) return true
    }
    return false
  }

  update(): void {
    const visible = this.visible
    if (visible === this.#last) return
    this.#last = visible
    this.#options.setVisible(visible)
  }

  dispose(): void {
    const power = this.#options.powerMonitor
    power.removeListener('suspend', this.#onSuspend)
    power.removeListener('resume', this.#onResume)
    power.removeListener('lock-screen', this.#onLock)
    power.removeListener('unlock-screen', this.#onUnlock)
    this.#windows.clear()
  }

  #set(flag: 'asleep' | 'locked', value: boolean): void {
    if (flag === 'asleep') this.#asleep = value
    else this.#locked = value
    this.update()
  }
}
