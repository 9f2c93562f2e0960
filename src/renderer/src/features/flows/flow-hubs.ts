import type { FlowEdge, FlowNode } from './flow-graph'

/** Counterparties above which an address is a hub: an exchange, a router, a faucet. */
export const HUB_THRESHOLD = 25

export interface Collapsed {
  edges: FlowEdge[]
  /** Hubs that hide counterparties, with how many they hide. */
  hubs: Map<string, number>
  /** The addresses folded into a hub. */
  hidden: Set<string>
}

/**
 * Busy hubs collapse: a token contract, or an address with more than `threshold` distinct
 * counterparties in view, keeps its own node, but the counterparties it alone links to the
 * rest (every neighbour of theirs is a hub) fold into it as a count. Addresses in `keep` (the
 * root, the ones the user expanded or picked) never fold and never count as hubs.
 */
export function collapseHubs(
  edges: readonly FlowEdge[],
  nodes: ReadonlyMap<string, FlowNode>,
  keep: ReadonlySet<string>,
  threshold = HUB_THRESHOLD,
): Collapsed {
  const neighbours = new Map<string, Set<string>>()
  const link = (a: string, b: string): void => {
    let s = neighbours.get(a)
    if (!s) neighbours.set(a, (s = new Set()))
    s.add(b)
  }
  for (const e of edges) {
    link(e.from, e.to)
    link(e.to, e.from)
  }
  const isHub = (a: string): boolean =>
    !keep.has(a) && (nodes.get(a)?.isToken === true || (neighbours.get(a)?.size ?? 0) > threshold)
  const hubSet = new Set([...neighbours.keys()].filter(isHub))
  const hubs = new Map<string, number>()
  const hidden = new Set<string>()
  for (const hub of hubSet) {
    for (const n of neighbours.get(hub) ?? []) {
      if (keep.has(n) || hubSet.has(n) || hidden.has(n)) continue
      if ([...(neighbours.get(n) ?? [])].every((m) => hubSet.has(m))) hidden.add(n)
    }
  }
  for (const n of hidden) {
    for (const m of neighbours.get(n) ?? []) hubs.set(m, (hubs.get(m) ?? 0) + 1)
  }
  return { edges: edges.filter((e) => !hidden.has(e.from) && !hidden.has(e.to)), hubs, hidden }
}
