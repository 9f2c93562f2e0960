import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useAnalysisStore } from '../analysis'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { makePage } from '../../testing/samples'
import { useTransactionsStore } from '../transactions'
import { useQuestionsStore } from './questions-store'
import { useUrlFilters } from './use-url-filters'

const ADDRESS = `0x${'1'.repeat(40)}`
const TOKEN = `0x${'c'.repeat(40)}`
const PARTY = `0x${'2'.repeat(40)}`

/** The address page's use of the filters, without the rest of the page. */
const Page = defineComponent({
  setup() {
    useUrlFilters(ref(ADDRESS))
    return () => h('div')
  },
})

async function open(t: TestApp, query: Record<string, string>) {
  await t.router.push({ name: 'address', params: { network: 'alpha', address: ADDRESS }, query })
  const w = mountWith(Page, t)
  await flushPromises()
  return w
}

describe('filters kept in the URL', () => {
  afterEach(() => vi.useRealTimers())

  it('reads the URL into the stores, and a changed filter into a new history entry that back undoes', async () => {
    const t = setupTestApp()
    const w = await open(t, { token: TOKEN, dir: 'out' })
    const questions = useQuestionsStore()
    const txs = useTransactionsStore()
    expect(questions.filters.token).toBe(TOKEN)
    expect(txs.directionFilter).toBe('out')
    expect(txs.narrowing).not.toBeNull()

    questions.set({ party: PARTY })
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ token: TOKEN, party: PARTY, dir: 'out' })
    // The Transactions tab's own selects write the store: that goes to the URL too.
    txs.statusFilter = 'failed'
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ token: TOKEN, party: PARTY, dir: 'out', status: 'failed' })

    t.router.back()
    await flushPromises()
    await vi.waitFor(() => expect(txs.statusFilter).toBe('all'))
    expect(questions.filters.party).toBe(PARTY)
    w.unmount()
    expect(txs.narrowing).toBeNull()
  })

  it('leaves bad values out with a note, keeps them in the URL until a filter changes, and never throws', async () => {
    const t = setupTestApp()
    await open(t, { token: 'usdc', party: PARTY, from: '2026-13-01' })
    const questions = useQuestionsStore()
    expect(questions.filters.token).toBeNull()
    expect(questions.filters.party).toBe(PARTY)
    expect(questions.problems).toHaveLength(2)
    expect(t.router.currentRoute.value.query.token).toBe('usdc')
    questions.set({ toDay: '2026-01-31' })
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ party: PARTY, to: '2026-01-31' })
    expect(questions.problems).toEqual([])
  })

  it('keeps the Counterparties search in the URL in place, and sums only the filtered token', async () => {
    const t = setupTestApp()
    const txs = useTransactionsStore()
    const items = [
      tx(ADDRESS, PARTY, {
        token_transfers: [transfer(TOKENS.usdc, ADDRESS, PARTY, '100'), transfer(TOKENS.weth, PARTY, ADDRESS, '7')],
      }),
    ]
    t.bridge.handle('data.transactions', () => makePage(0, 0, null, { address: ADDRESS, items }))
    await txs.open('alpha', ADDRESS)
    await open(t, { token: TOKENS.usdc.address, cp: 'dex' })
    const analysis = useAnalysisStore()
    expect(analysis.query).toBe('dex')
    const row = analysis.summary!.rows.find((r) => r.address === PARTY)!
    expect(row.tokens.map((f) => [f.symbol, f.out, f.in])).toEqual([['USDC', 100n, 0n]])

    // Typing replaces the URL's text (Back is no undo of one key); a filter change is a new entry.
    const questions = useQuestionsStore()
    questions.set({ fromDay: '2026-01-01' })
    await flushPromises()
    analysis.query = 'dex r'
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ token: TOKENS.usdc.address, from: '2026-01-01', cp: 'dex r' })
    analysis.query = ''
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ token: TOKENS.usdc.address, from: '2026-01-01' })
    t.router.back()
    await flushPromises()
    await vi.waitFor(() => expect(questions.filters.fromDay).toBeNull())
    expect(analysis.query).toBe('dex')
  })
  it('keeps the narrowing predicate while only the Counterparties search text changes, and makes a new one when a filter does', async () => {
    const t = setupTestApp()
    const w = await open(t, { token: TOKEN, party: PARTY })
    const txs = useTransactionsStore()
    const analysis = useAnalysisStore()
    const questions = useQuestionsStore()
    const narrowing = txs.narrowing
    expect(narrowing).not.toBeNull()
    for (const text of ['d', 'de', 'dex']) {
      analysis.query = text
      await flushPromises()
      expect(t.router.currentRoute.value.query).toEqual({ token: TOKEN, party: PARTY, cp: text })
      expect(txs.narrowing).toBe(narrowing)
    }
    expect(analysis.query).toBe('dex')
    // The search text is held once, by the analysis store: the filters do not copy it.
    expect(questions.filters.cpText).toBeNull()
    questions.set({ party: null })
    await flushPromises()
    expect(t.router.currentRoute.value.query).toEqual({ token: TOKEN, cp: 'dex' })
    expect(txs.narrowing).not.toBe(narrowing)
    expect(txs.narrowing).not.toBeNull()
    expect(analysis.query).toBe('dex')
    w.unmount()
  })
})
