import type { ChartConfiguration, Plugin } from 'chart.js'
import { formatUnits } from '@shared/domain/amount'
import { themeColor } from '../../ui/use-chart'
import { formatDateTime } from '../../ui/time'
import type { HistoryPoint } from './balance-history'
import { plotNumber } from './flows'
import type { TimeWindow } from './history-window'

export interface HistoryChartInput {
  drawn: readonly HistoryPoint[]
  window: TimeWindow
  nowMs: number
  decimals: number | null
  symbol: string
}

/** A dashed line at today, labelled, when today is inside the drawn range. */
function todayMarker(nowMs: number, color: string): Plugin<'line'> {
  return {
    id: 'todayMarker',
    afterDatasetsDraw(chart) {
      const x = chart.scales.x
      if (!x || nowMs < x.min || nowMs > x.max) return
      const px = x.getPixelForValue(nowMs)
      const { top, bottom } = chart.chartArea
      const ctx = chart.ctx
      ctx.save()
      ctx.strokeStyle = color
      ctx.fillStyle = color
      ctx.setLineDash([4, 4])
      ctx.beginPath()
      ctx.moveTo(px, top)
      ctx.lineTo(px, bottom)
      ctx.stroke()
      ctx.textAlign = 'right'
      ctx.textBaseline = 'top'
      ctx.fillText('today', px - 4, top + 2)
      ctx.restore()
    },
  }
}

/**
 * The balance as a stepped line on a time axis, so width means time: a balance holds from its
 * point until the next (chart.js's `stepped: 'before'` draws the level first, then the jump).
 * Amounts are plotted as floats; the tooltip reads the exact bigint text of the same point.
 */
export function historyChartConfig(h: HistoryChartInput): ChartConfiguration<'line'> {
  const text = themeColor('--muted', '#666')
  const grid = themeColor('--border', '#ccc')
  const accent = themeColor('--accent', '#36c')
  const p = h.drawn
  return {
    type: 'line',
    data: {
      datasets: [
        {
          label: h.symbol,
          data: p.map((x) => ({ x: x.ms, y: plotNumber(x.value, h.decimals) })),
          parsing: false,
          borderColor: accent,
          backgroundColor: accent,
          stepped: 'before',
          pointRadius: p.length > 60 ? 0 : 2,
          pointHoverRadius: 4,
          borderWidth: 2,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'time',
          min: h.window.fromMs,
          max: h.window.toMs,
          // date-fns patterns, numeric like every other date in the app.
          time: {
            displayFormats: {
              millisecond: 'HH:mm:ss.SSS',
              second: 'HH:mm:ss',
              minute: 'HH:mm',
              hour: 'MM-dd HH:mm',
              day: 'yyyy-MM-dd',
              week: 'yyyy-MM-dd',
              month: 'yyyy-MM',
              quarter: 'yyyy-MM',
              year: 'yyyy',
            },
          },
          ticks: { color: text, maxRotation: 0, autoSkip: true, maxTicksLimit: 7 },
          grid: { color: grid },
        },
        // Not from zero: a whale's change of a few coins would be a flat line otherwise.
        y: { beginAtZero: false, grace: '5%', ticks: { color: text }, grid: { color: grid } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? formatDateTime(p[items[0].dataIndex]!.ms) : ''),
            label: (ctx) => `${formatUnits(p[ctx.dataIndex]!.value, h.decimals ?? 0)} ${h.symbol}`,
          },
        },
      },
    },
    plugins: [todayMarker(h.nowMs, text)],
  }
}
