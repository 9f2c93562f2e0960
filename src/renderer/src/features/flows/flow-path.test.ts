import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { answerPath, findPath, isStale } from './flow-path'
import { at, edgeOf } from '../../testing/flow-edges'

describe('findPath', () => {
  const edges = [edgeOf(1, 2), edgeOf(2, 3), edgeOf(3, 4), edgeOf(1, 5), edgeOf(5, 4), edgeOf(6, 1)]

  it('returns the shortest chain of edges money took, within the hop limit', () => {
    expect(findPath(edges, at(1), at(4), { maxHops: 5 })?.map((e) => e.id)).toEqual([edgeOf(1, 5).id, edgeOf(5, 4).id])
    expect(findPath(edges, at(1), at(3), { maxHops: 2 })?.length).toBe(2)
    expect(findPath(edges, at(1), at(3), { maxHops: 1 })).toBeNull()
    expect(findPath(edges, at(1), at(1), { maxHops: 1 })).toEqual([])
  })

  it('follows the direction money moved unless asked not to', () => {
    expect(findPath(edges, at(4), at(1), { maxHops: 5 })).toBeNull()
    expect(findPath(edges, at(4), at(6), { maxHops: 5, undirected: true })?.map((e) => e.id)).toEqual([
      edgeOf(5, 4).id,
      edgeOf(1, 5).id,
      edgeOf(6, 1).id,
    ])
  })

  it('any path found is a chain from A to B no longer than the limit', () => {
    const arb = fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })), { maxLength: 20 })
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), (pairs, target, hops) => {
        const es = pairs.filter(([a, b]) => a !== b).map(([a, b]) => edgeOf(a, b))
        const p = findPath(es, at(1), at(target), { maxHops: hops })
        if (p === null || target === 1) return
        expect(p.length).toBeLessThanOrEqual(hops)
        expect(p[0]!.from).toBe(at(1))
        expect(p[p.length - 1]!.to).toBe(at(target))
        for (let i = 1; i < p.length; i++) expect(p[i]!.from).toBe(p[i - 1]!.to)
      }),
    )
  })
})

describe('answerPath: directed first, then either direction, and when an answer is stale', () => {
  const edges = [edgeOf(0xa1, 2), edgeOf(3, 2)]
  const ask = (from: number, to: number, undirected = false) => ({ from: at(from), to: at(to), maxHops: 4, undirected })

  it('falls back to either direction when the directed search finds nothing, and says so', () => {
    const a = answerPath(edges, ask(0xa1, 3))
    expect(a.fellBack).toBe(true)
    expect(a.path?.map((e) => e.id)).toEqual([edgeOf(0xa1, 2).id, edgeOf(3, 2).id])
  })

  it('keeps a directed answer as it is, and says none when neither way reaches', () => {
    expect(answerPath(edges, ask(0xa1, 2))).toMatchObject({ fellBack: false, path: [edgeOf(0xa1, 2)] })
    expect(answerPath(edges, ask(0xa1, 7))).toMatchObject({ fellBack: false, path: null })
    expect(answerPath(edges, ask(0xa1, 3, true)).fellBack).toBe(false)
  })

  it('is stale once an input or the graph changes, and not for a change of letter case', () => {
    const a = answerPath(edges, ask(0xa1, 3))
    expect(isStale(a, ask(0xa1, 3), edges)).toBe(false)
    expect(isStale(a, { ...ask(0xa1, 3), from: at(0xa1).toUpperCase().replace('0X', '0x') }, edges)).toBe(false)
    expect(isStale(a, ask(0xa1, 2), edges)).toBe(true)
    expect(isStale(a, { ...ask(0xa1, 3), maxHops: 2 }, edges)).toBe(true)
    expect(isStale(a, ask(0xa1, 3, true), edges)).toBe(true)
    expect(isStale(a, ask(0xa1, 3), [...edges, edgeOf(2, 4)])).toBe(true)
  })
})
