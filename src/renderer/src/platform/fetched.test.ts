import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Provenance } from '@shared/bridge/contract'
import { fail, ok, type BridgeResult } from '@shared/bridge/errors'
import { fakeLatency } from '../testing/delay'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { flushPromises } from '@vue/test-utils'
import { useConnectivityStore } from './connectivity-store'
import { fetched } from './fetched'
import FetchedState from './FetchedState.vue'

interface Answer extends Provenance {
  text: string
}

const answer = (text: string, source: Provenance['source'], at: string): Answer => ({
  text,
  source,
  fetchedAt: at,
  staleReason: null,
})

/** A layer over scripted reads: `cached` answers at once, `live` after its latency. */
function setup(script: { cached?: Answer | null; live: (key: string) => Promise<BridgeResult<Answer>> }) {
  return fetched<string, Answer>({
    same: (a, b) => a === b,
    cached: async () => script.cached ?? null,
    live: (key) => script.live(key),
    provenance: (v) => v,
    scope: (key) => `a:${key}`,
  })
}

describe('fetched data layer', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    t = setupTestApp()
    t.bridge.handle('work.cancel', () => ({ cancelled: 1 }))
  })
  afterEach(() => vi.useRealTimers())

  it('shows main’s cached answer at once, refreshes behind it, then shows the live one', async () => {
    const q = setup({
      cached: answer('cached', 'snapshot', '2026-11-27T07:31:00Z'),
      live: async () => (await fakeLatency(1000), ok(answer('live', 'network', '2026-11-27T07:33:01Z'))),
    })
    const done = q.load('x')
    await vi.advanceTimersByTimeAsync(0)
    expect(q.data.value?.text).toBe('cached')
    expect(q.fromCache.value).toBe(true)
    expect(q.refreshing.value).toBe(true)
    expect(q.provenance.value?.fetchedAt).toBe('2026-11-27T07:31:00Z')
    await vi.advanceTimersByTimeAsync(1000)
    await done
    expect(q.data.value?.text).toBe('live')
    expect(q.fromCache.value).toBe(false)
    expect(q.refreshing.value).toBe(false)
    expect(q.status.value).toBe('ready')
  })

  it('keeps the cached answer on screen when the live read fails, with the failure and since when', async () => {
    const q = setup({
      cached: answer('cached', 'snapshot', '2026-11-27T07:31:00Z'),
      live: async () => (
        await fakeLatency(30_000),
        fail({ kind: 'timeout', message: 'The service did not answer in time' })
      ),
    })
    const done = q.load('x')
    await vi.advanceTimersByTimeAsync(30_000)
    await done
    expect(q.data.value?.text).toBe('cached')
    expect(q.status.value).toBe('error')
    expect(q.error.value?.kind).toBe('timeout')
    // Since when it was asked, not when the deadline passed.
    expect(q.failingSince.value).toBe(new Date('2026-11-27T07:33:00').getTime())
    expect(q.errorAt.value).toBe(new Date('2026-11-27T07:33:30').getTime())
    // A second failure in a row keeps the first one's time.
    const again = q.refresh()
    await vi.advanceTimersByTimeAsync(30_000)
    await again
    expect(q.failingSince.value).toBe(new Date('2026-11-27T07:33:00').getTime())
    expect(q.data.value?.text).toBe('cached')
  })

  it('takes main’s saved copy served for a failed read (the breaker open) as a failure beside the data', async () => {
    let served: Answer = { ...answer('kept', 'snapshot', '2026-11-27T07:31:00Z'), staleReason: 'offline' }
    const q = setup({ live: async () => ok(served) })
    await q.load('x')
    expect(q.data.value?.text).toBe('kept')
    expect(q.error.value).toBeNull()
    expect(q.failingSince.value).toBe(new Date('2026-11-27T07:33:00').getTime())
    const line = mountWith(FetchedState, t, { props: { of: q.summary.value, context: 'X could not be loaded' } })
    expect(line.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from ' +
        new Date('2026-11-27T07:31:00Z').toTimeString().slice(0, 5),
    )
    // A stopped built-in sandbox is the reason, in the header's words.
    useConnectivityStore().view = {
      profileId: 'sandbox',
      workOffline: false,
      sandboxStopped: { at: '2026-11-27T07:32:00', unexpected: false },
      endpoints: [],
    }
    await flushPromises()
    expect(line.get('[aria-label="Shown despite a failure"]').text()).toMatch(/^Sandbox stopped since 07:32 · /)
    // Offline by choice is no failure: nothing was asked.
    served = { ...served, staleReason: 'offline-by-choice' }
    await q.refresh()
    expect(q.failingSince.value).toBe(0)
  })

  it('says a failure beside shown data once, with Retry and Work offline; Work offline then says so instead', async () => {
    let live: BridgeResult<Answer> = fail({ kind: 'timeout', message: 'The service did not answer in time.' })
    const q = setup({ cached: answer('cached', 'snapshot', '2026-11-27T07:31:00Z'), live: async () => live })
    await q.load('x')
    const retried: number[] = []
    const w = mountWith(FetchedState, t, {
      props: { of: q.summary.value, context: 'X could not be loaded', onRetry: () => retried.push(1) },
    })
    expect(w.find('[role="alert"]').exists()).toBe(false)
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toMatch(/^Service not answering since 07:33 · /)
    await w.get('.stale-row button').trigger('click')
    expect(retried).toHaveLength(1)
    t.bridge.handle('connection.setWorkOffline', (input) => ({
      profileId: 'sandbox',
      workOffline: input.on,
      sandboxStopped: null,
      endpoints: [],
    }))
    const work = w.findAll('.stale-row button').find((b) => b.text() === 'Work offline')!
    await work.trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('connection.setWorkOffline')).toEqual([{ on: true }])
    expect(retried).toHaveLength(2)
    // Main now serves the saved copy, offline by choice: said so, not as a failure.
    live = ok({ ...answer('kept', 'snapshot', '2026-11-27T07:31:00Z'), staleReason: 'offline-by-choice' })
    await q.refresh()
    await w.setProps({ of: q.summary.value })
    expect(w.find('[aria-label="Shown despite a failure"]').exists()).toBe(false)
    expect(w.get('[aria-label="Shown while working offline"]').text()).toMatch(
      /^Offline by choice · showing cached data from \d\d:\d\d$/,
    )
    expect(w.get('.stale-row button').text()).toBe('Switch Work offline off')
    // With no data to show, the full panel stays.
    const none = setup({ live: async () => fail({ kind: 'timeout', message: 'No answer.' }) })
    await none.load('y')
    const empty = mountWith(FetchedState, t, { props: { of: none.summary.value, context: 'Y could not be loaded' } })
    expect(empty.get('[role="alert"]').text()).toContain('Y could not be loaded')
  })

  it('ignores an answer that arrives after another key was asked for', async () => {
    const q = setup({
      live: async (key) => (
        await fakeLatency(key === 'slow' ? 500 : 100),
        ok(answer(key, 'network', '2026-11-27T07:33:00Z'))
      ),
    })
    const slow = q.load('slow')
    const fast = q.load('fast')
    await vi.advanceTimersByTimeAsync(500)
    await Promise.all([slow, fast])
    expect(q.data.value?.text).toBe('fast')
    expect(q.key.value).toBe('fast')
  })

  it('drops the answer and cancels main’s queued work when the view is left', async () => {
    const q = setup({
      live: async () => (await fakeLatency(200), ok(answer('late', 'network', '2026-11-27T07:33:00Z'))),
    })
    const done = q.load('x')
    await vi.advanceTimersByTimeAsync(50)
    await q.leave()
    await vi.advanceTimersByTimeAsync(200)
    await done
    expect(q.data.value).toBeNull()
    expect(q.status.value).toBe('idle')
    expect(t.bridge.callsOf('work.cancel')).toEqual([{ scope: 'a:x' }])
  })

  it('says it is refreshing at once when the user asks, and stops saying so when the answer comes', async () => {
    let n = 0
    const q = setup({
      live: async () => (await fakeLatency(5000), ok(answer(`live ${++n}`, 'network', '2026-11-27T07:33:00Z'))),
    })
    const first = q.load('x')
    await vi.advanceTimersByTimeAsync(5000)
    await first
    expect(q.refreshing.value).toBe(false)
    const again = q.refresh()
    // Synchronously: before any answer or timer.
    expect(q.refreshing.value).toBe(true)
    expect(q.data.value?.text).toBe('live 1')
    await vi.advanceTimersByTimeAsync(5000)
    await again
    expect(q.refreshing.value).toBe(false)
    expect(q.data.value?.text).toBe('live 2')
  })

  it('is quiet about a cancelled read, and records a failed extension without dropping the data', async () => {
    let cancelled = false
    const q = setup({
      live: async () =>
        cancelled ? fail({ kind: 'cancelled', message: 'left' }) : ok(answer('a', 'network', '2026-11-27T07:33:00Z')),
    })
    await q.load('x')
    cancelled = true
    await q.refresh()
    expect(q.error.value).toBeNull()
    expect(q.status.value).toBe('ready')
    const applied = await q.extend(
      async () => fail<string>({ kind: 'rate-limited', message: 'slow down', retryAfterMs: 2000 }),
      (shown) => shown!,
    )
    expect(applied).toBe(false)
    expect(q.error.value?.kind).toBe('rate-limited')
    expect(q.data.value?.text).toBe('a')
    expect(
      await q.extend(
        async () => ok(' more'),
        (shown, more) => ({ ...shown!, text: shown!.text + more }),
      ),
    ).toBe(true)
    expect(q.data.value?.text).toBe('a more')
    expect(q.error.value).toBeNull()
  })

  it('shows only main’s kept answer when asked cache-only, and reads live once when the view then asks', async () => {
    let live = 0
    const q = setup({
      cached: answer('cached', 'snapshot', '2026-11-27T07:31:00Z'),
      live: async () => (live++, ok(answer('live', 'network', '2026-11-27T07:33:00Z'))),
    })
    await q.load('x', { cacheOnly: true, again: false })
    expect(q.data.value?.text).toBe('cached')
    expect(q.status.value).toBe('ready')
    expect(live).toBe(0)
    await q.load('x', { again: false })
    expect(q.data.value?.text).toBe('live')
    await q.load('x', { again: false })
    await q.load('x', { cacheOnly: true, again: false })
    expect(live).toBe(1)
    expect(q.data.value?.text).toBe('live')
  })
})
