import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makeBalance, makeBalances, makeWatchlist } from '../../testing/samples'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { useWatchSummariesStore } from '../balances'
import { useWatchlistsStore, WATCH_SCOPE } from './watchlists-store'

const A = [
  '0x1000000000000000000000000000000000000001',
  '0x1000000000000000000000000000000000000002',
  '0x1000000000000000000000000000000000000003',
  '0x1000000000000000000000000000000000000004',
  '0x1000000000000000000000000000000000000005',
  '0x1000000000000000000000000000000000000006',
]

describe('watchlists store', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    localStorage.clear()
    t = setupTestApp()
    t.bridge.handle('watchlists.list', () => [makeWatchlist('w1', 'Funds', A)])
    t.bridge.handle('work.cancel', () => ({ cancelled: 2 }))
  })
  afterEach(() => vi.useRealTimers())

  it('refreshes every entry with progress and records summaries', async () => {
    t.bridge.handle('data.balances', async (input) => {
      await fakeLatency(10)
      return makeBalances([makeBalance('USDC', '1000000', '6', { rate: '1' })], { address: input.address })
    })
    const s = useWatchlistsStore()
    await s.load()
    const run = s.refreshAll('w1', 2)
    await vi.advanceTimersByTimeAsync(10)
    expect(s.progress).toMatchObject({ running: true, done: 2, total: 6 })
    await vi.advanceTimersByTimeAsync(30)
    await run
    expect(s.progress).toMatchObject({ running: false, done: 6, failed: 0, cancelled: false })
    expect(useWatchSummariesStore().get('alpha', A[5]!)).toMatchObject({ tokens: 1, fiatCents: '100' })
    expect(
      t.bridge
        .callsOf('data.balances')
        .every(
          (c) => (c as { refresh: boolean; scope: string }).refresh && (c as { scope: string }).scope === WATCH_SCOPE,
        ),
    ).toBe(true)
  })

  it('cancels a refresh and tells main to drop the queued work', async () => {
    t.bridge.handle('data.balances', async (input) => {
      await fakeLatency(100)
      return makeBalances([], { address: input.address })
    })
    const s = useWatchlistsStore()
    await s.load()
    const run = s.refreshAll('w1', 2)
    await vi.advanceTimersByTimeAsync(100)
    await s.cancelRefresh()
    await vi.advanceTimersByTimeAsync(100)
    await run
    expect(s.progress.cancelled).toBe(true)
    expect(s.progress.done).toBe(4)
    expect(t.bridge.callsOf('work.cancel')).toEqual([{ scope: WATCH_SCOPE }])
  })

  it('stops after quota exhaustion instead of failing every entry', async () => {
    t.bridge.handle('data.balances', () => {
      throw new FakeBridgeFailure({ kind: 'quota-exhausted', message: 'used up', retryAfterMs: 1000 })
    })
    const s = useWatchlistsStore()
    await s.load()
    await s.refreshAll('w1', 1)
    expect(s.progress).toMatchObject({ running: false, done: 1, failed: 1, cancelled: true })
    expect(s.progress.lastError?.kind).toBe('quota-exhausted')
  })

  it('follows changes pushed by main and CRUD answers', async () => {
    t.bridge.handle('watchlists.create', ({ name }) => makeWatchlist('w2', name))
    t.bridge.handle('watchlists.delete', () => null)
    const s = useWatchlistsStore()
    await s.load()
    await s.create('New')
    expect(s.lists.map((l) => l.name)).toEqual(['Funds', 'New'])
    expect(s.selected?.id).toBe('w2')
    await s.remove('w2')
    expect(s.lists.map((l) => l.id)).toEqual(['w1'])
    t.bridge.emit('watchlists.changed', [makeWatchlist('w9', 'Pushed')])
    expect(s.lists.map((l) => l.name)).toEqual(['Pushed'])
  })

  it('imports and reports per-row problems without changing anything', async () => {
    t.bridge.handle('watchlists.import', () => {
      throw new FakeBridgeFailure({
        kind: 'invalid-input',
        message: '2 rows are wrong',
        rows: [{ row: 2, message: 'bad address' }],
      })
    })
    const s = useWatchlistsStore()
    await s.load()
    const result = await s.importText('csv', 'x', 'Imported')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.rows).toEqual([{ row: 2, message: 'bad address' }])
    expect(s.lists).toHaveLength(1)
    expect(t.bridge.callsOf('watchlists.import')).toEqual([{ format: 'csv', text: 'x', listName: 'Imported' }])
  })
})
