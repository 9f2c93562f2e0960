import { onBeforeUnmount, shallowRef, watch, type Ref } from 'vue'
import type { ChartConfiguration } from 'chart.js'
import { errorMessage } from '@shared/guards'

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

/**
 * Resolves once the frame after the current one has been painted: a chart is extra to the
 * data it sits beside (the transactions' first rows, the balances table), so it waits until
 * that data is on screen. Building one costs tens of ms (its style reads force a style and
 * layout pass) that would otherwise delay the first paint of the rows.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return void setTimeout(resolve, 0)
    // rAF runs just before the paint; a task queued from it runs after that paint.
    requestAnimationFrame(() => setTimeout(resolve, 0))
  })
}

/**
 * Draws a chart on `canvas` from `config()` and redraws when `source` changes. Drawing waits
 * for the next paint (see afterNextPaint), and changes arriving meanwhile (pages of "Load all")
 * are drawn once, from the latest `config()`.
 */
export function useChart(
  canvas: Ref<HTMLCanvasElement | null>,
  source: Ref<unknown>,
  config: () => ChartConfiguration | null,
) {
  const chart = shallowRef<ChartInstance | null>(null)
  const failed = shallowRef<string | null>(null)
  let disposed = false
  let scheduled: Promise<void> | null = null

  function draw(): Promise<void> {
    // The chunk downloads while the page paints.
    void loadChartModule().catch(() => undefined)
    scheduled ??= afterNextPaint().then(() => {
      scheduled = null
      return drawNow()
    })
    return scheduled
  }

  async function drawNow(): Promise<void> {
    if (disposed) return
    const el = canvas.value
    const cfg = config()
    if (!el) return
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
      failed.value = `The chart could not be drawn: ${errorMessage(error)}`
    }
  }

  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
  const onScheme = (): void => void draw()
  media?.addEventListener?.('change', onScheme)
  watch([canvas, source], () => void draw(), { immediate: true })
  onBeforeUnmount(() => {
    disposed = true
    media?.removeEventListener?.('change', onScheme)
    // Releasing a chart (its listeners, its canvas's context and backing store) took about 15 ms
    // of the switch from Balances to Transactions, before the new tab could render
    // (bench/ui-profile.ts, first rows). The chart's canvas leaves the page with this component,
    // so it is released once the view that replaces it has painted.
    const old = chart.value
    chart.value = null
    if (old) void afterNextPaint().then(() => old.destroy())
  })
  return { chart, failed }
}
