import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { makeBalance, makeBalances, ME } from '../../testing/samples'
import { useConnectivityStore } from '../../platform/connectivity-store'
import { useWatchSummariesStore } from '../balances'
import WatchlistEntries from './WatchlistEntries.vue'
import { useWatchlistsStore } from './watchlists-store'

const KEPT_AT = new Date('2026-11-27T07:31:00').toISOString()
const list: Watchlist = {
  id: 'l1',
  name: 'Desks',
  entries: [{ id: 'e1', address: ME, network: 'alpha', label: 'Desk', note: '', tags: [], addedAt: KEPT_AT }],
}
const kept = (extra = {}) => makeBalances([makeBalance('USDC', '5000000', '6')], { fetchedAt: KEPT_AT, ...extra })

describe('a watchlist row while the service fails', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    localStorage.clear()
    t = setupTestApp()
    t.bridge.handle('notes.list', () => [])
    useWatchSummariesStore().record(kept())
  })
  afterEach(() => vi.useRealTimers())

  const row = (w: ReturnType<typeof mountWith>) => w.get('tbody tr')

  it('keeps its summary and its "as of", with the failed refresh beside it, not an error instead', async () => {
    t.bridge.handle('data.balances', async () => {
      await fakeLatency(30_000)
      throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
    })
    const w = mountWith(WatchlistEntries, t, { props: { list } })
    await flushPromises()
    expect(row(w).text()).toContain('1 token · USDC')
    // (The row's Refresh button is the same call; the network gate of a test app without a profile holds it.)
    void useWatchlistsStore().refreshEntry(list.entries[0]!)
    await vi.advanceTimersByTimeAsync(30_000)
    await flushPromises()
    expect(row(w).text()).toContain('1 token · USDC')
    expect(row(w).text()).toContain('2 min ago')
    expect(row(w).get('.row-line').text()).toBe('Service not answering since 07:33 · showing cached data from 07:31')
    w.unmount()
  })

  it('says when main served its saved copy for the failure, and "Offline by choice" with Work offline on', async () => {
    t.bridge.handle('data.balances', () => kept({ source: 'snapshot', staleReason: 'offline' }))
    const w = mountWith(WatchlistEntries, t, { props: { list } })
    void useWatchlistsStore().refreshEntry(list.entries[0]!)
    await flushPromises()
    expect(row(w).get('.row-line').text()).toBe('Service not answering since 07:33 · showing cached data from 07:31')
    t.bridge.handle('data.balances', () => kept({ source: 'snapshot', staleReason: 'offline-by-choice' }))
    void useWatchlistsStore().refreshEntry(list.entries[0]!)
    await flushPromises()
    expect(row(w).get('.row-line').text()).toBe('Offline by choice · showing cached data from 07:31')
    // Kept so across a reload (the summaries live in localStorage).
    setupTestApp()
    expect(useWatchSummariesStore().get('alpha', ME)?.staleReason).toBe('offline-by-choice')
    w.unmount()
  })

  it('says "Offline by choice" on every kept row while Work offline is on', async () => {
    const w = mountWith(WatchlistEntries, t, { props: { list } })
    await flushPromises()
    expect(w.find('.row-line').exists()).toBe(false)
    useConnectivityStore().view = { profileId: 'sandbox', workOffline: true, sandboxStopped: null, endpoints: [] }
    await flushPromises()
    expect(row(w).get('.row-line').text()).toBe('Offline by choice · showing cached data from 07:31')
    w.unmount()
  })
})
