import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { vi } from 'vitest'
import type { HeightView } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { ChainEstimator } from './chain-estimator'
import { HeightWatcher, type HeadSource } from './height-watcher'

const T0 = Date.UTC(2030, 0, 1, 8)
beforeEach(() => {
  vi.useFakeTimers({ now: T0 })
})
afterEach(() => vi.useRealTimers())

/**
 * A chain with a block per slot of `blockMs` (the sandbox's model: each block lands within
 * ±jitter of its slot, deterministic here), answering like the RPC endpoint would. With
 * `seededBlocks`, the chain starts like a fresh sandbox: its newest `seededBlocks` blocks carry
 * pinned timestamps from 2025, and live blocks follow from T0.
 */
function chain(
  blockMs: number,
  startHeight = 1000,
  options: { jitterMs?: number; seededBlocks?: number; perPoll?: number; batches?: boolean; haltAfterMs?: number } = {},
) {
  const calls: { kind: 'head' | 'blockTime'; network: string; at: number; seed?: boolean }[] = []
  let failWith: AppError | null = null
  const jitter = (k: number): number => ((Math.sin(k * 12.9898) * 43758.5453) % 1) * (options.jitterMs ?? 0)
  const producedAt = (k: number): number => T0 + (k - startHeight) * blockMs + (k === startHeight ? 0 : jitter(k))
  const height = (): number => {
    const now = Math.min(Date.now(), T0 + (options.haltAfterMs ?? Infinity))
    let h = startHeight + Math.floor((now - T0) / blockMs) + 1
    while (h > startHeight && producedAt(h) > now) h -= 1
    return h
  }
  const seeded = options.seededBlocks ?? 0
  const timestampOf = (k: number): number =>
    k <= startHeight && seeded > 0 ? Date.UTC(2025, 0, 1) + k * 1000 : Math.floor(producedAt(k) / 1000) * 1000
  const source: HeadSource = {
    head: async (network, o) => {
      calls.push({ kind: 'head', network, at: Date.now() - T0, seed: o?.seed ?? false })
      if (failWith) throw failWith
      const h = height()
      return { height: h, timestampMs: timestampOf(h), gasPriceWei: '1500000000' }
    },
    // As the profile runtime does: the block 100 back, refused when the slope is implausible.
    blockTime: async (network, h, ts) => {
      calls.push({ kind: 'blockTime', network, at: Date.now() - T0 })
      const ms = (ts - timestampOf(h - 100)) / 100
      return ms >= 50 && ms <= 600_000 ? { blockTimeMs: ms, spanMs: ts - timestampOf(h - 100) } : null
    },
    unitsPerPoll: () => options.perPoll ?? 1,
    batches: () => options.batches ?? (options.perPoll ?? 1) === 1,
  }
  return { source, calls, height, fail: (e: AppError | null) => (failWith = e) }
}

function watcher(source: HeadSource, events: HeightView[] = [], quota = 1000): HeightWatcher {
  return new HeightWatcher({
    networks: ['alpha', 'beta'],
    source,
    quotaPerDay: () => quota,
    onHeight: (v) => events.push(v),
  })
}

/** Requests the calls cost: a head poll costs what the source says, a seed one. */
const cost = (c: ReturnType<typeof chain>, perPoll: number): number =>
  c.calls.reduce((n, x) => n + (x.kind === 'head' ? perPoll : 1), 0)

/** Samples |estimate − chain| every second for `seconds` from now, per network alpha. */
async function sampleErrors(w: HeightWatcher, c: ReturnType<typeof chain>, seconds: number): Promise<number[]> {
  const errors: number[] = []
  for (let s = 0; s < seconds; s++) {
    await vi.advanceTimersByTimeAsync(1000)
    const h = w.views()[0]!.height
    errors.push(h === null ? Infinity : Math.abs(Number(h) - c.height()))
  }
  return errors
}
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!

