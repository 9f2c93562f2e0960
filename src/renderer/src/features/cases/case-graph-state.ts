import type { GraphState } from '@shared/domain/case-file'
import type { FlowDirection } from '../flows'

/** What the flow graph's store holds that a case keeps (the flows store's own fields). */
export interface FlowsSettings {
  hops: number
  direction: FlowDirection
  asset: string | null
  fromDate: string
  toDate: string
  expanded: readonly string[]
  selected: string | null
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
    version: 1,
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
  }
}
