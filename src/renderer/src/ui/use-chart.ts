import { onBeforeUnmount, shallowRef, watch, type Ref } from 'vue'
import type { ChartConfiguration } from 'chart.js'

type ChartInstance = { destroy(): void; update(mode?: 'none'): void; data: ChartConfiguration['data'] }

let loading: Promise<typeof import('./chart-setup')> | null = null

/** chart.js is fetched the first time a chart is shown, keeping it out of the initial bundle. */
export function loadChartModule(): Promise<typeof import('./chart-setup')> {
  loading ??= import('./chart-setup')
  return loading
}

/** Theme colours from CSS variables, so charts follow light and dark. */
export function themeColor(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return v || fallback
}

/** Draws a chart on `canvas` from `config()` and redraws when `source` changes. */
export function useChart(canvas: Ref<HTMLCanvasElement | null>, source: Ref<unknown>, config: () => ChartConfiguration | null) {
  const chart = shallowRef<ChartInstance | null>(null)
  const failed = shallowRef<string | null>(null)
  let disposed = false

  async function draw(): Promise<void> {
    const el = canvas.value
    const cfg = config()
    if (!el || disposed) return
    if (!cfg) {
      chart.value?.destroy()
      chart.value = null
      return
    }
    try {
      const { Chart } = await loadChartModule()
      if (disposed) return
      chart.value?.destroy()
      // Chart's generics (per chart type) do not narrow to the one interface both charts use.
      chart.value = new Chart(el, cfg) as unknown as ChartInstance
    } catch (error) {
      failed.value = `The chart could not be drawn: ${error instanceof Error ? error.message : String(error)}`
    }
  }

  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
  const onScheme = (): void => void draw()
  media?.addEventListener?.('change', onScheme)
  watch([canvas, source], () => void draw(), { immediate: true })
  onBeforeUnmount(() => {
    disposed = true
    media?.removeEventListener?.('change', onScheme)
    chart.value?.destroy()
  })
  return { chart, failed }
}
