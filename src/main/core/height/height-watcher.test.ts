import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { vi } from 'vitest'
import type { HeightView } from '../../../shared/bridge/contract'
import { AppError } from '../util/app-error'
import { ChainEstimator } from './chain-estimator'
import { HeightWatcher, type HeadSource } from './height-watcher'

const T0 = Date.UTC(2030, 0, 1, 8)
beforeEach(() => {
  vi.useFakeTimers({ now: T0 })
})
afterEach(() => vi.useRealTimers())

/** A chain with a block every `blockMs` (slot-based), answering like the RPC endpoint would. */
function chain(blockMs: number, startHeight = 1000) {
  const calls: { kind: 'head' | 'blockTime'; network: string; at: number }[] = []
  let failWith: AppError | null = null
  const height = (): number => startHeight + Math.floor((Date.now() - T0) / blockMs)
  const source: HeadSource = {
    head: async (network) => {
      calls.push({ kind: 'head', network, at: Date.now() - T0 })
      if (failWith) throw failWith
      const h = height()
      const producedMs = T0 + (h - startHeight) * blockMs
      return { height: h, timestampMs: Math.floor(producedMs / 1000) * 1000, gasPriceWei: '1500000000' }
    },
    blockTime: async (network) => {
      calls.push({ kind: 'blockTime', network, at: Date.now() - T0 })
      return blockMs
    },
  }
  return { source, calls, height, fail: (e: AppError | null) => (failWith = e) }
}

function watcher(source: HeadSource, events: HeightView[] = [], quota = 1000): HeightWatcher {
  return new HeightWatcher({ networks: ['alpha', 'beta'], source, quotaPerDay: () => quota, onHeight: (v) => events.push(v) })
}

describe('HeightWatcher', () => {
  it('polls each network every 9.8 min with the default budget (10% of 1000 per 8 visible hours)', async () => {
    const c = chain(2000)
    const w = watcher(c.source)
    const interval = Math.ceil((8 * 3600_000) / 49)
    expect(w.intervalMs()).toBe(interval)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(3600_000)
    const heads = c.calls.filter((x) => x.kind === 'head')
    expect(heads.filter((x) => x.network === 'alpha').map((x) => x.at)).toEqual([0, 1, 2, 3, 4, 5, 6].map((k) => k * interval))
    // One block-time seed per network and session, at the first poll.
    expect(c.calls.filter((x) => x.kind === 'blockTime')).toHaveLength(2)
    // 8 visible hours cost at most 10% of the quota, seeds included.
    await vi.advanceTimersByTimeAsync(7 * 3600_000 - 1)
    expect(c.calls).toHaveLength(100)
    w.dispose()
  })

  it('does not poll while hidden, and polls again on showing', async () => {
    const c = chain(2000)
    const w = watcher(c.source)
    await vi.advanceTimersByTimeAsync(3600_000)
    expect(c.calls).toHaveLength(0)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(10)
    expect(c.calls.filter((x) => x.kind === 'head')).toHaveLength(2)
    w.setVisible(false)
    await vi.advanceTimersByTimeAsync(3 * 3600_000)
    expect(c.calls.filter((x) => x.kind === 'head')).toHaveLength(2)
    w.dispose()
  })

  it('extrapolates between polls, marks it estimated, and stays exact on a regular chain', async () => {
    const c = chain(2000)
    const events: HeightView[] = []
    const w = watcher(c.source, events)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(10)
    expect(w.views()[0]).toMatchObject({ network: 'alpha', height: '1000', estimated: false, stale: false, gasPriceWei: '1500000000', blockTimeMs: 2000 })
    const errors: number[] = []
    for (let s = 0; s < 3600; s += 7) {
      await vi.advanceTimersByTimeAsync(7000)
      errors.push(Math.abs(Number(w.views()[0]!.height) - c.height()))
    }
    errors.sort((a, b) => a - b)
    expect(errors.at(-1)).toBeLessThanOrEqual(2)
    expect(errors[Math.floor(errors.length * 0.95)]).toBeLessThanOrEqual(1)
    expect(events.some((e) => e.estimated)).toBe(true)
    // Ticks follow the blocks, but never more than one event per second per network.
    const alpha = events.filter((e) => e.network === 'alpha')
    expect(alpha.length).toBeGreaterThan(100)
    w.dispose()
  })

  it('learns the block time from observations when there is no seed', async () => {
    const c = chain(3000)
    c.source.blockTime = async () => null
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(10)
    expect(w.views()[0]!.blockTimeMs).toBeNull()
    await vi.advanceTimersByTimeAsync(w.intervalMs())
    expect(Math.abs(w.views()[0]!.blockTimeMs! - 3000)).toBeLessThan(30)
    w.dispose()
  })

  it('takes free corrections from data answers', async () => {
    const c = chain(2000)
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(100_000)
    // The chain ran two blocks ahead of the extrapolation; a transactions answer says so.
    const head = c.height() + 2
    w.observe('alpha', head, Date.now())
    expect(w.views()[0]).toMatchObject({ height: String(head), estimated: false })
    // An older head (a slow answer) changes nothing.
    w.observe('alpha', head - 10, Date.now())
    expect(w.headOf('alpha')).toBe(head)
    w.dispose()
  })

  it('marks the height stale when polls fail, and waits for the quota reset', async () => {
    const c = chain(2000)
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(10)
    c.fail(new AppError('offline', 'down'))
    await vi.advanceTimersByTimeAsync(w.intervalMs() * 1.25 + 10)
    expect(w.views()[0]!.stale).toBe(true)
    const before = c.calls.length
    c.fail(new AppError('quota-exhausted', 'reserve', { retryAfterMs: 5 * 3600_000 }))
    await vi.advanceTimersByTimeAsync(w.intervalMs())
    const afterFirst = c.calls.length
    expect(afterFirst).toBeGreaterThan(before)
    await vi.advanceTimersByTimeAsync(4 * 3600_000)
    expect(c.calls.length).toBe(afterFirst)
    c.fail(null)
    await vi.advanceTimersByTimeAsync(3600_000)
    expect(c.calls.length).toBeGreaterThan(afterFirst)
    expect(w.views()[0]!.stale).toBe(false)
    w.dispose()
  })

  it('scales the interval with the quota', () => {
    const w = watcher(chain(2000).source, [], 100_000)
    expect(w.intervalMs()).toBe(12_000)
    const tiny = watcher(chain(2000).source, [], 10)
    expect(tiny.intervalMs()).toBe(3600_000)
  })
})

describe('ChainEstimator', () => {
  it('extrapolates whole blocks from when the anchor block was produced', () => {
    const e = new ChainEstimator()
    expect(e.estimate(0)).toBeNull()
    e.observe(100, 10_400, 10_000) // produced in [10.0 s, 10.4 s]: 10.2 s
    expect(e.last?.producedMs).toBe(10_200)
    expect(e.estimate(60_000)).toEqual({ height: 100, estimated: false }) // no block time yet
    e.seedBlockTime(2000)
    expect(e.estimate(12_199)).toEqual({ height: 100, estimated: false })
    expect(e.estimate(12_200)).toEqual({ height: 101, estimated: true })
    expect(e.nextChangeAt(12_500)).toBe(14_200)
    // Without a timestamp the block is assumed half a block old.
    e.observe(160, 131_200)
    expect(e.last?.producedMs).toBe(130_200)
    expect(e.blockTimeMs()).toBe(2000)
    expect(e.observe(150, 140_000)).toBe(false)
  })
})
