import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { NetworkPresence } from '@shared/bridge/contract'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
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
    expect(w.get('[role="alert"]').text()).toContain('Both networks could not be checked')
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
              },
              kept('beta'),
            ],
      { cached: true },
    )
    const w = mountWith(NetworksSummary, t, { props: { network: 'alpha', address: ME, tab: 'balances' } })
    await flushPromises()
    await vi.advanceTimersByTimeAsync(0)
    await flushPromises()
    expect(w.findAll('li.card')).toHaveLength(2)
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from 07:31',
    )
    w.unmount()
  })
})
