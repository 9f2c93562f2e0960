import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findPath } from './flow-path'
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
