import { describe, expect, it } from 'vitest'
import { withDefaults } from './options'

describe('withDefaults', () => {
  const DEFAULTS = { timeoutMs: 15_000, attempts: 3, name: 'x' }

  it('takes every given option and keeps the default of one passed as undefined', () => {
    expect(withDefaults(DEFAULTS, { timeoutMs: 5, attempts: undefined })).toEqual({
      timeoutMs: 5,
      attempts: 3,
      name: 'x',
    })
    expect(withDefaults(DEFAULTS, undefined)).toEqual(DEFAULTS)
  })

  it('never changes the defaults object and ignores keys it does not define', () => {
    const input: Record<string, unknown> = { name: 'y', extra: 1 }
    const out = withDefaults(DEFAULTS, input)
    expect(out).toEqual({ timeoutMs: 15_000, attempts: 3, name: 'y' })
    expect(DEFAULTS.name).toBe('x')
  })
})
