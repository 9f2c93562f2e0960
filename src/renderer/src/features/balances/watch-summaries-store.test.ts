import { beforeEach, describe, expect, it } from 'vitest'
import { makeBalance, makeBalances, ME } from '../../testing/samples'
import { setupTestApp } from '../../testing/mount'
import { summaryText, useWatchSummariesStore } from './watch-summaries-store'

describe('watch summaries store', () => {
  beforeEach(() => {
    localStorage.clear()
    setupTestApp()
  })

  it('watch summaries: newer answers win and text reads well', () => {
    const s = useWatchSummariesStore()
    s.record(
      makeBalances([makeBalance('USDC', '1000000', '6', { rate: '1' }), makeBalance('GLD', '3', '0')], {
        fetchedAt: '2026-01-01T10:00:00.000Z',
      }),
    )
    s.record(makeBalances([], { fetchedAt: '2026-01-01T09:00:00.000Z', source: 'snapshot', staleReason: 'offline' }))
    const summary = s.get('alpha', ME)!
    expect(summary.tokens).toBe(2)
    expect(summaryText(summary)).toBe('2 tokens · USDC, GLD · $1.00')
    expect(summaryText({ ...summary, tokens: 0 })).toBe('No tokens')
  })
})
