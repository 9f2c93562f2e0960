import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makePage, ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { expectOneFailureLine } from '../../testing/failure-line'
import { useTransactionsStore } from './transactions-store'
import TransactionsPanel from './TransactionsPanel.vue'

const CACHED_AT = new Date('2026-11-27T07:31:00').toISOString()

/**
 * Main keeps `kept` pages of 50 (a "Load all" of an earlier visit), cursors p1…; the service
 * then hangs on every live read until the bridge's deadline (30 s) — or answers when `live`.
 */
function serve(t: TestApp, kept: number, live = { answers: false }): void {
  t.bridge.handle(
    'data.transactions',
    async (input) => {
      const n = input.cursor ? Number(input.cursor.slice(1)) : 0
      if (input.cacheOnly) {
        if (n >= kept) throw new FakeBridgeFailure({ kind: 'not-found', message: 'This page is not cached.' })
        return makePage(n * 50, 50, `p${n + 1}`, {
          cursor: input.cursor ?? null,
          source: 'snapshot',
          fetchedAt: CACHED_AT,
        })
      }
      if (live.answers)
        return makePage(n * 50, 50, `p${n + 1}`, { cursor: input.cursor ?? null, fetchedAt: new Date().toISOString() })
      await fakeLatency(30_000)
      throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
    },
    { cached: true },
  )
  t.bridge.handle('work.cancel', () => ({ cancelled: 1 }))
}

describe('the transactions view while the service hangs', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('shows every cached page at once with its time, and keeps them beside the failure', async () => {
    serve(t, 4)
    const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ME } })
    const s = useTransactionsStore()
    const opening = s.open('alpha', ME)
    await flushPromises()
    expect(s.items).toHaveLength(200)
    expect(w.get('[aria-label="Loaded transactions"]').text()).toBe('200 loaded in 4 pages')
    expect(w.get('[aria-label="Data freshness"]').text()).toMatch(/^Saved copy as of 2026-11-27 07:31:00/)
    expect(w.findAll('[role="status"]').map((x) => x.text())).toContain('Refreshing…')
    await vi.advanceTimersByTimeAsync(30_000)
    await opening
    await flushPromises()
    expect(w.get('[aria-label="Loaded transactions"]').text()).toBe('200 loaded in 4 pages')
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from 07:31',
    )
    expectOneFailureLine(w, 'Transactions could not be loaded')
    expect(w.text()).not.toContain('Refreshing…')
    // No live page came: what is next is the cached list's next page.
    expect(s.nextCursor).toBe('p4')
    w.unmount()
  })

  it('says "Refreshing…" at once when the user asks, keeps the loaded pages, and retries the first page', async () => {
    const live = { answers: true }
    serve(t, 0, live)
    const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ME } })
    const s = useTransactionsStore()
    await s.open('alpha', ME)
    await s.loadMore()
    live.answers = false
    const refreshing = s.open('alpha', ME, { refresh: true })
    await w.vm.$nextTick()
    expect(w.get('.refreshing[role="status"]').text()).toBe('Refreshing…')
    await vi.advanceTimersByTimeAsync(30_000)
    await refreshing
    await flushPromises()
    expect(s.items).toHaveLength(100)
    expect(s.errorFrom).toBe('load')
    live.answers = true
    await w.get('.stale-row button').trigger('click')
    await flushPromises()
    const lastLive = t.bridge
      .callsOf('data.transactions')
      .filter((c) => !(c as { cacheOnly: boolean }).cacheOnly)
      .at(-1)
    expect(lastLive).toMatchObject({ cursor: null, refresh: true })
    expect(s.error).toBeNull()
    // The refreshed first page overlaps the one shown: the second page stays.
    expect(s.items).toHaveLength(100)
    w.unmount()
  })
})
