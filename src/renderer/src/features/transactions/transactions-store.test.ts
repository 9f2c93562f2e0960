import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, settle, type TestApp } from '../../testing/mount'
import { useConnectivityStore } from '../../platform/connectivity-store'
import { useTransactionsStore } from './transactions-store'
import { makeLimiter, makePage, ME } from '../../testing/samples'
import { useLimiterStore } from '../../platform/limiter-store'
import { UnreadableRow } from './unreadable-row'

/** A fake service of `pages` pages of 50, cursors "p1".."p{n-1}". */
function servePages(t: TestApp, pages: number, options: { delayMs?: number; failAt?: number } = {}) {
  t.bridge.handle('data.transactions', async (input) => {
    const n = input.cursor ? Number(input.cursor.slice(1)) : 0
    if (options.delayMs) await fakeLatency(options.delayMs)
    if (n === options.failAt)
      throw new FakeBridgeFailure({ kind: 'rate-limited', message: 'slow down', retryAfterMs: 2000 })
    return makePage(n * 50, 50, n + 1 < pages ? `p${n + 1}` : null, { cursor: input.cursor ?? null })
  })
  t.bridge.handle('work.cancel', () => ({ cancelled: 1 }))
}

describe('transactions store', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('loads the first page, then further pages through the cursor', async () => {
    servePages(t, 3)
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    expect(s.items).toHaveLength(50)
    expect(s.nextCursor).toBe('p1')
    expect(await s.loadMore()).toBe(true)
    expect(await s.loadMore()).toBe(true)
    expect(s.items).toHaveLength(150)
    expect(s.complete).toBe(true)
    expect(await s.loadMore()).toBe(false)
    const cursors = t.bridge.callsOf('data.transactions').map((c) => (c as { cursor: string | null }).cursor)
    expect(cursors).toEqual([null, 'p1', 'p2'])
    // Every call carries the view's scope so leaving can cancel it.
    expect(t.bridge.callsOf('data.transactions').every((c) => (c as { scope: string }).scope === `a:alpha:${ME}`)).toBe(
      true,
    )
  })

  it('joins a page already loading instead of asking twice', async () => {
    servePages(t, 3, { delayMs: 100 })
    const s = useTransactionsStore()
    const opening = s.open('alpha', ME)
    await vi.advanceTimersByTimeAsync(100)
    await opening
    const a = s.loadMore()
    const b = s.loadMore()
    await vi.advanceTimersByTimeAsync(100)
    await Promise.all([a, b])
    expect(t.bridge.callsOf('data.transactions')).toHaveLength(2)
    expect(s.items).toHaveLength(100)
  })

  it('drops duplicate hashes across pages', async () => {
    t.bridge.handle('data.transactions', (input) => (input.cursor ? makePage(40, 50, null) : makePage(0, 50, 'p1')))
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadMore()
    expect(s.items).toHaveLength(90)
    expect(new Set(s.items.map((x) => x.hash)).size).toBe(90)
  })

  it('loads all pages with progress, and stops on cancel', async () => {
    servePages(t, 10, { delayMs: 50 })
    const s = useTransactionsStore()
    const opening = s.open('alpha', ME)
    await vi.advanceTimersByTimeAsync(50)
    await opening
    const all = s.loadAll()
    await vi.advanceTimersByTimeAsync(50 * 3 + 1)
    expect(s.loadAllProgress.running).toBe(true)
    expect(s.loadAllProgress.pages).toBeGreaterThanOrEqual(3)
    await s.cancelLoadAll()
    await vi.advanceTimersByTimeAsync(200)
    await all
    expect(s.loadAllProgress).toMatchObject({ running: false, stopped: 'cancelled' })
    expect(s.items.length).toBeLessThan(500)
    expect(t.bridge.callsOf('work.cancel')).toEqual([{ scope: `a:alpha:${ME}` }])
  })

  it('loads every page when not cancelled', async () => {
    servePages(t, 6)
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadAll()
    expect(s.items).toHaveLength(300)
    expect(s.loadAllProgress).toMatchObject({ running: false, pages: 6, rows: 300, stopped: null })
  })

  it('stops load-all at the background reserve unless the user said to go past it', async () => {
    servePages(t, 6)
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    const limiter = useLimiterStore()
    limiter.state = makeLimiter({ leftToday: 200, reserve: 200 })
    await s.loadAll()
    expect(s.loadAllProgress).toMatchObject({ running: false, pages: 1, stopped: 'reserve' })
    await s.loadAll({ pastReserve: true })
    expect(s.loadAllProgress).toMatchObject({ running: false, pages: 6, stopped: null })
  })

  it('stops load-all at an error and keeps what was loaded', async () => {
    servePages(t, 6, { failAt: 3 })
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadAll()
    expect(s.items).toHaveLength(150)
    expect(s.loadAllProgress.stopped).toBe('error')
    expect(s.error).toMatchObject({ kind: 'rate-limited', retryAfterMs: 2000 })
    expect(s.nextCursor).toBe('p3')
  })

  it('a refresh during "load all" stops it and the page on its way; paging then goes on from the new list', async () => {
    servePages(t, 10, { delayMs: 50 })
    const s = useTransactionsStore()
    const opening = s.open('alpha', ME)
    await vi.advanceTimersByTimeAsync(50)
    await opening
    const all = s.loadAll()
    await vi.advanceTimersByTimeAsync(120)
    const refreshing = s.open('alpha', ME, { refresh: true })
    expect(s.loadAllProgress).toMatchObject({ running: false, stopped: 'cancelled' })
    expect(s.loadingMore).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    await Promise.all([all, refreshing])
    expect(s.loadAllProgress.running).toBe(false)
    const more = s.loadMore()
    await vi.advanceTimersByTimeAsync(50)
    expect(await more).toBe(true)
    expect(s.items.length).toBeGreaterThanOrEqual(100)
  })

  it('ignores an answer for an address that is no longer open', async () => {
    servePages(t, 2, { delayMs: 100 })
    const s = useTransactionsStore()
    void s.open('alpha', ME)
    await settle()
    void s.open('beta', ME)
    await vi.advanceTimersByTimeAsync(200)
    expect(s.target).toEqual({ network: 'beta', address: ME })
    expect(s.items).toHaveLength(50)
    expect(s.pages).toBe(1)
  })

  it("keeps a revalidated first page's checkedAt with its provenance", async () => {
    t.bridge.handle('data.transactions', () =>
      makePage(0, 50, 'p1', {
        source: 'cache',
        fetchedAt: '2026-01-01T10:00:00.000Z',
        checkedAt: '2026-01-01T10:20:00.000Z',
      }),
    )
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    expect(s.provenance).toEqual({
      source: 'cache',
      staleReason: null,
      fetchedAt: '2026-01-01T10:00:00.000Z',
      checkedAt: '2026-01-01T10:20:00.000Z',
    })
  })

  it('keeps the stalest provenance; connectivity is left to main (its one writer)', async () => {
    let n = 0
    t.bridge.handle('data.transactions', () => {
      n++
      if (n === 1) return makePage(0, 50, 'p1', { fetchedAt: '2026-01-01T10:00:00.000Z' })
      if (n === 2)
        return makePage(50, 50, 'p2', {
          source: 'snapshot',
          staleReason: 'offline',
          fetchedAt: '2026-01-01T08:00:00.000Z',
        })
      throw new FakeBridgeFailure({ kind: 'offline', message: 'connection refused' })
    })
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadMore()
    expect(s.provenance).toEqual({ source: 'snapshot', staleReason: 'offline', fetchedAt: '2026-01-01T08:00:00.000Z' })
    await s.loadMore()
    // The offline answer does not flip connectivity: only main's 'connectivity' event does.
    expect(useConnectivityStore().online).toBe(true)
    t.bridge.emit('connectivity', {
      profileId: 'sandbox',
      workOffline: false,
      endpoints: [
        {
          network: 'alpha',
          endpoint: 'data',
          state: 'not-answering',
          lastSuccessAt: null,
          since: '2026-01-01T10:00:00.000Z',
          nextRetryAt: new Date(Date.now() + 60_000).toISOString(),
          until: null,
          reason: 'connection refused',
        },
      ],
    })
    expect(useConnectivityStore().online).toBe(false)
    expect(s.items).toHaveLength(100)
  })

  it('filters and lists the kinds seen', async () => {
    servePages(t, 1)
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    expect(s.types).toEqual(['coin_transfer'])
    s.directionFilter = 'in'
    expect(s.filtered).toHaveLength(25)
    s.select(s.items[0]!.hash)
    expect(s.selected?.hash).toBe(s.items[0]!.hash)
  })

  it('pages on past an unreadable item, keeps it in place, shows a repeated hash once and counts it', async () => {
    const bad = {
      index: 1,
      path: 'value',
      message: 'expected a non-negative decimal string',
      raw: { hash: 'x', value: -1 },
      hash: null,
    }
    t.bridge.handle('data.transactions', (input) =>
      input.cursor
        ? makePage(49, 3, null, { cursor: input.cursor }) // its first item repeats the last of page one
        : makePage(0, 50, 'p1', { unreadable: [bad] }),
    )
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    expect(s.entries).toHaveLength(51)
    expect(s.unreadable).toBe(1)
    expect(s.entries[1]).toBeInstanceOf(UnreadableRow)
    expect(await s.loadMore()).toBe(true)
    expect(s.items).toHaveLength(52)
    expect(s.entries).toHaveLength(53)
    expect(s.repeated).toBe(1)
    expect(s.complete).toBe(true)
    s.selectUnreadable(s.entries.find((e) => e instanceof UnreadableRow)!.key)
    expect(s.selectedUnreadable?.item).toEqual(bad)
  })
})

