import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import type { ChartConfiguration } from 'chart.js'

const built: unknown[] = []
let destroyed = 0
vi.mock('./chart-setup', () => ({
  Chart: class {
    data: unknown
    constructor(_el: unknown, cfg: { data: unknown }) {
      this.data = cfg.data
      built.push(cfg.data)
    }
    destroy(): void {
      destroyed++
    }
    update(): void {}
  },
}))

const { useChart } = await import('./use-chart')

function chartHost(source: ReturnType<typeof ref<number>>) {
  return defineComponent({
    setup() {
      const canvas = ref<HTMLCanvasElement | null>(null)
      useChart(canvas, source, (): ChartConfiguration => ({
        type: 'bar',
        data: { labels: [String(source.value)], datasets: [] },
      }))
      return () => h('canvas', { ref: canvas })
    },
  })
}

describe('useChart', () => {
  beforeEach(() => {
    built.length = 0
    destroyed = 0
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] })
  })
  afterEach(() => vi.useRealTimers())

  it('draws after the next paint, not in the task that rendered the data beside it', async () => {
    const source = ref(1)
    const w = mount(chartHost(source))
    await flushPromises()
    expect(built).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(50)
    await flushPromises()
    expect(built).toHaveLength(1)
    w.unmount()
  })

  it('draws changes that arrive before the paint once, from the latest data', async () => {
    const source = ref(1)
    const w = mount(chartHost(source))
    for (const n of [2, 3, 4]) {
      source.value = n
      await nextTick()
    }
    await vi.advanceTimersByTimeAsync(50)
    await flushPromises()
    expect(built).toEqual([{ labels: ['4'], datasets: [] }])
    w.unmount()
  })

  it('releases its chart after the view that replaces it has painted, not in the unmount', async () => {
    const source = ref(1)
    const w = mount(chartHost(source))
    await vi.advanceTimersByTimeAsync(50)
    await flushPromises()
    expect(built).toHaveLength(1)
    w.unmount()
    expect(destroyed).toBe(0)
    await vi.advanceTimersByTimeAsync(50)
    expect(destroyed).toBe(1)
    // Nothing is drawn for a component that is gone, even when its data changes.
    source.value = 2
    await vi.advanceTimersByTimeAsync(50)
    await flushPromises()
    expect(built).toHaveLength(1)
    expect(destroyed).toBe(1)
  })
})
