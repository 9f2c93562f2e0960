import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HexIndex } from './hex-index'

describe('HexIndex', () => {
  it('finds whole words, and prefixes from 4 digits on, a whole word first', () => {
    const index = new HexIndex(4)
    index.add('a', ['0xabcd12', '0x01'])
    index.add('b', ['0xabcd1234'])
    index.add('c', ['0xabce00'])
    expect([...index.search(['0xabcd12']).keys()]).toEqual(['a', 'b'])
    expect([...index.search(['0xabcd']).keys()].sort()).toEqual(['a', 'b'])
    expect([...index.search(['0xabc']).keys()]).toEqual([]) // too short for a prefix
    expect([...index.search(['0x01']).keys()]).toEqual(['a']) // a whole word of any length
    expect([...index.search(['0xabcd', '0x01']).keys()]).toEqual(['a']) // every word must match
  })

  it('keeps a word while any item holds it', () => {
    const index = new HexIndex(4)
    index.add('a', ['0xfeed01', '0xfeed01'])
    index.add('b', ['0xfeed01'])
    index.remove('a', ['0xfeed01', '0xfeed01'])
    expect([...index.search(['0xfeed']).keys()]).toEqual(['b'])
    index.remove('b', ['0xfeed01'])
    expect(index.search(['0xfeed']).size).toBe(0)
    expect(index.words).toBe(0)
  })

  it('answers as a plain scan of the words held (fast-check)', () => {
    const word = fc.stringMatching(/^[0-9a-f]{1,8}$/).map((h) => `0x${h}`)
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.array(word, { maxLength: 4 })), { maxLength: 12 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 }),
        fc.array(word, { minLength: 1, maxLength: 2 }),
        (adds, removes, query) => {
          const index = new HexIndex(4)
          const held = new Map<string, string[]>()
          for (const [id, words] of adds) {
            if (held.has(id)) continue
            index.add(id, words)
            held.set(id, words)
          }
          for (const id of removes) {
            const words = held.get(id)
            if (!words) continue
            index.remove(id, words)
            held.delete(id)
          }
          const matches = (w: string, q: string) => w === q || (q.length >= 6 && w.startsWith(q))
          const expected = [...held].filter(([, words]) => query.every((q) => words.some((w) => matches(w, q))))
          expect([...index.search(query).keys()].sort()).toEqual(expected.map(([id]) => id).sort())
        },
      ),
      { numRuns: 300 },
    )
  })
})
