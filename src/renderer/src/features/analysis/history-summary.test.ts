import { describe, expect, it } from 'vitest'
import { formatDateTime } from '../../ui/time'
import { historySummary, type SummaryInput } from './history-summary'

const DAY = 86_400_000
const base: SummaryInput = {
  symbol: 'coin',
  decimals: 18,
  drawn: [
    { ms: 0, value: 5n * 10n ** 18n },
    { ms: DAY, value: 2n * 10n ** 18n },
    { ms: 2 * DAY, value: 7n * 10n ** 18n },
    { ms: 3 * DAY, value: 7n * 10n ** 18n },
  ],
  inView: 4,
  window: { fromMs: 0, toMs: 3 * DAY },
  nowMs: 3 * DAY,
  today: 7n * 10n ** 18n,
  lastChangeMs: 2 * DAY,
}

describe('historySummary', () => {
  it('gives the drawn range, the points, and the exact first, last, lowest and highest', () => {
    const text = historySummary(base)
    expect(text).toContain(
      `coin balance from ${formatDateTime(0)} to ${formatDateTime(3 * DAY)} (drawn range): 4 points.`,
    )
    expect(text).toContain('Starts at 5 coin, ends at 7 coin')
    expect(text).toContain(`lowest 2 coin at ${formatDateTime(DAY)}, highest 7 coin at ${formatDateTime(2 * DAY)}`)
    expect(text).not.toContain('beyond the right edge')
  })

  it('says when points were sampled, and where today is when it lies beyond the drawn range', () => {
    const zoomed = { ...base, inView: 900, window: { fromMs: 0, toMs: 2.1 * DAY }, nowMs: 700 * DAY }
    expect(historySummary(zoomed)).toContain('4 points, sampled from 900 (each slice of time keeps')
    expect(historySummary(zoomed)).toContain(
      `beyond the right edge: 7 coin, unchanged since ${formatDateTime(2 * DAY)}.`,
    )
    // The last change is beyond the edge too: today's balance, but no claim that it is flat.
    const early = { ...zoomed, window: { fromMs: 0, toMs: 1.5 * DAY } }
    expect(historySummary(early)).toMatch(/beyond the right edge: 7 coin\.$/)
  })

  it('says there is nothing to draw in an empty window', () => {
    expect(historySummary({ ...base, drawn: [] })).toMatch(/^No coin balance to draw from /)
  })
})
