import { describe, expect, it } from 'vitest'
import { unitsForCalls, type Billing } from '@shared/domain/billing'
import { newestFirst, planGap, windowCount, type BlockRange } from './watch-plan'

/** What `calls` sent at once cost on a provider billing `billing` that takes batches of `batchCap` (cheapest-calls.ts). */
const requestUnitsOn =
  (billing: Billing, batchCap: number) =>
  (calls: number): number =>
    Math.min(unitsForCalls(billing, calls, batchCap), calls * unitsForCalls(billing, 1, batchCap))

const gap = (blocks: number): BlockRange[] => [{ from: 1_000_001, to: 1_000_000 + blocks }]

describe('planGap: the cheaper complete way, in the profile unit, before anything is sent', () => {
  // Costs worked out by hand: windows = ceil(blocks / cap); 3 filters a window; whole windows
  // per request = floor(batch cap / 3); the balances way = one GET (1 unit) per address.
  it.each([
    // billing, batch cap, log cap, gap, watched, way, units, other
    // 300 windows, 16 a batch of 48 calls: 18 batches + one of 12 windows = 19 requests.
    ['request', 50, 1000, 300_000, 50, 'logs', 19, 50],
    // A batch costs its calls + 1: 900 single calls.
    ['call-plus-batch', 50, 1000, 300_000, 50, 'balances', 50, 900],
    ['call', 50, 1000, 300_000, 50, 'balances', 50, 900],
    // Batches refused (size 1): 900 single requests.
    ['request', 1, 1000, 300_000, 50, 'balances', 50, 900],
    // 3 addresses: 3 GETs beat 19 batches.
    ['request', 50, 1000, 300_000, 3, 'balances', 3, 19],
    // 2 windows of 10,000: 6 calls.
    ['call', 100, 10_000, 20_000, 50, 'logs', 6, 50],
    ['call-plus-batch', 100, 10_000, 20_000, 50, 'logs', 6, 50],
    // 5 windows of 20 blocks: 15 single calls against 8 GETs.
    ['call-plus-batch', 50, 20, 100, 8, 'balances', 8, 15],
    // Per request, batches of 100 (33 windows): 10 windows in one request.
    ['request', 100, 20, 200, 8, 'logs', 1, 8],
    // No cap met: one window, 3 calls in one batch (call-plus-batch: 3 singles).
    ['request', 100, null, 300_000, 50, 'logs', 1, 50],
    ['call-plus-batch', 100, null, 300_000, 50, 'logs', 3, 50],
    // A tie goes to the logs (they also tell the blocks of the movements).
    ['call', 50, 1000, 10_000, 30, 'logs', 30, 30],
  ] as const)('%s, batches of %i, log cap %s, %i blocks, %i watched: %s for %i (other %i)', (...row) => {
    const [billing, batchCap, cap, blocks, addresses, way, units, otherUnits] = row
    const plan = planGap({
      ranges: gap(blocks),
      cap,
      addresses,
      snapshots: true,
      batchSize: batchCap,
      requestUnits: requestUnitsOn(billing, batchCap),
    })
    expect(plan).toMatchObject({ way, units, otherUnits })
  })

  it('never takes the balances way while an address has no token balances to compare with', () => {
    const input = { ranges: gap(300_000), cap: 1000, addresses: 50, snapshots: false }
    const perCall = { ...input, batchSize: 50, requestUnits: requestUnitsOn('call-plus-batch', 50) }
    expect(planGap(perCall)).toMatchObject({ way: 'logs', units: 900, otherUnits: Infinity })
  })

  it('counts the windows of every unread range beside the new gap', () => {
    const ranges = [
      { from: 3001, to: 4000 },
      { from: 1, to: 1500 },
    ]
    const plan = planGap({
      ranges,
      cap: 1000,
      addresses: 50,
      snapshots: true,
      batchSize: 50,
      requestUnits: requestUnitsOn('call', 50),
    })
    // 1 + 2 windows, 9 calls.
    expect(plan).toMatchObject({ way: 'logs', windows: 3, units: 9 })
  })

  it('plans a head of 2^53 reported by a service without listing its windows', () => {
    const plan = planGap({
      ranges: [{ from: 51, to: Number.MAX_SAFE_INTEGER }],
      cap: 10,
      addresses: 50,
      snapshots: true,
      batchSize: 1,
      requestUnits: (n) => n,
    })
    expect(plan).toMatchObject({ way: 'balances', units: 50 })
    expect(plan.otherUnits).toBe(3 * Math.ceil((Number.MAX_SAFE_INTEGER - 50) / 10))
  })
})

describe('newestFirst', () => {
  it('lists the windows from the newest block down, each range once, the newest range first', () => {
    const ranges = [
      { from: 1, to: 2500 },
      { from: 5001, to: 5300 },
    ]
    expect([...newestFirst(ranges, 1000)]).toEqual([
      { from: 5001, to: 5300 },
      { from: 1501, to: 2500 },
      { from: 501, to: 1500 },
      { from: 1, to: 500 },
    ])
    expect(windowCount(ranges, 1000)).toBe(4)
    expect([...newestFirst([{ from: 5, to: 4 }], 10)]).toEqual([])
    expect([...newestFirst([{ from: 5, to: 9 }], null)]).toEqual([{ from: 5, to: 9 }])
  })
})
