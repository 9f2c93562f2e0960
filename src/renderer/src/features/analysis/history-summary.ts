import { formatUnits } from '@shared/domain/amount'
import { formatDateTime } from '../../ui/time'
import type { HistoryPoint } from './balance-history'
import type { TimeWindow } from './history-window'

export interface SummaryInput {
  symbol: string
  decimals: number | null
  /** What the chart draws, oldest first. */
  drawn: readonly HistoryPoint[]
  /** How many points the window holds before sampling. */
  inView: number
  window: TimeWindow
  nowMs: number
  today: bigint
  /** The newest change, or null when the series has none. */
  lastChangeMs: number | null
}

/** The extreme (by `better`) among `points`, the earliest when several tie. */
function extreme(points: readonly HistoryPoint[], better: (a: bigint, b: bigint) => boolean): HistoryPoint {
  let out = points[0]!
  for (const p of points) if (better(p.value, out.value)) out = p
  return out
}

/**
 * The chart in words, for the canvas's accessible name: the drawn range, how many points
 * (and how they were chosen when sampled), the first, last, lowest and highest exact amounts,
 * and where today is. Built from the same drawn points as the chart and its data table.
 */
export function historySummary(s: SummaryInput): string {
  const text = (v: bigint): string => `${formatUnits(v, s.decimals ?? 0)} ${s.symbol}`
  const p = s.drawn
  if (!p.length)
    return `No ${s.symbol} balance to draw from ${formatDateTime(s.window.fromMs)} to ${formatDateTime(s.window.toMs)}.`
  const low = extreme(p, (a, b) => a < b)
  const high = extreme(p, (a, b) => a > b)
  const sampled =
    p.length < s.inView
      ? `, sampled from ${s.inView} (each slice of time keeps its first, last, lowest and highest balance)`
      : ''
  const parts = [
    `${s.symbol} balance from ${formatDateTime(s.window.fromMs)} to ${formatDateTime(s.window.toMs)} (drawn range): ${p.length} points${sampled}.`,
    `Starts at ${text(p[0]!.value)}, ends at ${text(p[p.length - 1]!.value)}; lowest ${text(low.value)} at ${formatDateTime(low.ms)}, highest ${text(high.value)} at ${formatDateTime(high.ms)}.`,
  ]
  if (s.window.toMs < s.nowMs) {
    const flat = s.lastChangeMs !== null && s.lastChangeMs <= s.window.toMs
    parts.push(
      `Today (${formatDateTime(s.nowMs)}) is beyond the right edge: ${text(s.today)}${flat ? `, unchanged since ${formatDateTime(s.lastChangeMs)}` : ''}.`,
    )
  }
  return parts.join(' ')
}
