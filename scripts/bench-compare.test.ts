import { describe, expect, it } from 'vitest'
import { median, numbersOf, summary } from './bench-compare.mjs'

describe('bench-compare (scripts/bench-compare.mjs)', () => {
  it('reads every key=number of a labelled line, and skips lines without numbers', () => {
    const out = 'starting…\npaging: pages=53 wall_s=1.002 overhead_pct=-2.1\nnote: done\n'
    expect(numbersOf(out)).toEqual([
      ['paging pages', 53],
      ['paging wall_s', 1.002],
      ['paging overhead_pct', -2.1],
    ])
  })

  it('numbers a label printed again in one run instead of pooling its values with the first', () => {
    const out = [
      'watch-check: addresses=50 requests=1',
      'watch-check: addresses=50 requests=12',
      'height-live: requests=10',
      'watch-check: addresses=50 requests=6',
    ].join('\n')
    const nums = numbersOf(out)
    expect(nums.filter(([k]) => k.endsWith(' requests'))).toEqual([
      ['watch-check requests', 1],
      ['watch-check#2 requests', 12],
      ['height-live requests', 10],
      ['watch-check#3 requests', 6],
    ])
  })

  it('compares the medians of each side per number, head over base', () => {
    const runs = {
      base: new Map([['x ms', [10, 30, 20]]]),
      head: new Map([['x ms', [21, 22, 99]]]),
    }
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(summary(runs, 3)).toEqual([
      'median of 3 alternating rounds (ratio = head / base)',
      'x ms: base=20 head=22 ratio=1.100',
    ])
  })
})