describe('HeightWatcher', () => {
  it.each([
    ['with batches', 1, true],
    ['without batches (two requests per poll)', 2, false],
    ['billed per call plus one per batch (three units per poll)', 3, true],
  ])(
    'keeps 8 visible hours within 10 percent of a 1000/day quota, ramp and seed included (%s)',
    async (_name, perPoll, batches) => {
      const c = chain(2000, 1000, { perPoll, batches })
      const w = watcher(c.source)
      const interval = w.intervalMs()
      expect(interval).toBeGreaterThan(8 * 60_000 * perPoll)
      w.setVisible(true)
      await vi.advanceTimersByTimeAsync(8 * 3600_000 - 1)
      expect(cost(c, perPoll)).toBeLessThanOrEqual(100)
      // One block-time seed per network and session, at the first poll (this chain's history is live).
      expect(c.calls.filter((x) => x.kind === 'blockTime')).toHaveLength(2)
      // Once the block time is measured over a long stretch, a regular chain needs a poll only
      // to confirm it: every 30 min, or the budget's interval when that is longer.
      const alpha = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').map((x) => x.at)
      expect(alpha.at(-1)! - alpha.at(-2)!).toBe(Math.max(interval, 30 * 60_000))
      // Far fewer than the budget allows: 16 confirmations per network in 8 h, a few ramp polls.
      expect(alpha.length).toBeLessThanOrEqual(22)
      w.dispose()
    },
  )

  it.each([
    ['with batches', 1],
    ['without batches', 2],
  ])(
    'is live from the first minute on a fresh sandbox whose history has seeded timestamps (%s)',
    async (_name, perPoll) => {
      const c = chain(2000, 1000, { seededBlocks: 500, jitterMs: 500, perPoll })
      const events: HeightView[] = []
      const w = watcher(c.source, events)
      w.setVisible(true)
      const errors = await sampleErrors(w, c, 180)
      const fromFirstMinute = errors.slice(0, 60)
      expect(p95(fromFirstMinute)).toBeLessThanOrEqual(2)
      expect(p95(errors)).toBeLessThanOrEqual(1)
      expect(Math.max(...errors.slice(10))).toBeLessThanOrEqual(2)
      // The seed was refused (the block 100 back is seeded): learned from the ramp's polls.
      expect(w.views()[0]!.blockTimeMs).toBeGreaterThan(1900)
      expect(w.views()[0]!.blockTimeMs).toBeLessThan(2100)
      expect(events.some((e) => e.estimated)).toBe(true)
      // The ramp: polls at 0, 5, 10, 20, 40, 80, 160 s, not every few seconds.
      expect(c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').length).toBeLessThanOrEqual(8)
      // And the hour after stays within the same error.
      const later = await sampleErrors(w, c, 3600)
      expect(p95(later)).toBeLessThanOrEqual(1)
      expect(Math.max(...later)).toBeLessThanOrEqual(2)
      w.dispose()
    },
  )

  it('a refused poll while the block time is still being learned is retried within the ramp, not minutes later', async () => {
    const c = chain(2000, 1000, { seededBlocks: 500, jitterMs: 500, perPoll: 2 })
    const w = watcher(c.source)
    // The provider refuses the very first poll (a 429 at start-up, as seen without batches).
    c.fail(new AppError('rate-limited', 'slow down', { retryAfterMs: 1000 }))
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(100)
    c.fail(null)
    const errors = await sampleErrors(w, c, 120)
    // Without the fix the next poll came interval / 4 later (minutes): the height froze.
    expect(p95(errors.slice(30))).toBeLessThanOrEqual(2)
    expect(
      c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha' && x.at < 20_000).length,
    ).toBeGreaterThanOrEqual(2)
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
    // Learned in the first poll from the head and the block 100 back.
    expect(w.views()[0]).toMatchObject({
      network: 'alpha',
      height: '1000',
      estimated: false,
      stale: false,
      gasPriceWei: '1500000000',
      blockTimeMs: 2000,
    })
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
    // Without a seed, the second poll comes early (the ramp), not a whole interval later.
    expect(c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha')[1]!.at).toBe(5000)
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

describe('HeightWatcher.polled (a revalidation batch carrying head and gas price)', () => {
  it('counts as the poll: the next one comes no earlier than the gap that answer allows, never sooner than planned', async () => {
    const c = chain(2000)
    const events: HeightView[] = []
    const w = watcher(c.source, events)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(1000)
    const headPolls = (network: string, after = -1) =>
      c.calls.filter((x) => x.network === network && x.kind === 'head' && x.at > after).map((x) => x.at)
    // The second poll of the ramp is planned within a few minutes of the first (a 200 s seed).
    await vi.advanceTimersByTimeAsync(30 * 60_000)
    const planned = headPolls('alpha')
    expect(planned.length).toBeGreaterThanOrEqual(2)
    // Well past the ramp: a revalidation answer a minute after a poll defers the next one.
    while (headPolls('alpha').length === planned.length) await vi.advanceTimersByTimeAsync(1000)
    await vi.advanceTimersByTimeAsync(60_000)
    const revalidatedAt = Date.now() - T0
    w.polled('alpha', c.height(), '9', Date.now())
    expect(w.views()[0]).toMatchObject({ network: 'alpha', gasPriceWei: '9', height: String(c.height()) })
    const betaNext = headPolls('beta').at(-1)!
    await vi.advanceTimersByTimeAsync(30 * 60_000 - 1000)
    expect(headPolls('alpha', revalidatedAt)).toEqual([])
    await vi.advanceTimersByTimeAsync(2000)
    expect(headPolls('alpha', revalidatedAt)).toHaveLength(1)
    // Beta was not revalidated: it polled when planned, 30 min after its own last poll.
    expect(headPolls('beta', betaNext)).toHaveLength(1)
    w.dispose()
  })

  it('never brings a planned poll forward', async () => {
    const c = chain(2000)
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(1000)
    // Right after the first poll, a revalidation: the ramp's second poll (~800 s after the first,
    // from the 200 s seed) still comes when planned, within a second.
    w.polled('alpha', c.height(), null, Date.now())
    await vi.advanceTimersByTimeAsync(15 * 60_000)
    expect(c.calls.filter((x) => x.network === 'alpha' && x.kind === 'head').length).toBeGreaterThanOrEqual(2)
    w.dispose()
  })
})

describe('HeightWatcher economy', () => {
  it("asks for the block-time seed in the first poll's batch where batches work, and not again", async () => {
    const c = chain(2000)
    const head = c.source.head
    c.source.head = async (network, o) => ({
      ...(await head(network, o)),
      ...(o?.seed ? { seed: { blockTimeMs: 2000, spanMs: 128_000 } } : {}),
    })
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(3600_000)
    expect(c.calls.filter((x) => x.kind === 'blockTime')).toEqual([])
    const alpha = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha')
    expect(alpha.map((x) => x.seed)).toEqual([true, ...alpha.slice(1).map(() => false)])
    expect(w.views()[0]!.blockTimeMs).toBe(2000)
    // Without batches the seed would make the poll dearer: not asked in it.
    const d = chain(2000, 1000, { perPoll: 2 })
    const v = watcher(d.source)
    v.setVisible(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(d.calls.filter((x) => x.kind === 'head').every((x) => x.seed === false)).toBe(true)
    expect(d.calls.filter((x) => x.kind === 'blockTime')).toHaveLength(2)
    w.dispose()
    v.dispose()
  })

  it('polls a chain that stopped keeping pace at the budget interval again, and marks nothing stale meanwhile', async () => {
    // The chain halts after an hour: the estimate runs ahead until the next poll says otherwise
    // (and, as before, on from there: a halted chain is told apart only poll by poll).
    const c = chain(2000, 1000, { haltAfterMs: 3600_000 })
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(3600_000)
    const interval = w.intervalMs('alpha')
    const before = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').length
    // Within the 30 min confirm interval, a poll finds the chain behind the estimate...
    let after: number[] = []
    for (let s = 0; s < 1801 && after.length === 0; s++) {
      await vi.advanceTimersByTimeAsync(1000)
      after = c.calls
        .filter((x) => x.kind === 'head' && x.network === 'alpha')
        .slice(before)
        .map((x) => x.at)
    }
    expect(after).toHaveLength(1)
    expect(w.views()[0]!.height).toBe(String(c.height()))
    // ...and from then on polls come at the budget's interval, not 30 min apart.
    await vi.advanceTimersByTimeAsync(3 * interval)
    const later = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').map((x) => x.at)
    expect(later.at(-1)! - later.at(-2)!).toBeLessThanOrEqual(interval)
    expect(w.views()[0]!.stale).toBe(false)
    w.dispose()
  })
})

describe('ChainEstimator', () => {
  it('extrapolates whole blocks from when the anchor block was produced', () => {
    const e = new ChainEstimator()
    expect(e.estimate(0)).toBeNull()
    e.observe(100, 10_400, 10_000) // produced in [10.0 s, 10.4 s]: 10.2 s
    expect(e.last?.producedMs).toBe(10_200)
    expect(e.estimate(60_000)).toEqual({ height: 100, estimated: false }) // no block time yet
    e.seedBlockTime(2000, 200_000)
    expect(e.baselineMs()).toBe(200_000)
    expect(e.estimate(12_199)).toEqual({ height: 100, estimated: false })
    expect(e.estimate(12_200)).toEqual({ height: 101, estimated: true })
    expect(e.nextChangeAt(12_500)).toBe(14_200)
    // Without a timestamp the block is assumed half a block old.
    e.observe(160, 131_200)
    expect(e.last?.producedMs).toBe(130_200)
    expect(e.blockTimeMs()).toBe(2000)
    expect(e.observe(150, 140_000)).toBe(false)
  })

  it('tells how long the extrapolation stays within a tolerance: longer with a longer, sharper baseline', () => {
    const e = new ChainEstimator()
    expect(e.driftGapMs(2)).toBeNull()
    // Produced within [10.0 s, 10.5 s): spread 250 ms. A seed over 200 s (two whole-second
    // timestamps: at most 1 s of error): the phase may drift 4 s − 0.25 s in (3.75 × 200 s).
    e.observe(100, 10_500, 10_000)
    e.seedBlockTime(2000, 200_000)
    expect(e.driftGapMs(2)).toBe(750_000)
    // An hour of timestamped polls: a far longer baseline, a far longer gap.
    e.observe(1900, 3_610_500, 3_610_000)
    expect(e.driftGapMs(2)! / 3600_000).toBeGreaterThan(7)
    // A head seen without its block (half a block of spread at that end) tightens it.
    e.observe(1950, 3_711_000)
    const gap = e.driftGapMs(2)!
    expect(gap).toBeLessThan(3.75 * 3_700_000)
    expect(gap).toBeGreaterThan(3600_000)
  })
})

describe('HeightWatcher: no extrapolation past what is known (issue 38)', () => {
  /** The chain, with the heights its polls answered (the last observed one is the last of them). */
  function observedChain() {
    const c = chain(2000)
    const answered: number[] = []
    const head = c.source.head.bind(c.source)
    c.source.head = async (network, o) => {
      const h = await head(network, o)
      if (network === 'alpha') answered.push(h.height)
      return h
    }
    return { c, answered }
  }

  it('stops after a failed observation: the last observed height with its time, however long it lasts', async () => {
    const { c, answered } = observedChain()
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(w.views()[0]).toMatchObject({ estimated: true, stale: false })
    // The header may show the extrapolation only a few block times past the observation.
    const live = w.views()[0]!
    expect(Date.parse(live.liveUntil!) - Date.parse(live.observedAt!)).toBe(3 * live.blockTimeMs!)
    expect(live.observedHeight).toBe(String(answered.at(-1)))
    const polls = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').length
    c.fail(new AppError('timeout', 'The service did not answer within 15 s.'))
    for (let s = 0; s < 3600 && c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').length === polls; s++)
      await vi.advanceTimersByTimeAsync(1000)
    const failedAt = Date.now()
    const view = w.views()[0]!
    expect(view).toMatchObject({
      height: String(answered.at(-1)),
      observedHeight: String(answered.at(-1)),
      estimated: false,
      stale: true,
      liveUntil: null,
    })
    // The chain went on; the view does not pretend to know.
    expect(c.height()).toBeGreaterThan(answered.at(-1)!)
    const observedAt = view.observedAt
    expect(Date.parse(observedAt!)).toBeLessThan(failedAt)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(w.views()[0]).toMatchObject({ height: String(answered.at(-1)), stale: true, observedAt })
    // The gas price is the reading of the last answered poll, with that poll's time.
    expect(w.views()[0]!.gasObservedAt).toBe(observedAt)
    // An answer again: extrapolation resumes from it.
    c.fail(null)
    await vi.advanceTimersByTimeAsync(w.intervalMs())
    expect(w.views()[0]).toMatchObject({ stale: false })
    expect(Math.abs(Number(w.views()[0]!.height) - c.height())).toBeLessThanOrEqual(2)
    w.dispose()
  })

  it('stops at once when the connection state says the RPC endpoint is not answering', async () => {
    const { c, answered } = observedChain()
    let answering = true
    const w = new HeightWatcher({
      networks: ['alpha'],
      source: c.source,
      quotaPerDay: () => 1000,
      onHeight: () => undefined,
      answering: () => answering,
    })
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(w.views()[0]).toMatchObject({ estimated: true, stale: false })
    answering = false
    expect(w.views()[0]).toMatchObject({ height: String(answered.at(-1)), estimated: false, stale: true })
    answering = true
    expect(w.views()[0]).toMatchObject({ estimated: true, stale: false })
    w.dispose()
  })

  it('stops when the poll due has not answered within a few block times (a hanging request)', async () => {
    const { c, answered } = observedChain()
    const w = watcher(c.source)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(60_000)
    const polls = c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha').length
    // The next poll hangs: it never answers nor fails.
    c.source.head = () => new Promise(() => undefined)
    let hungAt = 0
    for (let s = 0; s < 3600 && !w.views()[0]!.stale; s++) {
      await vi.advanceTimersByTimeAsync(1000)
      hungAt = s
    }
    expect(w.views()[0]).toMatchObject({ height: String(answered.at(-1)), estimated: false, stale: true })
    expect(hungAt).toBeGreaterThan(0)
    expect(c.calls.filter((x) => x.kind === 'head' && x.network === 'alpha')).toHaveLength(polls)
    w.dispose()
  })
})
