import { describe, expect, it } from 'vitest'
import { FlowFilterError, limitFlows } from './flow-limit'
import { at, edgeOf } from '../../testing/flow-edges'

// 1 → 2 → 3 → 4, and 5 → 1 (money into the root), 2 → 6 small.
const edges = [edgeOf(1, 2, 10n ** 18n), edgeOf(2, 3, 5n * 10n ** 17n), edgeOf(3, 4), edgeOf(5, 1), edgeOf(2, 6, 10n)]
const ids = (r: { edges: { from: string; to: string }[] }): string[] =>
  r.edges.map((e) => `${Number(e.from)}>${Number(e.to)}`).sort()

describe('limitFlows', () => {
  it('keeps what is within the hop limit, walking the chosen direction', () => {
    expect(ids(limitFlows(edges, at(1), { hops: 1, direction: 'out', minAmount: '' }))).toEqual(['1>2'])
    expect(ids(limitFlows(edges, at(1), { hops: 2, direction: 'out', minAmount: '' }))).toEqual(['1>2', '2>3', '2>6'])
    expect(ids(limitFlows(edges, at(1), { hops: 1, direction: 'in', minAmount: '' }))).toEqual(['5>1'])
    const both = limitFlows(edges, at(1), { hops: 3, direction: 'both', minAmount: '' })
    expect(ids(both)).toEqual(['1>2', '2>3', '2>6', '3>4', '5>1'])
    expect(both.distance.get(at(4))).toBe(3)
  })

  it('drops edges under the minimum, in whole units of their asset', () => {
    expect(ids(limitFlows(edges, at(1), { hops: 3, direction: 'out', minAmount: '0.5' }))).toEqual(['1>2', '2>3'])
    expect(ids(limitFlows(edges, at(1), { hops: 3, direction: 'out', minAmount: '0.50000000000000001' }))).toEqual([
      '1>2',
    ])
  })

  it('names a minimum that is not a number', () => {
    expect(() => limitFlows(edges, at(1), { hops: 1, direction: 'out', minAmount: '1e5' })).toThrow(FlowFilterError)
    expect(() => limitFlows(edges, at(1), { hops: 1, direction: 'out', minAmount: 'lots' })).toThrow(/“lots”/)
  })
})
