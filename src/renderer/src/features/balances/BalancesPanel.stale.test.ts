import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { fakeLatency } from '../../testing/delay'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makeBalance, makeBalances, ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { expectOneFailureLine } from '../../testing/failure-line'
import { useBalancesStore } from './balances-store'
import BalancesPanel from './BalancesPanel.vue'

/** Main holds balances from 07:31; the service then hangs until the bridge's deadline (30 s). */
function serveHung(t: TestApp): void {
  t.bridge.handle(
    'data.balances',
    async (input) => {
      if (input.cacheOnly)
        return makeBalances([makeBalance('USDC', '1000000', '6')], {
          source: 'snapshot',
          fetchedAt: new Date('2026-11-27T07:31:00').toISOString(),
        })
      await fakeLatency(30_000)
      throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
    },
    { cached: true },
  )
}

describe('BalancesPanel while the service hangs', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    localStorage.clear()
    t = setupTestApp()
    serveHung(t)
  })
  afterEach(() => vi.useRealTimers())

  it('shows the cached balances at once with their time, says it is refreshing, and keeps them beside the failure', async () => {
    const w = mountWith(BalancesPanel, t, { props: { network: 'alpha', address: ME, networkLabel: 'Alpha' } })
    const loading = useBalancesStore().load('alpha', ME)
    await flushPromises()
    expect(w.get('table[aria-label="Token balances"]').text()).toContain('USDC')
    expect(w.get('[aria-label="Data freshness"]').text()).toMatch(/^Saved copy as of 2026-11-27 07:31:00/)
    expect(w.findAll('[role="status"]').map((s) => s.text())).toContain('Refreshing…')
    await vi.advanceTimersByTimeAsync(30_000)
    await loading
    await flushPromises()
    expect(w.text()).not.toContain('Refreshing…')
    expect(w.get('table[aria-label="Token balances"]').text()).toContain('USDC')
    expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
      'Service not answering since 07:33 · showing cached data from 07:31',
    )
    expectOneFailureLine(w, 'Balances could not be loaded')
    w.unmount()
  })
})
