import type { HistoryPoint } from './balance-history'

/** The stretch of time a chart shows, in ms since the epoch. */
export interface TimeWindow {
  fromMs: number
  toMs: number
}

/** The narrowest zoom: a minute (several changes can share one block's second). */
export const MIN_SPAN_MS = 60_000

/** Everything there is to show: from the oldest point to today. */
export function extentOf(points: readonly HistoryPoint[], nowMs: number): TimeWindow {
  const fromMs = points[0]?.ms ?? nowMs
  return { fromMs, toMs: Math.max(nowMs, points.at(-1)?.ms ?? nowMs, fromMs) }
}

/**
 * The time of the newest change: a series is the balance carried in, the changes, and today's
 * balance last, so the change is the point before today's. Null when there is none.
 */
export function lastChangeMs(points: readonly HistoryPoint[]): number | null {
  return points.length >= 3 ? points[points.length - 2]!.ms : null
}

/**
 * The window a chart opens on. When today's flat tail, from the last change to now, would take
 * more than half the width, the chart opens on the changes themselves (plus a small margin so
 * the last step shows) and marks today beyond the right edge instead: an address that went
 * quiet months ago keeps its activity readable, and zooming out still reaches today. A broken
 * axis would show both at once but makes width stand for two different scales; a zoom keeps
 * one scale, says so in words, and is undone with one key.
 */
export function defaultWindow(points: readonly HistoryPoint[], nowMs: number): TimeWindow {
  const extent = extentOf(points, nowMs)
  const last = lastChangeMs(points)
  if (last === null) return extent
  const active = last - extent.fromMs
  if (extent.toMs - last <= active) return extent
  const margin = Math.max(active * 0.04, MIN_SPAN_MS / 2)
  return { fromMs: extent.fromMs, toMs: Math.min(extent.toMs, last + margin) }
}

/** `w` moved (not resized) to lie inside `extent`; the extent itself when `w` is wider. */
export function clampWindow(w: TimeWindow, extent: TimeWindow): TimeWindow {
  const span = w.toMs - w.fromMs
  if (span >= extent.toMs - extent.fromMs) return { ...extent }
  if (w.fromMs < extent.fromMs) return { fromMs: extent.fromMs, toMs: extent.fromMs + span }
  if (w.toMs > extent.toMs) return { fromMs: extent.toMs - span, toMs: extent.toMs }
  return { ...w }
}

/**
 * `w` scaled by `factor` (below 1 zooms in) around `centerMs`, which stays where it is on
 * screen; never narrower than a minute nor wider than the extent.
 */
export function zoomWindow(w: TimeWindow, factor: number, centerMs: number, extent: TimeWindow): TimeWindow {
  const span = w.toMs - w.fromMs
  const full = extent.toMs - extent.fromMs
  const next = Math.min(full, Math.max(Math.min(MIN_SPAN_MS, full), span * factor))
  const center = Math.min(w.toMs, Math.max(w.fromMs, centerMs))
  const share = span > 0 ? (center - w.fromMs) / span : 0.5
  const fromMs = center - share * next
  return clampWindow({ fromMs, toMs: fromMs + next }, extent)
}

/** `w` moved by `share` of its width (negative: earlier), stopping at the extent's ends. */
export function panWindow(w: TimeWindow, share: number, extent: TimeWindow): TimeWindow {
  const shift = (w.toMs - w.fromMs) * share
  return clampWindow({ fromMs: w.fromMs + shift, toMs: w.toMs + shift }, extent)
}
