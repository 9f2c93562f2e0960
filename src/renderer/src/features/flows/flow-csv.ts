import { formatUnits } from '@shared/domain/amount'
import { formatCsv } from '@shared/csv'
import { nodeName, type FlowEdge, type FlowNode } from './flow-graph'

export const EDGE_COLUMNS = [
  'from',
  'from_name',
  'to',
  'to_name',
  'asset',
  'symbol',
  'value_raw',
  'amount',
  'movements',
  'first_utc',
  'last_utc',
]

const iso = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString())

/** The edges shown, as CSV through the one CSV module (formula-safe cells): raw and exact amounts. */
export function edgesCsv(edges: readonly FlowEdge[], nodes: ReadonlyMap<string, FlowNode>): string {
  const name = (a: string): string => {
    const n = nodes.get(a)
    return n ? (nodeName(n) ?? '') : ''
  }
  return formatCsv([
    EDGE_COLUMNS,
    ...edges.map((e) => [
      e.from,
      name(e.from),
      e.to,
      name(e.to),
      e.asset,
      e.symbol,
      e.value.toString(),
      formatUnits(e.value, e.decimals ?? 0, { group: false }),
      e.count,
      iso(e.firstMs),
      iso(e.lastMs),
    ]),
  ])
}

/** One amount as it is read everywhere in the graph: exact, with its symbol. */
export function amountText(e: FlowEdge): string {
  return `${formatUnits(e.value, e.decimals ?? 0)} ${e.symbol}`
}
