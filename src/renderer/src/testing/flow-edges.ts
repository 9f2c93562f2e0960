import { NATIVE } from '@shared/domain/movements'
import type { FlowEdge, FlowNode } from '../features/flows/flow-graph'

/** Test support: an address from a small number, and a native edge between two of them. */
export const at = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`

export function edgeOf(from: number, to: number, value = 1n, decimals: number | null = 18): FlowEdge {
  const [f, t] = [at(from), at(to)]
  return {
    id: `${f}>${t}>${NATIVE}`,
    from: f,
    to: t,
    asset: NATIVE,
    symbol: 'coin',
    decimals,
    value,
    count: 1,
    firstMs: null,
    lastMs: null,
    internal: 0,
  }
}

export function nodesOf(edges: readonly FlowEdge[], tokens: readonly string[] = []): Map<string, FlowNode> {
  const out = new Map<string, FlowNode>()
  for (const e of edges)
    for (const a of [e.from, e.to])
      out.set(a, {
        address: a,
        label: null,
        watchLabel: null,
        ens: null,
        tags: [],
        isContract: false,
        isVerified: false,
        isToken: tokens.includes(a),
      })
  return out
}
