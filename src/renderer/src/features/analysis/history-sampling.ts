import type { HistoryPoint } from './balance-history'

/**
 * The balance at `ms`: that of the last point at or before it (a point holds the balance just
 * after its moment), or null before the first point.
 */
export function valueAt(points: readonly HistoryPoint[], ms: number): bigint | null {
  let lo = 0
  let hi = points.length
  // The first index whose time is after `ms`; the point before it holds the balance at `ms`.
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (points[mid]!.ms <= ms) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? null : points[lo - 1]!.value
}

/**
 * The points inside [fromMs, toMs], with the balance carried in at `fromMs` and carried out to
 * `toMs`, so a stepped line spans the whole window: a window between two changes still shows
 * the (flat) balance it holds. `points` oldest first.
 */
export function windowPoints(points: readonly HistoryPoint[], fromMs: number, toMs: number): HistoryPoint[] {
  const out = points.filter((p) => p.ms >= fromMs && p.ms <= toMs)
  const carried = valueAt(points, fromMs)
  if (carried !== null && out[0]?.ms !== fromMs) out.unshift({ ms: fromMs, value: carried })
  const last = out.at(-1)
  if (last && last.ms < toMs) out.push({ ms: toMs, value: last.value })
  return out
}

/** How many time slices the first pass uses: each keeps up to four points. */
const slicesFor = (budget: number): number => Math.floor(budget / 4)

/** The indices kept when [first, last] is cut into `slices` equal slices of time. */
function extremesPerSlice(points: readonly HistoryPoint[], slices: number): number[] {
  const start = points[0]!.ms
  const span = points[points.length - 1]!.ms - start
  const kept: number[] = []
  let slice = -1
  let first = 0
  let min = 0
  let max = 0
  const close = (last: number): void => {
    // First, lowest, highest, last of the slice, in time order, each once.
    const four = [first, min, max, last].sort((a, b) => a - b)
    for (const i of four) if (kept[kept.length - 1] !== i) kept.push(i)
  }
  for (let i = 0; i < points.length; i++) {
    const s = span === 0 ? 0 : Math.min(slices - 1, Math.floor(((points[i]!.ms - start) / span) * slices))
    if (s !== slice) {
      if (slice >= 0) close(i - 1)
      slice = s
      first = min = max = i
      continue
    }
    const v = points[i]!.value
    if (v < points[min]!.value) min = i
    if (v > points[max]!.value) max = i
  }
  close(points.length - 1)
  return kept
}

/**
 * At most `budget` of `points` (oldest first), chosen so the drawn line keeps what an analyst
 * looks for: the span is cut into equal slices of time and each slice keeps its first, last,
 * lowest and highest balance. So the drawn minimum, maximum, first and last are the data's,
 * and points stay in time order. Activity often comes in bursts that leave most slices empty;
 * the slices are then made finer (halved, while the result still fits the budget), so a burst
 * gets the detail the quiet stretches do not need.
 */
export function sampleExtremes(points: readonly HistoryPoint[], budget: number): HistoryPoint[] {
  if (!Number.isInteger(budget) || budget < 4)
    throw new RangeError(
      `a point budget must be a whole number of at least 4 (first, last, lowest, highest), not ${budget}`,
    )
  if (points.length <= budget) return points.slice()
  let slices = slicesFor(budget)
  let kept = extremesPerSlice(points, slices)
  // Twelve halvings: a few thousand slices per budgeted one, enough for bursts of seconds
  // within years; every pass is linear.
  for (let round = 0; round < 12 && kept.length < budget / 2; round++) {
    slices *= 2
    const finer = extremesPerSlice(points, slices)
    if (finer.length > budget) break
    kept = finer
  }
  return kept.map((i) => points[i]!)
}

/** How many points a balance chart draws at most: four per slice, 250 slices across the width. */
export const POINT_BUDGET = 1000

/** What a chart of `points` over `w` draws: the window's points, sampled to the budget. */
export function drawnPoints(
  points: readonly HistoryPoint[],
  w: { fromMs: number; toMs: number },
  budget = POINT_BUDGET,
): HistoryPoint[] {
  return sampleExtremes(windowPoints(points, w.fromMs, w.toMs), budget)
}
