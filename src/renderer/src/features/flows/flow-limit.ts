import { parseDecimalNumber, type ScaledDecimal } from '@shared/domain/amount'
import type { FlowEdge } from './flow-graph'

export type FlowDirection = 'out' | 'in' | 'both'

export interface FlowLimits {
  /** Hops from the root: 1 is its counterparties. */
  hops: number
  /** `out` follows money leaving the root, `in` money reaching it, `both` either way. */
  direction: FlowDirection
  /** Smallest edge total kept, in whole units of each edge's asset ("0.5"); '' for none. */
  minAmount: string
}

export class FlowFilterError extends Error {
  override readonly name = 'FlowFilterError'
  readonly kind = 'bad-filter'
}

/** The minimum amount as typed, or null for none; a clear error for text that is not a plain decimal. */
export function parseMinAmount(text: string): ScaledDecimal | null {
  const t = text.trim()
  if (t === '') return null
  const parsed = parseDecimalNumber(t)
  if (!parsed) throw new FlowFilterError(`Minimum amount “${t.slice(0, 40)}” is not a number such as 0.5.`)
  return parsed
}

/** value / 10^decimals >= min, in integers: value * 10^scale >= units * 10^decimals. */
function atLeast(edge: FlowEdge, min: ScaledDecimal | null): boolean {
  if (!min) return true
  return edge.value * 10n ** BigInt(min.scale) >= min.units * 10n ** BigInt(edge.decimals ?? 0)
}

export interface LimitedFlows {
  edges: FlowEdge[]
  /** Hops from the root of every node kept (the root is 0). */
  distance: Map<string, number>
}

/**
 * The part of the graph within `hops` of the root, walking edges in the chosen direction, and
 * only edges of at least the minimum amount. An edge is kept when both its ends are within
 * reach and it points the chosen way along the walk (so `out` never shows money coming back).
 */
export function limitFlows(edges: readonly FlowEdge[], root: string, limits: FlowLimits): LimitedFlows {
  const min = parseMinAmount(limits.minAmount)
  const big = edges.filter((e) => atLeast(e, min))
  const forward = new Map<string, FlowEdge[]>()
  const backward = new Map<string, FlowEdge[]>()
  for (const e of big) {
    push(forward, e.from, e)
    push(backward, e.to, e)
  }
  const me = root.toLowerCase()
  const distance = new Map<string, number>([[me, 0]])
  const kept = new Set<FlowEdge>()
  let frontier = [me]
  for (let hop = 1; hop <= limits.hops && frontier.length > 0; hop++) {
    const next: string[] = []
    const reach = (e: FlowEdge, other: string): void => {
      kept.add(e)
      if (!distance.has(other)) {
        distance.set(other, hop)
        next.push(other)
      }
    }
    for (const a of frontier) {
      if (limits.direction !== 'in') for (const e of forward.get(a) ?? []) reach(e, e.to)
      if (limits.direction !== 'out') for (const e of backward.get(a) ?? []) reach(e, e.from)
    }
    frontier = next
  }
  // Edges between two nodes already in reach (a cross link at the last hop) are kept too,
  // when they point the chosen way.
  for (const e of big) {
    if (kept.has(e) || !distance.has(e.from) || !distance.has(e.to)) continue
    const df = distance.get(e.from)!
    const dt = distance.get(e.to)!
    if (limits.direction === 'both' || (limits.direction === 'out' ? dt >= df : df >= dt)) kept.add(e)
  }
  return { edges: big.filter((e) => kept.has(e)), distance }
}

function push(map: Map<string, FlowEdge[]>, key: string, e: FlowEdge): void {
  const list = map.get(key)
  if (list) list.push(e)
  else map.set(key, [e])
}
