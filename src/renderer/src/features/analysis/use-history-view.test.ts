import { describe, expect, it } from 'vitest'
import { nextTick, ref } from 'vue'
import type { HistoryPoint } from './balance-history'
import { useHistoryView } from './use-history-view'

const DAY = 86_400_000
const key = (k: string, shiftKey = false) => new KeyboardEvent('keydown', { key: k, shiftKey })

/** Changes every hour for two days, then nothing until today, 700 days later. */
function busy(): { points: HistoryPoint[]; nowMs: number } {
  const points: HistoryPoint[] = [{ ms: -1, value: 100n }]
  for (let h = 0; h < 48; h++) points.push({ ms: h * 3_600_000, value: BigInt(100 + (h % 7)) })
  const nowMs = 700 * DAY
  points.push({ ms: nowMs, value: points.at(-1)!.value })
  return { points, nowMs }
}

describe('useHistoryView', () => {
  it('opens on the changes, zooms around the cursor, pans, and fits the changes again', async () => {
    const { points, nowMs } = busy()
    const v = useHistoryView(ref(points), ref(nowMs))
    expect(v.view.value.fromMs).toBe(-1)
    expect(v.view.value.toMs).toBeLessThan(2.1 * DAY)
    expect(v.atDefault.value).toBe(true)
    expect(v.atStart.value).toBe(true)

    expect(v.onKey(key('End'))).toBe(true)
    const last = v.drawn.value[v.cursor.value!]!
    v.onKey(key('+'))
    await nextTick()
    // Zoomed in around the cursor's moment; the cursor stays on it.
    expect(v.view.value.toMs - v.view.value.fromMs).toBeLessThan(1.1 * DAY)
    expect(v.drawn.value[v.cursor.value!]!.ms).toBe(last.ms)
    expect(v.atDefault.value).toBe(false)

    v.onKey(key('PageUp'))
    expect(v.atEnd.value).toBe(false)
    v.onKey(key('0'))
    expect(v.atDefault.value).toBe(true)
    v.showAll()
    expect(v.atFull.value).toBe(true)
    expect(v.view.value.toMs).toBe(nowMs)
    expect(v.onKey(key('a'))).toBe(false)
  })

  it('steps the cursor by one or ten points and stops at the ends', () => {
    const { points, nowMs } = busy()
    const v = useHistoryView(ref(points), ref(nowMs))
    v.onKey(key('ArrowRight'))
    expect(v.cursor.value).toBe(0)
    v.onKey(key('ArrowRight', true))
    expect(v.cursor.value).toBe(10)
    v.onKey(key('ArrowLeft'))
    expect(v.cursor.value).toBe(9)
    v.onKey(key('ArrowLeft', true))
    expect(v.cursor.value).toBe(0)
    v.onKey(key('End'))
    v.onKey(key('ArrowRight'))
    expect(v.cursor.value).toBe(v.drawn.value.length - 1)
  })

  it('opens on the changes again when the points change (another asset, range or page)', async () => {
    const { points, nowMs } = busy()
    const source = ref(points)
    const v = useHistoryView(source, ref(nowMs))
    v.showAll()
    v.move(3)
    source.value = points.slice(10)
    await nextTick()
    expect(v.atDefault.value).toBe(true)
    expect(v.cursor.value).toBeNull()
  })
})
