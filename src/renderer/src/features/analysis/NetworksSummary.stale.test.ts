import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { NetworkPresence } from '@shared/bridge/contract'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { expectOneFailureLine } from '../../testing/failure-line'
import NetworksSummary from './NetworksSummary.vue'

const CHECKED_AT = new Date('2026-11-27T07:31:00').toISOString()
const kept = (network: string): NetworkPresence => ({
  network,
  nativeWei: '1000000000000000000',
  nonce: 3,
  tokens: 2,
  cachedTransactions: 40,
  source: 'cache',
  requests: 0,
  fetchedAt: CHECKED_AT,
  error: null,
  staleReason: null,
})

describe('NetworksSummary while the service hangs', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    t = setupTestApp()
    t.bridge.handle('watchlists.list', () => [])
    t.bridge.handle('labels.list', () => [])
    t.bridge.handle(
      'analysis.networks',
      async (input) => {
        if (input.cacheOnly) return [kept('alpha'), kept('beta')]
        await fakeLatency(30_000)
        throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
      },
      { cached: true },
    )
  })
  afterEach(() => vi.useRealTimers())

  /** Mounted, with main's answers in: both cards shown. */
  async function settled() {
    const w = mountWith(NetworksSummary, t, { props: { network: 'alpha', address: ME, tab: 'balances' } })
    await flushPromises()
    await vi.advanceTimersByTimeAsync(0)
    await flushPromises()
    expect(w.findAll('li.card')).toHaveLength(2)
    return w
  }

  it('keeps both cards, with their time, beside the failure instead of replacing them by it', async () => {
    const w = mountWith(NetworksSummary, t, { props: { network: 'alpha', address: ME, tab: 'balances' } })
    await flushPromises()
    expect(w.findAll('li.card')).toHaveLength(2)
    expect(w.get('[aria-label="How fresh the both-networks check is"]').text()).toMatch(
      /^From cache, as of 2026-11-27 07:31:00/,
    )
    expect(w.findAll('[role="status"]').map((s) => s.text())).toContain('Refreshing…')
    await vi.advanceTimersByTimeAsync(30_000)
    await flushPromises()
    expect(w.findAll('li.card')).toHaveLength(2)
    expect(w.findAll('li.card')[0]!.text()).toContain('1 coin')
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from 07:31',
    )
    expectOneFailureLine(w, 'Both networks could not be checked')
    w.unmount()
  })

  it('says the failure beside the cards when main answers each network from its cache because its check failed', async () => {
    t.bridge.handle(
      'analysis.networks',
      (input) =>
        input.cacheOnly
          ? [kept('alpha'), kept('beta')]
          : [
              {
                ...kept('alpha'),
                error: { kind: 'timeout', message: 'The service did not answer eth_getBalance in 15 s.' },
                // Main's staleReasonFor of the failure (network-presence.ts).
                staleReason: 'offline',
              },
              kept('beta'),
            ],
      { cached: true },
    )
    const w = await settled()
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from 07:31',
    )
    w.unmount()
  })

  it('says "Offline by choice" beside the cards main kept because Work offline is on (its staleReason)', async () => {
    t.bridge.handle(
      'analysis.networks',
      (input) =>
        input.cacheOnly
          ? [kept('alpha'), kept('beta')]
          : (['alpha', 'beta'] as const).map((n) => ({
              ...kept(n),
              error: { kind: 'offline-by-choice', message: 'Work offline is on.' },
              staleReason: 'offline-by-choice' as const,
            })),
      { cached: true },
    )
    const w = await settled()
    expect(w.get('[aria-label="Shown while working offline"]').text()).toBe(
      'Offline by choice · showing cached data from 07:31',
    )
    w.unmount()
  })
})
