import { beforeEach, describe, expect, it } from 'vitest'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makeBalance, makeBalances, ME } from '../../testing/samples'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { useBalancesStore } from './balances-store'
import { useWatchSummariesStore } from './watch-summaries-store'

describe('balances store', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
  })

  it('loads, sorts by fiat by default, hides zero and records a watch summary', async () => {
    t.bridge.handle('data.balances', () =>
      makeBalances([
        makeBalance('USDC', '2500000', '6', { rate: '1' }),
        makeBalance('WETH', '10', '18', { rate: '2000' }),
        makeBalance('ZERO', '0', '6'),
      ]),
    )
    const s = useBalancesStore()
    await s.load('alpha', ME)
    expect(s.status).toBe('ready')
    expect(s.visibleRows.map((r) => r.symbol)).toEqual(['USDC', 'WETH'])
    expect(s.hiddenCount).toBe(1)
    expect(s.total).toBe(250n)
    s.sortBy('fiat')
    expect(s.sortDir).toBe('asc')
    s.sortBy('name')
    expect(s.sortKey).toBe('name')
    s.hideZero = false
    expect(s.visibleRows.map((r) => r.symbol)).toEqual(['USDC', 'WETH', 'ZERO'])
    const summary = useWatchSummariesStore().get('alpha', ME)
    expect(summary).toMatchObject({ tokens: 2, fiatCents: '250', top: ['USDC', 'WETH'] })
    expect(t.bridge.callsOf('data.balances')[0]).toMatchObject({
      network: 'alpha',
      address: ME,
      refresh: false,
      priority: 'user',
    })
  })

  it('keeps showing the last answer when a refresh fails', async () => {
    let fail = false
    t.bridge.handle('data.balances', () => {
      if (fail) throw new FakeBridgeFailure({ kind: 'quota-exhausted', message: 'quota used up', retryAfterMs: 60_000 })
      return makeBalances([makeBalance('USDC', '1', '6')])
    })
    const s = useBalancesStore()
    await s.load('alpha', ME)
    fail = true
    await s.load('alpha', ME, { refresh: true })
    expect(s.status).toBe('error')
    expect(s.error?.kind).toBe('quota-exhausted')
    expect(s.rows).toHaveLength(1)
  })

  it('clears the table when another address opens', async () => {
    t.bridge.handle('data.balances', (input) =>
      makeBalances(input.address === ME ? [makeBalance('A', '1', '0')] : [], { address: input.address }),
    )
    const s = useBalancesStore()
    await s.load('alpha', ME)
    const pending = s.load('alpha', '0x3333333333333333333333333333333333333333')
    expect(s.view).toBeNull()
    await pending
    expect(s.rows).toHaveLength(0)
  })
})
