import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Notification, resetFakeElectron } from './testing/fake-electron'
import { desktopNotifier } from './notifications'

vi.mock('electron', () => import('./testing/fake-electron'))

beforeEach(() => resetFakeElectron())

describe('desktopNotifier', () => {
  it('shows an Electron notification with the title and body, and focuses the window on click', () => {
    const onClick = vi.fn()
    desktopNotifier({ onClick })('Watchlist: something changed', '2 watched addresses changed.')
    expect(Notification.shown).toHaveLength(1)
    const n = Notification.shown[0]!
    expect(n.options).toEqual({
      title: 'Watchlist: something changed',
      body: '2 watched addresses changed.',
      silent: false,
    })
    n.emit('click')
    expect(onClick).toHaveBeenCalledOnce()
  })

  it('stays quiet where the system has no notifications, and never throws', () => {
    Notification.supported = false
    desktopNotifier()('t', 'b')
    expect(Notification.shown).toHaveLength(0)
    Notification.supported = true
    Notification.isSupported.mockImplementationOnce(() => {
      throw new Error('no D-Bus')
    })
    const warn = vi.fn()
    expect(() => desktopNotifier({ log: { warn } })('t', 'b')).not.toThrow()
    expect(warn).toHaveBeenCalledWith('notification failed: no D-Bus')
  })
})
