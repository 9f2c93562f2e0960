import type { PowerMonitor } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { BrowserWindow, powerMonitor, resetFakeElectron } from './testing/fake-electron'
import { VisibilityTracker, type WatchedWindow } from './visibility'

vi.mock('electron', () => import('./testing/fake-electron'))

let setVisible: ReturnType<typeof vi.fn<(visible: boolean) => void>>
let tracker: VisibilityTracker

beforeEach(() => {
  resetFakeElectron()
  setVisible = vi.fn<(visible: boolean) => void>()
  tracker = new VisibilityTracker({ setVisible, powerMonitor: powerMonitor as unknown as PowerMonitor })
})

const calls = (): boolean[] => setVisible.mock.calls.map((c) => c[0])

describe('visibility → core.setVisible', () => {
  it('starts paused: no window is shown yet', () => {
    expect(calls()).toEqual([false])
  })

  it('resumes when a window shows and pauses when it hides or minimises', () => {
    const window = new BrowserWindow()
    tracker.watch(window as unknown as WatchedWindow)
    window.show()
    window.minimize()
    window.restore()
    window.hide()
    expect(calls()).toEqual([false, true, false, true, false])
  })

  it('keeps polling while any one window is visible', () => {
    const a = new BrowserWindow()
    const b = new BrowserWindow()
    tracker.watch(a as unknown as WatchedWindow)
    tracker.watch(b as unknown as WatchedWindow)
    a.show()
    b.show()
    a.minimize()
    expect(calls()).toEqual([false, true])
    b.hide()
    expect(calls()).toEqual([false, true, false])
  })

  it('pauses while the system sleeps or the screen is locked, and resumes after', () => {
    const window = new BrowserWindow()
    tracker.watch(window as unknown as WatchedWindow)
    window.show()
    powerMonitor.emit('suspend')
    powerMonitor.emit('resume')
    powerMonitor.emit('lock-screen')
    window.minimize()
    window.restore()
    powerMonitor.emit('unlock-screen')
    expect(calls()).toEqual([false, true, false, true, false, true])
  })

  it('pauses when the last window closes and stops listening when disposed', () => {
    const window = new BrowserWindow()
    tracker.watch(window as unknown as WatchedWindow)
    window.show()
    window.close()
    expect(calls()).toEqual([false, true, false])
    tracker.dispose()
    expect(powerMonitor.listenerCount('resume')).toBe(0)
    expect(window.listenerCount('show')).toBe(0)
  })
})
