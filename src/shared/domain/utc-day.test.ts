import { describe, expect, it } from 'vitest'
import { DAY_MS, utcDayStartMs } from './utc-day'

describe('utcDayStartMs', () => {
  it('reads a calendar day as its first UTC moment', () => {
    expect(utcDayStartMs('2026-11-27')).toBe(Date.UTC(2026, 10, 27))
    expect(utcDayStartMs('2024-02-29')! + DAY_MS).toBe(Date.UTC(2024, 2, 1))
  })

  it('refuses days that do not exist and other text', () => {
    for (const text of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-11-7', ' 2026-11-27', '2026-11-27T00:00Z', ''])
      expect(utcDayStartMs(text), text).toBeNull()
  })
})
