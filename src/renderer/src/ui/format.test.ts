import { describe, expect, it } from 'vitest'
import { csvCell, csvLine } from '@shared/csv'
import { describeError, secondsUntil } from './errors'
import { formatDuration } from '@shared/domain/duration'
import { formatAge } from './time'
import { ERROR_KINDS } from '@shared/bridge/errors'

describe('csv', () => {
  it('quotes and neutralises formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('@SUM')).toBe(`"'@SUM"`)
    expect(csvCell(null)).toBe('')
    expect(csvLine([1, 'x', { a: 1 }])).toBe('1,x,"{""a"":1}"')
  })
})

describe('errors', () => {
  it('gives every kind a title and a way forward', () => {
    for (const kind of ERROR_KINDS) {
      const d = describeError({ kind, message: 'm' })
      expect(d.title.length).toBeGreaterThan(3)
      expect(d.hint.length).toBeGreaterThan(3)
    }
    expect(describeError({ kind: 'auth', message: 'x' }).actions).toEqual(['fix-key'])
    expect(describeError({ kind: 'rate-limited', message: 'x', retryAfterMs: 3000 }).retryAfterMs).toBe(3000)
    expect(describeError({ kind: 'rpc', message: 'execution reverted', code: 3 }).detail).toBe(
      'Error 3: execution reverted',
    )
    expect(describeError({ kind: 'bogus', message: 'x' } as never).title).toMatch(/inside Chainscope/)
    expect(secondsUntil(10_500, 9_000)).toBe(2)
    expect(secondsUntil(1, 9_000)).toBe(0)
  })
})

describe('time', () => {
  it('formats ages and durations', () => {
    expect(formatAge(0, 3_000)).toBe('just now')
    expect(formatAge(0, 42_000)).toBe('42 s ago')
    expect(formatAge(0, 5 * 60_000)).toBe('5 min ago')
    expect(formatAge(10 * 3_600_000, 0)).toBe('in 10 h')
    expect(formatAge(null, 0)).toBe('unknown')
    expect(formatDuration(3_900_000)).toBe('1 h 5 min')
  })
})
