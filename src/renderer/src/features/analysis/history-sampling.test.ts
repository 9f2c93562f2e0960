import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HistoryPoint } from './balance-history'
import { drawnPoints, POINT_BUDGET, sampleExtremes, valueAt, windowPoints } from './history-sampling'
import { defaultWindow } from './history-window'

const DAY = 86_400_000
const START = Date.UTC(2025, 0, 1, 8)

/** A balance series as balanceHistory builds it: the balance before, one per change, today. */
function series(start: number, changes: { gapMs: number; value: bigint }[], before: bigint, tailMs: number) {
  const points: HistoryPoint[] = [{ ms: start - 1, value: before }]
  let ms = start
  for (const c of changes) {
    ms += c.gapMs
    points.push({ ms, value: c.value })
  }
  const nowMs = ms + tailMs
  points.push({ ms: nowMs, value: points.at(-1)!.value })
  return { points, nowMs }
}

const valuesOf = (ps: readonly HistoryPoint[]): bigint[] => ps.map((p) => p.value)
const minOf = (vs: bigint[]): bigint => vs.reduce((m, v) => (v < m ? v : m))
const maxOf = (vs: bigint[]): bigint => vs.reduce((m, v) => (v > m ? v : m))

const amount = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })
// Any spacing: same-second bursts, minutes, and gaps of months between changes.
const gap = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: 0, max: 600_000 }),
  fc.integer({ min: 0, max: 400 * DAY }),
)
const changes = fc.array(fc.record({ gapMs: gap, value: amount }), { maxLength: 1500, size: 'large' })
const tail = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 3_600_000 }),
  fc.integer({ min: 0, max: 3 * 365 * DAY }),
)

describe('sampleExtremes', () => {
  it('keeps every point when they fit the budget', () => {
    const ps = [
      { ms: 1, value: 5n },
      { ms: 2, value: 3n },
    ]
    expect(sampleExtremes(ps, 4)).toEqual(ps)
  })

  it('refuses a budget too small to hold first, last, lowest and highest', () => {
    expect(() => sampleExtremes([], 3)).toThrow(/at least 4/)
    expect(() => sampleExtremes([], 10.5)).toThrow(/whole number/)
  })

  it('keeps first, last, lowest and highest of any series, in time order, within the budget', () => {
    fc.assert(
      fc.property(changes, fc.integer({ min: 4, max: 400 }), (cs, budget) => {
        const points = series(START, cs, 0n, 0).points
        const drawn = sampleExtremes(points, budget)
        expect(drawn.length).toBeLessThanOrEqual(budget)
        expect(drawn[0]).toBe(points[0])
        expect(drawn.at(-1)).toBe(points.at(-1))
        const values = valuesOf(drawn)
        expect(values).toContain(minOf(valuesOf(points)))
        expect(values).toContain(maxOf(valuesOf(points)))
        // A subsequence of the input: the same objects, in the same order.
        let at = 0
        for (const p of drawn) {
          at = points.indexOf(p, at)
          expect(at).toBeGreaterThanOrEqual(0)
          at++
        }
      }),
    )
  })
})

describe('drawnPoints over the window a chart opens on', () => {
  it('for any changes and any gap to today: the series first, last, lowest and highest, in time order, within budget', () => {
    fc.assert(
      fc.property(changes, amount, tail, fc.integer({ min: 4, max: 1200 }), (cs, before, tailMs, budget) => {
        const { points, nowMs } = series(START, cs, before, tailMs)
        const drawn = drawnPoints(points, defaultWindow(points, nowMs), budget)
        expect(drawn.length).toBeLessThanOrEqual(budget)
        for (let i = 1; i < drawn.length; i++) expect(drawn[i]!.ms).toBeGreaterThanOrEqual(drawn[i - 1]!.ms)
        const values = valuesOf(drawn)
        const all = valuesOf(points)
        expect(drawn[0]!.value).toBe(all[0])
        expect(drawn.at(-1)!.value).toBe(all.at(-1))
        expect(values).toContain(minOf(all))
        expect(values).toContain(maxOf(all))
      }),
    )
  })

  it("draws the busy wallet's shape across its two active days, not as a sliver beside 23 months of nothing", () => {
    // 2,203 changes over two days (bursty: exponential gaps, seeded), today 23 months later.
    let seed = 12345
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) + 0.5) / 2 ** 31
    const cs: { gapMs: number; value: bigint }[] = []
    let balance = 1_000_108_940_000_000_000_000_000n
    for (let i = 0; i < 2203; i++) {
      balance += BigInt(Math.floor((random() - 0.6) * 1e6)) * 10n ** 15n
      cs.push({ gapMs: Math.floor(-Math.log(random()) * ((2 * DAY) / 2203)), value: balance })
    }
    const { points, nowMs } = series(START, cs, 1_000_108_940_000_000_000_000_000n, 700 * DAY)
    const firstMs = points[0]!.ms
    const lastMs = points.at(-2)!.ms
    expect(lastMs - firstMs).toBeGreaterThan(1.5 * DAY)
    expect(lastMs - firstMs).toBeLessThan(2.5 * DAY)

    const w = defaultWindow(points, nowMs)
    expect(w.fromMs).toBe(firstMs)
    // The window is the active range (and a margin), so width means the two days.
    expect(w.toMs).toBeGreaterThan(lastMs)
    expect(w.toMs - lastMs).toBeLessThan(0.1 * (lastMs - firstMs))
    const drawn = drawnPoints(points, w)
    expect(drawn.length).toBeGreaterThanOrEqual(100)
    expect(drawn.length).toBeLessThanOrEqual(POINT_BUDGET)
    // Across the active range: every tenth of it has drawn points.
    for (let tenth = 0; tenth < 10; tenth++) {
      const from = firstMs + ((lastMs - firstMs) * tenth) / 10
      const to = firstMs + ((lastMs - firstMs) * (tenth + 1)) / 10
      expect(drawn.filter((p) => p.ms >= from && p.ms <= to).length).toBeGreaterThan(5)
    }
    const all = valuesOf(points)
    expect(valuesOf(drawn)).toContain(minOf(all))
    expect(valuesOf(drawn)).toContain(maxOf(all))
  })
})

describe('windowPoints', () => {
  const ps: HistoryPoint[] = [
    { ms: 10, value: 1n },
    { ms: 20, value: 2n },
    { ms: 30, value: 3n },
  ]

  it('carries the balance in at the start and out to the end', () => {
    expect(windowPoints(ps, 15, 25)).toEqual([
      { ms: 15, value: 1n },
      { ms: 20, value: 2n },
      { ms: 25, value: 2n },
    ])
    expect(windowPoints(ps, 20, 40)).toEqual([
      { ms: 20, value: 2n },
      { ms: 30, value: 3n },
      { ms: 40, value: 3n },
    ])
  })

  it('starts at the first point when the window opens before it, and is empty before any point', () => {
    expect(windowPoints(ps, 0, 10)).toEqual([{ ms: 10, value: 1n }])
    expect(windowPoints(ps, 0, 5)).toEqual([])
    expect(valueAt(ps, 9)).toBeNull()
    expect(valueAt(ps, 29)).toBe(2n)
  })
})
