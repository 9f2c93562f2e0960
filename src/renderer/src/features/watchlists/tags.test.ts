import { describe, expect, it } from 'vitest'
import { parseTags } from './tags'

describe('parseTags', () => {
  it('splits on commas, trims, and drops blanks and repeats in order', () => {
    expect(parseTags(' exchange, hot wallet,,exchange , ')).toEqual(['exchange', 'hot wallet'])
    expect(parseTags('')).toEqual([])
  })
})
