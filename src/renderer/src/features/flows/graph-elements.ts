import { shortHash } from '@shared/domain/short-hash'
import type { FlowEdge, FlowNode } from './flow-graph'
import { nodeName } from './flow-graph'
import { amountText } from './flow-csv'

/**
 * What the canvas draws, as plain data (cytoscape's element JSON), so the view, its tests and
 * the bench build the same elements. Edges between the same two addresses in several assets
 * stay separate: the table and the tooltip name each asset.
 */
export interface GraphNodeData {
  id: string
  label: string
  hop: number
  /** 'root' | 'loaded' | 'hub' | 'contract' | 'plain': picks the node's look. */
  kind: 'root' | 'loaded' | 'hub' | 'contract' | 'plain'
  /** Counterparties folded into this hub. */
  folded: number
}

export interface GraphEdgeData {
  id: string
  source: string
  target: string
  /** 1-6: thicker for more movements. */
  weight: number
  onPath: boolean
  /** "1.5 coin · 2026-01-02 to 2026-01-05": what the edge label shows when details are on. */
  detail: string
  /** The first movement's time (ms), for the time window; null when unknown. */
  firstMs: number | null
}

export function nodeData(
  address: string,
  hop: number,
  node: FlowNode | null,
  opts: { root: boolean; loaded: boolean; folded: number },
): GraphNodeData {
  const name = node ? nodeName(node) : null
  const base = name ? `${name.length > 24 ? `${name.slice(0, 23)}…` : name}` : shortHash(address)
  const label = opts.folded > 0 ? `${base} (+${opts.folded})` : base
  const kind = opts.root
    ? 'root'
    : opts.loaded
      ? 'loaded'
      : opts.folded > 0 || node?.isToken
        ? 'hub'
        : node?.isContract
          ? 'contract'
          : 'plain'
  return { id: address, label, hop, kind, folded: opts.folded }
}

export function edgeData(e: FlowEdge, onPath: ReadonlySet<string>): GraphEdgeData {
  return {
    id: e.id,
    source: e.from,
    target: e.to,
    weight: Math.min(6, 1 + Math.floor(Math.log2(e.count))),
    onPath: onPath.has(e.id),
    detail: `${amountText(e)}${e.internal > 0 ? ' (incl. internal)' : ''} · ${dayOf(e.firstMs)}${e.lastMs !== e.firstMs ? ` to ${dayOf(e.lastMs)}` : ''}`,
    firstMs: e.firstMs,
  }
}

const dayOf = (ms: number | null): string => (ms === null ? 'date unknown' : new Date(ms).toISOString().slice(0, 10))

/** Colours from the page's own CSS variables, so light and dark themes both read. */
export interface GraphColours {
  text: string
  surface: string
  border: string
  accent: string
  muted: string
  warn: string
  out: string
}

export function graphStyle(c: GraphColours): unknown[] {
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        'font-size': 10,
        color: c.text,
        'text-valign': 'bottom',
        'text-margin-y': 3,
        'min-zoomed-font-size': 7,
        // Labels sit over edges: a backing in the page's colour keeps them readable.
        'text-background-color': c.surface,
        'text-background-opacity': 0.85,
        'text-background-padding': '1px',
        'background-color': c.muted,
        'border-color': c.surface,
        'border-width': 1,
        width: 14,
        height: 14,
      },
    },
    { selector: 'node[kind = "root"]', style: { 'background-color': c.accent, width: 24, height: 24 } },
    { selector: 'node[kind = "loaded"]', style: { 'background-color': c.accent, width: 18, height: 18 } },
    { selector: 'node[kind = "hub"]', style: { shape: 'diamond', 'background-color': c.warn, width: 22, height: 22 } },
    { selector: 'node[kind = "contract"]', style: { shape: 'round-rectangle' } },
    { selector: 'node:selected', style: { 'border-color': c.out, 'border-width': 3 } },
    {
      selector: 'edge',
      style: {
        width: 'data(weight)',
        'line-color': c.border,
        'target-arrow-color': c.border,
        'target-arrow-shape': 'triangle',
        'curve-style': 'straight',
        'arrow-scale': 0.7,
        opacity: 0.55,
      },
    },
    {
      selector: 'edge.detailed',
      style: {
        label: 'data(detail)',
        'font-size': 8,
        color: c.text,
        'text-rotation': 'autorotate',
        'text-background-color': c.surface,
        'text-background-opacity': 0.85,
        'min-zoomed-font-size': 6,
      },
    },
    { selector: '.outside-window', style: { display: 'none' } },
    {
      selector: 'edge[?onPath]',
      style: { 'line-color': c.out, 'target-arrow-color': c.out, width: 4, opacity: 1, 'z-index': 9 },
    },
  ]
}

/** Rings by hop around the root: the layout reads as "how far the money went". */
export const LAYOUT = {
  name: 'concentric',
  concentric: (n: { data: (k: string) => number }) => 100 - n.data('hop'),
  levelWidth: () => 1,
  minNodeSpacing: 40,
  // Spacing counts each node's label, so labels do not overlap at the zoom the graph opens at.
  nodeDimensionsIncludeLabels: true,
  avoidOverlap: true,
  animate: false,
} as const
