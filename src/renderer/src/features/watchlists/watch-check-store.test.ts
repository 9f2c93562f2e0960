import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WatchCheckResult, WatchStatus } from '@shared/bridge/contract'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { useAppStore } from '../../platform/app-store'
import { useWatchCheckStore } from './watch-check-store'

const status = (address: string, unseen: boolean): WatchStatus => ({
  network: 'alpha',
  address,
  unseen,
  newTxs: unseen ? 1 : 0,
  newTxsMore: false,
  deltas: [],
  checkedAt: '2030-01-01T00:00:00.000Z',
  baseline: true,
})
const result = (statuses: WatchStatus[]): WatchCheckResult => ({
  checkedAt: '2030-01-01T00:00:00.000Z',
  addresses: statuses.length,
  changed: statuses.filter((s) => s.unseen).length,
  requests: 1,
  networks: [{ network: 'alpha', addresses: statuses.length, changed: 0, requests: 1, batched: true, error: null }],
  statuses,
})

/** What main estimates the next check of `addresses` to cost. */
const estimate = (addresses: number) => ({
  requests: 1,
  billing: 'request' as const,
  leftToday: 900,
  percentOfLeft: 0.2,
  reserve: 200,
  crossesReserve: false,
  exceedsLeft: false,
  addresses,
})

describe('watch check store', () => {
  let t: TestApp
  const shown: { title: string; body?: string }[] = []
  class FakeNotification {
    static permission: NotificationPermission = 'granted'
    constructor(title: string, options?: { body?: string }) {
      shown.push({ title, body: options?.body })
    }
  }
  beforeEach(() => {
    t = setupTestApp()
    shown.length = 0
    FakeNotification.permission = 'granted'
    vi.stubGlobal('Notification', FakeNotification)
    useAppStore().info = { name: 'Chainscope', version: 't', host: 'web', platform: 'linux' }
  })
  afterEach(() => vi.unstubAllGlobals())

  it('mirrors statuses, and raises the browser notification once for what is newly unseen', async () => {
    const s = useWatchCheckStore()
    t.bridge.handle('watch.check', () => result([status('0xa', true), status('0xb', false)]))
    t.bridge.handle('watch.estimate', () => estimate(2))
    await s.check('w1')
    expect(s.get('alpha', '0xA')?.unseen).toBe(true)
    expect(shown).toEqual([{ title: 'Watchlist: something changed', body: '1 watched address changed.' }])
    // The same change again is not news.
    await s.check('w1')
    expect(shown).toHaveLength(1)
    // Statuses pushed by main (a periodic check, mark seen) land too.
    t.bridge.emit('watch.changed', [status('0xa', false)])
    expect(s.get('alpha', '0xa')?.unseen).toBe(false)
  })

  it('stays quiet without the permission, and in Electron (main notifies there)', async () => {
    const s = useWatchCheckStore()
    t.bridge.handle('watch.check', () => result([status('0xa', true)]))
    t.bridge.handle('watch.estimate', () => estimate(1))
    FakeNotification.permission = 'default'
    await s.check('w1')
    expect(shown).toHaveLength(0)
    t.bridge.emit('watch.changed', [status('0xa', false)])
    FakeNotification.permission = 'granted'
    useAppStore().info = { name: 'Chainscope', version: 't', host: 'electron', platform: 'linux' }
    await s.check('w1')
    expect(shown).toHaveLength(0)
  })

  it("shows a long check's progress while it runs, and clears it after", async () => {
    const s = useWatchCheckStore()
    let seen: unknown = null
    t.bridge.handle('watch.check', () => {
      t.bridge.emit('watch.progress', { network: 'alpha', done: 1000, total: 300000, way: 'logs', units: 19 })
      seen = s.progress.alpha
      return result([status('0xa', false)])
    })
    // Asked again after every check (the cost of the next one).
    t.bridge.handle('watch.estimate', () => estimate(1))
    t.bridge.emit('watch.progress', { network: 'alpha', done: 1, total: 2, way: 'logs', units: 1 })
    expect(s.progress).toEqual({})
    await s.check('w1')
    expect(seen).toEqual({ network: 'alpha', done: 1000, total: 300000, way: 'logs', units: 19 })
    expect(s.progress).toEqual({})
  })
})
