import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clampWindow,
  defaultWindow,
  extentOf,
  MIN_SPAN_MS,
  panWindow,
  zoomWindow,
  type TimeWindow,
} from './history-window'

const DAY = 86_400_000
const p = (ms: number, value = 1n) => ({ ms, value })

describe('defaultWindow', () => {
  it('opens on the changes when the flat tail to today would take more than half the width', () => {
    const points = [p(0), p(DAY), p(2 * DAY), p(700 * DAY)]
    const w = defaultWindow(points, 700 * DAY)
    expect(w.fromMs).toBe(0)
    expect(w.toMs).toBeGreaterThan(2 * DAY)
    expect(w.toMs).toBeLessThan(2.2 * DAY)
  })

  it('shows everything up to today when the tail is short, or when there is no change', () => {
    expect(defaultWindow([p(0), p(10 * DAY), p(15 * DAY)], 15 * DAY)).toEqual({ fromMs: 0, toMs: 15 * DAY })
    expect(defaultWindow([p(0), p(30 * DAY)], 30 * DAY)).toEqual({ fromMs: 0, toMs: 30 * DAY })
    expect(defaultWindow([], 5)).toEqual({ fromMs: 5, toMs: 5 })
  })
})

describe('zoom and pan', () => {
  const extent: TimeWindow = { fromMs: 0, toMs: 100 * DAY }

  it('zooms around a point that stays in place, and out to no more than the extent', () => {
    const w = zoomWindow({ fromMs: 0, toMs: 100 * DAY }, 0.5, 50 * DAY, extent)
    expect(w).toEqual({ fromMs: 25 * DAY, toMs: 75 * DAY })
    expect(zoomWindow(w, 10, 50 * DAY, extent)).toEqual(extent)
  })

  it('pans by a share of the width and stops at the ends', () => {
    const w = { fromMs: 10 * DAY, toMs: 20 * DAY }
    expect(panWindow(w, 0.5, extent)).toEqual({ fromMs: 15 * DAY, toMs: 25 * DAY })
    expect(panWindow(w, -5, extent)).toEqual({ fromMs: 0, toMs: 10 * DAY })
    expect(panWindow({ fromMs: 90 * DAY, toMs: 100 * DAY }, 1, extent)).toEqual({ fromMs: 90 * DAY, toMs: 100 * DAY })
  })

  it('any sequence of zooms and pans stays inside the extent and no narrower than a minute', () => {
    const step = fc.oneof(
      fc.record({
        zoom: fc.double({ min: 0.01, max: 20, noNaN: true }),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      fc.record({ pan: fc.double({ min: -3, max: 3, noNaN: true }) }),
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 * DAY }), fc.array(step, { maxLength: 30 }), (span, steps) => {
        const ext = extentOf([p(1_700_000_000_000)], 1_700_000_000_000 + span)
        let w = clampWindow(ext, ext)
        for (const s of steps) {
          w = 'zoom' in s ? zoomWindow(w, s.zoom, w.fromMs + s.at * (w.toMs - w.fromMs), ext) : panWindow(w, s.pan, ext)
          expect(w.fromMs).toBeGreaterThanOrEqual(ext.fromMs)
          expect(w.toMs).toBeLessThanOrEqual(ext.toMs)
          expect(w.toMs - w.fromMs).toBeGreaterThanOrEqual(Math.min(MIN_SPAN_MS, span) - 1e-6)
        }
      }),
    )
  })
})
