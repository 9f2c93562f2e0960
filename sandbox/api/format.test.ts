import { describe, expect, it } from 'vitest'
import { fiatValue, isoMicros } from './format'

describe('format helpers', () => {
  it('writes ISO 8601 UTC with microseconds and Z', () => {
    expect(isoMicros(1_735_689_612)).toBe('2025-01-01T00:00:12.000000Z')
  })

  it('multiplies a decimal rate by a token amount exactly, to two decimals', () => {
    expect(fiatValue('1.0003', 250_000_000n * 10n ** 6n, 6)).toBe('250075000.00')
    expect(fiatValue('64210.55', 21_000n * 10n ** 8n, 8)).toBe('1348421550.00')
    expect(fiatValue('12.47', 1n, 18)).toBe('0.00')
    expect(fiatValue('3', 7n, 0)).toBe('21.00')
  })
})
