import type { FlowEdge } from './flow-graph'

/**
 * The shortest chain of edges carrying value from `from` to `to` within `maxHops`, over the
 * edges given (what is loaded and filtered), following the direction money moved unless
 * `undirected`. Null when there is none that short. Breadth first: fewest hops wins, and among
 * equals the edge met first in the list (stable for a given graph).
 */
export function findPath(
  edges: readonly FlowEdge[],
  from: string,
  to: string,
  options: { maxHops: number; undirected?: boolean },
): FlowEdge[] | null {
  const { maxHops } = options
  const a = from.toLowerCase()
  const b = to.toLowerCase()
  if (a === b) return []
  const out = new Map<string, { edge: FlowEdge; next: string }[]>()
  const add = (at: string, edge: FlowEdge, next: string): void => {
    const list = out.get(at)
    if (list) list.push({ edge, next })
    else out.set(at, [{ edge, next }])
  }
  for (const e of edges) {
    add(e.from, e, e.to)
    if (options.undirected) add(e.to, e, e.from)
  }
  const via = new Map<string, FlowEdge | null>([[a, null]])
  let frontier = [a]
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const next: string[] = []
    for (const at of frontier) {
      for (const step of out.get(at) ?? []) {
        if (via.has(step.next)) continue
        via.set(step.next, step.edge)
        if (step.next === b) return walkBack(via, a, b)
        next.push(step.next)
      }
    }
    frontier = next
  }
  return null
}

function walkBack(via: Map<string, FlowEdge | null>, a: string, b: string): FlowEdge[] {
  const path: FlowEdge[] = []
  let at = b
  while (at !== a) {
    const e = via.get(at)!
    path.push(e)
    at = e.to === at ? e.from : e.to
  }
  return path.reverse()
}
