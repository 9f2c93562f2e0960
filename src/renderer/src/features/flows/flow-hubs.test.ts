import { describe, expect, it } from 'vitest'
import { collapseHubs } from './flow-hubs'
import { at, edgeOf, nodesOf } from '../../testing/flow-edges'

describe('collapseHubs', () => {
  // 1 pays hub 2; 2 pays 30 leaves (100…129); leaf 100 also pays 3, which 1 knows.
  const leaves = Array.from({ length: 30 }, (_, i) => edgeOf(2, 100 + i))
  const edges = [edgeOf(1, 2), ...leaves, edgeOf(100, 3), edgeOf(1, 3)]

  it('folds the leaves only a busy hub links to, with their count', () => {
    const c = collapseHubs(edges, nodesOf(edges), new Set([at(1)]), 25)
    expect(c.hubs.get(at(2))).toBe(29)
    expect(c.hidden.has(at(100))).toBe(false) // linked to 3 as well
    expect(c.edges).toHaveLength(4) // 1>2, 2>100, 100>3, 1>3
  })

  it('never folds what the user keeps, and a kept hub is no hub', () => {
    expect(collapseHubs(edges, nodesOf(edges), new Set([at(1), at(2)]), 25).hidden.size).toBe(0)
    expect(collapseHubs(edges, nodesOf(edges), new Set([at(1), at(101)]), 25).hidden.has(at(101))).toBe(false)
  })

  it('treats a token contract as a hub whatever its count', () => {
    const small = [edgeOf(1, 7), edgeOf(7, 8)]
    const c = collapseHubs(small, nodesOf(small, [at(7)]), new Set([at(1)]), 25)
    expect([...c.hidden]).toEqual([at(8)])
    expect(c.hubs.get(at(7))).toBe(1)
  })
})
