import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { mount } from '@vue/test-utils'
import { rowRange, useRowWindow } from './row-window'

describe('rowRange', () => {
  it('renders the rows in view and the overscan on each side, within the list', () => {
    // 440 px of 44 px rows scrolled to row 10: rows 10-19 in view.
    expect(rowRange(440, 440, { count: 100, rowPx: 44, overscan: 6 })).toEqual({ first: 4, last: 25 })
    // A row partly in view at either edge counts.
    expect(rowRange(450, 440, { count: 100, rowPx: 44, overscan: 0 })).toEqual({ first: 10, last: 20 })
    expect(rowRange(0, 440, { count: 100, rowPx: 44, overscan: 6 })).toEqual({ first: 0, last: 15 })
    // Scrolled to the end: rows 90-99 in view.
    expect(rowRange(90 * 44, 440, { count: 100, rowPx: 44, overscan: 6 })).toEqual({ first: 84, last: 99 })
    // Fewer rows than the view holds.
    expect(rowRange(0, 440, { count: 3, rowPx: 44, overscan: 6 })).toEqual({ first: 0, last: 2 })
  })

  it('renders nothing for an empty list or a scroller with no height (a hidden tab)', () => {
    expect(rowRange(0, 440, { count: 0, rowPx: 44, overscan: 6 })).toBeNull()
    expect(rowRange(0, 0, { count: 100, rowPx: 44, overscan: 6 })).toBeNull()
    expect(rowRange(0, Number.NaN, { count: 100, rowPx: 44, overscan: 6 })).toBeNull()
  })

  it('reads an offset past either end (elastic overscroll, a list that shrank) as the nearest end', () => {
    expect(rowRange(-120, 440, { count: 100, rowPx: 44, overscan: 2 })).toEqual({ first: 0, last: 11 })
    // Scrolled to row 900 of 1,000, then filtered down to 100: the last 10 rows are in view once
    // the browser clamps the offset, so they are the ones rendered before it does.
    expect(rowRange(900 * 44, 440, { count: 100, rowPx: 44, overscan: 2 })).toEqual({ first: 88, last: 99 })
    expect(rowRange(1e9, 440, { count: 100, rowPx: 44, overscan: 2 })).toEqual({ first: 88, last: 99 })
    expect(rowRange(Number.NaN, 440, { count: 100, rowPx: 44, overscan: 2 })).toEqual({ first: 0, last: 11 })
  })

  it('always covers every row in view, and at most the view, one partial row and the overscan', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 0, max: 12 }),
        (count, scrollTop, viewPx, overscan) => {
          const r = rowRange(scrollTop, viewPx, { count: count, rowPx: 44, overscan: overscan })!
          expect(r.first).toBeGreaterThanOrEqual(0)
          expect(r.last).toBeLessThan(count)
          expect(r.first).toBeLessThanOrEqual(r.last)
          // Every row with a pixel in [scrollTop, scrollTop + viewPx) is rendered.
          for (let i = Math.floor(scrollTop / 44); i * 44 < scrollTop + viewPx && i < count; i++) {
            expect(i).toBeGreaterThanOrEqual(r.first)
            expect(i).toBeLessThanOrEqual(r.last)
          }
          expect(r.last - r.first + 1).toBeLessThanOrEqual(Math.ceil(viewPx / 44) + 1 + 2 * overscan)
          // An offset the list cannot have (past its end) reads as the furthest one it can.
          const maxTop = Math.max(0, count * 44 - viewPx)
          if (scrollTop > maxTop)
            expect(r).toEqual(rowRange(maxTop, viewPx, { count: count, rowPx: 44, overscan: overscan }))
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('useRowWindow', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  /** A list of `count` 44 px rows in a scroller 440 px high and 900 px wide. */
  function mountWindow(count: number) {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(440)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(900)
    const rows = ref(count)
    let win!: ReturnType<typeof useRowWindow>
    const w = mount(
      defineComponent({
        setup() {
          const scroller = ref<HTMLElement | null>(null)
          win = useRowWindow(scroller, { count: () => rows.value, rowPx: 44, overscan: 2 })
          return () => h('div', { ref: scroller })
        },
      }),
    )
    const scrollTo = (top: number) => {
      w.element.scrollTop = top
      w.element.dispatchEvent(new Event('scroll'))
    }
    return { w, win, rows, scrollTo }
  }

  it('follows the scroll offset, and changes its range only when the rendered rows change', async () => {
    const { w, win, scrollTo } = mountWindow(1_000)
    expect(win.range.value).toEqual({ first: 0, last: 11 })
    expect(win.width.value).toBe(900)
    scrollTo(44 * 50)
    expect(win.range.value).toEqual({ first: 48, last: 61 })
    // Row 60 comes partly into view at the bottom.
    scrollTo(44 * 50 + 10)
    expect(win.range.value).toEqual({ first: 48, last: 62 })
    const range = win.range.value
    // Further, but no row comes or goes: the same object (nothing downstream recomputes).
    scrollTo(44 * 50 + 30)
    expect(win.range.value).toBe(range)
    scrollTo(44 * 51)
    expect(win.range.value).toEqual({ first: 49, last: 62 })
    w.unmount()
  })

  it('follows the number of rows: more rows come into range, and none for an empty list', async () => {
    const { w, win, rows } = mountWindow(3)
    expect(win.range.value).toEqual({ first: 0, last: 2 })
    rows.value = 500
    await nextTick()
    expect(win.range.value).toEqual({ first: 0, last: 11 })
    rows.value = 0
    await nextTick()
    expect(win.range.value).toBeNull()
    w.unmount()
  })

  it('is scrolling from a scroll event until 150-300 ms after the last one, with one timer per 150 ms, not one per event', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { w, win, scrollTo } = mountWindow(1_000)
    const timers = vi.spyOn(globalThis, 'setTimeout')
    expect(win.isScrolling.value).toBe(false)
    // 30 scroll events 10 ms apart (300 ms of scrolling).
    for (let i = 1; i <= 30; i++) {
      scrollTo(i * 100)
      expect(win.isScrolling.value).toBe(true)
      await vi.advanceTimersByTimeAsync(10)
    }
    expect(timers.mock.calls.length).toBeLessThanOrEqual(3)
    await vi.advanceTimersByTimeAsync(140)
    expect(win.isScrolling.value).toBe(true)
    await vi.advanceTimersByTimeAsync(160)
    expect(win.isScrolling.value).toBe(false)
    // A single scroll after rest: at rest again 150 ms later.
    scrollTo(5_000)
    expect(win.isScrolling.value).toBe(true)
    await vi.advanceTimersByTimeAsync(150)
    expect(win.isScrolling.value).toBe(false)
    w.unmount()
  })

  it('stops listening and cancels its timer when its component goes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { w, win, scrollTo } = mountWindow(1_000)
    const el = w.element as HTMLElement
    scrollTo(440)
    const range = win.range.value
    expect(vi.getTimerCount()).toBe(1)
    w.unmount()
    expect(vi.getTimerCount()).toBe(0)
    el.scrollTop = 44 * 300
    el.dispatchEvent(new Event('scroll'))
    expect(win.range.value).toBe(range)
    expect(win.isScrolling.value).toBe(true)
  })
})
