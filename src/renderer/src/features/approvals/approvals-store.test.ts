import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { fakeLatency } from '../../testing/delay'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { ME } from '../../testing/samples'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { useApprovalsStore } from './approvals-store'

const view = (stateError: string | null, requests: number): ApprovalsView => ({
  network: 'alpha',
  address: ME,
  rows: [],
  transactionsRead: 120,
  stateError,
  cost: { requests, units: requests },
  scan: {
    scannedTo: null,
    head: null,
    remainingCalls: 1,
    remainingUnits: 3,
    billing: 'request',
    logCap: null,
    skippedLogs: 0,
  },
  source: requests > 0 ? 'network' : 'cache',
  fetchedAt: '2026-11-27T07:31:00.000Z',
  staleReason: null,
})

describe('approvals store', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('shows the approvals loaded data tells at once, then the checked ones; a failed check keeps the first', async () => {
    let checks = 0
    t.bridge.handle(
      'approvals.view',
      async (input) => {
        if (input.cacheOnly) return view('The current state was not checked now', 0)
        await fakeLatency(100)
        if (++checks > 1)
          throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
        return view(null, 1)
      },
      { cached: true },
    )
    const s = useApprovalsStore()
    const opening = s.open('alpha', ME)
    await flushPromises()
    expect(s.view?.stateError).toBe('The current state was not checked now')
    await vi.advanceTimersByTimeAsync(100)
    await opening
    expect(s.view?.stateError).toBeNull()
    expect(s.view?.cost.requests).toBe(1)
    const again = s.open('alpha', ME, true)
    await vi.advanceTimersByTimeAsync(100)
    await again
    expect(s.error?.kind).toBe('timeout')
    expect(s.view?.cost.requests).toBe(1)
    expect(s.fetchState.shown).toBe(true)
    const live = t.bridge.callsOf('approvals.view').filter((c) => !(c as { cacheOnly: boolean }).cacheOnly)
    expect(live).toHaveLength(2)
  })
})
