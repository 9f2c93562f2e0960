import { onBeforeUnmount, onMounted, shallowRef, watch, type Ref } from 'vue'

/**
 * Which rows of a list of fixed-height rows are rendered: those in the scroller's view and
 * `overscan` more on each side, worked out from the scroll offset alone (no measuring).
 *
 * The list's rows are all 44 px, so a general virtualiser (it was @tanstack/vue-virtual) had
 * nothing to measure, yet each scroll event went through its memoised measurements, range, items
 * and change notifications, with a timer cleared and set again for its "scrolling" flag: about
 * two fifths of a scrolled frame's script in a sampled profile (bench/ui-profile.ts). Here a
 * scroll event costs a division and, when the rendered rows change, one reactive update; the "at
 * rest" timer runs once per 150 ms, not per event. bench:ui, the two in turns, 7 rounds: script
 * per frame 0.28-0.42 ms against 0.38-0.62 ms (Chromium's own count, untraced).
 */

/** The rendered rows, first to last (indexes, inclusive). */
export interface RowRange {
  first: number
  last: number
}

/**
 * The rows to render when the list is scrolled `scrollTop` px with a view `viewPx` high: every
 * row at least partly in view and `overscan` more on each side. None for an empty list or a
 * scroller with no height (not shown yet: a hidden tab).
 */
export function rowRange(
  scrollTop: number,
  viewPx: number,
  { count, rowPx, overscan }: { count: number; rowPx: number; overscan: number },
): RowRange | null {
  if (count <= 0 || !(viewPx > 0) || !(rowPx > 0)) return null
  // An offset past the end is one the browser has not clamped yet: the list just got shorter (a
  // filter), and the clamping scroll event comes a frame later. Read now as the end, the rows
  // shown in between are the ones that will be in view, not the last few alone. (A footer below
  // the rows, such as the list's "Loading more…", moves the real end by less than the overscan.)
  const maxTop = Math.max(0, count * rowPx - viewPx)
  const top = Number.isFinite(scrollTop) ? Math.min(maxTop, Math.max(0, scrollTop)) : 0
  // At most the end's offset, so within the list; the view has a height, so last ≥ first.
  const firstInView = Math.floor(top / rowPx)
  const lastInView = Math.min(count - 1, Math.ceil((top + viewPx) / rowPx) - 1)
  return { first: Math.max(0, firstInView - overscan), last: Math.min(count - 1, lastInView + overscan) }
}

export interface RowWindowOptions {
  /** How many rows the list has now. */
  count: () => number
  rowPx: number
  overscan: number
  /** How long after its last scroll event the list is at rest (ms). */
  restMs?: number
}

/**
 * The rendered rows of `scroller`'s list (`range`, changed only when they change), whether it
 * is scrolling (until `restMs` to `2 × restMs` after its last scroll event), and its view's
 * size (the view's width tells what fits in a row).
 */
export function useRowWindow(scroller: Ref<HTMLElement | null>, options: RowWindowOptions) {
  const restMs = options.restMs ?? 150
  const range = shallowRef<RowRange | null>(null)
  const isScrolling = shallowRef(false)
  const width = shallowRef(0)
  let height = 0

  function update(): void {
    const el = scroller.value
    const next = el
      ? rowRange(el.scrollTop, height, { count: options.count(), rowPx: options.rowPx, overscan: options.overscan })
      : null
    const now = range.value
    if (next?.first !== now?.first || next?.last !== now?.last) range.value = next
  }

  function measure(): void {
    const el = scroller.value
    if (!el) return
    height = el.clientHeight
    width.value = el.clientWidth
    update()
  }

  // "At rest": a timer that checks every `restMs` whether the list scrolled since it last looked,
  // rather than one cleared and set again on each scroll event (one a frame while it scrolls).
  let restTimer: ReturnType<typeof setTimeout> | null = null
  let scrolledSinceCheck = false
  function checkRest(): void {
    if (scrolledSinceCheck) {
      scrolledSinceCheck = false
      restTimer = setTimeout(checkRest, restMs)
    } else {
      restTimer = null
      isScrolling.value = false
    }
  }
  function onScroll(): void {
    if (restTimer === null) restTimer = setTimeout(checkRest, restMs)
    else scrolledSinceCheck = true
    isScrolling.value = true
    update()
  }

  let resizes: ResizeObserver | null = null
  onMounted(() => {
    const el = scroller.value
    if (!el) return
    el.addEventListener('scroll', onScroll, { passive: true })
    if (typeof ResizeObserver === 'function') {
      resizes = new ResizeObserver(measure)
      resizes.observe(el)
    }
    measure()
  })
  onBeforeUnmount(() => {
    scroller.value?.removeEventListener('scroll', onScroll)
    resizes?.disconnect()
    if (restTimer !== null) clearTimeout(restTimer)
    restTimer = null
  })
  watch(options.count, update)

  return { range, isScrolling, width }
}
