import type { GraphState, PathHop, PathRecord } from '@shared/domain/case-file'
import { CASE_LIMITS } from '@shared/domain/case-limits'
import { movementsOf } from '@shared/domain/movements'
import type { Transaction } from '@shared/domain/service-schemas'
import type { FlowDirection, FlowEdge } from '../flows'

/** What the flow graph's store holds that a case keeps (the flows store's own fields). */
export interface FlowsSettings {
  hops: number
  direction: FlowDirection
  asset: string | null
  fromDate: string
  toDate: string
  expanded: readonly string[]
  selected: string | null
  positions: ReadonlyMap<string, { x: number; y: number }>
}

const dayOf = (iso: string | null): string => (iso ? iso.slice(0, 10) : '')
const isoOf = (day: string, end: boolean): string | null =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : null

/**
 * The graph as a case keeps it, for one network. The minimum amount is not kept: the graph
 * reads it in whole units of each edge's own asset, the case in smallest units of one asset,
 * and a wrong conversion would hide flows silently; the graph opens without a minimum.
 */
export function toGraphState(network: string, s: FlowsSettings, maxExpanded: number): GraphState {
  return {
    version: 2,
    expanded: s.expanded.slice(0, maxExpanded).map((address) => ({ address, network })),
    hopLimit: s.hops,
    filters: {
      asset: s.asset,
      minAmount: null,
      from: isoOf(s.fromDate, false),
      to: isoOf(s.toDate, true),
      direction: s.direction,
    },
    selected: s.selected ? { address: s.selected, network } : null,
    positions: [...s.positions]
      .slice(0, maxExpanded * 4)
      .map(([address, at]) => ({ address, network, x: at.x, y: at.y })),
  }
}

/** The settings a case's graph state gives the flow graph rooted on `network`. */
export function fromGraphState(network: string, g: GraphState): FlowsSettings {
  return {
    hops: g.hopLimit,
    direction: g.filters.direction,
    asset: g.filters.asset,
    fromDate: dayOf(g.filters.from),
    toDate: dayOf(g.filters.to),
    expanded: g.expanded.filter((n) => n.network === network).map((n) => n.address),
    selected: g.selected?.network === network ? g.selected.address : null,
    positions: new Map(g.positions.filter((p) => p.network === network).map((p) => [p.address, { x: p.x, y: p.y }])),
  }
}

/** The transactions behind one hop: those that moved its asset from its sender to its receiver. */
function hopHashes(transactions: readonly Transaction[], e: FlowEdge): string[] {
  const out = new Set<string>()
  for (const tx of transactions) {
    if (out.size >= CASE_LIMITS.pathHashes) break
    const moved = movementsOf(tx).movements.some(
      (m) => m.from === e.from && m.to === e.to && m.asset === e.asset && m.value > 0n,
    )
    if (moved) out.add(tx.hash)
  }
  return [...out]
}

/** A path question and its answer as a case keeps it. */
export function pathRecord(q: {
  network: string
  from: string
  to: string
  maxHops: number
  undirected: boolean
  askedAt: string
  answer: readonly FlowEdge[] | null
  transactions: readonly Transaction[]
}): PathRecord {
  const hop = (e: FlowEdge): PathHop => ({
    from: e.from,
    to: e.to,
    asset: e.asset.slice(0, 64),
    symbol: e.symbol.slice(0, 64),
    decimals: e.decimals,
    value: e.value.toString(),
    count: e.count,
    firstMs: e.firstMs,
    lastMs: e.lastMs,
    hashes: hopHashes(q.transactions, e),
  })
  return {
    network: q.network,
    from: q.from.toLowerCase(),
    to: q.to.toLowerCase(),
    maxHops: Math.min(10, Math.max(1, Math.round(q.maxHops))),
    undirected: q.undirected,
    askedAt: q.askedAt,
    answer: q.answer ? q.answer.slice(0, 10).map(hop) : null,
  }
}
