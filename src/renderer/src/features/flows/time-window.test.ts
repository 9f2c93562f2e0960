import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ref } from 'vue'
import { PLAY_STEP_MS, useTimeWindow } from './time-window'

const DAY = 86_400_000
const T = Date.UTC(2026, 0, 2)

describe("the flow graph's time window (Play through time)", () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('plays from the first edge start, one step at a time, and stops at the last', async () => {
    // Edge starts out of order, one unknown: the window walks the known ones in time order.
    const w = useTimeWindow(() => [T + 2 * DAY, null, T, T + 5 * DAY])
    expect(w.times.value).toEqual([T, T + 2 * DAY, T + 5 * DAY])
    expect(w.windowEnd.value).toBe(T + 5 * DAY) // everything, before any play
    w.play()
    expect([w.playing.value, w.windowEnd.value]).toEqual([true, T])
    await vi.advanceTimersByTimeAsync(PLAY_STEP_MS)
    expect(w.windowEnd.value).toBe(T + 2 * DAY)
    await vi.advanceTimersByTimeAsync(PLAY_STEP_MS)
    expect([w.playing.value, w.windowEnd.value]).toEqual([true, T + 5 * DAY])
    await vi.advanceTimersByTimeAsync(PLAY_STEP_MS)
    expect([w.playing.value, w.windowEnd.value]).toEqual([false, T + 5 * DAY])
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(10 * PLAY_STEP_MS)
    expect(w.windowEnd.value).toBe(T + 5 * DAY)
  })

  it('a second press pauses where it is; the next goes on from there; at the end it starts over', async () => {
    const w = useTimeWindow(() => [T, T + DAY, T + 2 * DAY, T + 3 * DAY])
    w.play()
    await vi.advanceTimersByTimeAsync(PLAY_STEP_MS)
    w.play()
    expect([w.playing.value, w.windowEnd.value]).toEqual([false, T + DAY])
    await vi.advanceTimersByTimeAsync(5 * PLAY_STEP_MS)
    expect(w.windowEnd.value).toBe(T + DAY)
    w.play()
    await vi.advanceTimersByTimeAsync(PLAY_STEP_MS)
    expect(w.windowEnd.value).toBe(T + 2 * DAY)
    await vi.advanceTimersByTimeAsync(3 * PLAY_STEP_MS)
    expect([w.playing.value, w.windowEnd.value]).toEqual([false, T + 3 * DAY])
    w.play()
    expect(w.windowEnd.value).toBe(T)
    w.stop()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('follows the edges shown: fewer edges clamp the window to the last of them', () => {
    const edges = ref<(number | null)[]>([T, T + DAY, T + 2 * DAY])
    const w = useTimeWindow(() => edges.value)
    w.windowAt.value = 2
    edges.value = [T]
    expect(w.windowEnd.value).toBe(T)
    edges.value = []
    expect(w.windowEnd.value).toBeNull()
  })
})
