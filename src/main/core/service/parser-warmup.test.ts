import { afterEach, describe, expect, it, vi } from 'vitest'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import type { HttpAnswer } from './http-attempt'

const keep = { redact: (s: string): string => s }
const answerOf = (body: unknown): HttpAnswer => ({
  status: 200,
  contentType: 'application/json',
  retryAfter: null,
  text: JSON.stringify(body),
})

/** The parsing modules afresh: zod schemas and their compiled parsers are module state. */
async function freshModules() {
  vi.resetModules()
  const schemas = await import('@shared/domain/service-schemas')
  const errors = await import('./response-errors')
  const warmup = await import('./parser-warmup')
  return { ...schemas, ...errors, ...warmup }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('parser warm-up', () => {
  it('reads answers of the shapes it warms as fully readable (so it runs the paths real pages take)', async () => {
    const m = await freshModules()
    const { transactions, balances } = m.warmUpAnswers()
    const page = m.parseBody(transactions, m.transactionsResponseSchema, 'a page', keep)
    expect(page.items).toHaveLength(10)
    expect(page.unreadable).toEqual([])
    // Every kind it makes up: coin transfer, call, token transfer, failure, pending.
    expect(new Set(page.items.map((tx) => tx.tx_types[0]))).toEqual(
      new Set(['coin_transfer', 'contract_call', 'token_transfer']),
    )
    expect(page.items.some((tx) => tx.block === null)).toBe(true)
    expect(page.items.some((tx) => tx.revert_reason)).toBe(true)
    expect(m.parseBody(balances, m.balancesResponseSchema, 'balances', keep).unreadable).toEqual([])
  })

  it('changes no result: real-world pages read the same after a warm-up as in a cold process', async () => {
    const txs = answerOf({ items: readFixture('transactions').items.map((i) => i.item), next_page_params: null })
    const bals = answerOf({ items: readFixture('balances').items.map((i) => i.item), next_page_params: null })
    const cold = await freshModules()
    const coldTxs = cold.parseBody(txs, cold.transactionsResponseSchema, 'a page', keep)
    const coldBals = cold.parseBody(bals, cold.balancesResponseSchema, 'balances', keep)
    expect(coldTxs.items.length).toBeGreaterThan(0)

    const warm = await freshModules()
    for (let i = 0; i < 3; i++) warm.warmUpOnce()
    expect(warm.parseBody(txs, warm.transactionsResponseSchema, 'a page', keep)).toEqual(coldTxs)
    expect(warm.parseBody(bals, warm.balancesResponseSchema, 'balances', keep)).toEqual(coldBals)
  })

  it('runs one round per turn of the event loop, and stops when told or when a round fails', async () => {
    const { startParserWarmUp } = await freshModules()
    vi.useFakeTimers({ toFake: ['setImmediate', 'clearImmediate'] })
    const round = vi.fn()
    startParserWarmUp({ rounds: 3, round })
    expect(round).not.toHaveBeenCalled()
    vi.advanceTimersToNextTimer()
    expect(round).toHaveBeenCalledTimes(1)
    vi.runAllTimers()
    expect(round).toHaveBeenCalledTimes(3)

    const stopped = vi.fn()
    const stop = startParserWarmUp({ rounds: 5, round: stopped })
    vi.advanceTimersToNextTimer()
    stop()
    vi.runAllTimers()
    expect(stopped).toHaveBeenCalledTimes(1)

    const failing = vi.fn(() => {
      throw new Error('schema changed')
    })
    startParserWarmUp({ rounds: 5, round: failing })
    vi.runAllTimers()
    expect(failing).toHaveBeenCalledTimes(1)
  })
})
