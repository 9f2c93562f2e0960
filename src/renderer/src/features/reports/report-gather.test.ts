import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { party } from '@shared/testing/service-samples'
import { tx } from '../../testing/analysis-samples'

const ME = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const KEY = 'sbx_report_key_98765'
const calls: { name: string; input: Record<string, unknown> }[] = []

/**
 * Main removes the API key from every answer before it crosses the bridge (bridge-host.ts, its
 * test plants a key a service echoes). What crosses is what a hostile service's echo becomes:
 * the key's last four characters after an ellipsis. The renderer never holds the key to leak.
 */
const echoed: Transaction[] = [
  tx(B, ME, {
    minute: 1,
    value: '5',
    from: party(B, { name: `Echo …${KEY.slice(-4)}` }),
    method: 'call?api_key=…8765',
  }),
]
vi.mock('../../platform/bridge', () => ({
  bridge: {
    invoke: vi.fn(async (name: string, input: Record<string, unknown>) => {
      calls.push({ name, input })
      if (name === 'data.transactions')
        return { ok: true, value: { items: echoed, fetchedAt: '2026-01-02T03:04:05.000Z', unreadable: [] } }
      return { ok: true, value: [] }
    }),
    on: vi.fn(),
  },
}))

describe('gatherSubject', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    calls.length = 0
  })

  it('reads a case address only from the cache (no request), and the report holds only what crossed the bridge', async () => {
    const { gatherSubject } = await import('./report-gather')
    const { buildReportHtml } = await import('./report-html')
    const s = await gatherSubject({ network: 'alpha', networkLabel: 'Alpha', address: ME, label: null, note: null })
    const txCalls = calls.filter((c) => c.name === 'data.transactions')
    expect(txCalls).toHaveLength(1)
    expect(txCalls[0]!.input).toMatchObject({ cacheOnly: true, refresh: false, address: ME })
    expect(calls.every((c) => c.name === 'data.transactions' || c.name.endsWith('.list'))).toBe(true)
    expect(s.transactionsFetchedAt).toBe('2026-01-02T03:04:05.000Z')
    const html = buildReportHtml({ title: 't', generatedAt: '2026-01-03T00:00:00.000Z', subjects: [s], notes: '' })
    expect(html).toContain('Echo …8765')
    expect(html).not.toContain(KEY)
    expect(html).toContain('Data as of 2026-01-02 03:04:05 UTC.')
  })

  it("names an address opened from its page by the user's watchlist label", async () => {
    const { gatherSubject } = await import('./report-gather')
    const { useWatchlistsStore } = await import('../watchlists')
    const lists = [{ entries: [{ address: ME.toUpperCase().replace('0X', '0x'), network: 'alpha', label: 'Mine' }] }]
    useWatchlistsStore().lists = lists as never
    const s = await gatherSubject({ network: 'alpha', networkLabel: 'Alpha', address: ME, label: null, note: null })
    expect(s.label).toBe('Mine')
    const other = await gatherSubject({ network: 'beta', networkLabel: 'Beta', address: ME, label: null, note: null })
    expect(other.label).toBeNull()
  })
})
