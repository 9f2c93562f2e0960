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

/** One path question: its inputs, as the form holds them. */
export interface PathQuery {
  from: string
  to: string
  maxHops: number
  /** Asked for either direction from the start. */
  undirected: boolean
}

/** A path answer: the path (null: none), how it was found, and what it was asked over. */
export interface PathAnswer {
  path: FlowEdge[] | null
  /** The directed search found nothing and the one ignoring direction found this path. */
  fellBack: boolean
  /** The question and the graph (`graphKey`) the answer belongs to: another one makes it stale. */
  query: PathQuery
  graphKey: string
}

/** What a path answer depends on in the graph: its edges and what each carries. */
const graphKey = (edges: readonly FlowEdge[]): string => edges.map((e) => `${e.id}:${e.value}:${e.count}`).join('|')

/**
 * The directed search first (the way money moved); when it finds nothing, one that ignores
 * direction, and the answer says so — a counterparty two hops away is rarely reached in the
 * direction asked (docs/decisions/path-search-fallback.md).
 */
export function answerPath(edges: readonly FlowEdge[], query: PathQuery): PathAnswer {
  const base = { query: { ...query }, graphKey: graphKey(edges) }
  const { from, to, maxHops } = query
  const first = findPath(edges, from, to, { maxHops, undirected: query.undirected })
  if (first || query.undirected) return { ...base, path: first, fellBack: false }
  const either = findPath(edges, from, to, { maxHops, undirected: true })
  return { ...base, path: either, fellBack: either !== null }
}

/** Whether an answer no longer fits the form or the graph: shown as stale, never as current. */
export function isStale(answer: PathAnswer, query: PathQuery, edges: readonly FlowEdge[]): boolean {
  const q = answer.query
  return (
    q.from.toLowerCase() !== query.from.toLowerCase() ||
    q.to.toLowerCase() !== query.to.toLowerCase() ||
    q.maxHops !== query.maxHops ||
    q.undirected !== query.undirected ||
    answer.graphKey !== graphKey(edges)
  )
}
