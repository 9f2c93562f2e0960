import type { BrowserWindow, PowerMonitor } from 'electron'

/** The parts of a window the tracker reads. */
export type WatchedWindow = Pick<BrowserWindow, 'isVisible' | 'isMinimized' | 'isDestroyed' | 'on' | 'removeListener'>
type PowerEvents = Pick<PowerMonitor, 'on' | 'removeListener'>

export interface VisibilityTrackerOptions {
  /** `core.setVisible`: while this says hidden, live polling stays off whatever the page reports. */
  setVisible: (visible: boolean) => void
  powerMonitor: PowerEvents
}

const WINDOW_EVENTS = ['show', 'hide', 'minimize', 'restore'] as const

/**
 * Polling costs quota: it runs only while some app window can be seen. Every window hidden or
 * minimised, the system asleep or the screen locked pauses it; showing, restoring, waking or
 * unlocking resumes it. `setVisible` is called only when the answer changes.
 */
export class VisibilityTracker {
  readonly #windows = new Map<WatchedWindow, () => void>()
  readonly #options: VisibilityTrackerOptions
  readonly #power: Array<[string, () => void]>
  #asleep = false
  #locked = false
  #last: boolean | null = null

  constructor(options: VisibilityTrackerOptions) {
    this.#options = options
    this.#power = [
      ['suspend', () => this.#set('asleep', true)],
      ['resume', () => this.#set('asleep', false)],
      ['lock-screen', () => this.#set('locked', true)],
      ['unlock-screen', () => this.#set('locked', false)],
    ]
    for (const [event, listener] of this.#power) options.powerMonitor.on(event as 'suspend', listener)
    this.update()
  }

  watch(window: WatchedWindow): void {
    const onChange = (): void => this.update()
    const onClosed = (): void => {
      for (const event of WINDOW_EVENTS) window.removeListener(event as 'show', onChange)
      this.#windows.delete(window)
      this.update()
    }
    for (const event of WINDOW_EVENTS) window.on(event as 'show', onChange)
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
    for (const [event, listener] of this.#power) this.#options.powerMonitor.removeListener(event as 'suspend', listener)
    this.#windows.clear()
  }

  #set(flag: 'asleep' | 'locked', value: boolean): void {
    if (flag === 'asleep') this.#asleep = value
    else this.#locked = value
    this.update()
  }
}
