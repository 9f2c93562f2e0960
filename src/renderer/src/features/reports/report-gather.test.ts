import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { party } from '@shared/testing/service-samples'
import { tx } from '../../testing/analysis-samples'

const ME = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'
const D = '0x4444444444444444444444444444444444444444'
const E = '0x5555555555555555555555555555555555555555'
const KEY = 'sbx_report_key_98765'
const calls: { name: string; input: Record<string, unknown> }[] = []
/** Cache reads main is answering at once, and the most seen. */
const reads = { open: 0, most: 0 }

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
/** B's cached page: B got 5 from ME's page, then sent 3 coin on to C, and C 1 coin to D. */
const bPage: Transaction[] = [
  tx(B, C, { minute: 10, value: '3000000000000000000' }),
  tx(C, D, { minute: 11, value: '1000000000000000000' }),
]
/** What main has cached, by address: E was never loaded, so a cache-only read finds nothing. */
const cached: Record<string, { items: Transaction[]; fetchedAt: string }> = {
  [ME]: { items: echoed, fetchedAt: '2026-01-02T03:04:05.000Z' },
  [B]: { items: bPage, fetchedAt: '2026-01-01T22:00:00.000Z' },
}
vi.mock('../../platform/bridge', () => ({
  bridge: {
    invoke: vi.fn(async (name: string, input: Record<string, unknown>) => {
      calls.push({ name, input })
      if (name === 'data.transactions') {
        reads.most = Math.max(reads.most, ++reads.open)
        await Promise.resolve()
        reads.open--
        const page = cached[input.address as string]
        if (!page)
          return { ok: false, error: { kind: 'not-found', message: 'This page of transactions is not cached.' } }
        return { ok: true, value: { ...page, unreadable: [] } }
      }
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

  it("includes the case graph's expanded addresses, read only from the cache, each with its own time", async () => {
    const { gatherReport } = await import('./report-gather')
    const { buildReportHtml } = await import('./report-html')
    const ref = { network: 'alpha', networkLabel: 'Alpha', address: ME, label: null, note: null }
    const graph = {
      expanded: [
        { network: 'alpha', address: B.toUpperCase().replace('0X', '0x') },
        { network: 'alpha', address: E },
        { network: 'beta', address: C },
        { network: 'alpha', address: B },
      ],
      hopLimit: 3,
    }
    reads.most = 0
    const [s] = await gatherReport([ref], graph)
    const txCalls = calls.filter((c) => c.name === 'data.transactions')
    // The expanded addresses' pages are asked for together, not one after another.
    expect(reads.most).toBe(2)
    // ME once, B once (named twice, in two cases of letters), E once; beta has no reported address.
    expect(txCalls.map((c) => c.input.address).sort()).toEqual([ME, B, E].sort())
    expect(txCalls.every((c) => c.input.cacheOnly === true && c.input.refresh === false)).toBe(true)
    expect(s!.hops).toBe(3)
    expect(s!.expanded!.map((p) => [p.address, p.transactions.length, p.fetchedAt])).toEqual([
      [B, 2, '2026-01-01T22:00:00.000Z'],
      [E, 0, null],
    ])

    const doc = new DOMParser().parseFromString(
      buildReportHtml({ title: 't', generatedAt: '2026-01-03T00:00:00.000Z', subjects: [s!], notes: '' }),
      'text/html',
    )
    const section = doc.querySelector('section[aria-labelledby="expanded"]')!
    expect(section.querySelector('h2')!.textContent).toBe('Expanded addresses')
    // B's own transactions are in the report, under B, with B's fetch time.
    const text = section.textContent!
    for (const t of bPage) expect(text).toContain(t.hash)
    expect(text).toContain('Data as of 2026-01-01 22:00:00 UTC.')
    expect(text).toContain('Not kept on this computer')
    // The flows drawn from ME include B's onward flows: C→D sits 3 hops out, inside the limit.
    const flows = [...doc.querySelectorAll('h3')].find((h) => h.textContent === 'Flows')!
    const table = flows.nextElementSibling!.nextElementSibling as HTMLTableElement
    const rows = [...table.querySelectorAll('tbody tr')].map((r) =>
      [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent),
    )
    // B is named by the echoed page's party name; C and D by address.
    expect(rows).toEqual([
      ['Echo …8765', ME, '0.000000000000000005 coin'],
      ['Echo …8765', C, '3 coin'],
      [C, D, '1 coin'],
    ])
    expect(flows.nextElementSibling!.textContent).toBe(
      'Data as of 2026-01-02 03:04:05 UTC for this address; 1 expanded address as of 2026-01-01 22:00:00 UTC.',
    )
    expect(doc.body.textContent).toContain('Flow graph of 0x1111111111111111111111111111111111111111, 3 hops')
  })

  it('takes the expanded addresses of the flow graph open on the one address reported', async () => {
    const { gatherReport } = await import('./report-gather')
    const { useFlowsStore } = await import('../flows')
    const flows = useFlowsStore()
    // B's page is cached: expanding it reads it for free.
    flows.open('alpha', ME)
    await flows.expand([B])
    flows.hops = 4
    const [s] = await gatherReport([{ network: 'alpha', networkLabel: 'Alpha', address: ME, label: null, note: null }])
    expect(s!.hops).toBe(4)
    expect(s!.expanded!.map((p) => p.address)).toEqual([B])
    // Another address's report does not borrow this graph.
    const [other] = await gatherReport([
      { network: 'alpha', networkLabel: 'Alpha', address: C, label: null, note: null },
    ])
    expect(other!.expanded).toBeUndefined()
  })
})
