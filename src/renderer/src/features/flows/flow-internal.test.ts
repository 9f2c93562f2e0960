import { describe, expect, it } from 'vitest'
import { NATIVE } from '@shared/domain/movements'
import { ALICE, BOB, ROUTER, WALLET, later, routerView, split } from '../../testing/router-split'
import { internalByHash, type InternalByHash } from '../../platform/traced-internal'
import { buildFlowGraph } from './flow-graph'

const traced = internalByHash(routerView)
const other = later
const byPair = (g: ReturnType<typeof buildFlowGraph>, from: string, to: string) =>
  g.edges.find((e) => e.from === from && e.to === to && e.asset === NATIVE)

describe('buildFlowGraph with traced internal transfers', () => {
  it('adds the router → recipients edges, marked internal, with the hand-summed values', () => {
    const g = buildFlowGraph([split, other], { internal: traced })
    expect(byPair(g, ROUTER, ALICE)).toMatchObject({ value: 6n, count: 1, internal: 1 })
    expect(byPair(g, ROUTER, BOB)).toMatchObject({ value: 4n, count: 1, internal: 1 })
    expect(g.nodes.has(ALICE) && g.nodes.has(BOB)).toBe(true)
  })

  it('counts the depth-0 frame once: wallet → router is 10 + 5 from the items, not 25', () => {
    const g = buildFlowGraph([split, other], { internal: traced })
    expect(byPair(g, WALLET, ROUTER)).toMatchObject({ value: 15n, count: 2, internal: 0 })
  })

  it('an untraced transaction adds nothing, and without traces there are no internal edges', () => {
    const g = buildFlowGraph([other], { internal: traced })
    expect(g.edges.map((e) => [e.from, e.to, e.value, e.internal])).toEqual([[WALLET, ROUTER, 5n, 0]])
    expect(buildFlowGraph([split]).edges).toHaveLength(1)
  })

  it('follows the date window and the asset filter like the item it happened in', () => {
    expect(buildFlowGraph([split], { internal: traced, fromMs: Date.UTC(2026, 0, 1, 0, 2) }).edges).toEqual([])
    expect(buildFlowGraph([split], { internal: traced, asset: '0xdead' }).edges).toEqual([])
  })

  it('leaves out a value that is not whole wei', () => {
    const bad: InternalByHash = new Map([
      [split.hash.toLowerCase(), [{ from: ROUTER, to: ALICE, value: '-1', depth: 1 }]],
    ])
    expect(byPair(buildFlowGraph([split], { internal: bad }), ROUTER, ALICE)).toBeUndefined()
  })
})
