import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makePage, ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import CounterpartiesPanel from './CounterpartiesPanel.vue'

const CACHED_AT = '2026-11-27T06:31:00.000Z'

describe('CounterpartiesPanel with pages main keeps', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    t.bridge.handle('watchlists.list', () => [])
    t.bridge.handle('labels.list', () => [])
    t.bridge.handle('notes.list', () => [])
    t.bridge.handle(
      'data.transactions',
      (input) => {
        if (!input.cacheOnly) throw new Error('a view that costs no requests asked live')
        if (input.cursor === 'p2') throw new FakeBridgeFailure({ kind: 'not-found', message: 'not cached' })
        const n = input.cursor ? 1 : 0
        return makePage(n * 50, 50, `p${n + 1}`, {
          cursor: input.cursor ?? null,
          source: 'snapshot',
          fetchedAt: CACHED_AT,
        })
      },
      { cached: true },
    )
  })

  it('is built at once from every cached page, for free, and says as of when', async () => {
    const w = mountWith(CounterpartiesPanel, t, { props: { network: 'alpha', address: ME } })
    await flushPromises()
    expect(w.text()).toContain('Built from the 100 loaded transactions (2 pages')
    expect(w.get('[aria-label="Data freshness"]').text()).toMatch(/^Saved copy as of 2026-11-27/)
    expect(w.findAll('table tbody tr').length).toBeGreaterThan(0)
    expect(t.bridge.callsOf('data.transactions').every((c) => (c as { cacheOnly: boolean }).cacheOnly)).toBe(true)
    w.unmount()
  })
})
