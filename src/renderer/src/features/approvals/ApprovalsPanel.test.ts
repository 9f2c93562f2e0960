import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { ME } from '../../testing/samples'
import ApprovalsPanel from './ApprovalsPanel.vue'

/** What the scan left out is said: the logs a provider sent that are not well-formed approval logs. */
function viewWith(skippedLogs: number): ApprovalsView {
  return {
    network: 'alpha',
    address: ME,
    rows: [],
    transactionsRead: 0,
    stateError: null,
    cost: { requests: 0, units: 0 },
    scan: {
      scannedTo: 100,
      head: 100,
      remainingCalls: 0,
      remainingUnits: 0,
      billing: 'request',
      logCap: null,
      skippedLogs,
    },
    source: 'network',
    fetchedAt: new Date().toISOString(),
    staleReason: null,
  }
}

describe('ApprovalsPanel', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it.each([
    [0, null],
    [1, '1 malformed log skipped'],
    [3, '3 malformed logs skipped'],
  ])('with %i logs skipped by the scan, says %s', async (skipped, words) => {
    t.bridge.handle('approvals.view', () => viewWith(skipped))
    const w = mountWith(ApprovalsPanel, t, { props: { network: 'alpha', address: ME } })
    await flushPromises()
    const said = w.findAll('[role="status"]').map((p) => p.text())
    if (words === null) expect(said.join(' ')).not.toMatch(/malformed/)
    else expect(said).toContainEqual(expect.stringContaining(words))
    w.unmount()
  })

  describe('as of when, and the failure beside it', () => {
    beforeEach(() => {
      vi.useFakeTimers()
      vi.setSystemTime(new Date('2026-11-27T07:33:00'))
    })
    afterEach(() => vi.useRealTimers())

    it('shows the approvals loaded data tells with their time, and a failed check once beside them', async () => {
      const kept: ApprovalsView = {
        ...viewWith(0),
        source: 'cache',
        fetchedAt: new Date('2026-11-27T07:31:00').toISOString(),
        stateError: 'The current state was not checked now (no request was sent).',
      }
      t.bridge.handle(
        'approvals.view',
        (input) => {
          if (input.cacheOnly) return kept
          throw new FakeBridgeFailure({ kind: 'timeout', message: 'The service did not answer in time.' })
        },
        { cached: true },
      )
      const w = mountWith(ApprovalsPanel, t, { props: { network: 'alpha', address: ME } })
      await flushPromises()
      expect(w.get('[aria-label="Data freshness"]').text()).toMatch(/^From cache, as of 2026-11-27 07:31:00/)
      expect(w.get('[aria-label="Shown despite a failure"]').text()).toBe(
        'Service not answering since 07:33 · showing cached data from 07:31',
      )
      expect(w.find('[role="alert"]').exists()).toBe(false)
      w.unmount()
    })

    it('says so when main served them for Work offline', async () => {
      t.bridge.handle('approvals.view', () => ({
        ...viewWith(0),
        source: 'cache',
        fetchedAt: new Date('2026-11-27T07:31:00').toISOString(),
        staleReason: 'offline-by-choice',
        stateError: 'The current state could not be checked now (Work offline is on).',
      }))
      const w = mountWith(ApprovalsPanel, t, { props: { network: 'alpha', address: ME } })
      await flushPromises()
      expect(w.get('[aria-label="Data freshness"]').text()).toMatch(/^Saved copy as of 2026-11-27 07:31:00/)
      expect(w.get('[aria-label="Shown while working offline"]').text()).toBe(
        'Offline by choice · showing cached data from 07:31',
      )
      // Said once: not again in the state's own words.
      expect(w.text()).not.toContain('could not be checked now')
      w.unmount()
    })
  })
})
