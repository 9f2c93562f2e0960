import { computed, ref, watch, type Ref } from 'vue'
import type { HistoryPoint } from './balance-history'
import { POINT_BUDGET, sampleExtremes, windowPoints } from './history-sampling'
import { defaultWindow, extentOf, panWindow, zoomWindow, type TimeWindow } from './history-window'

/** The index in `points` whose time is nearest `ms` (the earliest of equals). */
function nearest(points: readonly HistoryPoint[], ms: number): number {
  let best = 0
  for (let i = 1; i < points.length; i++) if (Math.abs(points[i]!.ms - ms) < Math.abs(points[best]!.ms - ms)) best = i
  return best
}

/**
 * What a balance chart shows and how the user moves it: the window of time (zoom, pan, back to
 * the changes, out to today), the points drawn in it, and a cursor on one drawn point that the
 * keyboard moves (its exact amount is read out, as the tooltip shows it to the mouse).
 */
export function useHistoryView(points: Ref<readonly HistoryPoint[]>, nowMs: Ref<number>) {
  const extent = computed(() => extentOf(points.value, nowMs.value))
  const view = ref<TimeWindow>(defaultWindow(points.value, nowMs.value))
  const cursor = ref<number | null>(null)
  // Another asset, range or page of transactions: the chart opens again on its changes.
  watch([points, nowMs], () => {
    view.value = defaultWindow(points.value, nowMs.value)
    cursor.value = null
  })

  const inView = computed(() => windowPoints(points.value, view.value.fromMs, view.value.toMs))
  const drawn = computed(() => sampleExtremes(inView.value, POINT_BUDGET))
  // After a zoom or pan the cursor stays on the same moment, as near as the new points allow.
  watch(drawn, (next, prev) => {
    if (cursor.value === null) return
    const ms = prev[cursor.value]?.ms
    cursor.value = next.length && ms !== undefined ? nearest(next, ms) : null
  })

  const atDefault = computed(() => {
    const d = defaultWindow(points.value, nowMs.value)
    return d.fromMs === view.value.fromMs && d.toMs === view.value.toMs
  })
  const atStart = computed(() => view.value.fromMs <= extent.value.fromMs)
  const atEnd = computed(() => view.value.toMs >= extent.value.toMs)
  const atFull = computed(() => atStart.value && atEnd.value)
  const canZoomIn = computed(() => inView.value.length > 2 && view.value.toMs - view.value.fromMs > 60_000)

  /** Zoom around `centerMs`, else the cursor's point, else the middle. */
  function zoom(factor: number, centerMs?: number): void {
    const c = cursor.value === null ? null : drawn.value[cursor.value]
    const center = centerMs ?? (c ? c.ms : (view.value.fromMs + view.value.toMs) / 2)
    view.value = zoomWindow(view.value, factor, center, extent.value)
  }
  const pan = (share: number): void => void (view.value = panWindow(view.value, share, extent.value))
  const showChanges = (): void => void (view.value = defaultWindow(points.value, nowMs.value))
  const showAll = (): void => void (view.value = { ...extent.value })
  const move = (i: number): void => {
    const n = drawn.value.length
    if (n) cursor.value = Math.max(0, Math.min(n - 1, i))
  }

  /** Keys on the focused chart; true when the key was one of them. */
  function onKey(e: KeyboardEvent): boolean {
    const i = cursor.value ?? 0
    const step = e.shiftKey ? 10 : 1
    if (e.key === 'ArrowLeft') move(i - step)
    else if (e.key === 'ArrowRight') move(cursor.value === null ? 0 : i + step)
    else if (e.key === 'Home') move(0)
    else if (e.key === 'End') move(drawn.value.length - 1)
    else if (e.key === '+' || e.key === '=') zoom(0.5)
    else if (e.key === '-' || e.key === '_') zoom(2)
    else if (e.key === 'PageUp') pan(-0.5)
    else if (e.key === 'PageDown') pan(0.5)
    else if (e.key === '0') showChanges()
    else return false
    return true
  }

  return {
    extent,
    view,
    inView,
    drawn,
    cursor,
    atDefault,
    atStart,
    atEnd,
    atFull,
    canZoomIn,
    zoom,
    pan,
    showChanges,
    showAll,
    move,
    onKey,
  }
}