describe('transactions store: paging guards and the reserve', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('"Load all" stops after 3 pages that add nothing, though each brings a fresh cursor', async () => {
    let n = 0
    t.bridge.handle('data.transactions', (input) =>
      input.cursor === null ? makePage(0, 50, 'c0') : makePage(0, 50, `c${++n}`, { cursor: input.cursor }),
    )
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadAll()
    expect(t.bridge.callsOf('data.transactions')).toHaveLength(4)
    expect(s.loadAllProgress.stopped).toBe('guard')
    expect(s.pagingStopped).toMatch(/3 pages in a row/)
    expect(s.nextCursor).toBeNull()
  })

  it('"Load all" stops on a cursor it already followed', async () => {
    t.bridge.handle('data.transactions', (input) =>
      input.cursor === null
        ? makePage(0, 50, 'a')
        : input.cursor === 'a'
          ? makePage(50, 50, 'b', { cursor: 'a' })
          : makePage(100, 50, 'a', { cursor: 'b' }),
    )
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadAll()
    expect(t.bridge.callsOf('data.transactions')).toHaveLength(3)
    expect(s.pagingStopped).toMatch(/already sent/)
  })

  it('"Load all" runs as background work and stops at the reserve until the user says go on', async () => {
    t.bridge.handle('data.transactions', (input) => {
      const n = input.cursor ? Number(input.cursor.slice(1)) : 0
      if (n >= 2 && input.priority === 'background')
        throw new FakeBridgeFailure({
          kind: 'quota-exhausted',
          message: 'Background refresh is paused: 200 of 1000 left.',
        })
      return makePage(n * 50, 50, n + 1 < 4 ? `p${n + 1}` : null, { cursor: input.cursor ?? null })
    })
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadAll()
    expect(s.loadAllProgress.stopped).toBe('reserve')
    expect(s.items).toHaveLength(100)
    await s.loadAll({ pastReserve: true })
    expect(s.complete).toBe(true)
    expect(s.items).toHaveLength(200)
    const priorities = t.bridge.callsOf('data.transactions').map((c) => (c as { priority: string }).priority)
    expect(priorities).toEqual(['user', 'background', 'background', 'user', 'user'])
  })
})
