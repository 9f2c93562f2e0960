import { describe, expect, it } from 'vitest'
import { FakeChain } from '../testing/fake-chain'
import { runWatchCheck, watchCost, type WatchCheckOptions } from './watch-check'
import type { CheckRuntime } from './watch-spend'
import type { ProfileWatchState } from './watch-state'

/**
 * What a check's estimate says against what the check then spends, on hand-computed numbers
 * (docs/decisions/watch-cost-range.md). 3 watched addresses, all with token snapshots, 300,000
 * blocks away (a week of 2-second blocks), on a provider capping batches at 50 calls.
 */
const addressOf = (i: number): string => `0x${(0xb000 + i).toString(16).padStart(40, '0')}`
const OUTSIDER = addressOf(999)
const emptyState = (): ProfileWatchState => ({ periodic: false, budgetFraction: 0.05, networks: {}, addresses: {} })

function rig(billing: 'request' | 'call-plus-batch', cap: number, count = 3) {
  const chain = new FakeChain(1000, cap)
  const runtime = chain.runtime({ billing, batchCap: 50 }) as unknown as CheckRuntime
  const addresses = Array.from({ length: count }, (_, i) => addressOf(i))
  const state = emptyState()
  const targets = addresses.map((address) => ({ network: 'n', address }))
  const run = (extra: Partial<WatchCheckOptions> = {}) =>
    runWatchCheck(runtime, state, targets, {
      priority: 'user',
      now: () => 0,
      headOf: () => chain.head,
      logCap: () => null,
      ...extra,
    })
  return { chain, runtime, addresses, state, targets, run }
}

describe('watchCost: the least and the most a check costs', () => {
  it('a week away with the log cap known is one number: per request, 300 windows of 1,000 blocks, 16 to a request', async () => {
    const r = rig('request', 1000)
    await r.run()
    r.chain.head += 300_000
    // Balances and head in one batch (1), then 19 requests of windows (ceil(300 / 16)); the
    // 3 balances GETs (3) cost less than 19: the balances way.
    expect(watchCost(r.runtime, r.state, r.targets, { headOf: () => r.chain.head, logCap: () => 1000 })).toEqual({
      units: 1 + 3,
      max: 1 + 3,
    })
  })

  it('the same week with the cap unknown is a range: one filter asks, then the cap it names plans the rest', async () => {
    const r = rig('request', 1000)
    await r.run()
    r.chain.head += 300_000
    const options = { headOf: () => r.chain.head, logCap: () => null }
    // Balances and head in one batch (1), the asking filter (1), then least: it names a cap
    // wider than the gap (one batch of 3 filters: 1) = 3. Most: refused naming none, the 3 GETs
    // (cheaper than 30,000 windows of 10 blocks) = 1 + 1 + 3 = 5.
    expect(watchCost(r.runtime, r.state, r.targets, options)).toEqual({ units: 3, max: 5 })
  })

  it('billed per call plus one per batch, the same week with the cap unknown: 5 to 6 units', async () => {
    const r = rig('call-plus-batch', 1000)
    await r.run()
    r.chain.head += 300_000
    const options = { headOf: () => r.chain.head, logCap: () => null }
    // Balances and head as 2 single calls (a batch of 2 costs 3): 2. Least: the asking filter
    // answered and the two others as single calls (3) = 5. Most: refused, then one window (3
    // single calls) or the 3 GETs (3) = 2 + 1 + 3 = 6.
    expect(watchCost(r.runtime, r.state, r.targets, options)).toEqual({ units: 5, max: 6 })
  })

  it('without token snapshots the unknown cap is priced down to the smallest documented one (10 blocks)', async () => {
    const r = rig('request', 1000)
    await r.run()
    for (const a of r.addresses) delete r.state.addresses[`n|${a}`]!.tokens
    r.chain.head += 3000
    const options = { headOf: () => r.chain.head, logCap: () => null }
    // 3,000 blocks (under 10,000): the three filters go with the balances and head in one batch
    // (1), and the 3 snapshots are read afterwards (3) = 4 at least. Most: the filters refused
    // naming no cap, 300 windows of 10 blocks, 16 to a request (19 requests) = 23.
    expect(watchCost(r.runtime, r.state, r.targets, options)).toEqual({ units: 4, max: 23 })
  })
})

describe('the check never spends more than the most its estimate said', () => {
  it('a provider naming a cap below the smallest planned with: the check stops at its bound, the rest unread', async () => {
    const r = rig('request', 4)
    await r.run()
    for (const a of r.addresses) delete r.state.addresses[`n|${a}`]!.tokens
    r.chain.head += 3000
    r.chain.move({ block: r.chain.head - 1, kind: 'erc20', from: OUTSIDER, to: r.addresses[1]!, amount: 5n })
    const options = { headOf: () => r.chain.head, logCap: () => null }
    const { max } = watchCost(r.runtime, r.state, r.targets, options)
    const before = r.chain.units
    const result = await r.run(options)
    // The balances, the asking filter and windows up to the bound; the snapshots and the changed
    // address's refetch come after (not part of the bound's reads: 3 + 2).
    expect(r.chain.units - before - 3 - 2).toBeLessThanOrEqual(max)
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([r.addresses[1]])
    expect(result.networks[0]!.error).toMatch(
      /^stopped at the most its estimate said it would spend with token transfers read newest first down to block [\d,]+; blocks 1,001-[\d,]+ still unread: the next check reads them$/,
    )
    expect(r.state.networks.n!.unread).toEqual([{ from: 1001, to: expect.any(Number) }])
  })

  it('billed per call plus one per batch, an unchanged check costs what it announced: 5 calls, not a batch of 6', async () => {
    const r = rig('call-plus-batch', 1000, 8)
    await r.run()
    r.chain.head += 20
    const estimate = watchCost(r.runtime, r.state, r.targets, { headOf: () => r.chain.head, logCap: () => 1000 })
    const before = r.chain.units
    const result = await r.run({ logCap: () => 1000 })
    expect(result.changed).toBe(0)
    // One balance call, the mined head, three filters: 5 single calls (a batch of 5 costs 6).
    expect(r.chain.units - before).toBe(5)
    expect(estimate).toEqual({ units: 5, max: 5 })
  })
})
